#!/bin/sh
# tests/layers/run.sh - the layers of README's "Layout" hold, at link level
# and in the sources.
#
#   BUILD=build sh tests/layers/run.sh
#
# The layers, lowest first, are the Makefile's LAYERS (one folder of src/ a
# layer; read from the Makefile, so that a layer added there is checked).
# For each layer:
#   - links: every undefined symbol of its objects ($BUILD/LAYER/*.o) that
#     some object of the library defines is defined in an object of its own
#     layer or of a lower one (nm); symbols nobody in the tree defines (the
#     C library, libyaml, ...) are not ours to place. The compiled-in data
#     sit with the layer that reads them: bundled.o (the tile sets) with
#     notation, page.o (the replay page) with output.
#   - includes: no source of it (src/LAYER/*.c, *.h) includes a header of a
#     higher layer ("LAYER/...").
# One test per layer and kind; prints each breach ("FAIL links notation:
# cgn_header.o needs carc_ruleset_find from rules/rules.o") and
# "N passed, N failed". Skips (and says so) when the objects are missing or
# nm is not installed.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
BUILD=${BUILD:-build}
passed=0
failed=0

layers=$(sed -n 's/^LAYERS *= *//p' Makefile)
if [ -z "$layers" ]; then
	echo "FAIL no LAYERS line in the Makefile"
	echo "0 passed, 1 failed"
	exit 1
fi
if ! command -v nm >/dev/null 2>&1; then
	echo "skip: nm is not installed (binutils): the link-level layers are not checked"
	nolinks=1
fi
for l in $layers; do
	if [ -z "$nolinks" ] && ! ls "$BUILD/$l"/*.o >/dev/null 2>&1; then
		echo "skip: no objects in $BUILD/$l (run make first): the link-level layers are not checked"
		nolinks=1
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# rank of each layer: "common 1", "notation 2", ...
i=0
for l in $layers; do
	i=$((i + 1))
	echo "$l $i"
done >"$tmp/ranks"

if [ -z "$nolinks" ]; then
	# every object with its layer: "LAYER PATH"
	for l in $layers; do
		for o in "$BUILD/$l"/*.o; do
			echo "$l $o"
		done
		[ "$l" = notation ] && [ -f "$BUILD/bundled.o" ] && echo "$l $BUILD/bundled.o"
		[ "$l" = output ] && [ -f "$BUILD/page.o" ] && echo "$l $BUILD/page.o"
	done >"$tmp/objects"
	# "D|U LAYER OBJECT SYMBOL" for every global symbol defined or needed
	# (one nm over every object: "OBJECT: SYMBOL TYPE ...")
	# shellcheck disable=SC2046
	nm -P -A -g $(cut -d' ' -f2 "$tmp/objects") | awk '
		FILENAME == ARGV[1] { layer[$2] = $1; next }
		{ o = $1; sub(/:$/, "", o); print ($3 == "U" ? "U" : "D"), layer[o], o, $2 }' "$tmp/objects" - >"$tmp/symbols"
	for l in $layers; do
		awk -v layer="$l" -v build="$BUILD/" '
			FILENAME == ARGV[1] { rank[$1] = $2; next }
			$1 == "D" { where[$4] = $3; home[$4] = $2; next }
			$1 == "U" && $2 == layer { need[$3 " " $4] = 1 }
			END {
				bad = 0
				for (k in need) {
					split(k, p, " ")
					s = p[2]
					if (!(s in home) || rank[home[s]] <= rank[layer])
						continue
					o = p[1]; sub("^" build, "", o); sub(".*/", "", o)
					d = where[s]; sub("^" build, "", d)
					print "FAIL links " layer ": " o " needs " s " from " d " (layer " home[s] ")"
					bad++
				}
				exit bad > 0
			}' "$tmp/ranks" "$tmp/symbols" | sort >"$tmp/out"
		if [ -s "$tmp/out" ]; then
			cat "$tmp/out"
			failed=$((failed + 1))
		else
			passed=$((passed + 1))
		fi
	done
fi

# includes: '#include "LAYER/..."' in src/LAYER/ of a higher layer
for l in $layers; do
	set -- src/"$l"/*.c src/"$l"/*.h
	[ -f "$1" ] || shift
	[ -f "$1" ] || shift
	[ $# -gt 0 ] || { passed=$((passed + 1)); continue; }
	awk -v layer="$l" '
		FILENAME == ARGV[1] { rank[$1] = $2; next }
		/^[ \t]*#[ \t]*include[ \t]*"[a-z_]+\// {
			h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
			up = h; sub(/\/.*/, "", up)
			if ((up in rank) && rank[up] > rank[layer])
				print "FAIL includes " layer ": " FILENAME " includes " h " (layer " up ")"
		}' "$tmp/ranks" "$@" >"$tmp/out"
	if [ -s "$tmp/out" ]; then
		cat "$tmp/out"
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
