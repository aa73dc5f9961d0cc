#!/bin/sh
# tests/fuzz/fuzz.sh - builds the libFuzzer harness and runs it.
#
#   sh tests/fuzz/fuzz.sh            fuzz for FUZZ_SECONDS (default 60)
#   sh tests/fuzz/fuzz.sh --ci       replay the regressions, then fuzz for
#                                    FUZZ_SECONDS (default 90): for .ci/run
#   FUZZ_BUILD=dir                   build directory (default build-fuzz)
#
# Needs clang with libFuzzer (clang 14 and libclang-rt-14-dev on Debian);
# without them it says so and exits 0. The harness (tests/fuzz/harness.c)
# reads its input as a CGN file and referees every game in it, under
# AddressSanitizer and UndefinedBehaviorSanitizer. The corpus grows in
# tests/fuzz/corpus-run/ (git-ignored); it starts from the samples, the
# records under tests/, games from carc gen, and tests/fuzz/regressions/. A finding is written to
# $FUZZ_BUILD/artifacts/ and the script exits non-zero: fix it, then copy
# the input into tests/fuzz/regressions/ (README.md has the steps).
set -u
cd "$(dirname "$0")/../.." || exit 2
CI_MODE=0
[ "${1:-}" = "--ci" ] && CI_MODE=1
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
	-o "$FB/fuzz-carc" tests/fuzz/harness.c "$FB/libcarc.a" -lyaml -lpthread || exit 2

# Seeds: one game per file.
SEEDS="$FB/seeds"
rm -rf "$SEEDS"
mkdir -p "$SEEDS" tests/fuzz/corpus-run "$FB/artifacts"
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
rm -f "$SEEDS/gen.tmp"

# The regressions must not fail before new fuzzing starts.
if ls tests/fuzz/regressions/* >/dev/null 2>&1; then
	if ! "$FB/fuzz-carc" -runs=0 -timeout=10 tests/fuzz/regressions >"$FB/regressions.log" 2>&1; then
		echo "fuzz: a regression input fails again (see $FB/regressions.log)"
		exit 1
	fi
	echo "fuzz: $(ls tests/fuzz/regressions | wc -l) regression inputs replayed clean"
fi

echo "fuzz: running for ${SECONDS_TO_RUN}s (corpus tests/fuzz/corpus-run, log $FB/fuzz.log)"
"$FB/fuzz-carc" -max_total_time="$SECONDS_TO_RUN" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	-dict=tests/fuzz/cgn.dict -artifact_prefix="$FB/artifacts/" -print_final_stats=1 \
	tests/fuzz/corpus-run "$SEEDS" tests/fuzz/regressions </dev/null >"$FB/fuzz.log" 2>&1
status=$?
tail -n 12 "$FB/fuzz.log"
if [ $status -ne 0 ]; then
	echo "fuzz: FINDING: see $FB/fuzz.log and $FB/artifacts/; reproduce with $FB/fuzz-carc FILE"
	exit 1
fi
echo "fuzz: no finding in ${SECONDS_TO_RUN}s"
