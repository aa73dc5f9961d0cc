"""README.md's Python example runs, and prints what its comment says."""

import contextlib
import io
import os
import re
import unittest

from common import TOP


class ReadmeTest(unittest.TestCase):

    def test_from_python_example(self):
        with open(os.path.join(TOP, "README.md")) as f:
            text = f.read()
        section = text[text.index("## From Python"):]
        code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        said = re.search(r"# (full game.*)", code).group(1).strip()
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(TOP)
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, "README.md", "exec"), {})
        finally:
            os.chdir(cwd)
        self.assertEqual(out.getvalue().splitlines()[0], said)


if __name__ == "__main__":
    unittest.main()
