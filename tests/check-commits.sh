#!/bin/bash
# Commit subjects of 72 characters or fewer (HACKING.md), over the commits since the last
# release tag, or, before the first tag, since the commit that brought this rule. The
# commit-msg hook (tests/hooks/commit-msg, make hooks) holds it as each commit is made; this
# holds it for commits made without the hook. Skipped (77) outside a git checkout, or in a
# shallow clone without the base commit.
set -u

. "$(dirname "$0")/lib.sh"

cd "$SRCDIR" || exit 1
# the hook itself: 72 characters pass, 73 do not, comments and blank lines before are skipped
WORK=$(make_workdir commits) || exit 1
printf '# a comment\n\n%s\n\nbody\n' "$(printf 'a%.0s' {1..72})" >"$WORK/72"
printf '%s\n' "$(printf 'a%.0s' {1..73})" >"$WORK/73"
if ! tests/hooks/commit-msg "$WORK/72" || tests/hooks/commit-msg "$WORK/73" 2>/dev/null; then
	echo "FAIL commits: tests/hooks/commit-msg does not hold subjects to 72 characters"
	exit 1
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "SKIP commits: '$SRCDIR' is not a git checkout"
	exit 77
fi
if base=$(git describe --tags --abbrev=0 2>/dev/null); then
	range="$base..HEAD"
else
	# the commit that brought the rule is held to it too
	base=$(git log --diff-filter=A --format=%H -- tests/hooks/commit-msg | tail -n 1)
	range="$base^..HEAD"
fi
if test -z "$base" || ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "SKIP commits: no base to count from (a shallow clone?)"
	exit 77
fi
git cat-file -e "$base^" 2>/dev/null || range=HEAD

fail=0 n=0
while IFS= read -r line; do
	n=$((n + 1))
	hash=${line%% *}
	subject=${line#* }
	length=$(printf '%s' "$subject" | wc -m)
	if test "$length" -gt 72; then
		echo "FAIL commits: $hash has a subject of $length characters: $subject"
		fail=1
	fi
done < <(git log --no-merges --format='%h %s' "$range")
test "$fail" = 0 && echo "PASS commits: $n subjects since $(git rev-parse --short "$base"), none over 72 characters"
exit "$fail"
