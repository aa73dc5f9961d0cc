#!/bin/sh
# tests/run.sh - runs every test suite and prints one summary line.
#
#   CARC=build/carc BUILD=build sh tests/run.sh UNIT_BINARIES...
#
# Unit tests are cmocka binaries; each test case counts once. The golden,
# diagnostic and property suites are shell scripts under tests/ that print
# their own "N passed, N failed" line, which is added in. Ends with
# "N passed, N failed" and a non-zero status when anything failed.
passed=0
failed=0
log=${BUILD:-build}/test-logs
mkdir -p "$log"

add_counts() { # from a line "N passed, N failed"
	p=$(printf '%s\n' "$1" | grep -o '[0-9][0-9]* passed' | tail -n 1 | cut -d' ' -f1)
	f=$(printf '%s\n' "$1" | grep -o '[0-9][0-9]* failed' | tail -n 1 | cut -d' ' -f1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
}

for t in "$@"; do
	name=$(basename "$t")
	out="$log/$name.log"
	"$t" >"$out" 2>&1
	status=$?
	p=$(grep -o 'PASSED  \] [0-9]*' "$out" | grep -o '[0-9]*$' | tail -n 1)
	f=$(grep -o 'FAILED  \] [0-9]*' "$out" | grep -o '[0-9]*$' | tail -n 1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	if [ $status -ne 0 ]; then
		[ -z "$f" ] && failed=$((failed + 1))
		echo "FAIL $name (see $out)"
		grep -E '\[  (FAILED|ERROR)|error:|Assert|ERROR' "$out" | head -n 20
	else
		echo "ok   $name: ${p:-0} tests"
	fi
done

for suite in tests/golden/run.sh tests/diag/run.sh tests/notation/run.sh tests/property/run.sh tests/rules/run.sh tests/river/run.sh tests/oracle/run.sh tests/solo/run.sh tests/pictures/run.sh tests/hunters/run.sh tests/abbot/run.sh tests/stats/run.sh tests/pair/run.sh tests/man/run.sh tests/hostile/run.sh tests/bga/run.sh tests/projected/run.sh tests/archive/run.sh tests/jobs/run.sh tests/tournament/run.sh tests/browser/run.sh tests/writers/run.sh; do
	[ -f "$suite" ] || continue
	out="$log/$(echo "$suite" | tr / _).log"
	sh "$suite" >"$out" 2>&1
	status=$?
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	add_counts "$line"
	if [ $status -ne 0 ]; then
		[ -z "$line" ] && failed=$((failed + 1))
		echo "FAIL $suite: $line (see $out)"
		grep -E '^FAIL' "$out" | head -n 30
	else
		echo "ok   $suite: $line"
		grep -E '^skip:' "$out" | head -n 3 | sed 's/^/     /'
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
