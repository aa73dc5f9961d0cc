"""Runs the Python tests (unittest) and prints "N passed, N failed, N skipped".

    CARC=build/carc CARC_LIBRARY=build/libcarc.so.0 PYTHONPATH=python \
        /usr/bin/python3 tests/python/runtests.py [PATTERN]

Each failure is listed with a line starting "FAIL " (tests/run.sh shows
those), each skip with "skip: " and its reason.
"""

import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)

pattern = sys.argv[1] if len(sys.argv) > 1 else "test_*.py"
suite = unittest.defaultTestLoader.discover(here, pattern=pattern, top_level_dir=here)
result = unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite)
for test, _ in result.failures + result.errors:
    print("FAIL %s" % test.id())
for test, why in result.skipped:
    print("skip: %s: %s" % (test.id(), why))
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
skipped = len(result.skipped)
passed = result.testsRun - failed - skipped
print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
sys.exit(1 if failed else 0)
