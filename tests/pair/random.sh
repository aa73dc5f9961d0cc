#!/bin/sh
# tests/pair/random.sh - carc pair end to end over random tournaments: each
# round written by carc, filled with random scores and fed back. After every
# round: every present player is in exactly one section and nobody else is;
# an odd number present gives one bye; nobody meets an opponent again while
# the field is more than twice the rounds played (a pairing without rematch
# then surely exists); two runs on the same input give the same round. The
# guarantees in full (the fewest rematches, the bye, score groups, the
# starter) are proven on 500 tournaments by the unit test test_swiss.
# Usage: sh random.sh CARC TMPDIR; prints "N passed, N failed".
CARC=$1
tmp=$2
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
for t in 1 2 3 4 5; do
	n=$((6 + (t * 7) % 19))
	rounds=$((3 + t % 5))
	dir=$tmp/random$t
	mkdir -p "$dir/games"
	: >"$dir/pairs"
	for r in $(seq "$rounds"); do
		# the players, a few absent this round (and one withdrawn for good)
		awk -v n="$n" -v seed="$t$r" -v r="$r" 'BEGIN { srand(seed); for (i = 1; i <= n; i++) {
			s = ""; if (rand() < 0.12) s = " absent"; if (i == 3 && r > 2) s = " withdrawn"
			printf "Player %02d %d%s\n", i, 2000 - 10 * i, s } }' >"$dir/players.txt"
		set -- "$dir"/games/*.cgn
		[ -e "$1" ] || set --
		"$CARC" pair -p "$dir/players.txt" -e Random "$@" >"$dir/round.cgn" 2>"$dir/err" || {
			bad "tournament $t round $r: carc pair failed: $(head -n 3 "$dir/err")"; break; }
		"$CARC" pair -p "$dir/players.txt" -e Random "$@" >"$dir/again.cgn" 2>/dev/null
		if cmp -s "$dir/round.cgn" "$dir/again.cgn"; then ok; else bad "tournament $t round $r: two runs differ"; fi
		present=$(grep -v -e absent -e withdrawn "$dir/players.txt" | sed 's/ [0-9]*$//' | sort)
		paired=$(grep -E '^\[(Red|Green) ' "$dir/round.cgn" | sed 's/^\[[A-Za-z]* "\(.*\)"\]$/\1/' | sort)
		if [ "$present" = "$paired" ]; then ok; else bad "tournament $t round $r: the paired are not the present"; fi
		byes=$(grep -c 'Termination "bye"' "$dir/round.cgn")
		if [ "$byes" -eq $(($(printf '%s\n' "$present" | wc -l) % 2)) ]; then ok; else bad "tournament $t round $r: $byes byes"; fi
		# the games of the round, each in a file, with random scores
		awk -v dir="$dir/games" -v r="$r" -v seed="$t$r" 'BEGIN { RS = ""; srand(seed) } {
			f = sprintf("%s/r%02d-%02d.cgn", dir, r, NR); print $0 > f
			if ($0 !~ /bye/) printf "[Result \"red %d, green %d\"]\n", 50 + int(rand() * 40), 50 + int(rand() * 40) > f
			close(f) }' "$dir/round.cgn"
		# rematches, while the field is large enough to avoid them surely
		awk -F'"' '/^\[Red /{ a = $2 } /^\[Green /{ print (a < $2 ? a "|" $2 : $2 "|" a) }' "$dir/round.cgn" >"$dir/new"
		count=$(printf '%s\n' "$present" | wc -l)
		if [ "$count" -ge $((2 * (r - 1) + 4)) ]; then
			if [ -z "$(sort "$dir/pairs" "$dir/new" | uniq -d)" ]; then ok; else bad "tournament $t round $r: a rematch"; fi
		fi
		cat "$dir/new" >>"$dir/pairs"
	done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
