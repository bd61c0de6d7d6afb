#!/bin/bash
# Every option of every command is the same in its --help and in the man page: the long
# options each command's usage names against the man page's SYNOPSIS for it, and those its
# --help describes (a line that starts with the option) against the OPTIONS entries that name
# the command. The README names no option (the man page and --help are the one place).
set -u

. "$(dirname "$0")/lib.sh"
require_mpiverify

MAN=$SRCDIR/doc/mpiverify.1
WORK=$(make_workdir options) || exit 1
COMMANDS="record check replay verify trace"

# man_synopsis: "COMMAND --option" for each long option of a SYNOPSIS line of the command.
man_synopsis()
{
	sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$MAN" | awk '
		/^\.B mpiverify [a-z]/ { split($0, w, " "); cmd = w[3] }
		{
			line = $0
			gsub(/\\-/, "-", line)
			while (match(line, /--[a-z][a-z0-9-]*/)) {
				print cmd, substr(line, RSTART, RLENGTH)
				line = substr(line, RSTART + RLENGTH)
			}
		}' | grep -E "^($(echo "$COMMANDS" | tr ' ' '|')) " | sort -u
}

# man_options: "COMMAND --option" for each OPTIONS entry and each command it names.
man_options()
{
	sed -n '/^\.SH OPTIONS/,/^\.SH EXIT/p' "$MAN" | awk '
		/^\.TP/ {
			getline opt
			gsub(/\\-/, "-", opt)
			cur = ""
			while (match(opt, /--[a-z][a-z0-9-]*/)) {
				cur = cur " " substr(opt, RSTART, RLENGTH)
				opt = substr(opt, RSTART + RLENGTH)
			}
			next
		}
		/^\.RB \( [a-z]/ && cur != "" {
			line = $0
			gsub(/[^a-z ]/, " ", line)
			m = split(line, c, " ")
			k = split(cur, o, " ")
			for (i = 1; i <= m; i++)
				if (c[i] ~ /^(record|check|replay|verify|trace)$/)
					for (j = 1; j <= k; j++)
						print c[i], o[j]
		}' | sort -u
}

help_of()
{
	"$MPIVERIFY" "$1" --help 2>&1
}

for c in $COMMANDS; do
	help_of "$c" | awk '/^$/ { exit } { print }' | grep -o -- '--[a-z][a-z0-9-]*' |
		sed "s/^/$c /"
done | sort -u >"$WORK/help-synopsis"
for c in $COMMANDS; do
	help_of "$c" | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' |
		grep -o -- '--[a-z0-9-]*' | grep -v '^--help$' | sed "s/^/$c /"
done | sort -u >"$WORK/help-options"
man_synopsis >"$WORK/man-synopsis"
man_options >"$WORK/man-options"

compare()
{
	local name=$1 a=$2 b=$3
	if ! test -s "$a" || ! test -s "$b"; then
		fail "$name" "nothing read ($(wc -l <"$a") and $(wc -l <"$b") lines)"
	elif diff "$a" "$b" >"$WORK/diff"; then
		pass "$name ($(wc -l <"$a") options)"
	else
		fail "$name" "they differ ('<' --help, '>' the man page)" "$WORK/diff"
	fi
}
compare "usage lines against the man page's SYNOPSIS" "$WORK/help-synopsis" "$WORK/man-synopsis"
compare "--help's options against the man page's OPTIONS" "$WORK/help-options" \
	"$WORK/man-options"
# the README's options (few: the man page and --help are their place) are options that exist
{ cut -d' ' -f2 "$WORK/help-options" "$WORK/help-synopsis"; echo --help; } | sort -u \
	>"$WORK/all-options"
grep -o -- '--[a-z][a-z0-9-]*' "$SRCDIR/README.md" | sort -u >"$WORK/readme-options"
unknown=$(comm -23 "$WORK/readme-options" "$WORK/all-options" | tr '\n' ' ')
if test -z "$unknown"; then
	pass "README.md's options are options of a command ($(wc -l <"$WORK/readme-options"))"
else
	fail "README.md's options are options of a command" "unknown: $unknown"
fi
summary
