"""`pip install ./python` into a virtual environment, and the package used
from there, outside the source tree, with CARC_LIBRARY naming the library.

Debian's own pip is externally managed (PEP 668), so the package goes into
a venv made with Debian's python3 -m venv. The install is offline: no
index, and the build uses the setuptools and wheel already there
(--no-build-isolation; the venv sees Debian's python3-wheel through
--system-site-packages).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from common import TOP

SAMPLE = os.path.join(TOP, "samples", "full-game-2-players.cgn")


class InstallTest(unittest.TestCase):

    def test_pip_install_into_venv(self):
        tmp = tempfile.mkdtemp()
        try:
            venv = os.path.join(tmp, "venv")
            p = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if p.returncode:
                self.skipTest("python3 -m venv fails here (Debian: python3-venv): %s" % p.stdout.decode()[-200:])
            src = os.path.join(tmp, "src")  # a copy: the build writes beside the sources
            shutil.copytree(os.path.join(TOP, "python"), src, ignore=shutil.ignore_patterns("__pycache__"))
            pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--quiet", "--no-index",
                   "--no-build-isolation", src]
            p = subprocess.run(pip, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=tmp)
            self.assertEqual(p.returncode, 0, p.stdout.decode())
            code = ("import carc, sys; g = next(carc.read(sys.argv[1])); "
                    "print(carc.__file__); print(g.scores); print(carc.library_path())")
            env = dict(os.environ)
            env.pop("PYTHONPATH", None)
            env["CARC_LIBRARY"] = os.environ.get("CARC_LIBRARY") or os.path.join(TOP, "build", "lib", "libcarc.so.0")
            p = subprocess.run([os.path.join(venv, "bin", "python"), "-c", code, SAMPLE], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, cwd=tmp, env=env)
            out = p.stdout.decode()
            self.assertEqual(p.returncode, 0, out)
            where, scores, lib = out.splitlines()[:3]
            self.assertTrue(where.startswith(venv), where)  # the installed copy, not the tree's
            self.assertEqual(scores, "{'red': 73, 'green': 81}")
            self.assertEqual(lib, env["CARC_LIBRARY"])
        finally:
            shutil.rmtree(tmp)

    def test_missing_library_says_so(self):
        env = dict(os.environ, CARC_LIBRARY="/nonexistent/libcarc.so.0", PYTHONPATH=os.path.join(TOP, "python"))
        p = subprocess.run([sys.executable, "-c", "import carc"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=env)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("cannot load libcarc", p.stdout.decode())
        self.assertIn("CARC_LIBRARY", p.stdout.decode())


if __name__ == "__main__":
    unittest.main()
