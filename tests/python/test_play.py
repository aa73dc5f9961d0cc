"""carc.Game played from Python, refereed by the command line.

1,000 random games through carc.Game, over every rule set and expansion
(base with each farm edition and 1 to 6 players, solo with three and four
colours, Hunters and Gatherers, and each expansion `carc gen --help` lists
with each rule set it plays with, then all of a rule set's together), written with Game.cgn() and checked by `carc check`: every one
must be valid, its Result (the final scores Python saw) agreeing with
check's own scoring. Then illegal moves: each raises carc.IllegalMove with
the code and message that `carc check` prints for the same line in a
record, and leaves the game as it was. Then draw, clone and the rest of
the interface.
"""

import os
import random
import re
import tempfile
import unittest

import carc
from common import json_lines, run

GAMES = int(os.environ.get("PYTHON_GAMES", "1000"))

# (rules, expansions, players, edition), in turn
SETUPS = [
    ("base", (), 2, 0), ("base", (), 3, 0), ("base", (), 4, 0), ("base", (), 5, 0), ("base", (), 6, 0),
    ("base", (), 1, 0), ("base", (), 2, 1), ("base", (), 3, 2),
    ("solo", (), 3, 0), ("solo", (), 4, 0),
    ("hunters", (), 2, 0), ("hunters", (), 3, 0), ("hunters", (), 5, 0),
]


def expansions():
    """Each expansion carc plays and the rule sets it plays with, as `carc
    gen --help` lists them ("river (with base or solo), abbot (with base)"),
    so that an expansion added to carc is played here too."""
    _, out, _ = run(["gen", "--help"])
    listed = out[out.index("[Expansions]:"):] if "[Expansions]:" in out else ""
    listed = listed.split("\n  -", 1)[0]
    found = re.findall(r"([a-z][\w-]*) \(with ([^)]*)\)", listed)
    return [(name, tuple(re.split(r",? or |, ", rules))) for name, rules in found]


EXPANSIONS = expansions()
for _name, _rules in EXPANSIONS:
    for _r in _rules:
        SETUPS.append((_r, (_name,), 3 if _r == "solo" else 2, 0))
        if _r == "base":
            SETUPS.append((_r, (_name,), 4, 0))
for _r in ("base", "solo"):  # every expansion of the rule set at once
    _all = tuple(n for n, rules in EXPANSIONS if _r in rules)
    if len(_all) > 1:
        SETUPS.append((_r, _all, 3 if _r == "solo" else 5, 0))

def random_game(setup, seed):
    rules, expansions, players, edition = setup
    rng = random.Random(seed)
    g = carc.Game(players=players, rules=rules, expansions=expansions, seed=seed, edition=edition)
    while not g.over:
        g.draw()
        moves = g.legal_moves()
        g.play(moves[rng.randrange(len(moves))])
    return g


class RandomGamesTest(unittest.TestCase):

    def test_every_expansion_is_played(self):
        names = {n for n, _ in EXPANSIONS}
        self.assertTrue({"river", "abbot"} <= names, EXPANSIONS)
        self.assertEqual(names, {e for setup in SETUPS for e in setup[1]})

    def test_random_games_check_clean(self):
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "played.cgn")
        seen = set()
        with open(path, "w") as out:
            for k in range(GAMES):
                setup = SETUPS[k % len(SETUPS)]
                g = random_game(setup, 1000 + k)
                self.assertTrue(g.over)
                self.assertIsNone(g.to_move)
                self.assertTrue(g.final, setup)
                text = g.cgn()
                self.assertIn("[Result ", text)
                out.write(text)
                out.write("\n")
                seen.add(setup)
        self.assertEqual(len(seen), min(GAMES, len(SETUPS)))
        status, out, err = run(["check", "-q", "--format", "json", path])
        results = json_lines(out)
        self.assertEqual(len(results), GAMES)
        bad = [(r["game"], r["diagnostics"][:2]) for r in results if not r["valid"] or r["warnings"]]
        self.assertEqual(bad, [], "games carc check refuses (kept in %s)" % path)
        self.assertEqual(status, 0, err)
        os.remove(path)
        os.rmdir(tmp)

    def test_bonus_turns_are_played(self):
        # a bonus turn "N+" comes when the rules give one: Hunters and
        # Gatherers' gold (from the bonus stack) and The Traders' builder
        # (the next land tile; the library once gave it only from a bonus stack)
        for setup in (("hunters", (), 2, 0), ("base", ("traders-builders",), 3, 0)):
            if setup[1] and setup[1][0] not in {n for n, _ in EXPANSIONS}:
                continue
            bonus = 0
            for seed in range(20):
                text = random_game(setup, 500 + seed).cgn()
                bonus += len(re.findall(r"^[0-9]+\+ ", text, re.M))
            self.assertGreater(bonus, 0, setup)

    def test_cgn_reads_back(self):
        """A finished game's text, read back, has its scores, turns and map."""
        for setup in (SETUPS[0], SETUPS[8], SETUPS[10], SETUPS[-1]):
            g = random_game(setup, 7)
            back = carc.Game.from_cgn(g.cgn())
            self.assertTrue(back.valid, [str(d) for d in back.diagnostics])
            self.assertEqual(back.scores, g.scores, setup)
            self.assertEqual([str(t.move) for t in back.turns], [str(t.move) for t in g.turns], setup)
            self.assertEqual([(t.id, t.x, t.y, t.rotation) for t in back.tiles],
                             [(t.id, t.x, t.y, t.rotation) for t in g.tiles], setup)


def first_turn(**kw):
    g = carc.Game(**kw)
    g.draw()
    return g


class IllegalMoveTest(unittest.TestCase):
    """Each illegal move raises with check's code and message."""

    def check_line(self, g, move_text):
        """What carc check says of the game so far with move_text as the next turn."""
        colour = g.to_move
        number = max((t.number for t in g.turns), default=0) + 1
        text = g.cgn().rstrip("\n") + "\n%d. %s %s\n" % (number, colour, move_text)
        status, out, _ = run(["check", "--format", "json", "-"], input=text.encode())
        errors = [d for d in json_lines(out)[0]["diagnostics"] if d["severity"] == "error"]
        self.assertTrue(errors, "check finds %r legal" % move_text)
        return errors[0]

    def assert_refused(self, g, move):
        before = g.cgn()
        drawn = g.drawn
        with self.assertRaises(carc.IllegalMove) as e:
            g.play(move)
        want = self.check_line(g, str(move) if isinstance(move, carc.Move) else move)
        self.assertEqual((e.exception.code, e.exception.message), (want["code"], want["message"]))
        self.assertEqual(g.cgn(), before)  # nothing changed
        self.assertEqual(g.drawn, drawn)
        return e.exception

    def test_cell_taken(self):
        g = first_turn(players=2, seed=3)
        e = self.assert_refused(g, carc.Move(g.drawn, 0, 0, 0))
        self.assertEqual(e.code, "E201")

    def test_not_adjacent(self):
        g = first_turn(players=2, seed=3)
        e = self.assert_refused(g, carc.Move(g.drawn, 5, 5, 0))
        self.assertEqual(e.code, "E202")

    def test_edges_clash(self):
        g = first_turn(players=2, seed=4)
        legal = {(m.x, m.y, m.rotation) for m in g.legal_moves()}
        for x, y in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            for rot in (0, 90, 180, 270):
                if (x, y, rot) not in legal:
                    e = self.assert_refused(g, carc.Move(g.drawn, x, y, rot))
                    self.assertEqual(e.code, "E203")
                    return
        self.skipTest("the tile fits every way")

    def test_deployment_refused(self):
        g = first_turn(players=2, seed=5)
        m = next(m for m in g.legal_moves() if not m.role and not m.discard)
        # a spot the tile does not have a feature of the role's kind at, or a role the rules lack
        e = self.assert_refused(g, "%s wizard N" % str(m))
        self.assertTrue(e.code.startswith("E"))

    def test_wrong_tile(self):
        g = first_turn(players=2, seed=6)
        other = next(t for t in ("A", "B", "C", "D", "E") if t != g.drawn)
        with self.assertRaises(carc.CarcError):
            g.play(carc.Move(other, 0, 1, 0))
        self.assertEqual(g.drawn is not None, True)

    def test_illegal_move_is_an_exception_with_code(self):
        g = first_turn(players=2, seed=3)
        try:
            g.play(carc.Move(g.drawn, 0, 0, 0))
        except carc.IllegalMove as e:
            self.assertIsInstance(e, carc.CarcError)
            self.assertEqual(e.code, "E201")
            self.assertIn("E201", str(e))
            self.assertEqual(e.diagnostic.code, "E201")
        else:
            self.fail("no IllegalMove")


class InterfaceTest(unittest.TestCase):

    def test_issue_example(self):
        g = carc.Game(players=["red", "green"], expansions=["river"], seed=7)
        self.assertEqual(g.players, ["red", "green"])
        tile = g.draw()
        self.assertEqual(tile, g.drawn)
        moves = g.legal_moves()
        self.assertGreater(len(moves), 0)
        g.play(moves[0])
        self.assertEqual(len(g.turns), 1)
        self.assertEqual(str(g.turns[0].move), str(moves[0]))
        self.assertEqual(set(g.scores), {"red", "green"})
        self.assertFalse(g.over)
        c = g.clone()
        self.assertEqual(c.cgn(), g.cgn())
        self.assertIn("[Expansions \"river\"]", g.cgn())

    def test_clone_is_independent(self):
        g = carc.Game(players=3, seed=11)
        for _ in range(5):
            g.draw()
            g.play(g.legal_moves()[0])
        before = g.cgn()
        c = g.clone()
        rng = random.Random(1)
        while not c.over:
            c.draw()
            c.play(rng.choice(c.legal_moves()))
        self.assertTrue(c.over)
        self.assertEqual(g.cgn(), before)
        self.assertFalse(g.over)
        self.assertEqual(len(g.turns), 5)

    def test_draw_named(self):
        g = carc.Game(players=2, seed=1)
        self.assertEqual(g.draw("U"), "U")
        with self.assertRaises(carc.StateError):
            g.draw()
        g2 = carc.Game(players=2, seed=1)
        with self.assertRaises(carc.InvalidArgument):
            g2.draw("no-such-tile")

    def test_play_before_draw(self):
        g = carc.Game(players=2, seed=1)
        with self.assertRaises(carc.StateError):
            g.legal_moves()

    def test_moves_text_round_trip(self):
        g = first_turn(players=2, seed=9)
        for m in g.legal_moves():
            self.assertEqual(carc.Move.parse(str(m)), m)
        m = g.legal_moves()[-1]
        g.play(str(m))  # as text
        self.assertEqual(str(g.turns[0].move), str(m))

    def test_bad_setup(self):
        with self.assertRaises(carc.InvalidArgument):
            carc.Game(rules="chess")
        with self.assertRaises(carc.InvalidArgument):
            carc.Game(expansions=["inns-and-dragons"])

    def test_seed_repeats(self):
        a = random_game(SETUPS[0], 42)
        b = random_game(SETUPS[0], 42)
        self.assertEqual(a.cgn(), b.cgn())

    def test_position_of_a_played_game(self):
        g = random_game(SETUPS[0], 3)
        n = len(g.turns)
        g.seek(n // 2)
        self.assertEqual(g.scores, g.turns[n // 2 - 1].scores)
        self.assertFalse(g.final)
        g.seek(None)
        self.assertTrue(g.final)


if __name__ == "__main__":
    unittest.main()
