#!/bin/sh
# tests/browser/run.sh - the replay page in headless Chromium (run.js).
#
#   CARC=build/carc BUILD=build sh tests/browser/run.sh [--required]
#
# Needs Debian's chromium (CHROMIUM, default /usr/bin/chromium), node, and
# playwright-core installed by `npm ci` in tests/browser (pinned in its
# package-lock.json; it downloads no browser). Without them it says so and
# counts nothing, unless --required (make check-browser), which makes their
# absence a failure. A node older than playwright-core's "engines" asks for
# is such an absence, named with both versions (playwright-core is pinned
# to one that runs on Debian 12's Node 18). When the tests stop before their
# summary (node or Chromium fails to start), the last lines they printed are
# shown. Prints "N passed, N failed".
# CARC_BROWSER=skip skips them, saying so (make asan and check-portable: the
# page's script is the same whatever the C was built with, and the suite
# takes minutes; it runs once, in make check and make check-browser).
if [ "${CARC_BROWSER:-}" = skip ] && [ "${1:-}" != --required ]; then
	echo "skip: the browser tests: CARC_BROWSER=skip (the page does not depend on how carc was built: make check and make check-browser run them)"
	echo "0 passed, 0 failed"
	exit 0
fi
# CARC_BROWSER=required: as --required (CI's make check).
[ "${CARC_BROWSER:-}" = required ] && set -- --required
top=$(cd "$(dirname "$0")/../.." && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
missing=""
[ -x "$CHROMIUM" ] || missing="$missing chromium ($CHROMIUM; apt-get install chromium)"
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -d "$top/tests/browser/node_modules/playwright-core" ] ||
	missing="$missing playwright-core (cd tests/browser && npm ci)"
pw=$top/tests/browser/node_modules/playwright-core/package.json
if [ -z "$missing" ] && [ -f "$pw" ]; then
	# the oldest node playwright-core runs on: its engines, ">=18"
	need=$(node -p "((require('$pw').engines || {}).node || '').replace(/[^0-9.]/g, '').split('.')[0] || 0" 2>/dev/null)
	have=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)
	if [ -n "$need" ] && [ -n "$have" ] && [ "$have" -lt "$need" ]; then
		missing="$missing node >= $need for playwright-core $(node -p "require('$pw').version") (this node is $(node --version))"
	fi
fi
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
out=$(mktemp) || exit 2
CHROMIUM=$CHROMIUM node "$top/tests/browser/run.js" >"$out" 2>&1
status=$?
cat "$out"
if ! grep -q -E '^[0-9]+ passed, [0-9]+ failed' "$out"; then
	echo "FAIL the browser tests stopped (node exit $status) before their summary; their last lines:"
	tail -n 15 "$out" | sed 's/^/    /'
	echo "0 passed, 1 failed"
	status=1
fi
rm -f "$out"
exit $status
