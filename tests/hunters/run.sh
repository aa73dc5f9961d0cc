#!/bin/sh
# tests/hunters/run.sh - Hunters and Gatherers records, refereed by carc check.
#
# Each *.cgn in this folder is one test: a record whose comments work out
# its scores by hand, with claims and a [Result] that carc must agree with.
# Its opening comment lines say what carc check must report:
#   ; expect: clean             no diagnostic at all
#   ; expect: E402 E206 W001    exactly these codes, in this order
#   ; message: TEXT             (any number of them) text that must appear in
#                               the diagnostics, e.g. the reason given
# The exit status must be 0 when no error is expected and 1 otherwise.
# Records that need tiles the bundled set lacks (or a set small enough to
# finish the game) name one from tiles/ with [Tileset "tiles/NAME.yaml"];
# carc runs in this folder, so the paths are relative to it.
# Prints one line per failure and "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL $name: $*"
	ok=0
}

for rec in "$here"/*.cgn; do
	[ -f "$rec" ] || continue
	name=$(basename "$rec")
	ok=1
	want=$(sed -n 's/^; expect: *//p' "$rec" | head -n 1)
	if [ -z "$want" ]; then
		fail "no '; expect:' line"
		failed=$((failed + 1))
		continue
	fi
	[ "$want" = clean ] && want=
	(cd "$here" && "$CARC" check "$name" >"$tmp/out" 2>"$tmp/err")
	status=$?
	got=$(grep -o '^[^ ].*: \(error\|warning\)\[[EW][0-9]*\]' "$tmp/err" | sed 's/.*\[\([EW][0-9]*\)\]$/\1/' | tr '\n' ' ' | sed 's/ *$//')
	if [ "$got" != "$want" ]; then
		fail "reported '${got:-nothing}', expected '${want:-nothing}'"
		sed 's/^/    /' "$tmp/err" | head -n 30
	fi
	want_status=0
	case " $want " in *" E"*) want_status=1 ;; esac
	[ "$status" = "$want_status" ] || fail "exit status $status, expected $want_status"
	sed -n 's/^; message: *//p' "$rec" >"$tmp/messages"
	while IFS= read -r text; do
		grep -qF -- "$text" "$tmp/err" || fail "no diagnostic says '$text'"
	done <"$tmp/messages"
	if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
