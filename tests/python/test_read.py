"""carc.read against the command line.

Every record of the project (samples/, the golden tests' inputs, every
test folder's records: base, solo, Hunters and Gatherers, The River, The
Abbot, tournaments, results only, illegal and broken games) is read through
carc.read and compared, game by game, with what `carc score --format json`
and `carc check --format json` print for it: tags, verdict, every
diagnostic (code, severity, message, file, line, column), each turn's move
and running scores, the final scoring and the scores. Then the inputs
other than a plain file (gzip, zstd, memory, streams), positions part-way
with their projected finals against `carc score --projected`, and the map's
features against `carc score --features`.
"""

import gzip
import io
import os
import shutil
import subprocess
import tempfile
import unittest

import carc
from common import TOP, corpus, json_lines, run


def deploy_of(move):
    """A Move's deployment as score's JSON gives it."""
    if move.role:
        return {"role": move.role, "spot": move.spot}
    return None


class CorpusTest(unittest.TestCase):
    """One test per file of the corpus (made below)."""

    def compare(self, rel):
        path = os.path.join(TOP, rel)
        _, out, _ = run(["score", "--format", "json", rel])
        scored = json_lines(out)
        _, out, _ = run(["check", "--format", "json", rel])
        checked = json_lines(out)
        try:
            games = list(carc.read(rel if not rel.startswith("/") else path))
        except carc.ReadError:
            games = None
        if games is None:  # unreadable: check says so too (its games before it aside)
            self.assertTrue(any(not c.get("valid", True) for c in checked) or not checked, rel)
            return
        self.assertEqual(len(games), len(checked), "%s: games read, against check's" % rel)
        by_game = {s["game"]: s for s in scored}
        for g, c in zip(games, checked):
            where = "%s game %d" % (rel, c["game"])
            self.assertEqual(g.tags, c["tags"], where)
            self.assertEqual(g.valid, c["valid"], where)
            # (check's "errors" counts a header error once more when it also
            # kept the tile set from loading, E015: the messages are compared)
            self.assertEqual(g.warnings, c["warnings"], where)
            want = [(d["code"], d["severity"], d["message"], d.get("file"), d.get("line", 0), d.get("column", 0))
                    for d in c["diagnostics"]]
            got = [(d.code, d.severity, d.message, d.file, d.line, d.column) for d in g.diagnostics]
            self.assertEqual(got, want, where)
            self.assertEqual(g.scores, c["scores"], where)
            self.assertEqual(g.errors, sum(1 for d in c["diagnostics"] if d["severity"] == "error"), where)
            self.assertEqual(max((t.number for t in g.turns), default=0), c["turns"], where)
            s = by_game.get(c["game"])
            if s is None:  # (score reports every game check reads, but for a tile set it cannot load)
                continue
            self.assertEqual(g.players, [p["colour"] for p in s["players"]], where)
            self.assertEqual(g.names, {p["colour"]: p["name"] for p in s["players"]}, where)
            self.assertEqual(g.final, s["final_scoring"], where)
            if s["scores"] is not None:
                self.assertEqual(g.scores, s["scores"], where)
            self.assertEqual(len(g.turns), len(s["turns"]), where)
            for t, st in zip(g.turns, s["turns"]):
                at = "%s turn %d" % (where, st["turn"])
                self.assertEqual((t.number, t.colour, t.move.tile, t.bonus, t.illegal),
                                 (st["turn"], st["colour"], st["tile"], st.get("bonus", False), not st["legal"]), at)
                self.assertEqual(t.move.discard, st.get("discard", False), at)
                if not t.move.discard:
                    self.assertEqual((t.move.x, t.move.y, t.move.rotation, deploy_of(t.move), t.move.recall),
                                     (st["x"], st["y"], st["rotation"], st["deploy"], st.get("return")), at)
                self.assertEqual(t.scores, st["scores"], at)


def _make(rel):
    return lambda self: self.compare(rel)


for _i, _rel in enumerate(corpus()):
    _name = "test_%03d_%s" % (_i, "".join(ch if ch.isalnum() else "_" for ch in _rel))
    setattr(CorpusTest, _name, _make(_rel))


FULL = os.path.join(TOP, "samples", "full-game-2-players.cgn")
MANY = os.path.join(TOP, "samples", "rule-book-examples.cgn")


def summary(games):
    """What a list of games says, to compare inputs."""
    return [(g.tags, g.valid, [str(d).split(":", 1)[1] for d in g.diagnostics], g.scores,
             [(t.number, str(t.move), t.scores) for t in g.turns]) for g in games]


class InputsTest(unittest.TestCase):
    """The same games from a path, gzip, zstd, memory and streams."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        with open(MANY, "rb") as f:
            cls.text = f.read()
        cls.want = summary(carc.read(MANY))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_gzip(self):
        path = os.path.join(self.tmp, "games.cgn.gz")
        with gzip.open(path, "wb") as f:
            f.write(self.text)
        self.assertEqual(summary(carc.read(path)), self.want)

    def test_zstd(self):
        if not shutil.which("zstd"):
            self.skipTest("no zstd command to compress with")
        path = os.path.join(self.tmp, "games.cgn.zst")
        subprocess.run(["zstd", "-q", "-f", MANY, "-o", path], check=True)
        self.assertEqual(summary(carc.read(path)), self.want)

    def test_memory(self):
        self.assertEqual(summary(carc.read(self.text, name=MANY)), self.want)
        self.assertEqual(summary(carc.read(gzip.compress(self.text), name=MANY)), self.want)

    def test_stream(self):
        with open(MANY, "rb") as f:
            self.assertEqual(summary(carc.read(f, name=MANY)), self.want)
            self.assertFalse(f.closed)  # the caller's, left open
        # a file object with no descriptor under it
        self.assertEqual(summary(carc.read(io.BytesIO(gzip.compress(self.text)), name=MANY)), self.want)

    def test_memory_names_its_messages(self):
        games = list(carc.read(b'[Seats "red green"]\n\n1. red U 0,0 0\n', name="typed.cgn"))
        self.assertEqual(len(games), 1)
        first = games[0].diagnostics[0]
        self.assertEqual((first.code, first.file, first.line), ("E201", "typed.cgn", 3))
        self.assertEqual(str(first).split(": ")[0], "typed.cgn:3:10")
        self.assertFalse(games[0].valid)

    def test_missing_file(self):
        with self.assertRaises(carc.ReadError) as e:
            carc.read(os.path.join(self.tmp, "no-such.cgn"))
        self.assertIn("no-such.cgn", str(e.exception))
        self.assertIsInstance(e.exception, OSError)

    def test_cut_gzip(self):
        """Damaged compressed data: the whole games, then ReadError saying where."""
        data = gzip.compress(self.text * 3)
        path = os.path.join(self.tmp, "cut.cgn.gz")
        with open(path, "wb") as f:
            f.write(data[:len(data) * 2 // 3])
        got = []
        with self.assertRaises(carc.ReadError) as e:
            for g in carc.read(path):
                got.append(g)
        self.assertIn("cut short", str(e.exception))
        self.assertGreater(len(got), 0)

    def test_empty(self):
        self.assertEqual(list(carc.read(b"")), [])
        self.assertEqual(list(carc.read(b"; only a comment\n")), [])

    def test_games_outlive_the_records(self):
        with carc.read(MANY) as games:
            first = next(games)
        self.assertEqual(summary([first]), self.want[:1])
        self.assertGreater(len(first.tiles), 0)


class PositionTest(unittest.TestCase):
    """A game after any turn: scores, projected finals, the map."""

    def test_positions_against_projected(self):
        _, out, _ = run(["score", "--projected", "--format", "json", FULL])
        s = json_lines(out)[0]
        g = next(carc.read(FULL))
        turns = g.turns
        self.assertEqual(g.position, None)
        for k in range(len(turns) + 1):
            g.seek(k)
            self.assertEqual(g.position, k)
            if k:
                self.assertEqual(g.scores, turns[k - 1].scores, "turn %d" % k)
                self.assertEqual(g.projected, s["turns"][k - 1]["projected"], "turn %d" % k)
            placed = sum(1 for t in turns[:k] if not t.move.discard)
            self.assertEqual(len(g.tiles), 1 + placed, "turn %d" % k)
            self.assertFalse(g.final)
            for f in g.followers:
                self.assertLessEqual(f.turn, k)
        g.seek(None)
        self.assertTrue(g.final)
        self.assertTrue(g.over)
        self.assertEqual(g.scores, s["scores"])
        self.assertEqual(g.projected, s["scores"])
        with self.assertRaises(IndexError):
            g.seek(len(turns) + 5)

    def test_positions_walk(self):
        g = next(carc.read(FULL))
        seen = [dict(p.scores) for p in g.positions()]
        self.assertEqual(seen[1:], [t.scores for t in g.turns])
        self.assertIsNone(g.position)

    def test_features_against_score_features(self):
        _, out, _ = run(["score", "--features", "--format", "json", FULL])
        s = json_lines(out)[0]
        g = next(carc.read(FULL))
        tiles = ["%s %d,%d" % (t.id, t.x, t.y) for t in g.tiles]
        got = [(f.name, f.kind, f.complete, [tiles[i] for i in f.tiles]) for f in g.features]
        want = [(f["feature"], f["kind"], f["complete"], f["tiles"]) for f in s["features"]]
        self.assertEqual(got, want)
        for f, w in zip(g.features, s["features"]):
            on_map = [x for x in w["followers"] if x["on_map"]]
            self.assertEqual(f.followers, len(on_map), f.name)
            self.assertEqual(f.scored, bool(w["scoring"]), f.name)
            if w["scoring"]:
                self.assertEqual(f.points, sum(x["points"] for x in w["scoring"]), f.name)
        for fl in g.followers:  # each stands on a feature of the list, on a tile of the map
            self.assertGreaterEqual(fl.feature, 0)
            self.assertIn(fl.tile, g.features[fl.feature].tiles)
            self.assertIn(fl.colour, g.players)

    def test_supply_and_followers(self):
        g = next(carc.read(FULL))
        g.seek(0)
        self.assertEqual(len(g.tiles), 1)
        self.assertEqual(g.supply_left, 71)
        self.assertEqual(g.followers_left, {"red": 7, "green": 7})
        self.assertEqual(g.followers, [])
        for k in range(1, len(g.turns) + 1):
            g.seek(k)
            placed = sum(1 for t in g.turns[:k] if not t.move.discard)
            self.assertEqual(g.supply_left, 71 - placed - sum(1 for t in g.turns[:k] if t.move.discard))
            for colour in g.players:  # a follower is in the supply or on the map
                on_map = sum(1 for f in g.followers if f.colour == colour)
                self.assertEqual(g.followers_left[colour] + on_map, 7, "turn %d" % k)


if __name__ == "__main__":
    unittest.main()
