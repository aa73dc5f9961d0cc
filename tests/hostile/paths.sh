#!/bin/sh
# tests/hostile/paths.sh - a record's Tileset tag may not make carc read
# files outside the folders it may use, nor echo what it read.
#
#   CARC=build/carc sh tests/hostile/paths.sh
#
# A record may use bundled tile sets, files in its own folder, and files in
# --tileset-path folders (notation/cgn.md, section 4). Each case runs carc
# on a record and wants the exit status and a text in the output (or, for
# the secrets, its absence). Prints "N passed, N failed".
. "$(dirname "$0")/common.inc"

# check NAME STATUS WANT [!SECRET] -- ARGS...: carc ARGS, run in $tmp, exits
# STATUS with WANT in its output, and SECRET (when given) nowhere in it.
check() {
	name=$1 status=$2 want=$3 secret=
	shift 3
	case ${1:-} in !*) secret=${1#!} && shift ;; esac
	[ "${1:-}" = -- ] && shift
	dir=$tmp run "$name" 200000 "$status" "$want" "$@"
	if [ -n "$secret" ] && grep -qF -- "$secret" "$tmp/out"; then
		passed=$((passed - 1))
		fail "$name: the output shows \"$secret\""
	fi
}

# record FILE TILESET: a two-turn game of the tiny tile set (tests/diag).
record() {
	printf '[Tileset "%s"]\n[Seats "red green"]\n\n1. red E 0,1 180 -\n2. green U 1,0 90 -\n' "$2" >"$tmp/$1"
}

mkdir -p "$tmp/inbox/sub" "$tmp/sets" "$tmp/elsewhere"
cp "$top/tests/diag/tiny.yaml" "$tmp/sets/tiny.yaml"
cp "$top/tests/diag/tiny.yaml" "$tmp/inbox/own.yaml"
cp "$top/tests/diag/tiny.yaml" "$tmp/elsewhere/tiny.yaml"
printf 'password: hunter2\nuser: root\n' >"$tmp/inbox/secret.txt"
printf 'root:x:0:0:root:/root:/bin/bash\n' >"$tmp/elsewhere/passwd"

# A file in the record's own folder is fine, and so is one below it.
record inbox/own.cgn own.yaml
check own-folder 0 '1 game, 1 valid' -- check inbox/own.cgn
cp "$tmp/sets/tiny.yaml" "$tmp/inbox/sub/tiny.yaml"
record inbox/below.cgn sub/tiny.yaml
check below-own-folder 0 '1 game, 1 valid' -- check inbox/below.cgn

# An absolute path, even to a real tile set, and one to a file that is no tile set.
record inbox/abs.cgn "$tmp/elsewhere/tiny.yaml"
check absolute 2 "abs.cgn:1:11: error[E110]: tile set '$tmp/elsewhere/tiny.yaml' is outside the folders" \
	-- check inbox/abs.cgn
record inbox/passwd.cgn /etc/passwd
check etc-passwd 2 "passwd.cgn:1:11: error[E110]: tile set '/etc/passwd' is outside" '!root:' -- check inbox/passwd.cgn
record inbox/passwd2.cgn "$tmp/elsewhere/passwd"
check absolute-secret 2 'error[E110]' '!root:x' -- check inbox/passwd2.cgn
# Missing or not, a path out of the folder gets the same answer.
record inbox/nofile.cgn /no/such/file.yaml
check absolute-missing 2 "error[E110]: tile set '/no/such/file.yaml' is outside" -- check inbox/nofile.cgn

# ../ escapes, plain and hidden inside the path.
record inbox/up.cgn ../elsewhere/tiny.yaml
check dot-dot 2 "up.cgn:1:11: error[E110]: tile set '../elsewhere/tiny.yaml' is outside" -- check inbox/up.cgn
record inbox/up2.cgn sub/../../elsewhere/passwd
check dot-dot-inside 2 'error[E110]' '!root:x' -- check inbox/up2.cgn
record inbox/up3.cgn ../../../../../../../../etc/passwd
check dot-dot-root 2 'error[E110]' '!root:' -- check inbox/up3.cgn

# A symbolic link inside the folder that leads out of it.
ln -s "$tmp/elsewhere/passwd" "$tmp/inbox/link.yaml"
record inbox/link.cgn link.yaml
check symlink-out 2 "link.cgn:1:11: error[E110]: tile set 'link.yaml' is outside" '!root:x' -- check inbox/link.cgn
ln -s "$tmp/elsewhere" "$tmp/inbox/dir"
record inbox/linkdir.cgn dir/tiny.yaml
check symlinked-folder-out 2 'error[E110]' -- check inbox/linkdir.cgn

# A file in the folder that is not a tile set: said so, nothing of it shown.
record inbox/secret.cgn secret.txt
check not-a-tileset 2 "secret.cgn:1:11: error[E103]: tile set 'secret.txt' is not a valid tile set" '!hunter2' \
	-- check inbox/secret.cgn
check not-a-tileset-score 2 'error[E103]' '!password' -- score inbox/secret.cgn

# --tileset-path adds folders, on every command that reads records.
record inbox/named.cgn tiny.yaml
check not-found 2 "error[E101]: tile set 'tiny.yaml' is neither bundled (base, hunters, inns, river, traders-builders) nor a file in the record's folder" \
	-- check inbox/named.cgn
check tileset-path 0 '1 game, 1 valid' -- check --tileset-path sets inbox/named.cgn
check tileset-path-twice 0 '1 game, 1 valid' -- check --tileset-path elsewhere/.. --tileset-path sets inbox/named.cgn
check tileset-path-score 0 'red' -- score --tileset-path sets inbox/named.cgn
check tileset-path-fmt 0 '[Tileset "tiny.yaml"]' -- fmt --tileset-path sets inbox/named.cgn
check tileset-path-show 0 'after turn 2' -- show --tileset-path sets inbox/named.cgn
check tileset-path-render 0 '<svg' -- render --tileset-path sets inbox/named.cgn
record inbox/abs-ok.cgn "$tmp/sets/tiny.yaml"
check absolute-in-tileset-path 0 '1 game, 1 valid' -- check --tileset-path "$tmp/sets" inbox/abs-ok.cgn
check tileset-path-no-folder 2 "carc check: --tileset-path 'nowhere':" -- check --tileset-path nowhere inbox/named.cgn
check tileset-path-file 2 "carc score: --tileset-path 'sets/tiny.yaml': Not a directory" \
	-- score --tileset-path sets/tiny.yaml inbox/named.cgn
# a --tileset-path folder does not open the way up from it either
record inbox/up4.cgn ../elsewhere/passwd
check tileset-path-dot-dot 2 'error[E110]' '!root:x' -- check --tileset-path sets inbox/up4.cgn

# Standard input has no folder: bundled names and --tileset-path only.
stdin=$tmp/inbox/named.cgn check stdin-relative 2 "<stdin>:1:11: error[E101]: tile set 'tiny.yaml' is neither bundled" \
	-- check -
stdin=$tmp/inbox/named.cgn check stdin-tileset-path 0 '1 game, 1 valid' -- check --tileset-path sets -
printf '[Tileset "BASE"]\n[Seats "red green"]\n\n1. red U -1,0 90 -\n' >"$tmp/bundled.cgn"
stdin=$tmp/bundled.cgn check stdin-bundled 0 '1 game, 1 valid' -- check -

finish
