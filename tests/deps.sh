#!/bin/sh
# tests/deps.sh - make sure the libraries carc builds against are present.
#
# carc needs libyaml (package libyaml-dev), jansson (libjansson-dev) for
# the JSON it imports, zlib (zlib1g-dev) and libzstd (libzstd-dev) for
# compressed archives, and, for its tests, cmocka (libcmocka-dev). PNG
# pictures use librsvg (librsvg2-dev), loaded only when a PNG is asked for,
# so that every other command starts as fast as before. When a header is missing this installs the Debian package
# with apt-get (through sudo when not root); when that is not possible it
# stops with one line naming the package to install.
cc=${CC:-cc}
missing=""
have() {
	printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <%s>\nint main(void){return 0;}\n' "$1" \
		| $cc -x c ${3:-} -o /dev/null - $2 >/dev/null 2>&1
}
have yaml.h -lyaml || missing="$missing libyaml-dev"
have cmocka.h -lcmocka || missing="$missing libcmocka-dev"
have jansson.h -ljansson || missing="$missing libjansson-dev"
have zlib.h -lz || missing="$missing zlib1g-dev"
have zstd.h -lzstd || missing="$missing libzstd-dev"
have librsvg/rsvg.h "$(pkg-config --libs librsvg-2.0 2>/dev/null || echo -lrsvg-2)" "$(pkg-config --cflags librsvg-2.0 2>/dev/null)" \
	|| missing="$missing librsvg2-dev pkg-config"
# the man-page test lints with mandoc, or groff (Debian's groff-base)
command -v mandoc >/dev/null 2>&1 || command -v groff >/dev/null 2>&1 || missing="$missing groff-base"
# GNU parallel (Debian parallel) only for a test (tests/archive), which
# skips its part without it: installed when it can be, never required.
if ! command -v parallel >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq parallel >/dev/null 2>&1 || true
fi
[ -z "$missing" ] && exit 0

echo "carc: installing missing build dependencies:$missing" >&2
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else sudo=none; fi
if [ "$sudo" != none ] && command -v apt-get >/dev/null 2>&1; then
	$sudo apt-get update -qq >/dev/null 2>&1
	# shellcheck disable=SC2086
	if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null 2>&1; then
		exit 0
	fi
fi
echo "carc: missing build dependencies: please install the packages$missing (Debian/Ubuntu names)" >&2
exit 1
