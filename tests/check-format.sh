#!/bin/bash
# make check-format: the C sources against .clang-format (clang-format --dry-run). With file
# arguments, those files only (for example the ones a branch changed:
# tests/check-format.sh $(git diff --name-only main -- '*.c' '*.h')); else every C source
# and header of the tree. Prints `ok FILE` or `FAIL FILE: ...` per file.
# Exit status: 0 all formatted, 1 some are not, 77 skipped (no clang-format).
set -u

. "$(dirname "$0")/lib.sh"

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
	echo "skipped: '$CLANG_FORMAT' not found (install the Debian package 'clang-format')"
	exit 77
fi

if test $# -gt 0; then
	files=("$@")
else
	cd "$SRCDIR" || exit 1
	# the sources of the tree, not what a build or a test left in it: git's list where there
	# is one; else every C file but SPIN's pan/, the per-library objects, test output,
	# config.h and the report template made into C, wherever a build put them
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		mapfile -t files < <(git ls-files '*.c' '*.h' | LC_ALL=C sort)
	else
		mapfile -t files < <(find . \( -name pan -o -name lib -o -name out \) -type d -prune \
			-o \( -name '*.c' -o -name '*.h' \) ! -name config.h ! -name '*.gen.c' -type f \
			-print | sed 's|^\./||' | LC_ALL=C sort)
	fi
fi
WORK=$(make_workdir format) || exit 1
trap 'rm -rf "$WORK"' EXIT

for f in "${files[@]}"; do
	case $f in *.c | *.h) ;; *) continue ;; esac
	test -f "$f" || continue
	log=$WORK/$(echo "$f" | tr / _).log
	if "$CLANG_FORMAT" --style=file --dry-run --Werror "$f" >"$log" 2>&1; then
		pass "$f"
	else
		n=$(grep -c 'code should be clang-formatted' "$log")
		fail "$f" "differs from .clang-format at $n place(s): '$CLANG_FORMAT $f | diff $f -'" \
			"shows them, '$CLANG_FORMAT -i $f' fixes them"
	fi
done
summary
