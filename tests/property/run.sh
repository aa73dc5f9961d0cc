#!/bin/sh
# tests/property/run.sh - properties of random legal games (carc gen).
#
#   CARC=build/carc sh tests/property/run.sh
#
# 1. Generated games check clean: a few hundred seeds, 1 to 7 players, the
#    three editions, and solo games of three and four colours. carc check
#    compares every claim the generator wrote and the Result tag with what
#    it computes, so "valid" means the referee and the generator agree on
#    every score; --werror makes a warning a failure.
#    One test per game.
# 2. carc fmt of a generated file is identical to it (one test per file).
# 3. Mutations: one line of a generated game is changed (a tile letter, a
#    coordinate, a rotation, a role, a spot, a colour, a claim) or dropped or
#    duplicated. carc check must end within 10 s with status 0 or 1 and no
#    sanitizer report; an invalid game must have its first error at the
#    mutated line or later (the lines before it are unchanged), the Result
#    tag excepted; and a mutation that cannot be legal (another colour,
#    another role on the same spot, another claimed score, a turn dropped or
#    repeated) must be reported on the mutated line itself.
# 4. Fuzzer regressions: every input in tests/fuzz/regressions/ goes through
#    carc check, score and fmt without a crash, a hang or a sanitizer report.
# 5. CarcassonneLab URLs with discards: 100 generated two-player games with
#    at least one discard (their gray and pink seats recoloured to colours a
#    URL has) export to URLs (#/0/0.K/...) and import back to the same moves,
#    discards included (the same tiles, places, rotations, followers on the
#    same features, and scores after every turn), and the imported games
#    export to the same URLs.
#
# PROPERTY_GAMES (default 40 per player count) and PROPERTY_MUTANTS (default
# 40 games, each mutated in every way) size the run. Prints "N passed, N
# failed"; a failure names the seed and keeps its input under $BUILD.
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
export NO_COLOR=1
GAMES=${PROPERTY_GAMES:-40}
MUTANTS=${PROPERTY_MUTANTS:-40}
keep=$BUILD/test-logs/property
rm -rf "$keep"
mkdir -p "$keep"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	echo "FAIL $*"
}
if command -v timeout >/dev/null 2>&1; then limit="timeout 10"; else limit=""; fi

# A sanitizer report or a signal is a failure whatever the status says.
crashed() { # status stderr-file
	[ "$1" -ge 124 ] && return 0
	grep -q -E 'AddressSanitizer|runtime error:|LeakSanitizer|UndefinedBehaviorSanitizer' "$2"
}

# ---- 1 and 2: generated games check clean and are canonical ----
fmt_works=1
"$CARC" fmt --help >/dev/null 2>&1 || fmt_works=0
[ $fmt_works -eq 1 ] || echo "skip: carc fmt is not implemented yet: the fmt identity is not tested"
for players in 1 2 3 4 5 6 7 solo3 solo4 hunters2 hunters5; do
	edition=$((${players#solo} % 3 + 1))
	rate=$(echo "${players#solo}" | awk '{ printf "%.2f", 0.2 + 0.1 * $1 }')
	file=$tmp/gen-p$players.cgn
	args="--players $players --edition $edition --deploy-rate $rate --claim-rate 0.2 --games $GAMES --seed $players"
	# the solo variant (solo.c): three or four colours, a follower whenever one can be deployed
	case $players in solo*) args="--rules solo --players ${players#solo} --claim-rate 0.2 --games $GAMES --seed 1${players#solo}" ;; esac
	# Hunters and Gatherers (hunters.c): huts, bonus turns earned by gold
	case $players in hunters*) args="--rules hunters --players ${players#hunters} --deploy-rate 0.5 --claim-rate 0.2 --games $GAMES --seed 2${players#hunters}" ;; esac
	# shellcheck disable=SC2086
	if ! "$CARC" gen $args -o "$file" 2>"$tmp/err"; then
		fail "carc gen $args: exit status $? ($(head -n 1 "$tmp/err"))"
		continue
	fi
	$limit "$CARC" check --werror "$file" >"$tmp/out" 2>"$tmp/err"
	status=$?
	summary=$(tail -n 1 "$tmp/out")
	valid=$(echo "$summary" | sed -n 's/^\([0-9]*\) games*, \([0-9]*\) valid.*/\2/p')
	if [ "$status" -ne 0 ] || [ "${valid:-0}" -ne "$GAMES" ] || crashed "$status" "$tmp/err"; then
		cp "$file" "$keep/"
		fail "carc gen $args | carc check: status $status, '$summary' (input kept in $keep)"
		head -n 5 "$tmp/err"
		failed=$((failed + GAMES - 1 - ${valid:-0}))
		passed=$((passed + ${valid:-0}))
	else
		passed=$((passed + GAMES))
	fi
	if [ $fmt_works -eq 1 ]; then
		if $limit "$CARC" fmt "$file" >"$tmp/fmt" 2>"$tmp/err" && cmp -s "$tmp/fmt" "$file"; then
			pass
		else
			cp "$file" "$keep/"
			fail "carc fmt of carc gen $args changes it (input kept in $keep)"
			diff "$file" "$tmp/fmt" | head -n 6
		fi
	fi
done

# Same seed, same output; another seed, another game.
"$CARC" gen --seed 77 --games 3 >"$tmp/a" && "$CARC" gen --seed 77 --games 3 >"$tmp/b" &&
	"$CARC" gen --seed 78 --games 3 >"$tmp/c"
if cmp -s "$tmp/a" "$tmp/b" && ! cmp -s "$tmp/a" "$tmp/c"; then pass; else fail "carc gen is not reproducible"; fi

# ---- 3: mutations ----
# mutate.awk KIND SEED: changes one turn line of a game; prints the game and
# writes the mutated line number (and whether an error there is required) to
# the file named by INFO.
cat >"$tmp/mutate.awk" <<'EOF'
BEGIN {
	srand(seed)
	ncolours = split("red green blue yellow black gray pink", colours, " ")
	nroles = split("knight thief monk farmer", roles, " ")
	nspots = split("NNW NNE ENE ESE SSE SSW WSW WNW N E S W C", spots, " ")
	ntiles = split("A B C D E F G H I J K L M N O P Q R S T U V W X", tiles, " ")
	nrots = split("0 90 180 270", rots, " ")
}
{ line[NR] = $0; if ($0 ~ /^ *[0-9]+\. /) turns[++nturns] = NR }
function pick(n) { return int(rand() * n) + 1 }
function other(list, n, not,    v) { do v = list[pick(n)]; while (v == not); return v }
END {
	if (kind == "claim") {
		nclaims = 0
		for (i = 1; i <= nturns; i++) if (line[turns[i]] ~ / = /) claimed[++nclaims] = turns[i]
	}
	if (kind == "claim" && nclaims) at = claimed[pick(nclaims)]; else at = turns[pick(nturns)]
	n = split(line[at], f, " ")
	claim = ""
	for (i = 1; i <= n; i++) if (f[i] == "=") { for (k = i; k <= n; k++) claim = claim " " f[k]; n = i - 1; break }
	discard = f[4] == "discard"
	required = 0
	if (kind == "tile") f[3] = other(tiles, ntiles, f[3])
	else if (kind == "coord" && !discard) {
		split(f[4], xy, ",")
		r = rand()
		if (r < 0.2) f[4] = "0,0"
		else if (r < 0.3) f[4] = xy[1] "," xy[2] "x"
		else if (r < 0.65) f[4] = (xy[1] + pick(5) - 3) "," xy[2]
		else f[4] = xy[1] "," (xy[2] + pick(5) - 3)
	} else if (kind == "rot" && !discard) f[5] = rand() < 0.1 ? "45" : other(rots, nrots, f[5])
	else if (kind == "role" && !discard) {
		if (n >= 7) { f[6] = rand() < 0.1 ? "wizard" : other(roles, nroles, f[6]); required = 1 }
		else { f[6] = roles[pick(nroles)]; f[7] = spots[pick(nspots)]; n = 7 }
	} else if (kind == "spot" && !discard) {
		f[7] = rand() < 0.1 ? "XYZ" : (n >= 7 ? other(spots, nspots, f[7]) : spots[pick(nspots)])
		if (n < 7) { f[6] = roles[pick(nroles)]; n = 7 }
	} else if (kind == "colour") { f[2] = rand() < 0.1 ? "purple" : other(colours, ncolours, f[2]); required = 1 }
	else if (kind == "claim") {
		if (claim != "") {
			m = split(claim, c, " ")
			k = 2 * pick(int((m - 1) / 2)) + 1   # a points field: "= red 3, green 5"
			sub(/,$/, "", c[k]); tail = (k < m) ? "," : ""
			c[k] = (c[k] + pick(5)) tail
			claim = ""
			for (i = 1; i <= m; i++) claim = claim " " c[i]
			required = 1
		} else claim = " = red 0"
	}
	out = f[1]
	for (i = 2; i <= n; i++) out = out " " f[i]
	line[at] = out claim
	for (i = 1; i <= NR; i++) {
		if (kind == "drop" && i == at) continue
		print line[i]
		if (kind == "dup" && i == at) print line[i]
	}
	if (kind == "drop") required = !discard && at != turns[nturns]
	if (kind == "dup") { required = !discard; at = at + 1 }
	print at, required > info
}
EOF
"$CARC" gen --players 3 --deploy-rate 0.6 --claim-rate 0.15 --games "$MUTANTS" --seed 4242 -o "$tmp/m.cgn"
awk -v dir="$tmp" '/^\[Event / { n++ } { print > (dir "/m-" n ".cgn") }' "$tmp/m.cgn"
g=1
while [ $g -le "$MUTANTS" ]; do
	k=0
	for kind in tile coord rot role spot colour claim drop dup; do
		k=$((k + 1))
		seed=$((g * 16 + k))
		in=$tmp/mut-$g-$kind.cgn
		awk -v kind=$kind -v seed=$seed -v info="$tmp/info" -f "$tmp/mutate.awk" "$tmp/m-$g.cgn" >"$in"
		read -r at required <"$tmp/info"
		$limit "$CARC" check "$in" >"$tmp/out" 2>"$tmp/err"
		status=$?
		first=$(sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: error\[\(E[0-9]*\)\].*/\1 \2/p' "$tmp/err" |
			grep -v ' E213$' | sort -n | head -n 1 | cut -d' ' -f1)
		why=""
		if crashed "$status" "$tmp/err"; then
			why="crash, hang or sanitizer report (status $status)"
		elif [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
			why="status $status"
		elif [ "$status" -eq 1 ] && ! grep -q 'error\[' "$tmp/err"; then
			why="invalid without an error message"
		elif [ -n "$first" ] && [ "$first" -lt "$at" ]; then
			why="first error on line $first, before the mutated line $at"
		elif [ "$required" = 1 ] && [ "$first" != "$at" ]; then
			why="no error on the mutated line $at (first error: line ${first:-none})"
		fi
		if [ -z "$why" ]; then
			pass
		else
			cp "$in" "$keep/"
			fail "mutation $kind of generated game $g (seed 4242, awk seed $seed): $why; input kept as $keep/$(basename "$in")"
			head -n 4 "$tmp/err"
		fi
	done
	g=$((g + 1))
done

# ---- 4: fuzzer regressions ----
for f in "$top"/tests/fuzz/regressions/*; do
	[ -f "$f" ] || continue
	ok=1
	for cmd in check score fmt; do
		$limit "$CARC" $cmd "$f" >/dev/null 2>"$tmp/err"
		status=$?
		if crashed "$status" "$tmp/err" || [ "$status" -gt 2 ]; then
			fail "fuzz regression $(basename "$f"): carc $cmd: status $status"
			head -n 4 "$tmp/err"
			ok=0
		fi
	done
	[ $ok -eq 1 ] && pass
done

# ---- 5: discards through CarcassonneLab URLs ----
# (about 2% of random two-player base games have a discard: 5200 give 100)
"$CARC" gen -n 5200 -s 30 -c 0 | "$CARC" filter -w 'discards>=1' - | awk '
	/^\[Event / && ++games > 100 { exit }
	/^\[Seats / {
		delete map
		n = 0
		split("red green blue yellow black", url, " ")
		for (i = 1; i <= 5; i++)
			if (index($0, url[i]) == 0)
				free[++n] = url[i]
		k = 0
		if (index($0, "gray")) map["gray"] = free[++k]
		if (index($0, "pink")) map["pink"] = free[++k]
	}
	{
		for (c in map)
			gsub(c, map[c])
		print
	}' >"$tmp/discards.cgn"
# The moves of a file's games, turn by turn, and what each scored: carc
# score's CSV without the file, line, offset and id, and with a follower's
# role but not its spot (a URL names the feature by its BGA zone, which
# comes back as that feature's first spot; the scoring names the feature).
moves() {
	"$CARC" score --format csv "$1" | sed 's/^[^,]*,\([^,]*\),[^,]*,[^,]*,[^,]*,/\1,/' |
		sed 's/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[a-z]*\) [A-Z]*,/\1,/'
}
if [ "$(grep -c '^\[Seats' "$tmp/discards.cgn")" -ne 100 ] || [ "$(grep -c discard "$tmp/discards.cgn")" -lt 100 ]; then
	fail "discards: carc gen did not give 100 games with discards"
elif ! "$CARC" export --to carcassonnelab "$tmp/discards.cgn" >"$tmp/discards.url" 2>"$tmp/err"; then
	fail "discards: export refused a game"
	head -n 4 "$tmp/err"
elif [ "$(grep -c '#/0/0\.[0-9]' "$tmp/discards.url")" -ne 100 ]; then
	fail "discards: export wrote $(grep -c '#/0/0\.[0-9]' "$tmp/discards.url") URLs with discards, not 100"
elif ! "$CARC" import --from carcassonnelab "$tmp/discards.url" >"$tmp/back.cgn" 2>"$tmp/err"; then
	fail "discards: import refused a URL"
	head -n 4 "$tmp/err"
elif ! moves "$tmp/discards.cgn" >"$tmp/moves1" || ! moves "$tmp/back.cgn" >"$tmp/moves2" ||
	[ "$(grep -c discard "$tmp/moves2")" -lt 100 ] ||
	! cmp -s "$tmp/moves1" "$tmp/moves2"; then
	fail "discards: the imported games' moves differ"
	diff "$tmp/moves1" "$tmp/moves2" | head -n 6
elif ! "$CARC" export --to carcassonnelab "$tmp/back.cgn" | cmp -s - "$tmp/discards.url"; then
	fail "discards: the imported games export to other URLs"
else
	pass
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
