#!/bin/sh
# tests/hostile/run.sh - inputs from strangers: every other *.sh in this
# folder is a script that prints "N passed, N failed"; this adds them up.
#
#   CARC=build/carc sh tests/hostile/run.sh
dir=$(dirname "$0")
passed=0
failed=0
for t in "$dir"/*.sh; do
	[ "$(basename "$t")" = run.sh ] && continue
	out=$(sh "$t" 2>&1)
	status=$?
	printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed' 
	line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	p=$(printf '%s\n' "$line" | grep -o '[0-9]* passed' | cut -d' ' -f1)
	f=$(printf '%s\n' "$line" | grep -o '[0-9]* failed' | cut -d' ' -f1)
	if [ -z "$line" ] || { [ $status -ne 0 ] && [ "${f:-0}" -eq 0 ]; }; then
		echo "FAIL $t: exit $status without a count"
		f=$((${f:-0} + 1))
	fi
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
