#!/bin/sh
# tests/man/run.sh - the man pages render cleanly and match the commands.
#
# Every page under man/ must render without a warning (mandoc -Tlint when
# mandoc is installed, else groff -man -ww). Every command in `carc --help`
# must have a page man/carc-COMMAND.1 listed in carc(1), and every long
# option that `carc COMMAND --help` prints must appear in that page, so the
# documentation cannot silently fall behind the code. Prints
# "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-build/carc}
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

for page in man/*.1 man/*.5; do
	if command -v mandoc >/dev/null 2>&1; then
		out=$(mandoc -Tlint -W warning "$page" 2>&1)
	elif command -v groff >/dev/null 2>&1; then
		out=$(groff -man -ww -z "$page" 2>&1)
	else
		echo "skip: neither mandoc nor groff to lint $page"
		continue
	fi
	if [ -z "$out" ]; then ok; else bad "$page renders with warnings: $out"; fi
done

commands=$("$CARC" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ -n "$commands" ] || bad "carc --help lists no commands"
for cmd in $commands; do
	page=man/carc-$cmd.1
	if [ ! -f "$page" ]; then
		bad "carc $cmd has no page $page"
		continue
	fi
	ok
	if grep -q "carc\\\\-$cmd (1)" man/carc.1; then ok; else bad "carc(1) does not refer to carc-$cmd(1)"; fi
	# long options from --help, e.g. "  -f, --format FORMAT" or "      --final"
	for opt in $("$CARC" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		# in roff a dash is written \- ; accept both
		roff=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		name=${opt#--}
		# man macros write \-\-name; mdoc writes Fl Fl name
		if grep -q -- "$roff" "$page" || grep -q -- "$opt" "$page" || grep -q -- "Fl Fl $name" "$page"; then
			ok
		else
			bad "$page does not document $opt (from carc $cmd --help)"
		fi
	done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
