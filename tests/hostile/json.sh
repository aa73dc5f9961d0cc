#!/bin/sh
# tests/hostile/json.sh - JSON from strangers through carc import.
#
#   CARC=build/carc sh tests/hostile/json.sh
#
# Each case feeds carc import one nasty input and wants, within 20 seconds
# and (outside the sanitizer build, whose shadow memory is large) 200 MB of
# address space: the exit status, and a message with its line and column,
# or the converted record. Prints "N passed, N failed".
. "$(dirname "$0")/common.inc"

# import NAME STATUS WANT FILE: carc import FILE, within 200 MB.
import() { run "$1" 200000 "$2" "$3" import "$4"; }

# A base game with no turns yet; NAME is the first player's name.
game() {
	printf '{"appVersion": "5.7.0", "setup": {"sets": {"basic:1": 1}, "elements": {"small-follower": 7}, '
	printf '"rules": {}, "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}]},\n'
	printf '"players": [{"name": "%s", "slot": 0}, {"name": "Ben", "slot": 1}], "replay": []%s}\n' "$1" "$2"
}

game 'Ann' >"$tmp/plain.jcz"
import plain 0 '[Red "Ann"]' "$tmp/plain.jcz"

# a surrogate pair is the one character it encodes (U+1F600)
game 'Da\ud83d\ude00vid' >"$tmp/pair.jcz"
import surrogate-pair 0 "[Red \"Da$(printf '\360\237\230\200')vid\"]" "$tmp/pair.jcz"
game 'Da\ud83dvid' >"$tmp/lone.jcz"
import lone-surrogate 2 'lone.jcz:2:25: error[E501]:' "$tmp/lone.jcz"

# \u0000 is refused where it stands, never cut to "Da"
game 'Da\u0000vid' >"$tmp/nul.jcz"
import nul-escape 2 "nul.jcz:2:25: error[E501]: '\\u0000' (a NUL character)" "$tmp/nul.jcz"

game 'Ann' ',' >"$tmp/comma.jcz"
import trailing-comma 2 'comma.jcz:2:83: error[E501]: a member is missing after the comma' "$tmp/comma.jcz"
game 'Ann", "name": "Bob' >"$tmp/dup.jcz"
import duplicate-key 2 'dup.jcz:2:29: error[E501]: the key "name" appears twice' "$tmp/dup.jcz"
game 'Ann' ', "x": 007' >"$tmp/zeros.jcz"
import leading-zeros 2 'zeros.jcz:2:89: error[E501]: a JSON number does not start with 0' "$tmp/zeros.jcz"
game 'Ann' ', "x": NaN' >"$tmp/nan.jcz"
import nan 2 "nan.jcz:2:89: error[E501]: 'NaN' is not a JSON value" "$tmp/nan.jcz"
game 'Ann' ' /* note */' >"$tmp/comment.jcz"
import comment 2 'comment.jcz:2:83: error[E501]: comments are not JSON' "$tmp/comment.jcz"

# 100,000 nested '[': refused at the 65th, at once
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "" }' \
	>"$tmp/deep.jcz"
import nested-100000 2 'deep.jcz:1:65: error[E501]: the JSON nests deeper than 64' "$tmp/deep.jcz"
# objects too, and with the game around them
awk 'BEGIN { printf "{\"a\": "; for (i = 0; i < 100000; i++) printf "{\"b\": "; print "" }' >"$tmp/deepobj.jcz"
import nested-objects 2 'deepobj.jcz:1:385: error[E501]: the JSON nests deeper than 64' "$tmp/deepobj.jcz"
# more values than the cap: two million zeros
awk 'BEGIN { printf "["; for (i = 0; i < 2000000; i++) printf "0,"; print "0]" }' >"$tmp/wide.jcz"
import values-cap 2 'wide.jcz:1:2097152: error[E501]: the JSON text has more than 1048576 values' "$tmp/wide.jcz"
# an endless input stops at 64 MiB
import dev-zero 2 '/dev/zero: error[E001]: cannot read: File too large' /dev/zero

finish
