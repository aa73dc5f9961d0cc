#!/bin/sh
# tests/hostile/tilesets.sh - tile-set files from strangers: endless, huge,
# or small but costly.
#
#   CARC=build/carc sh tests/hostile/tilesets.sh
#
# Each case wants an answer within 20 seconds, with the exit status and a
# message naming the file (or the command) with its code, and within a
# bound of address space (ulimit -v; not under the sanitizers, whose shadow
# memory is large). Prints "N passed, N failed".
. "$(dirname "$0")/common.inc"

# An endless input: refused at its first NUL byte, read no further.
run dev-zero-check 100000 2 '/dev/zero:1:1: error[E102]: this is not a text file: a NUL byte at offset 0' \
	tiles --check /dev/zero
run dev-zero-tileset 100000 2 '/dev/zero:1:1: error[E102]: this is not a text file' tiles --tileset /dev/zero
stdin=/dev/zero run dev-zero-stdin 100000 2 '<stdin>:1:1: error[E102]' tiles --check -

# A file over 64 MiB is refused unread (a sparse file: no disk spent).
truncate -s 80M "$tmp/big.yaml"
run file-80mb 100000 2 'big.yaml: error[E101]: larger than 64 MiB' tiles --check "$tmp/big.yaml"
run file-80mb-tileset 100000 2 "carc tiles: error[E101]: tile set '$tmp/big.yaml' is neither bundled (base, hunters, inns, river, traders-builders) nor a readable file: it is larger than 64 MiB" \
	tiles --tileset "$tmp/big.yaml"
run missing-tileset 100000 2 "carc tiles: error[E101]: tile set 'no-such.yaml' is neither bundled" \
	tiles --tileset no-such.yaml

# An endless stream of text through a pipe stops at 64 MiB.
mkfifo "$tmp/fifo"
(yes 'note: a line of text, again and again' >"$tmp/fifo" 2>/dev/null &)
run endless-text 250000 2 'fifo: error[E101]: larger than 64 MiB' tiles --check "$tmp/fifo"

# Small files that would cost much: too many nodes, an alias tree, nesting.
awk 'BEGIN { printf "name: many\nterrains: ["; for (i = 0; i < 100001; i++) printf "a,"; print "a]" }' \
	>"$tmp/nodes.yaml"
run node-cap 100000 2 'nodes.yaml:2:200002: error[E109]: more than 100000 YAML values' tiles --check "$tmp/nodes.yaml"
{
	echo 'a: &a [x, x, x, x, x, x, x, x, x, x]'
	echo 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]'
	echo 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]'
	echo 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'
} >"$tmp/laughs.yaml"
run alias-tree 100000 2 'laughs.yaml:2:8: error[E102]: a YAML alias (*name) is not taken' tiles --check "$tmp/laughs.yaml"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' >"$tmp/deep.yaml"
run deep-nesting 100000 2 'deep.yaml:1:33: error[E102]: lists and mappings nested more than 32 deep' \
	tiles --check "$tmp/deep.yaml"
# 20 MB of newlines, then a mistake: the index of lines stays small (one
# offset a line would be 160 MB)
awk 'BEGIN { s = ""; for (j = 0; j < 20000; j++) s = s "\n"; for (i = 0; i < 1000; i++) { printf "%s", s } print "name: [" }' \
	>"$tmp/lines.yaml"
run many-lines 120000 2 'lines.yaml:20000002:1: error[E102]' tiles --check "$tmp/lines.yaml"

# A record's tile set with a tile id that an expansion's tiles have too (the
# base set's B renamed RA, The River's first tile): one of the two could
# never be named, so the game is refused at its Tileset tag (issue 30).
sed 's/^  - id: B$/  - id: RA/' "$top/src/tilesets/base.yaml" >"$tmp/clash.yaml"
printf '[Seats "red green"]\n[Tileset "clash.yaml"]\n[Expansions "river"]\n\n1. red RA 0,-1 0\n' >"$tmp/clash.cgn"
dir=$tmp run tileset-id-clash 100000 2 \
	"clash.cgn:2:11: error[E014]: tile set 'clash.yaml' has a tile RA, and so has expansion river" check clash.cgn
dir=

finish
