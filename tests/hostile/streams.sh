#!/bin/sh
# tests/hostile/streams.sh - the edges of reading and writing: a zstd frame
# that declares content it does not hold is a read error (not "0 games");
# gzip with trailing zero bytes reads as gzip itself reads it; diagnostics
# that cannot be written (2>/dev/full) make the exit status 2; -o works on a
# writable file in a read-only folder. Each case failed before issue 30.
#
#   CARC=build/carc sh tests/hostile/streams.sh
#
# Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
check() {
	name=$1
	shift
	if "$@"; then pass; else fail "$name"; fi
}

# ---- a zstd frame that declares 100 bytes and holds none ----
# magic, a header (single segment, content size 100), one last raw block of
# size 0
printf '\050\265\057\375\040\144\001\000\000' >empty.zst
"$CARC" check empty.zst >out 2>err
check "zstd: an empty frame that declares content: exit 2" test $? -eq 2
check "zstd: an empty frame that declares content: a read error" grep -q 'cannot read: the zstd data is damaged' err
"$CARC" gen -n 3 -s 2 >three.cgn
if command -v zstd >/dev/null 2>&1; then
	zstd -q -c three.cgn >three.zst
	zstd -q -c --no-content-size three.cgn >>three.zst
	"$CARC" check -q three.zst >out 2>err
	check "zstd: two frames, with and without a content size, read whole" grep -q '^6 games, 6 valid' out
else
	echo "skipped: no zstd to make a two-frame file"
fi

# ---- gzip with trailing zeros ----
gzip -c three.cgn >zeros.gz
head -c 1000 /dev/zero >>zeros.gz
"$CARC" check -q zeros.gz >out 2>err
check "gzip: trailing zero bytes are accepted (exit 0)" test $? -eq 0
check "gzip: trailing zero bytes: every game read" grep -q '^3 games, 3 valid, 0 invalid, 0 unreadable' out
cp zeros.gz junk.gz
printf 'x' >>junk.gz
"$CARC" check junk.gz >out 2>err
check "gzip: a byte after the trailing zeros: exit 2" test $? -eq 2
check "gzip: a byte after the trailing zeros is a read error" grep -q "other bytes after the zero bytes" err
gzip -c three.cgn >two.gz
gzip -c three.cgn >>two.gz
"$CARC" check -q two.gz >out 2>err
check "gzip: two members still read" grep -q '^6 games, 6 valid' out

# ---- diagnostics that cannot be written ----
if [ -w /dev/full ]; then
	printf '[Seats "red green"]\n\n1. red U -1,0 90 thief Q\n' >bad.cgn
	"$CARC" check bad.cgn >/dev/null 2>/dev/full
	check "check 2>/dev/full: exit 2, not 1" test $? -eq 2
	"$CARC" check three.cgn >/dev/null 2>/dev/full
	check "check 2>/dev/full of valid games without messages: exit 0" test $? -eq 0
	"$CARC" score bad.cgn >/dev/null 2>/dev/full
	check "score 2>/dev/full: exit 2" test $? -eq 2
	"$CARC" check three.cgn >/dev/full 2>/dev/null
	check "check >/dev/full: exit 2" test $? -eq 2
else
	echo "skipped: no /dev/full"
fi

# ---- -o into a read-only folder, the file itself writable ----
# (root writes anywhere: as root the run drops to nobody with setpriv)
mkdir ro
cp three.cgn ro/out.cgn
chmod 666 ro/out.cgn
chmod 555 ro
as=""
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null 2>&1 && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" -ne 0 ] || [ -n "$as" ]; then
	chmod 755 "$tmp"
	$as "$CARC" gen -n 1 -s 9 -o ro/out.cgn 2>err
	check "-o in a read-only folder: exit 0" test $? -eq 0
	"$CARC" gen -n 1 -s 9 | cmp -s - ro/out.cgn
	check "-o in a read-only folder: the file holds the output" test $? -eq 0
	check "-o in a read-only folder: no temporary file left" test "$(ls ro)" = out.cgn
else
	echo "skipped: a read-only folder (root without setpriv)"
fi

# ---- importing many URLs streams its output ----
# About 5,000 URLs (2 MB) give 10 MB of CGN: held whole, the output alone
# passes a 30 MB address space (the binary and its libraries take about
# 15); written a game at a time, the import runs in the input and one game.
"$CARC" gen -n 150 -s 12 | "$CARC" export --to carcassonnelab - >some.url 2>/dev/null
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 \
	31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 \
	61 62 63 64 65 66 67 68 69 70; do
	cat some.url
done >many.url
urls=$(wc -l <many.url)
(
	[ -n "$ASAN_OPTIONS" ] || ulimit -v 30000
	exec timeout 60 "$CARC" import --from carcassonnelab many.url
) >many.cgn 2>err
check "import of $urls URLs in 30 MB of address space: exit 0" test $? -eq 0
check "import of $urls URLs: every game written" test "$(grep -c '^\[Seats' many.cgn)" -eq "$urls"
# one bad URL among good ones: reported, the others still converted
{ head -n 2 some.url; echo 'https://www.carcassonnelab.com/#/9/9/O/?colors=red'; tail -n 1 some.url; } >mixed.url
"$CARC" import --from carcassonnelab mixed.url >mixed.cgn 2>err
check "import: a bad URL among good ones: exit 2" test $? -eq 2
check "import: the bad URL is reported at its line" grep -q '^mixed.url:3:34: error\[E530\]' err
check "import: the good URLs are converted" test "$(grep -c '^\[Seats' mixed.cgn)" -eq 3

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
