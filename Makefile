# carc - a referee for recorded Carcassonne games.
#
#   make            build ./carc and libcarc (build/lib: libcarc.a, libcarc.so.0)
#   make demo       build and score a bundled sample game
#   make check      build and run every test (unit, golden, property)
#   make asan       the same tests under AddressSanitizer and UBSan
#   make check-browser  the replay page in headless Chromium (tests/browser)
#   make wasm       the engine as WebAssembly for carc recorder's page (clang, wasi-libc)
#   make check-portable  the same tests built without SSE2 (the portable paths)
#   make bench      throughput and memory figures (not part of check)
#   make fuzz       run the libFuzzer harness (FUZZ_SECONDS=60)
#   make install    PREFIX, DESTDIR and MANPREFIX are honoured

VERSION   = 0.1.0
SOVERSION = 0
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
LIBDIR   ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANPREFIX ?= $(PREFIX)/share/man

CC       ?= cc
BUILD    ?= build
OPT      ?= -O2
WARN      = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wwrite-strings -Wno-missing-field-initializers
CFLAGS   ?= $(OPT) -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -DCARC_VERSION='"$(VERSION)"' \
             $(WARN) -Isrc -I$(BUILD) $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   = -lyaml -ljansson -lzstd -lz -lpthread -lm
TEST_LDLIBS = -lcmocka

# the library, one folder a layer (README.md, "Layout"); cli/main.c is the program
LAYERS   = common notation engine rules referee import output api cli
SRC      = $(filter-out src/cli/main.c,$(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)))
OBJ      = $(SRC:src/%.c=$(BUILD)/%.o) $(BUILD)/bundled.o $(BUILD)/page.o
TILESETS = $(wildcard src/tilesets/*.yaml)
PAGE     = src/output/page/replay.html src/output/page/replay.css src/output/page/replay.js
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
MANPAGES = $(wildcard man/*.1 man/*.3 man/*.5)

# libcarc for other programs (src/api/carc.h, installed as <carc.h>): every
# layer but cli/, as a static library and as a shared one whose objects are
# compiled apart (position-independent, every symbol hidden but carc.h's),
# so that the program's own objects, and its speed, stay as they are
LIB_SRC  = $(filter-out src/cli/%,$(SRC))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/%.o) $(BUILD)/bundled.o $(BUILD)/page.o
PIC_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/bundled.o $(BUILD)/pic/page.o
SHLIB    = libcarc.so.$(VERSION)
LIB_LDLIBS = -lyaml -ljansson -lzstd -lz -lpthread -lm

all: carc lib

carc: $(BUILD)/carc
	cp $(BUILD)/carc carc

# Nothing is compiled before deps.sh has checked (and installed) the compiler
# and the libraries: every rule that runs $(CC) depends on this stamp.
$(BUILD)/.deps-ok: tests/deps.sh
	@CC='$(CC)' DEPS_CFLAGS='$(EXTRA_CFLAGS) $(LDFLAGS)' DEPS_LOG=$(BUILD)/deps.log sh tests/deps.sh
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/carc: $(BUILD)/cli/main.o $(BUILD)/recorder.o $(BUILD)/libcarc.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libcarc.a: $(OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: src/%.c $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

lib: $(BUILD)/lib/libcarc.a $(BUILD)/lib/$(SHLIB)

$(BUILD)/lib/libcarc.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/lib/$(SHLIB): $(PIC_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libcarc.so.$(SOVERSION) -Wl,--no-undefined \
		-o $@ $^ $(LIB_LDLIBS)
	ln -sf $(SHLIB) $(BUILD)/lib/libcarc.so.$(SOVERSION)
	ln -sf $(SHLIB) $(BUILD)/lib/libcarc.so

$(BUILD)/pic/%.o: src/%.c $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DCARC_API_BUILD -MMD -MP -c -o $@ $<

$(BUILD)/pic/bundled.o: $(BUILD)/bundled.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(BUILD)/pic/page.o: $(BUILD)/page.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(BUILD)/pic/output/raster.o: ALL_CFLAGS += $(RSVG_CFLAGS)

# pkg-config's file, for the PREFIX of the install
CARC_PC = printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' 'Name: carc' \
	'Description: the Carcassonne referee carc as a library' 'Version: $(VERSION)' \
	'Libs: -L$${libdir} -lcarc' 'Libs.private: $(LIB_LDLIBS)' 'Cflags: -I$${includedir}'

# raster.c takes its types from librsvg's and cairo's headers (as system
# headers: their warnings are not ours) but loads the libraries at run time,
# so nothing is linked. Expanded when used: after deps.sh has installed them.
RSVG_CFLAGS = $(patsubst -I%,-isystem %,$(shell pkg-config --cflags librsvg-2.0))
$(BUILD)/output/raster.o: ALL_CFLAGS += $(RSVG_CFLAGS)

$(BUILD)/embed: src/tools/embed.c $(BUILD)/.deps-ok
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O1 -Wall -Wextra -o $@ $<

$(BUILD)/bundled.c: $(BUILD)/embed $(TILESETS)
	$(BUILD)/embed $@ $(foreach f,$(TILESETS),$(basename $(notdir $(f)))=$(f))

$(BUILD)/bundled.o: $(BUILD)/bundled.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the replay page's markup, style and script (carc render --format html)
$(BUILD)/page.c: $(BUILD)/embed $(PAGE)
	$(BUILD)/embed --prefix carc_page $@ $(foreach f,$(PAGE),$(notdir $(f))=$(f))

$(BUILD)/page.o: $(BUILD)/page.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# ---- carc recorder: the page at the table, with the engine as WebAssembly ----
# The library's lower layers, its API and the page's export layer
# (src/wasm/) built for wasm32-wasi by clang with wasi-libc: no threads
# (src/wasm/compat/pthread.h), no libyaml (the bundled tile sets come as C
# data that the host build makes with the one reader: tileset_image), no
# zlib, zstd or jansson (what needs them is left out). When the toolchain
# is missing (tests/wasm.sh says what), or the wasm build fails (loudly,
# its log in BUILD/wasm.log; tests/recorder fails then), carc is built with
# the page's files and that message instead of the engine, and `carc
# recorder` prints it: everything else builds and tests.
WASM_CC    ?= clang
WASM_SKIP   = src/common/input.c src/common/jsonread.c src/api/read.c src/notation/tileset_yaml.c \
              src/notation/tileset_schema.c
WASM_SRC    = $(filter-out $(WASM_SKIP),$(foreach l,common notation engine rules referee api wasm,$(wildcard src/$(l)/*.c))) \
              src/import/gen.c src/output/picture.c src/output/svg.c
WASM_OBJ    = $(WASM_SRC:src/%.c=$(BUILD)/wasm/%.o) $(BUILD)/wasm/bundled.o $(BUILD)/wasm/tileset_image.o
WASM_CFLAGS = --target=wasm32-wasi -nostdlibinc -isystem $(shell $(WASM_CC) -print-resource-dir 2>/dev/null)/include \
              -isystem /usr/include/wasm32-wasi -isystem src/wasm/compat -DCARC_NO_YAML -D_WASI_EMULATED_GETPID \
              -std=c11 -D_POSIX_C_SOURCE=200809L -DCARC_VERSION='"$(VERSION)"' $(WARN) -Isrc -I$(BUILD) -O2
RECORDER_PAGE = src/output/recorder/recorder.html src/output/recorder/recorder.css src/output/recorder/engine.js \
                src/output/recorder/recorder.js

wasm: $(BUILD)/carc.wasm

$(BUILD)/wasm/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/wasm/bundled.o: $(BUILD)/bundled.c
	@mkdir -p $(dir $@)
	$(WASM_CC) $(WASM_CFLAGS) -c -o $@ $<

$(BUILD)/tileset_image: src/tools/tileset_image.c $(BUILD)/libcarc.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/wasm/tileset_image.c: $(BUILD)/tileset_image $(TILESETS)
	@mkdir -p $(dir $@)
	$(BUILD)/tileset_image $@ $(foreach f,$(TILESETS),$(basename $(notdir $(f))))

$(BUILD)/wasm/tileset_image.o: $(BUILD)/wasm/tileset_image.c
	$(WASM_CC) $(WASM_CFLAGS) -c -o $@ $<

$(BUILD)/carc.wasm: $(WASM_OBJ)
	$(WASM_CC) --target=wasm32-wasi -mexec-model=reactor -O2 -Wl,--strip-all -o $@ $^ -lwasi-emulated-getpid

# the page's files and the engine (or why there is none), for carc recorder
$(BUILD)/recorder.c: $(BUILD)/embed $(RECORDER_PAGE) tests/wasm.sh $(WASM_SRC) $(wildcard src/*/*.h) $(TILESETS) \
		src/tools/tileset_image.c $(BUILD)/libcarc.a
	@if why=$$(WASM_CC='$(WASM_CC)' sh tests/wasm.sh) && \
		{ $(MAKE) --no-print-directory BUILD=$(BUILD) $(BUILD)/carc.wasm >$(BUILD)/wasm.log 2>&1 || \
		  { why="the WebAssembly build failed (see $(BUILD)/wasm.log)"; rm -f $(BUILD)/carc.wasm; \
		    tail -n 15 $(BUILD)/wasm.log >&2; false; }; }; then \
		$(BUILD)/embed --prefix carc_recorder $@ $(foreach f,$(RECORDER_PAGE),$(notdir $(f))=$(f)) \
			engine.wasm=$(BUILD)/carc.wasm; \
	else \
		echo "carc recorder: built without its engine: $$why" >&2; \
		printf '%s\n' "$$why" >$(BUILD)/recorder-missing.txt; \
		$(BUILD)/embed --prefix carc_recorder $@ $(foreach f,$(RECORDER_PAGE),$(notdir $(f))=$(f)) \
			missing=$(BUILD)/recorder-missing.txt; \
	fi

$(BUILD)/recorder.o: $(BUILD)/recorder.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the page's export layer built for this machine, for tests/recorder's
# comparison of the WebAssembly engine with the command line's
$(BUILD)/recorder-legal: tests/recorder/legal.c src/wasm/recorder.c $(BUILD)/libcarc.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the tile sets' image, compiled into its test as into the engine
$(BUILD)/tests/test_tileset_image: $(BUILD)/wasm/tileset_image.c

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libcarc.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -Itests/unit -MMD -MP -o $@ $< $(BUILD)/libcarc.a $(LDLIBS) $(TEST_LDLIBS)

tests: $(UNIT_BIN)

check: $(BUILD)/carc lib $(UNIT_BIN) $(BUILD)/recorder-legal
	@CARC=$(BUILD)/carc BUILD=$(BUILD) sh tests/run.sh $(UNIT_BIN)

# the replay page in headless Chromium; unlike check, fails when Chromium
# or playwright-core (npm ci in tests/browser) is missing
check-browser: $(BUILD)/carc
	@CARC=$(BUILD)/carc BUILD=$(BUILD) sh tests/browser/run.sh --required

demo: $(BUILD)/carc
	$(BUILD)/carc check samples/*.cgn
	$(BUILD)/carc score samples/full-game-2-players.cgn

# The sanitizers' compiler: `make asan SAN_CC=gcc` or `SAN_CC=clang` (CI runs
# both: each finds bugs the other misses); by default clang when present (the
# fuzzer needs it too), otherwise gcc. Each compiler builds in its own folder.
SAN_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo gcc)

asan:
	$(MAKE) BUILD=build-asan-$(notdir $(firstword $(SAN_CC))) CC='$(SAN_CC)' OPT=-O1 \
		EXTRA_CFLAGS='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer' \
		LDFLAGS='-fsanitize=address,undefined' check-asan

check-asan: $(BUILD)/carc $(UNIT_BIN) $(BUILD)/recorder-legal
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		CARC_BROWSER=skip ODD_ARCHIVES=$${ODD_ARCHIVES:-50} CARC=$(BUILD)/carc BUILD=$(BUILD) sh tests/run.sh $(UNIT_BIN)

# The code for processors without SSE2 (the #else branches of notation/cgn_*.c and
# game.c) is otherwise never compiled on x86-64: build it and run every test.
check-portable:
	$(MAKE) BUILD=build-portable EXTRA_CFLAGS='-U__SSE2__' CARC_BROWSER=skip check

# the parse-only floor that make bench measures the commands against
$(BUILD)/bench/floor: tests/bench/floor.c $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 $(WARN) -o $@ $<

# the library's figures: games played through carc.h, against carc gen's code
$(BUILD)/bench/api: tests/bench/api.c src/api/carc.h $(BUILD)/lib/libcarc.a
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O2 $(WARN) -Isrc/api -o $@ $< $(BUILD)/lib/libcarc.a $(LIB_LDLIBS)

bench: carc $(BUILD)/bench/floor $(BUILD)/bench/api $(BUILD)/lib/$(SHLIB)
	FLOOR=$(BUILD)/bench/floor API_BENCH=$(BUILD)/bench/api sh tests/bench/bench.sh

fuzz:
	sh tests/fuzz/fuzz.sh

lint-man:
	@for m in $(MANPAGES); do mandoc -Tlint -W warning $$m || exit 1; done

install: carc lib
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(MANPREFIX)/man3 $(DESTDIR)$(MANPREFIX)/man5 \
		$(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	cp -f carc $(DESTDIR)$(BINDIR)/carc
	chmod 755 $(DESTDIR)$(BINDIR)/carc
	cp -f src/api/carc.h $(DESTDIR)$(INCLUDEDIR)/carc.h
	cp -f $(BUILD)/lib/libcarc.a $(BUILD)/lib/$(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SHLIB) $(DESTDIR)$(LIBDIR)/libcarc.so.$(SOVERSION)
	ln -sf $(SHLIB) $(DESTDIR)$(LIBDIR)/libcarc.so
	$(CARC_PC) > $(DESTDIR)$(PKGCONFIGDIR)/carc.pc
	for m in man/*.1; do cp -f $$m $(DESTDIR)$(MANPREFIX)/man1/; done
	for m in man/*.3; do cp -f $$m $(DESTDIR)$(MANPREFIX)/man3/; done
	for m in man/*.5; do cp -f $$m $(DESTDIR)$(MANPREFIX)/man5/; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/carc $(DESTDIR)$(INCLUDEDIR)/carc.h $(DESTDIR)$(LIBDIR)/libcarc.a \
		$(DESTDIR)$(LIBDIR)/$(SHLIB) $(DESTDIR)$(LIBDIR)/libcarc.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libcarc.so \
		$(DESTDIR)$(PKGCONFIGDIR)/carc.pc
	for m in man/*.1; do rm -f $(DESTDIR)$(MANPREFIX)/man1/$$(basename $$m); done
	for m in man/*.3; do rm -f $(DESTDIR)$(MANPREFIX)/man3/$$(basename $$m); done
	for m in man/*.5; do rm -f $(DESTDIR)$(MANPREFIX)/man5/$$(basename $$m); done

clean:
	rm -rf build build-asan build-asan-* build-fuzz build-fuzz-plain build-portable carc


.PHONY: all carc lib tests check check-browser check-portable demo asan check-asan bench fuzz lint-man install uninstall clean wasm

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/pic/*/*.d $(BUILD)/tests/*.d $(BUILD)/wasm/*/*.d)
