#!/bin/sh
# tests/oracle/run.sh - carc against an independent second referee.
#
#   CARC=build/carc sh tests/oracle/run.sh
#
# tests/oracle/oracle.py is a separate implementation of the base-game rules
# in Python (its own tile table, reader and scoring, nothing shared with
# src/). For every game of every record under tests/rules/ and samples/, and
# for a few random legal games that the oracle plays itself, both must agree
# on whether the game is legal and on every player's score after every turn
# and at the end; so must it on games that `carc gen` writes (when it exists). Games of other rule sets are skipped. Ends with
# "N passed, N failed" (one per game); without python3 it says so and passes
# nothing.
dir=$(dirname "$0")
root=$dir/../..
CARC=${CARC:-build/carc}
if ! command -v python3 >/dev/null 2>&1; then
	echo "skipped: python3 not found"
	echo "0 passed, 0 failed"
	exit 0
fi
tmp=${TMPDIR:-/tmp}/carc-oracle.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# Random games: 2 to 5 players, all three farm editions, claims on every turn.
for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
	players=$((seed % 4 + 2))
	edition=$((seed % 3 + 1))
	python3 "$dir/oracle.py" gen --seed "$seed" --players "$players" --edition "$edition" \
		--claims every >"$tmp/random-$seed.cgn" || exit 1
done
# Denser games: each move chosen by the oracle's greedy player.
for seed in 1 2 3; do
	python3 "$dir/oracle.py" gen --seed "$seed" --players $((seed + 1)) --edition "$seed" --style greedy \
		--claims every >"$tmp/greedy-$seed.cgn" || exit 1
done
# Games written by carc gen itself, scored by carc, judged by the oracle.
if "$CARC" gen --help >/dev/null 2>&1; then
	for edition in 1 2 3; do
		"$CARC" gen --players $((edition + 1)) --games 5 --seed "$edition" --edition "$edition" \
			--deploy-rate 0.7 --claim-rate 0.5 --output "$tmp/carc-gen-$edition.cgn" || exit 1
	done
fi
python3 "$dir/oracle.py" compare "$CARC" "$root"/tests/rules/*.cgn "$root"/tests/rules/illegal/*.cgn \
	"$root"/samples/*.cgn "$tmp"/*.cgn
