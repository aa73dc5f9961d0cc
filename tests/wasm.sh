#!/bin/sh
# tests/wasm.sh - is the WebAssembly toolchain of carc recorder's page here?
#
#   WASM_CC=clang sh tests/wasm.sh
#
# The page's engine is the library's C built for wasm32-wasi by clang
# (Debian 12: clang, lld for wasm-ld, wasi-libc for the C library and
# libclang-rt-14-dev-wasm32 for the compiler's runtime). This compiles and
# links a small reactor module the way the Makefile does. Exit 0 when it
# works; otherwise exit 1 with one line on standard output naming what is
# missing (the Debian packages to install), which `carc recorder` then
# prints. tests/deps.sh installs the packages when it can; they are never
# required: without them carc builds and tests everything else.
cc=${WASM_CC:-clang}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pkgs="clang lld wasi-libc libclang-rt-14-dev-wasm32"
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "no '$cc' to compile the engine to WebAssembly (Debian packages: $pkgs)"
	exit 1
fi
if [ ! -f /usr/include/wasm32-wasi/stdlib.h ]; then
	echo "no C library for wasm32-wasi (Debian package wasi-libc; all of: $pkgs)"
	exit 1
fi
res=$("$cc" -print-resource-dir 2>/dev/null)
printf '#include <stdlib.h>\n__attribute__((export_name("f"))) int f(int n);\nint f(int n) { char *p = malloc((size_t)n); free(p); return n; }\n' >"$tmp/p.c"
if ! "$cc" --target=wasm32-wasi -nostdlibinc -isystem "$res/include" -isystem /usr/include/wasm32-wasi \
	-O2 -c -o "$tmp/p.o" "$tmp/p.c" >"$tmp/log" 2>&1; then
	echo "'$cc' does not compile for wasm32-wasi: $(head -n 1 "$tmp/log")"
	exit 1
fi
if ! "$cc" --target=wasm32-wasi -mexec-model=reactor -o "$tmp/p.wasm" "$tmp/p.o" >"$tmp/log" 2>&1; then
	echo "'$cc' does not link for wasm32-wasi (Debian packages lld and libclang-rt-14-dev-wasm32): $(grep -m 1 -i 'error\|not found' "$tmp/log")"
	exit 1
fi
exit 0
