#!/bin/sh
# tests/api/run.sh - libcarc as another program uses it.
#
# Installs into a temporary prefix (make install PREFIX=...) and builds,
# outside the tree and with pkg-config alone, against the shared library
# (and once against the static one):
#   - scores.c, which reads the samples and the test corpora through the
#     library and prints each game's diagnostics and scores: they must be
#     those of `carc check` and `carc score --format json`;
#   - games.c: 1,000 random games played through the library (every rule
#     set and expansion) that `carc check` must find valid, and a move
#     refused with the code and message check gives for its line;
#   - the C examples of samples/api/ and the README's "As a library"
#     program, whose games check must find valid.
# Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-build/carc}
BUILD=${BUILD:-build}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

case $BUILD in *asan*)
	echo "skip: the programs outside the tree are not built with the sanitizers' runtime"
	finish ;;
esac
if ! command -v pkg-config >/dev/null 2>&1; then
	echo "skip: pkg-config is not installed (tests/deps.sh installs it)"
	finish
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
if make -s BUILD="$BUILD" PREFIX="$prefix" install >"$tmp/install.log" 2>&1; then ok; else
	bad "make install PREFIX=$prefix failed:"; tail -n 20 "$tmp/install.log"; finish
fi
for f in include/carc.h lib/libcarc.a lib/libcarc.so.0 lib/libcarc.so lib/pkgconfig/carc.pc share/man/man3/carc.3 \
	share/man/man3/carc_play.3 share/man/man3/carc_read.3 share/man/man3/carc_state.3; do
	if [ -e "$prefix/$f" ]; then ok; else bad "make install did not install $f"; fi
done
soname=$(objdump -p "$prefix/lib/libcarc.so" 2>/dev/null | awk '/SONAME/ {print $2}')
if [ "$soname" = libcarc.so.0 ] || ! command -v objdump >/dev/null; then ok; else bad "soname is '$soname'"; fi
# only the API is exported
if command -v nm >/dev/null; then
	other=$(nm -D --defined-only "$prefix/lib/libcarc.so" | awk '$2 == "T" || $2 == "D" || $2 == "B" {print $3}' |
		grep -v '^carc_\(version\|strerror\|match_\|records_\|move_\|generator_\)' | head -n 5)
	if [ -z "$other" ]; then ok; else bad "libcarc.so exports more than carc.h: $other"; fi
fi

# outside the tree, with pkg-config alone
src=$tmp/src
mkdir -p "$src"
cp tests/api/scores.c tests/api/games.c samples/api/*.c "$src/"
awk '/<!-- library example/ {on = 1; next} on && /^```c/ {copy = 1; next} copy && /^```/ {exit} copy' README.md >"$src/readme.c"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export LD_LIBRARY_PATH="$prefix/lib"
flags=$(pkg-config --cflags --libs carc) || bad "pkg-config knows no carc"
for p in scores games random greedy montecarlo readme; do
	if (cd "$src" && ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -o "$p" "$p.c" $flags) 2>"$tmp/cc.log"; then ok; else
		bad "$p.c does not build against the installed library:"; head -n 20 "$tmp/cc.log"
	fi
done
if (cd "$src" && ${CC:-cc} -std=c11 -O2 -o games-static games.c $(pkg-config --cflags carc) "$prefix/lib/libcarc.a" \
	$(pkg-config --static --libs carc)) 2>"$tmp/cc.log"; then ok; else
	bad "games.c does not build against the static library:"; head -n 20 "$tmp/cc.log"
fi

# the corpora: diagnostics as check gives them, scores as score gives them
files=$(ls samples/*.cgn tests/diag/*.cgn tests/river/*.cgn tests/solo/*.cgn tests/hunters/*.cgn tests/abbot/*.cgn \
	tests/rules/*.cgn tests/stats/*.cgn tests/tournament/*.cgn 2>/dev/null)
"$src/scores" $files >"$tmp/api.out" 2>&1
grep -E '(error|warning|note)\[' "$tmp/api.out" >"$tmp/api.diag"
for f in $files; do "$CARC" check "$f" 2>&1; done | grep -E '^[^ ].*(error|warning|note)\[' >"$tmp/cli.diag"
n=$(wc -l <"$tmp/cli.diag")
if [ "$n" -gt 100 ] && cmp -s "$tmp/api.diag" "$tmp/cli.diag"; then ok; else
	bad "the library's diagnostics of the corpora differ from check's ($n lines):"
	diff "$tmp/api.diag" "$tmp/cli.diag" | head -n 10
fi
if command -v python3 >/dev/null 2>&1; then
	grep -E ' game [0-9]+:' "$tmp/api.out" >"$tmp/api.sc"
	for f in $files; do
		echo "#file $f"
		"$CARC" score --format json "$f" 2>/dev/null
	done | python3 -c '
import json, sys
name = ""
for line in sys.stdin:
    if line.startswith("#file "):
        name = line[6:].rstrip("\n")
        continue
    d = json.loads(line)
    sc = d.get("scores") or {c: v["total"] for c, v in (d.get("breakdown") or {}).items()}
    print("%s game %d:%s" % (name, d["game"],
          ",".join(" %s %d" % (p["colour"], sc.get(p["colour"], 0)) for p in d.get("players", []))))' >"$tmp/cli.sc"
	n=$(wc -l <"$tmp/cli.sc")
	if [ "$n" -gt 100 ] && cmp -s "$tmp/api.sc" "$tmp/cli.sc"; then ok; else
		bad "the library's scores of the corpora differ from score's ($n games):"
		diff "$tmp/api.sc" "$tmp/cli.sc" | head -n 10
	fi
else
	echo "skip: python3 is not installed to read carc score's JSON"
fi

# 1,000 random games through the library, every rule set and expansion
if "$src/games" 1000 >"$tmp/games.cgn" 2>"$tmp/games.err"; then ok; else bad "games 1000: $(head -n 3 "$tmp/games.err")"; fi
verdict=$("$CARC" check -q "$tmp/games.cgn" 2>&1 | tail -n 1)
if [ "$verdict" = "1000 games, 1000 valid, 0 invalid, 0 unreadable" ]; then ok; else bad "check of the games played: $verdict"; fi
for rules in base solo hunters; do
	if grep -q "^\[Rules \"$rules\"\]" "$tmp/games.cgn"; then ok; else bad "no $rules game among the games played"; fi
done
for x in river abbot; do
	if grep -q "^\[Expansions \"[^\"]*$x" "$tmp/games.cgn"; then ok; else bad "no game with $x among the games played"; fi
done
"$src/games-static" 11 >"$tmp/static.cgn" 2>&1 && "$src/games" 11 >"$tmp/shared.cgn" 2>&1
if cmp -s "$tmp/static.cgn" "$tmp/shared.cgn"; then ok; else bad "the static and the shared library play differently"; fi

# an illegal move: refused with check's code and message
"$src/games" illegal >"$tmp/illegal.txt" 2>&1
said=$(head -n 1 "$tmp/illegal.txt")
tail -n +2 "$tmp/illegal.txt" >"$tmp/illegal.cgn"
code=${said%%:*}
checked=$("$CARC" check "$tmp/illegal.cgn" 2>&1 | grep -E "error\[$code\]" | head -n 1 | sed 's/^.*error\[\(E[0-9]*\)\]: /\1: /')
if [ -n "$code" ] && [ "$said" = "$checked" ]; then ok; else bad "refused with '$said', check says '$checked'"; fi

# the examples and the README's program
for run in "random base river 3 4" "random solo - 3 2" "random hunters - 2 9" "greedy base abbot 2 5" \
	"montecarlo 3 2 2"; do
	set -- $run
	p=$1
	shift
	if "$src/$p" "$@" >"$tmp/ex.cgn" 2>"$tmp/ex.err" &&
		[ "$("$CARC" check -q "$tmp/ex.cgn" 2>&1 | tail -n 1)" = "1 game, 1 valid, 0 invalid, 0 unreadable" ]; then
		ok
	else
		bad "samples/api/$run: $(head -n 3 "$tmp/ex.err")"
	fi
done
if "$src/readme" >"$tmp/readme.out" 2>&1 && [ "$(wc -l <"$tmp/readme.out")" -eq 3 ]; then ok; else
	bad "README's library example: $(head -n 3 "$tmp/readme.out")"
fi
finish
