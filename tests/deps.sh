#!/bin/sh
# tests/deps.sh - make sure the compiler and the libraries carc builds
# against are present, and install what is missing (Debian and Ubuntu).
#
#   CC=cc DEPS_CFLAGS='...' DEPS_LOG=build/deps.log sh tests/deps.sh
#
# First the C compiler ($CC, default cc; Debian's build-essential, or
# clang for CC=clang*): is it there, and does it build a program (with
# DEPS_CFLAGS, the sanitizers' flags for make asan)? Only
# then are the libraries probed, by compiling against them: libyaml
# (libyaml-dev), jansson (libjansson-dev) for the JSON it imports, zlib
# (zlib1g-dev) and libzstd (libzstd-dev) for compressed archives, and, for
# its tests, cmocka (libcmocka-dev). PNG pictures use librsvg
# (librsvg2-dev, found with pkg-config), loaded only when a PNG is asked
# for. The man-page test lints with mandoc or groff (groff-base). The
# Python package's tests use Debian's python3, python3-venv and
# python3-wheel. carc recorder's engine needs clang for wasm32-wasi (clang
# lld wasi-libc libclang-rt-14-dev-wasm32): installed when it can be, never
# required. So are the tests' own tools (parallel, zstd, time). Without a
# compiler the libraries cannot be probed by compiling: then dpkg says which
# of their packages are missing.
#
# What is missing is installed with apt-get: as root directly; otherwise
# through sudo, without a question when sudo needs no password, asking for
# it when standard input is the terminal, and else stopping with the exact
# command to copy. apt-get's output goes to $DEPS_LOG and is shown when it
# fails. After one install everything is probed again, once: what is still
# missing is named and the script exits 1. It never loops.
cc=${CC:-cc}
log=${DEPS_LOG:-build/deps.log}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
set -- $cc
ccbin=${1:-cc}
case $(basename "$ccbin") in
clang*) ccpkg=clang ;;
*) ccpkg=build-essential ;;
esac

# compiler_ok: is $cc there, and does it compile and link a program? Sets
# why (one line) when not.
compiler_ok() {
	if ! command -v "$ccbin" >/dev/null 2>&1; then
		why="no C compiler: '$ccbin' is not installed (Debian package $ccpkg)"
		return 1
	fi
	printf 'int main(void){return 0;}\n' >"$tmp/probe.c"
	# shellcheck disable=SC2086
	if ! $cc ${DEPS_CFLAGS:-} -o "$tmp/probe" "$tmp/probe.c" >"$tmp/cc.log" 2>&1; then
		# clang's sanitizer runtime is a package of its own (libclang-rt-14-dev on Debian 12)
		if [ "$ccpkg" = clang ] && [ -n "${DEPS_CFLAGS:-}" ]; then
			v=$($cc -dumpversion 2>/dev/null | cut -d. -f1)
			[ -n "$v" ] && ccpkg="clang libclang-rt-$v-dev"
		fi
		why="the C compiler '$cc' cannot build a program (Debian package $ccpkg): $(head -n 2 "$tmp/cc.log" | tr '\n' ' ')"
		return 1
	fi
	return 0
}

# have HEADER LIBS [CFLAGS]: does a program including HEADER link with LIBS?
have() {
	printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <%s>\nint main(void){return 0;}\n' "$1" >"$tmp/have.c"
	# shellcheck disable=SC2086
	$cc ${3:-} -o "$tmp/have" "$tmp/have.c" $2 >/dev/null 2>&1
}

# installed PACKAGE: does dpkg know it as installed? (when no compiler can tell)
installed() {
	command -v dpkg-query >/dev/null 2>&1 || return 1
	[ "$(dpkg-query -W -f '${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# probe: sets missing (packages, leading space each) and why (the compiler's trouble).
probe() {
	missing=""
	why=""
	if compiler_ok; then
		have yaml.h -lyaml || missing="$missing libyaml-dev"
		have cmocka.h -lcmocka || missing="$missing libcmocka-dev"
		have jansson.h -ljansson || missing="$missing libjansson-dev"
		have zlib.h -lz || missing="$missing zlib1g-dev"
		have zstd.h -lzstd || missing="$missing libzstd-dev"
		if ! command -v pkg-config >/dev/null 2>&1; then
			missing="$missing pkg-config"
			installed librsvg2-dev || missing="$missing librsvg2-dev"
		else
			have librsvg/rsvg.h "$(pkg-config --libs librsvg-2.0 2>/dev/null || echo -lrsvg-2)" \
				"$(pkg-config --cflags librsvg-2.0 2>/dev/null)" || missing="$missing librsvg2-dev"
		fi
	else
		missing=" $ccpkg"
		for p in libyaml-dev libcmocka-dev libjansson-dev zlib1g-dev libzstd-dev librsvg2-dev pkg-config; do
			installed "$p" || missing="$missing $p"
		done
	fi
	command -v mandoc >/dev/null 2>&1 || command -v groff >/dev/null 2>&1 || missing="$missing groff-base"
	# the Python package's tests (tests/python): Debian's own python3, its
	# venv module (pip install into a venv) and wheel (which that install
	# builds with, offline)
	if [ -x /usr/bin/python3 ]; then
		/usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing="$missing python3-venv"
		/usr/bin/python3 -c 'import wheel' >/dev/null 2>&1 || missing="$missing python3-wheel"
	else
		missing="$missing python3 python3-venv python3-wheel"
	fi
}

# The WebAssembly toolchain of carc recorder's page (tests/wasm.sh probes
# it): clang for wasm32-wasi, lld, wasi-libc and the compiler's runtime.
# An optional group, as the browser is: installed when it can be, never
# required; without it carc builds and tests everything else, and `carc
# recorder` says what is missing. $1: "sudo" or "" (as root).
wasm_pkgs="clang lld wasi-libc libclang-rt-14-dev-wasm32"
optional_wasm() {
	[ -f "$(dirname "$0")/wasm.sh" ] || return 0
	sh "$(dirname "$0")/wasm.sh" >/dev/null 2>&1 && return 0
	command -v apt-get >/dev/null 2>&1 || return 0
	# shellcheck disable=SC2086
	${1:-} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $wasm_pkgs >/dev/null 2>&1 || true
}

# Tools that only tests use, each test skipping its part without them (and
# saying so): GNU parallel (tests/archive), zstd to compress with
# (tests/archive, hostile, python) and GNU time to measure memory
# (/usr/bin/time, tests/archive). The Debian packages of those missing.
test_tools() {
	t=""
	command -v parallel >/dev/null 2>&1 || t="$t parallel"
	command -v zstd >/dev/null 2>&1 || t="$t zstd"
	[ -x /usr/bin/time ] || t="$t time"
	printf "%s\n" "${t# }"
}

probe
if [ -z "$missing" ]; then
	# the tests' own tools (test_tools, above): installed when they can be, never required
	if [ -n "$(test_tools)" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		# shellcheck disable=SC2046
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(test_tools) >/dev/null 2>&1 || true
	fi
	[ "$(id -u)" = 0 ] && optional_wasm ""
	exit 0
fi

[ -n "$why" ] && echo "carc: $why" >&2
echo "carc: the build needs these Debian/Ubuntu packages:$missing" >&2
cmd="apt-get install -y$missing"

if ! command -v apt-get >/dev/null 2>&1; then
	echo "carc: no apt-get here: install the packages above (or their equivalents) with your system's package manager" >&2
	exit 1
fi
if [ "$(id -u)" = 0 ]; then
	sudo=""
elif ! command -v sudo >/dev/null 2>&1; then
	echo "carc: you are not root and sudo is not installed: as root, run" >&2
	echo "    apt-get update && $cmd" >&2
	exit 1
elif sudo -n true 2>/dev/null; then
	sudo="sudo"
elif [ -t 0 ] && (: </dev/tty) 2>/dev/null; then
	# (a terminal on standard input, and the controlling one sudo asks on:
	# not so under su -c, which starts a new session without one)
	echo "carc: installing them with sudo: it may ask for your password" >&2
	sudo="sudo"
else
	echo "carc: sudo needs a password and there is no terminal to ask it on: run" >&2
	echo "    sudo apt-get update && sudo $cmd" >&2
	echo "carc: then run make again" >&2
	exit 1
fi

mkdir -p "$(dirname "$log")"
: >"$log"
echo "carc: running ${sudo:+$sudo }apt-get update and ${sudo:+$sudo }$cmd (output in $log; a minute or more)" >&2
# apt-get's errors (standard error) are shown as they come; its progress goes to the log
# shellcheck disable=SC2086
if ! $sudo apt-get update -q >>"$log" 2>&1; then
	echo "carc: apt-get update failed:" >&2
	tail -n 20 "$log" >&2
	exit 1
fi
# shellcheck disable=SC2086
if ! $sudo env DEBIAN_FRONTEND=noninteractive $cmd >>"$log" 2>&1; then
	echo "carc: apt-get install failed:" >&2
	tail -n 20 "$log" >&2
	echo "carc: the command was: ${sudo:+$sudo }$cmd" >&2
	exit 1
fi

# the tests' own tools (see test_tools), when they can be had
if [ -n "$(test_tools)" ]; then
	# shellcheck disable=SC2086,SC2046
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $(test_tools) >>"$log" 2>&1 || true
fi

probe
if [ -n "$missing" ]; then
	[ -n "$why" ] && echo "carc: $why" >&2
	echo "carc: still missing after the install:$missing (see $log)" >&2
	exit 1
fi
# and, everything required being there, the page's WebAssembly toolchain (see above)
optional_wasm "$sudo"
echo "carc: build dependencies installed" >&2
exit 0
