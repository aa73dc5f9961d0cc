#!/bin/sh
# tests/python/run.sh - the Python package (python/carc) against the command line.
#
#   CARC=build/carc BUILD=build sh tests/python/run.sh
#
# Runs the unittest suites of tests/python/ with Debian's /usr/bin/python3
# (not whatever python3 comes first on PATH) over $BUILD/lib/libcarc.so.0,
# the shared library `make` builds: every record of the project read
# through carc.read against `carc score` and `carc check`, 1,000 random
# games played through carc.Game checked by `carc check` (PYTHON_GAMES
# sizes it), illegal moves against check's codes and messages, the
# examples of python/examples/, and `pip install` into a venv. Prints "N
# passed, N failed, N skipped". Skipped, and said why, when there is no
# Python 3 or no shared library, and under the sanitizers (an instrumented
# library cannot be loaded into an uninstrumented python).
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
lib=$BUILD/lib/libcarc.so.0
if [ ! -x "$PYTHON" ]; then
	echo "skip: python: no $PYTHON (Debian package python3)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
if [ ! -f "$lib" ]; then
	echo "skip: python: no $lib (make lib builds it)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
if nm -D "$lib" 2>/dev/null | grep -q __asan_; then
	echo "skip: python: $lib is built with the sanitizers"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
export CARC BUILD CARC_LIBRARY="$lib" NO_COLOR=1
export PYTHONPATH="$top/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1
cd "$top" && "$PYTHON" tests/python/runtests.py
