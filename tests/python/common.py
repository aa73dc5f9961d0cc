"""What the Python tests share: where the tree, the carc binary and the
corpora are, and running carc."""

import glob
import json
import os
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CARC = os.environ.get("CARC", os.path.join(TOP, "build", "carc"))
if not os.path.isabs(CARC):
    CARC = os.path.join(TOP, CARC)
BUILD = os.environ.get("BUILD", os.path.join(TOP, "build"))
if not os.path.isabs(BUILD):
    BUILD = os.path.join(TOP, BUILD)


def corpus():
    """Every record of the project, relative to TOP: the samples, the golden
    tests' inputs and every test folder's records (plain and compressed)."""
    files = set()
    for pattern in ("samples/**/*.cgn", "tests/**/*.cgn", "tests/**/*.cgn.gz", "tests/**/*.cgn.zst"):
        files.update(glob.glob(os.path.join(TOP, pattern), recursive=True))
    return sorted(os.path.relpath(f, TOP) for f in files)


def run(args, cwd=TOP, input=None):
    """carc ARGS: (status, stdout, stderr), as text."""
    p = subprocess.run([CARC] + list(args), cwd=cwd, input=input, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def json_lines(text):
    """The JSON documents of a JSON Lines output."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]
