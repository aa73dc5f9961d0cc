#!/bin/sh
# tests/bench/python.sh - make bench's figures of the Python package
# (tests/bench/python.py says which), with Debian's python3 over the
# shared library of the build.
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
CARC=${CARC:-$BUILD/carc}
lib=$BUILD/lib/libcarc.so.0
if [ ! -x /usr/bin/python3 ] || [ ! -f "$lib" ]; then
	echo "python: skipped: no /usr/bin/python3 or no $lib"
	exit 0
fi
cd "$top" && CARC="$CARC" CARC_LIBRARY="$lib" PYTHONPATH="$top/python" /usr/bin/python3 tests/bench/python.py "${PYTHON_BENCH_GAMES:-200}"
