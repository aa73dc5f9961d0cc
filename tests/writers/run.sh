#!/bin/sh
# tests/writers/run.sh - the writers' bytes do not change.
#
#   CARC=build/carc sh tests/writers/run.sh
#   CARC=build/carc sh tests/writers/run.sh --record   (rewrites sums.txt)
#
# carc score (text, --format json, yaml and csv; with --projected, with
# --features, with --turn) and carc fmt (of canonical records and of the
# same records with their spacing, case and turn numbers spoilt) over small
# corpora of every rule set, generated here by carc gen with fixed seeds,
# and over the bundled samples. Each output's SHA-256 must equal the one in
# sums.txt, recorded before the writers were rewritten for speed: one test
# per output, and any changed byte fails it. The corpora's own sums are
# recorded too, so that a change of carc gen is told apart from a change of
# a writer. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
sums=$top/tests/writers/sums.txt
record=false
[ "${1:-}" = --record ] && record=true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

sha() { sha256sum | cut -d' ' -f1; }

# check NAME: compares the SHA-256 of $tmp/out with NAME's line in sums.txt
check() {
	got=$(sha <"$tmp/out")
	if $record; then
		echo "$1 $got" >>"$tmp/sums"
		return
	fi
	want=$(awk -v n="$1" '$1 == n { print $2 }' "$sums")
	if [ -z "$want" ]; then
		failed=$((failed + 1))
		echo "FAIL $1: no sum recorded"
	elif [ "$got" = "$want" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $1: output changed (sha256 $got, recorded $want)"
	fi
}

# run NAME COMMAND...: the command's standard output and exit status
run() {
	name=$1
	shift
	"$CARC" "$@" >"$tmp/out" 2>/dev/null
	echo "exit $?" >>"$tmp/out"
	check "$name"
}

# the corpora: rule set, seed and options; claims on half the turns
gen() { # NAME GEN-OPTIONS...
	name=$1
	shift
	"$CARC" gen --games 100 "$@" >"$tmp/$name.cgn" 2>/dev/null || echo "gen failed" >>"$tmp/$name.cgn"
	cp "$tmp/$name.cgn" "$tmp/out"
	check "corpus-$name"
}
gen base2 --seed 11 --claim-rate 0.5
gen base4e1 --seed 12 --players 4 --edition 1 --claim-rate 1
gen base5e2 --seed 13 --players 5 --edition 2 --claim-rate 0
gen solo --rules solo --seed 14 --claim-rate 0.5
gen solo4 --rules solo --players 4 --seed 15 --claim-rate 0.5
gen hunters --rules hunters --seed 16 --claim-rate 0.5
gen hunters3 --rules hunters --players 3 --seed 17 --claim-rate 0.5
cat "$top"/samples/*.cgn >"$tmp/samples.cgn"
cd "$tmp" || exit 2 # the reports name their files: relative names, the same every run

for c in base2 base4e1 base5e2 solo solo4 hunters hunters3 samples; do
	f=$c.cgn
	for fmt in text json yaml csv; do
		run "$c-score-$fmt" score --format $fmt "$f"
		run "$c-score-$fmt-projected" score --projected --format $fmt "$f"
		run "$c-score-$fmt-turn" score --turn 9 --format $fmt "$f"
	done
	for fmt in text json yaml; do
		run "$c-score-$fmt-features" score --features --format $fmt "$f"
	done
	# unfinished: each game cut after its twelfth line of turns, no Result
	awk '/^\[Event/ { n = 0 } /^\[Result/ { next } /^ *[0-9]/ { n++; if (n > 12) next } { print }' \
		"$f" >cut.cgn
	run "$c-cut-score-text" score cut.cgn
	run "$c-cut-score-json" score --projected --format json cut.cgn
	for fmt in text json yaml csv; do
		run "$c-cut-score-$fmt-final" score --final --format $fmt cut.cgn
	done
	run "$c-fmt" fmt "$f"
	# spoilt: no turn numbers, colours and roles in capitals, spaces doubled
	sed -E -e 's/^ *[0-9]+\. //' -e '/^\[/!s/ /  /g' \
		-e '/^\[/!s/\b(red|green|blue|yellow|black|gray|pink|knight|thief|monk|farmer|hunter|gatherer|fisher|hut)\b/\U&/g' \
		"$f" >spoilt.cgn
	run "$c-fmt-spoilt" fmt spoilt.cgn
done

if $record; then
	cp "$tmp/sums" "$sums"
	echo "recorded $(wc -l <"$sums") sums in $sums"
	exit 0
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
