# tests/lib.sh - what the suites of hand-worked records share; sourced, not
# run, by tests/abbot, tests/inns, tests/rules and tests/traders:
#
#   top=$(cd "$(dirname "$0")/../.." && pwd)
#   . "$top/tests/lib.sh"
#   suite_begin NAME
#
# suite_begin makes $CARC absolute (default build/carc, from $top), turns
# colour off, names the scratch file $tmp (and $tmp.*, removed on exit) and
# zeroes the counts passed, failed and skipped. fail WHAT WHY counts a
# failure and shows the first lines of $tmp, where each check leaves the
# output it judged.

suite_begin() {
	CARC=${CARC:-build/carc}
	case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
	export NO_COLOR=1
	tmp=${TMPDIR:-/tmp}/carc-$1.$$
	trap 'rm -f "$tmp" "$tmp".*' EXIT INT TERM
	passed=0
	failed=0
	skipped=0
}

fail() {
	echo "FAIL $1: $2"
	sed 's/^/    /' "$tmp" | head -n 12
	failed=$((failed + 1))
}

# others: the diagnostics in $tmp other than W001 (the unfinished-game
# warning, which a record that stops early earns)
others() {
	grep -E ':[0-9]+:[0-9]+: (error|warning|note)\[' "$tmp" | grep -v 'warning\[W001\]'
}

# check_legal FILE: a legal record checks with exit 0 and no diagnostic but
# W001, and so does its form by carc fmt, which carc fmt --check finds
# canonical.
check_legal() {
	"$CARC" check "$1" >/dev/null 2>"$tmp"
	status=$?
	if [ $status -ne 0 ]; then
		fail "$1" "exit status $status, expected 0"
	elif [ -n "$(others)" ]; then
		fail "$1" "unexpected diagnostics"
	elif ! "$CARC" fmt "$1" >"$tmp.cgn" 2>"$tmp" || ! "$CARC" check "$tmp.cgn" >/dev/null 2>"$tmp" ||
		[ -n "$(others)" ]; then
		fail "$1" "its form by carc fmt does not check the same"
	elif ! "$CARC" fmt --check "$tmp.cgn" >"$tmp" 2>&1; then
		fail "$1" "carc fmt's form is not canonical"
	else
		passed=$((passed + 1))
	fi
}

# check_illegal FILE: an illegal record says where it breaks the rules in a
# comment line "; expect: CODE at line N" or "; expect: CODE at LINE:COL";
# carc check exits 1 and its first error is that code there.
check_illegal() {
	where=$(sed -n 's/^; expect: \(E[0-9][0-9]*\) at line \([0-9][0-9]*\).*/\1 \2/p' "$1" | head -n 1)
	if [ -n "$where" ]; then
		code=${where% *} shown="line ${where#* }" at="${where#* }:[0-9]*"
	else
		where=$(sed -n 's/^; expect: \(E[0-9][0-9]*\) at \([0-9][0-9]*:[0-9][0-9]*\).*/\1 \2/p' "$1" | head -n 1)
		code=${where% *} shown=${where#* } at=${where#* }
	fi
	if [ -z "$where" ]; then
		: >"$tmp"
		fail "$1" "no '; expect: CODE at line N' (or at LINE:COL) line"
		return
	fi
	"$CARC" check "$1" >/dev/null 2>"$tmp"
	status=$?
	first=$(grep -E ':[0-9]+:[0-9]+: error\[' "$tmp" | head -n 1)
	if [ $status -ne 1 ]; then
		fail "$1" "exit status $status, expected 1"
	elif ! printf '%s\n' "$first" | grep -q ":$at: error\[$code\]"; then
		fail "$1" "expected error[$code] at $shown first"
	else
		passed=$((passed + 1))
	fi
}
