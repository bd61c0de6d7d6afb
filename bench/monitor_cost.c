/* The hang monitor's cost per period against ranks (bench/run.sh, part "monitor"): a
 * synthetic status directory of NRANKS ranks' files (base/status.h), read the way the
 * monitor reads it on one machine (every rank's file, every period: jobs/monitor.c), against
 * the work of a job spread over nodes of PER_NODE ranks each (jobs/nodes.h): one node's helper
 * reading its own ranks' files and summing them up, and mpiverify reading one summary line
 * per node and taking the deadlock rule on them. Prints one line:
 *	NRANKS NODES per_rank_us helper_us summaries_us
 * each the mean wall time of one period, in microseconds, over PERIODS periods. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "monitor.h"
#include "nodes.h"
#include "status.h"
#include "status_file.h"

static void write_status(const char *dir, int rank, int size)
{
	struct mpiv_status st;
	char path[4200];
	int fd;

	memset(&st, 0, sizeof(st));
	st.magic = MPIV_STATUS_MAGIC;
	st.version = MPIV_STATUS_VERSION;
	st.rank = rank;
	st.size = size;
	st.state = MPIV_ST_IN_CALL;
	st.call = 1;
	st.progress = 100;
	st.beat = 7;
	snprintf(st.host, sizeof(st.host), "node%d", rank);
	snprintf(path, sizeof(path), "%s/" MPIV_STATUS_FILE, dir, rank);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, &st, sizeof(st)) != (ssize_t)sizeof(st)) {
		perror(path);
		exit(1);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	int nranks, per_node, periods, nnodes, r, p, i;
	char all[4096], node[4096], line[256];
	struct monitor_rank *ranks, **mine;
	struct node_summary *sums;
	struct node_watch w;
	struct monitor_result res;
	struct mpiv_status st;
	double t0, a, b, c, t;

	if (argc != 5) {
		fprintf(stderr, "usage: monitor_cost DIR NRANKS PER_NODE PERIODS\n");
		return 2;
	}
	nranks = atoi(argv[2]);
	per_node = atoi(argv[3]);
	periods = atoi(argv[4]);
	if (nranks < 1 || per_node < 1 || per_node > nranks || periods < 1)
		return 2;
	nnodes = (nranks + per_node - 1) / per_node;
	snprintf(all, sizeof(all), "%s/all", argv[1]);
	snprintf(node, sizeof(node), "%s/node", argv[1]);
	mkdir(argv[1], 0777);
	mkdir(all, 0777);
	mkdir(node, 0777);
	for (r = 0; r < nranks; r++)
		write_status(all, r, nranks);
	for (r = 0; r < per_node; r++)
		write_status(node, r, nranks);
	ranks = calloc((size_t)nranks, sizeof(*ranks));
	mine = calloc((size_t)per_node, sizeof(*mine));
	sums = calloc((size_t)nnodes, sizeof(*sums));
	if (!ranks || !mine || !sums)
		return 1;

	/* one machine: every rank's file, every period */
	t0 = mpiv_now();
	for (p = 0; p < periods; p++)
		for (r = 0; r < nranks; r++)
			if (status_file_read(all, r, &st) == 0)
				monitor_rank_update(&ranks[r], &st, t0);
	a = (mpiv_now() - t0) / periods;

	/* one node's helper: its directory listed, its ranks' files read, summed up */
	t0 = mpiv_now();
	for (p = 0; p < periods; p++) {
		struct node_summary s;
		DIR *d = opendir(node);
		struct dirent *de;

		i = 0;
		while (d && (de = readdir(d)))
			if (sscanf(de->d_name, "rank-%d.status", &r) == 1 && r < per_node &&
			    status_file_read(node, r, &st) == 0) {
				monitor_rank_update(&ranks[r], &st, t0);
				mine[i++] = &ranks[r];
			}
		if (d)
			closedir(d);
		memset(&s, 0, sizeof(s));
		monitor_summarise(mine, i, mpiv_now(), 30, &s);
		node_summary_format(&s, line, sizeof(line));
	}
	b = (mpiv_now() - t0) / periods;

	/* mpiverify: a summary line per node, and the rule on them */
	memset(&w, 0, sizeof(w));
	w.nodes = sums;
	w.nnodes = nnodes;
	w.warned = calloc((size_t)nnodes, 1);
	t0 = mpiv_now();
	for (p = 0; p < periods; p++) {
		t = mpiv_now();
		for (i = 0; i < nnodes; i++) {
			snprintf(line, sizeof(line), "node n%d %d %d 0 %d 0 0 0 0 0 %.3f %d", i,
				 nranks, i < nranks / per_node ? per_node : nranks % per_node,
				 i < nranks / per_node ? per_node : nranks % per_node, 1.0, 100);
			if (node_summary_parse(line, &sums[i]) == 0)
				sums[i].received = t;
		}
		memset(&res, 0, sizeof(res));
		monitor_nodes_deadlocked(&w, &res, t, 30);
	}
	c = (mpiv_now() - t0) / periods;
	printf("%d %d %.1f %.1f %.1f\n", nranks, nnodes, a * 1e6, b * 1e6, c * 1e6);
	free(w.warned);
	free(ranks);
	free(mine);
	free(sums);
	return 0;
}
