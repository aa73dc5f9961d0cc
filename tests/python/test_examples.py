"""The examples in python/examples/ run, and what they play checks clean.

Each example plays (a random player over several rule sets and
expansions, a greedy player using clones and projected finals, a tiny
Monte Carlo search using clones) and writes its games as CGN: `carc check`
must find every game valid.
"""

import os
import subprocess
import sys
import unittest

from common import TOP, run

EXAMPLES = os.path.join(TOP, "python", "examples")


def example(name, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
    p = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, cwd=EXAMPLES)
    return p.returncode, p.stdout, p.stderr.decode()


class ExamplesTest(unittest.TestCase):

    def checks_clean(self, cgn, games):
        status, out, err = run(["check", "-"], input=cgn)
        self.assertEqual(status, 0, err)
        self.assertIn("%d game%s, %d valid" % (games, "" if games == 1 else "s", games), out + err)

    def test_random_player(self):
        for args, games in ((["--games", "3"], 3), (["--expansions", "river", "abbot", "--players", "3"], 1),
                            (["--rules", "solo"], 1), (["--rules", "hunters", "--players", "4"], 1)):
            status, out, err = example("random_player.py", *args)
            self.assertEqual(status, 0, err)
            self.checks_clean(out, games)

    def test_greedy_player(self):
        status, out, err = example("greedy_player.py", "--seed", "3", "--turns", "12")
        self.assertEqual(status, 0, err)
        self.assertIn("greedy", err)
        self.checks_clean(out, 1)

    def test_monte_carlo(self):
        status, out, err = example("monte_carlo.py", "--seed", "5", "--turns", "4", "--moves", "4",
                                   "--playouts", "2")
        self.assertEqual(status, 0, err)
        self.assertIn("search", err)
        self.checks_clean(out, 1)


if __name__ == "__main__":
    unittest.main()
