#!/bin/sh
# tests/browser/run.sh - the replay page in headless Chromium (run.js).
#
#   CARC=build/carc BUILD=build sh tests/browser/run.sh [--required]
#
# Needs Debian's chromium (CHROMIUM, default /usr/bin/chromium), node, and
# playwright-core installed by `npm ci` in tests/browser (pinned in its
# package-lock.json; it downloads no browser). Without them it says so and
# counts nothing, unless --required (make check-browser), which makes their
# absence a failure. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
missing=""
[ -x "$CHROMIUM" ] || missing="$missing chromium ($CHROMIUM; apt-get install chromium)"
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -d "$top/tests/browser/node_modules/playwright-core" ] ||
	missing="$missing playwright-core (cd tests/browser && npm ci)"
if [ -n "$missing" ]; then
	if [ "${1:-}" = --required ]; then
		echo "FAIL the browser tests need:$missing"
		echo "0 passed, 1 failed"
		exit 1
	fi
	echo "skip: the browser tests need:$missing"
	echo "0 passed, 0 failed"
	exit 0
fi
CHROMIUM=$CHROMIUM exec node "$top/tests/browser/run.js"
