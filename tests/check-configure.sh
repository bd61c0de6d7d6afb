#!/bin/bash
# make check-configure: the committed configure and config.h.in must be exactly what autoconf
# and autoheader make of configure.ac. Both are regenerated in a scratch copy under tests/out/
# and compared with the committed files.
# Usage: tests/check-configure.sh [AUTOCONF]   (default: autoconf from PATH)
# Exit status: 0 identical, 1 different, 77 skipped (autoconf or autoheader missing).
set -u

. "$(dirname "$0")/lib.sh"

AUTOCONF=${1:-}
test -n "$AUTOCONF" || AUTOCONF=$(command -v autoconf || true)
if test -z "$AUTOCONF" || ! command -v "$AUTOCONF" >/dev/null 2>&1; then
	echo "skipped: autoconf not found (install the Debian package 'autoconf')"
	exit 77
fi
# autoheader comes with autoconf: take the one beside it
AUTOHEADER=$(dirname "$(command -v "$AUTOCONF")")/autoheader
test -x "$AUTOHEADER" || AUTOHEADER=$(command -v autoheader || true)
if test -z "$AUTOHEADER"; then
	echo "skipped: autoheader not found (install the Debian package 'autoconf')"
	exit 77
fi

WORK=$(make_workdir configure) || exit 1
trap 'rm -rf "$WORK"' EXIT

# the inputs autoconf reads; nothing generated, so no stale autom4te.cache is used
cp "$SRCDIR/configure.ac" "$WORK/"
for f in aclocal.m4 acinclude.m4 m4; do
	test -e "$SRCDIR/$f" && cp -r "$SRCDIR/$f" "$WORK/"
done

log=$WORK/autoconf.log
if ! (cd "$WORK" && "$AUTOCONF" && "$AUTOHEADER") >"$log" 2>&1; then
	fail "regenerate" "'$AUTOCONF' or '$AUTOHEADER' failed" "$log"
	summary
	exit 1
fi
pass "regenerate with $("$AUTOCONF" --version | head -n 1)"

for f in configure config.h.in; do
	if ! test -f "$SRCDIR/$f"; then
		fail "$f" "'$f' is not in the source tree: run autoconf and autoheader, commit it"
	elif diff -u "$SRCDIR/$f" "$WORK/$f" >"$WORK/$f.diff"; then
		pass "$f is up to date"
	else
		why="differs from what autoconf makes of configure.ac"
		fail "$f" "$why (run autoconf && autoheader, commit the result)" "$WORK/$f.diff"
	fi
done
summary
