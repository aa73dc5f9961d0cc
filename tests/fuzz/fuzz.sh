#!/bin/sh
# tests/fuzz/fuzz.sh - builds the libFuzzer harnesses and runs them.
#
#   sh tests/fuzz/fuzz.sh [TARGET...]   fuzz each TARGET (default: all) for
#                                      FUZZ_SECONDS (default 60) each
#   sh tests/fuzz/fuzz.sh --ci          replay the regressions, then fuzz
#                                      every target, FUZZ_SECONDS (default
#                                      90) for cgn, half that for each
#                                      of tileset, import and bga
#   FUZZ_BUILD=dir                      build directory (default build-fuzz)
#
# Targets: cgn (harness.c: a CGN file read game by game and refereed),
# tileset (harness_tileset.c: a tile-set file through the loader), import
# (harness_import.c: a JSON file through the strict reader and every
# importer), bga (harness_bga.c: a Board Game Arena log or CarcassonneLab
# URLs through their importers, and back through the URL writer). Needs clang with libFuzzer (clang 14 and libclang-rt-14-dev on
# Debian); without them it says so and exits 0. Everything runs under
# AddressSanitizer and UndefinedBehaviorSanitizer. Each target's corpus
# grows in tests/fuzz/corpus-run[-TARGET]/ (git-ignored) from seeds: for
# cgn the samples, the records under tests/, games from carc gen (each
# rule set and expansion it plays, alone and together); for
# tileset the bundled and test tile sets and tests/fuzz/seeds/tileset/; for
# import the .jcz files under tests/ and tests/fuzz/seeds/import/. A
# target's regressions (tests/fuzz/regressions[-TARGET]/) are replayed
# first. A finding is written to $FUZZ_BUILD/artifacts/ and the script
# exits non-zero: fix it, then copy the input into the target's
# regressions folder (README.md has the steps).
set -u
cd "$(dirname "$0")/../.." || exit 2
CI_MODE=0
[ "${1:-}" = "--ci" ] && CI_MODE=1 && shift
TARGETS=${*:-cgn tileset import bga}
for t in $TARGETS; do
	case $t in cgn | tileset | import | bga) ;; *) echo "fuzz: unknown target '$t' (cgn, tileset, import, bga)"; exit 2 ;; esac
done
if [ $CI_MODE -eq 1 ]; then
	SECONDS_TO_RUN=${FUZZ_SECONDS:-90}
else
	SECONDS_TO_RUN=${FUZZ_SECONDS:-60}
fi
FB=${FUZZ_BUILD:-build-fuzz}
CLANG=${FUZZ_CC:-clang}

if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "fuzz: skipped: $CLANG is not installed (apt-get install clang libclang-rt-14-dev)"
	exit 0
fi
mkdir -p "$FB"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
	>"$FB/probe.c"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined -o "$FB/probe" "$FB/probe.c" >"$FB/probe.log" 2>&1; then
	echo "fuzz: skipped: $CLANG cannot link -fsanitize=fuzzer (is libclang-rt-dev installed?)"
	exit 0
fi

SAN='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer'
# The library with coverage instrumentation; a plain carc for the seed games.
make -s BUILD="$FB" CC="$CLANG" OPT=-O1 EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $SAN" \
	LDFLAGS='-fsanitize=address,undefined' "$FB/libcarc.a" || exit 2
make -s BUILD="$FB-plain" "$FB-plain/carc" || exit 2
"$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -Isrc -I"$FB" -fsanitize=fuzzer $SAN \
	-o "$FB/fuzz-carc" tests/fuzz/harness.c "$FB/libcarc.a" -lyaml -ljansson -lzstd -lz -lpthread || exit 2
for t in tileset import bga; do
	"$CLANG" -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -Isrc -I"$FB" -fsanitize=fuzzer $SAN \
		-o "$FB/fuzz-$t" tests/fuzz/harness_$t.c "$FB/libcarc.a" -lyaml -ljansson -lzstd -lz -lpthread || exit 2
done

# seconds TARGET: how long TARGET runs.
seconds() {
	if [ $CI_MODE -eq 0 ]; then
		echo "$SECONDS_TO_RUN"
	elif [ "$1" = cgn ]; then
		echo "$SECONDS_TO_RUN"
	else
		echo $((SECONDS_TO_RUN / 2))
	fi
}

# seeds_cgn DIR: one game per file.
seeds_cgn() {
	SEEDS=$1
	# The samples and every hand-written record of the tests (small files only).
	find samples tests -name '*.cgn' -size -64k ! -path '*/corpus*' ! -path 'tests/fuzz/*' 2>/dev/null |
		while read -r f; do
			cp "$f" "$SEEDS/$(echo "$f" | tr / -)"
		done
	# Generated games, split one game per file.
	split_games() { # file tag
		awk -v dir="$SEEDS" -v tag="$2" '/^\[Event / { n++ } { print > (dir "/gen-" tag "-" n ".cgn") }' "$1"
	}
	for p in 1 2 3 5; do
		for e in 1 2 3; do
			"$FB-plain/carc" gen --players $p --edition $e --seed $((p * 10 + e)) --games 4 \
				--claim-rate 0.3 -o "$SEEDS/gen.tmp" || exit 2
			split_games "$SEEDS/gen.tmp" "p$p-e$e"
		done
	done
	# Other rule sets, as far as carc gen plays them.
	for rules in solo hunters; do
		if "$FB-plain/carc" gen --rules $rules --games 6 --seed 5 --claim-rate 0.3 -o "$SEEDS/gen.tmp" 2>/dev/null; then
			split_games "$SEEDS/gen.tmp" "$rules"
		fi
	done
	# The expansions, alone and together, as far as carc gen plays them.
	for x in river abbot,river inns-cathedrals traders-builders inns-cathedrals,traders-builders,river,abbot; do
		"$FB-plain/carc" gen --expansions $x --games 4 --seed 9 --claim-rate 0.3 -o "$SEEDS/gen.tmp" || exit 2
		split_games "$SEEDS/gen.tmp" "$(echo $x | tr , +)"
	done
	rm -f "$SEEDS/gen.tmp"
}

# seeds_tileset DIR, seeds_import DIR: the files of their kind in the project.
seeds_tileset() {
	find src/tilesets tests -name '*.yaml' -size -64k ! -path '*/corpus*' 2>/dev/null | while read -r f; do
		cp "$f" "$1/$(echo "$f" | tr / -)"
	done
}
seeds_import() {
	find tests -name '*.jcz' -size -256k ! -path '*/corpus*' 2>/dev/null | while read -r f; do
		cp "$f" "$1/$(echo "$f" | tr / -)"
	done
	for f in tests/fuzz/seeds/import/*; do
		[ -f "$f" ] && cp "$f" "$1/"
	done
}

# seeds_bga DIR: the Board Game Arena logs and CarcassonneLab URLs of the tests.
seeds_bga() {
	for f in tests/bga/*.json tests/bga/*.url; do
		[ -f "$f" ] && cp "$f" "$1/$(echo "$f" | tr / -)"
	done
}

status=0
for t in $TARGETS; do
	case $t in
	cgn) bin=$FB/fuzz-carc corpus=tests/fuzz/corpus-run regs=tests/fuzz/regressions dict=tests/fuzz/cgn.dict
		max_len=16384 ;;
	tileset) bin=$FB/fuzz-tileset corpus=tests/fuzz/corpus-run-tileset regs=tests/fuzz/regressions-tileset
		dict=tests/fuzz/tileset.dict max_len=32768 ;;
	import) bin=$FB/fuzz-import corpus=tests/fuzz/corpus-run-import regs=tests/fuzz/regressions-import
		dict=tests/fuzz/json.dict max_len=32768 ;;
	bga) bin=$FB/fuzz-bga corpus=tests/fuzz/corpus-run-bga regs=tests/fuzz/regressions-bga
		dict=tests/fuzz/json.dict max_len=32768 ;;
	esac
	SEEDS="$FB/seeds-$t"
	rm -rf "$SEEDS"
	mkdir -p "$SEEDS" "$corpus" "$regs" "$FB/artifacts"
	"seeds_$t" "$SEEDS"

	# The regressions must not fail before new fuzzing starts.
	if ls "$regs"/* >/dev/null 2>&1; then
		if ! "$bin" -runs=0 -timeout=10 "$regs" >"$FB/regressions-$t.log" 2>&1; then
			echo "fuzz $t: a regression input fails again (see $FB/regressions-$t.log)"
			exit 1
		fi
		echo "fuzz $t: $(ls "$regs" | wc -l) regression inputs replayed clean"
	fi

	secs=$(seconds "$t")
	log=$FB/fuzz-$t.log
	[ "$t" = cgn ] && log=$FB/fuzz.log
	echo "fuzz $t: running for ${secs}s (corpus $corpus, log $log)"
	"$bin" -max_total_time="$secs" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
		-dict="$dict" -artifact_prefix="$FB/artifacts/" -print_final_stats=1 \
		"$corpus" "$SEEDS" "$regs" </dev/null >"$log" 2>&1
	st=$?
	tail -n 12 "$log"
	if [ $st -ne 0 ]; then
		echo "fuzz $t: FINDING: see $log and $FB/artifacts/; reproduce with $bin FILE"
		status=1
	else
		echo "fuzz $t: no finding in ${secs}s"
	fi
done
exit $status
