#!/bin/sh
# tests/golden/run.sh - golden tests of the command line.
#
# Each folder under tests/golden/ is one test:
#   cmd        one shell command line; $CARC is the carc binary, and it runs
#              in the test's folder (so inputs are named relative to it)
#   stdin      optional: fed to the command's standard input
#   stdout     the exact expected standard output
#   stderr     the exact expected standard error (optional: when absent,
#              standard error is not compared)
#   status     the expected exit status (a number; 0 when absent)
# Every test asserts its status and stdout; CARC_UPDATE=1 rewrites the
# expected files from what the command prints (review the diff!).
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export CARC NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "$top"/tests/golden/*/; do
	[ -f "$dir/cmd" ] || continue
	name=$(basename "$dir")
	want_status=0
	[ -f "$dir/status" ] && want_status=$(cat "$dir/status")
	if [ -f "$dir/stdin" ]; then in=$dir/stdin; else in=/dev/null; fi
	(cd "$dir" && sh ./cmd <"$in" >"$tmp/out" 2>"$tmp/err")
	status=$?
	if [ "${CARC_UPDATE:-}" = 1 ]; then
		cp "$tmp/out" "$dir/stdout"
		[ -f "$dir/stderr" ] && cp "$tmp/err" "$dir/stderr"
		echo "$status" >"$dir/status"
	fi
	ok=1
	if [ "$status" != "$want_status" ]; then
		echo "FAIL $name: exit status $status, expected $want_status"
		ok=0
	fi
	if ! cmp -s "$tmp/out" "$dir/stdout"; then
		echo "FAIL $name: stdout differs"
		diff -u "$dir/stdout" "$tmp/out" | head -n 20
		ok=0
	fi
	if [ -f "$dir/stderr" ] && ! cmp -s "$tmp/err" "$dir/stderr"; then
		echo "FAIL $name: stderr differs"
		diff -u "$dir/stderr" "$tmp/err" | head -n 20
		ok=0
	fi
	if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
