#!/bin/sh
# plot-runs.sh FILE: an SVG plot, on standard output, of verify's runs against tasks from
# FILE's lines "NAME|WORKERS|TASKS|RUNS|SECONDS" (bench/run.sh verify): one line per name and
# workers, tasks on a log2 axis. Plain awk, so that the plot needs nothing installed.
exec awk -F'|' '
{
	k = $1 " (" $2 " workers)"
	if (!(k in seen)) { seen[k] = 1; key[++nk] = k }
	n[k]++; x[k, n[k]] = log($3) / log(2); y[k, n[k]] = $4
	if ($4 > ymax) ymax = $4
	if (!xmin || x[k, n[k]] < xmin) xmin = x[k, n[k]]
	if (x[k, n[k]] > xmax) xmax = x[k, n[k]]
}
END {
	W = 640; H = 400; L = 60; R = 260; T = 30; B = 50
	if (ymax < 1) ymax = 1
	if (xmax <= xmin) xmax = xmin + 1
	split("#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f", col, " ")
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" ", W + R, H
	printf "font-family=\"sans-serif\" font-size=\"12\">\n"
	printf "<text x=\"%d\" y=\"18\">verify: runs against tasks</text>\n", L
	printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, H - B, W, H - B
	printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L, H - B
	for (e = xmin; e <= xmax; e++) {
		px = L + (e - xmin) / (xmax - xmin) * (W - L)
		printf "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", px, H - B + 16, 2 ^ e
	}
	printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">tasks</text>\n", (L + W) / 2, H - 12
	for (i = 0; i <= 4; i++) {
		py = H - B - i / 4 * (H - B - T)
		printf "<text x=\"%d\" y=\"%.0f\" text-anchor=\"end\">%.0f</text>\n", L - 6, py + 4, ymax * i / 4
	}
	printf "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\">runs</text>\n", (T + H - B) / 2, (T + H - B) / 2
	for (j = 1; j <= nk; j++) {
		k = key[j]; c = col[(j - 1) % 8 + 1]; pts = ""
		for (i = 1; i <= n[k]; i++)
			pts = pts sprintf("%.1f,%.1f ", L + (x[k, i] - xmin) / (xmax - xmin) * (W - L),
					  H - B - y[k, i] / ymax * (H - B - T))
		printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", c, pts
		printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", W + 10, T + 16 * j, c, k
	}
	printf "</svg>\n"
}' "$1"
