#!/bin/sh
# tests/run.sh - runs every test suite and prints one summary line.
#
#   CARC=build/carc BUILD=build sh tests/run.sh UNIT_BINARIES...
#
# Unit tests are cmocka binaries; each test case counts once. The golden,
# diagnostic and property suites are shell scripts under tests/ that print
# their own "N passed, N failed" line, which is added in. Skipped tests
# are counted too: a cmocka test that called skip(), a suite's ", N
# skipped" when its line has one, and otherwise each line a suite starts
# with "skip:", "skipped:" or "SKIP " (its reason). Every reason is listed
# at the end, then "N passed, N failed, N skipped" alone on a line (the
# line CI reads); the status is non-zero when anything failed.
passed=0
failed=0
skipped=0
log=${BUILD:-build}/test-logs
mkdir -p "$log"
reasons=$log/skipped.txt
: >"$reasons"

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
	s=$(grep -o 'SKIPPED \] [0-9]* test' "$out" | grep -o '[0-9][0-9]*' | tail -n 1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	skipped=$((skipped + ${s:-0}))
	# each skipped case, with the reason it printed just before (the line
	# before its "[  SKIPPED ] name", when that is not cmocka's own)
	awk -v unit="$name" '
		/^\[  SKIPPED \] [0-9]+ test/ { exit }
		/^\[  SKIPPED \] / { t = $0; sub(/^\[  SKIPPED \] /, "", t)
			why = (prev ~ /^\[/ || prev == "") ? "(no reason printed)" : prev
			print unit ": " t ": " why }
		{ prev = $0 }' "$out" >>"$reasons"
	if [ $status -ne 0 ]; then
		[ -z "$f" ] && failed=$((failed + 1))
		echo "FAIL $name (see $out)"
		grep -E '\[  (FAILED|ERROR)|error:|Assert|ERROR' "$out" | head -n 20
	else
		echo "ok   $name: ${p:-0} tests${s:+, $s skipped}"
	fi
done

for suite in tests/layers/run.sh tests/golden/run.sh tests/diag/run.sh tests/notation/run.sh tests/property/run.sh tests/rules/run.sh tests/river/run.sh tests/oracle/run.sh tests/solo/run.sh tests/pictures/run.sh tests/hunters/run.sh tests/abbot/run.sh tests/inns/run.sh tests/traders/run.sh tests/stats/run.sh tests/pair/run.sh tests/man/run.sh tests/hostile/run.sh tests/bga/run.sh tests/projected/run.sh tests/archive/run.sh tests/jobs/run.sh tests/tournament/run.sh tests/browser/run.sh tests/writers/run.sh tests/api/run.sh tests/python/run.sh tests/recorder/run.sh tests/fresh/deps_stubs.sh tests/fresh/examples.sh; do
	[ -f "$suite" ] || continue
	out="$log/$(echo "$suite" | tr / _).log"
	sh "$suite" >"$out" 2>&1
	status=$?
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
	add_counts "$line"
	grep -E '^(skip:|skipped:|SKIP )' "$out" | sed "s|^|$suite: |" >>"$reasons"
	s=$(printf '%s\n' "$line" | grep -o '[0-9][0-9]* skipped' | cut -d' ' -f1)
	[ -n "$s" ] || s=$(grep -c -E '^(skip:|skipped:|SKIP )' "$out")
	skipped=$((skipped + s))
	if [ $status -ne 0 ]; then
		[ -z "$line" ] && failed=$((failed + 1))
		echo "FAIL $suite: $line (see $out)"
		grep -E '^FAIL' "$out" | head -n 30
	else
		echo "ok   $suite: $line"
	fi
done

if [ "$skipped" -gt 0 ] || [ -s "$reasons" ]; then
	echo "skipped, and why (also in $reasons):"
	sed 's/^/     /' "$reasons"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
