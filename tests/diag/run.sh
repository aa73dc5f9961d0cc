#!/bin/sh
# tests/diag/run.sh - one input per diagnostic code, and malformed input.
#
#   CARC=build/carc sh tests/diag/run.sh
#
# Each tests/diag/CODE.cgn triggers diagnostic CODE. Its comment lines say
# what to expect:
#   ; expect: CODE at LINE:COL        the code, reported at that caret
#   ; expect: CODE at FILE:LINE:COL   ... in another file (a tile set)
#   ; expect: CODE                    the code, without a position
#   ; input: PATH        check PATH instead of this file (a missing file,
#                        or an input that cannot hold comments, like .jcz)
#   ; command: NAME ...  run carc NAME (import, ...) instead of carc check,
#                        with the options that follow it (--from bga)
#   ; generate: long-line   check a copy with @LONG@ made 70000 bytes long
#   ; generate: repeat N    check a copy with each line holding @N@ written
#                        N times, @N@ replaced by 1, 2, ... N, and @PAD@ by
#                        1000 bytes (for the caps of a game: no huge file is
#                        kept in the repository)
#   ; status: N          the exit status, when not the usual one
# The usual exit status is carc check's (src/cli/cmd_check.c): 2 "could not
# run" for E001 and the tile-set errors E1xx, 1 for any other error, 0 for
# a warning or a note; carc import's is 2 for its errors (E5xx). Every run
# has a time limit, so a hang fails too.
#
# Then malformed input, as the foundation issue lists it: a file truncated
# at every byte, binary garbage, a 10 MB line, a NUL byte, standard input.
# Each must get its message with a position and the right exit status,
# never a crash or a hang. (An unknown tile and a bad coordinate are
# E022.cgn and E023.cgn.) Messages that recover and suggest are checked
# word for word against tests/diag/messages/*.err. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/diag
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# The value of directive $1 in file $2 ("; expect: ..."), or nothing.
directive() {
	sed -n "s/^; $1: *//p" "$2" | head -n 1
}

# run NAME INPUT [COMMAND]: runs carc COMMAND (check) on INPUT in the
# current folder, with a time limit; sets status, and the output in
# $tmp/out and $tmp/err.
run() {
	# shellcheck disable=SC2086 # a command may have options: "export --to carcassonnelab"
	timeout 20 "$CARC" ${3:-check} "$2" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	if [ "$status" -ge 124 ]; then
		echo "  $1: carc ${3:-check} $2 crashed or hung (status $status)"
		head -n 5 "$tmp/err" | sed 's/^/  | /'
	fi
}

# ---- one input per code ----
cd "$dir" || exit 2
for file in [EW][0-9][0-9][0-9].cgn; do
	name=${file%.cgn}
	expect=$(directive expect "$file")
	code=${expect%% *}
	if [ "$code" != "$name" ]; then
		fail "$file: its expect line names '$code', not $name"
		continue
	fi
	at=
	case $expect in *" at "*) at=${expect##* at } ;; esac
	input=$(directive input "$file")
	[ -n "$input" ] || input=$file
	command=$(directive command "$file")
	generate=$(directive generate "$file")
	if [ "${generate%% *}" = repeat ]; then
		awk -v n="${generate#repeat }" 'BEGIN { pad = "x"; while (length(pad) < 1000) pad = pad pad; pad = substr(pad, 1, 1000) }
			!/@N@/ { print; next }
			{ for (i = 1; i <= n; i++) { l = $0; gsub(/@N@/, i, l); gsub(/@PAD@/, pad, l); print l } }' "$file" >"$tmp/$file"
		cd "$tmp" && run "$name" "$file"
		cd "$dir" || exit 2
	elif [ "$generate" = long-line ]; then
		long=$(awk 'BEGIN { s = "x"; while (length(s) < 70000) s = s s; print substr(s, 1, 70000) }')
		awk -v long="$long" '{ i = index($0, "@LONG@"); if (i) $0 = substr($0, 1, i - 1) long substr($0, i + 6); print }' \
			"$file" >"$tmp/$file"
		cd "$tmp" && run "$name" "$file"
		cd "$dir" || exit 2
	else
		run "$name" "$input" "$command"
	fi
	want=$(directive status "$file")
	if [ -z "$want" ]; then
		case $code in
		E001 | E1?? | E5??) want=2 ;;
		E*) want=1 ;;
		*) want=0 ;;
		esac
	fi
	case $code in
	W*) sev=warning ;;
	*) sev=error ;;
	esac
	if grep -q "note\[$code\]" "$tmp/err"; then sev=note; fi
	if [ -n "$at" ]; then
		case $at in
		*:*:*) where=$at ;;
		*) where=${input##*/}:$at ;;
		esac
		needle="$where: $sev[$code]:"
	else
		needle="$sev[$code]:"
	fi
	ok=1
	if ! grep -qF "$needle" "$tmp/err"; then
		fail "$file: expected '$needle' on standard error; got:"
		head -n 8 "$tmp/err" | sed 's/^/  | /'
		ok=0
	fi
	if [ "$status" != "$want" ]; then
		fail "$file: exit status $status, expected $want"
		ok=0
	fi
	[ $ok = 1 ] && pass
done

# ---- messages that recover and suggest ----
# tests/diag/messages/NAME.cgn: carc check prints exactly NAME.err on
# standard error (one mistake, one message; "did you mean"; the Result's
# mismatch last), and exits with status 1 (or its "; status: N").
# CARC_UPDATE=1 rewrites the .err files.
cd "$dir/messages" || exit 2
for file in *.cgn; do
	name=${file%.cgn}
	run "messages/$name" "$file"
	want=$(directive status "$file")
	if [ "${CARC_UPDATE:-}" = 1 ]; then
		cp "$tmp/err" "$name.err"
	fi
	if [ "$status" != "${want:-1}" ]; then
		fail "messages/$file: exit status $status, expected ${want:-1}"
	elif ! diff -u "$name.err" "$tmp/err" >"$tmp/diff"; then
		fail "messages/$file: standard error differs from $name.err:"
		head -n 20 "$tmp/diff" | sed 's/^/  | /'
	else
		pass
	fi
done
cd "$dir" || exit 2

# ---- malformed input ----

# expect_run NAME STATUS NEEDLE INPUT: carc check INPUT exits with STATUS
# and prints NEEDLE (a fixed string) on standard error.
expect_run() {
	run "$1" "$4"
	if [ "$status" = "$2" ] && grep -qF "$3" "$tmp/err"; then
		pass
	else
		fail "$1: exit status $status (expected $2), looking for '$3' in:"
		head -n 8 "$tmp/err" | cut -c 1-200 | sed 's/^/  | /'
	fi
}

cd "$tmp" || exit 2
sample=$top/samples/club-night.cgn

# A truncated file: cut in the middle of the last turn's rotation.
head -n 9 "$sample" >cut.cgn
printf '4. green K 0,-1 2' >>cut.cgn
expect_run truncated-rotation 1 "cut.cgn:10:17: error[E024]:" cut.cgn

# Cut at every byte: no crash, no hang, and every error has a position.
size=$(wc -c <"$sample")
bad=
n=1
while [ "$n" -lt "$size" ]; do
	head -c "$n" "$sample" >cut.cgn
	timeout 10 "$CARC" check cut.cgn >/dev/null 2>cut.err
	s=$?
	if [ "$s" -gt 1 ] || grep -q "^error\[" cut.err; then
		bad="$bad $n:$s"
	fi
	n=$((n + 1))
done
if [ -z "$bad" ]; then pass; else fail "truncated at every byte: bad status or no position at byte:status$bad"; fi

# Binary garbage: carc's own executable, and random bytes.
cp "$CARC" garbage.bin
expect_run binary-executable 1 "garbage.bin:1:" garbage.bin
grep -q "error\[E002\]" "$tmp/err" || fail "binary-executable: no E002 reported"
head -c 65536 /dev/urandom >random.bin
run random random.bin
if [ "$status" = 1 ] && grep -q "^random.bin:[0-9]*:[0-9]*: error\[" "$tmp/err"; then
	pass
else
	cp random.bin "$top/${BUILD:-build}/diag-random-failure.bin" 2>/dev/null
	fail "random bytes: exit status $status (expected 1); input kept as ${BUILD:-build}/diag-random-failure.bin"
fi

# A NUL byte gives up the rest of the file.
printf '[Seats "red green"]\n1. red U -1,0 90 th\000ief E\n2. green E 0,1 180\n' >nul.cgn
expect_run nul-byte 1 "nul.cgn:2:20: error[E002]: NUL byte" nul.cgn

# A line of 500 kB is cut to its first bytes; the rest of the file is read.
# One of 10 MB makes its game longer than a game may be (1 MiB, E031): the
# rest of the input is skipped, as that of an endless line must be.
for size in 500000 10000000; do
	{
		printf '[Seats "red green"]\n1. red U -1,0 90 thief E ; '
		awk -v n=$size 'BEGIN { s = "0123456789"; while (length(s) < n) s = s s; printf "%s", substr(s, 1, n) }'
		printf '\n2. green E 0,1 180 knight S\n3. red Q 0,2 45\n'
	} >long.cgn
	expect_run long-line-$size 1 "long.cgn:2:1: error[E003]:" long.cgn
	if [ $size = 500000 ]; then
		grep -qF "long.cgn:4:14: error[E024]" "$tmp/err" || fail "long-line: the lines after the long one were not read"
	else
		grep -qF "long.cgn:2:1: error[E031]" "$tmp/err" && ! grep -qF "E024" "$tmp/err" ||
			fail "long-line: a game of 10 MB is not refused with E031"
	fi
done

# Standard input is named <stdin>.
timeout 10 "$CARC" check - <"$dir/E201.cgn" >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" = 1 ] && grep -qF "<stdin>:5:10: error[E201]:" "$tmp/err"; then pass; else fail "stdin: status $status"; fi

# The count of errors a game's JSON line gives is the number of its error
# diagnostics: a message is counted once, whichever layer (the header, the
# tile-set loader, the referee) reported it.
cd "$dir" || exit 2
for file in [EW][0-9][0-9][0-9].cgn messages/*.cgn; do
	[ -n "$(directive input "$file")$(directive command "$file")$(directive generate "$file")" ] && continue
	timeout 20 "$CARC" check --format json "$file" >"$tmp/out" 2>/dev/null </dev/null
	bad=$(while IFS= read -r line; do
		n=$(printf '%s\n' "$line" | sed -n 's/.*"errors":\([0-9]*\),.*/\1/p' | head -n 1)
		k=$(printf '%s\n' "$line" | grep -o '"severity":"error"' | wc -l)
		[ -n "$n" ] && [ "$n" != "$k" ] && echo "game says errors:$n, lists $k"
	done <"$tmp/out")
	if [ -z "$bad" ]; then pass; else fail "$file: JSON error count: $bad"; fi
done
cd "$top" || exit 2

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
