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
if tests/hooks/commit-msg "$WORK/72" && ! tests/hooks/commit-msg "$WORK/73" 2>/dev/null; then
	pass "the commit-msg hook takes 72 characters and refuses 73"
else
	fail "the commit-msg hook holds subjects to 72 characters" "it does not"
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

n=0 long=''
while IFS= read -r line; do
	n=$((n + 1))
	subject=${line#* }
	length=$(printf '%s' "$subject" | wc -m)
	test "$length" -gt 72 && long="$long
    ${line%% *} ($length characters): $subject"
done < <(git log --no-merges --format='%h %s' "$range")
if test -z "$long"; then
	pass "commit subjects: $n since $(git rev-parse --short "$base"), none over 72 characters"
else
	fail "commit subjects: some are over 72 characters" "$long"
fi
summary
