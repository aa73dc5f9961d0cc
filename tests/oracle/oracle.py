#!/usr/bin/env python3
"""oracle.py - an independent referee and scorer for base-game CGN records.

This is a second implementation of the base-game rules, written from the rule
books (../shared/rules/, the rulings page) and sharing nothing with src/: its
own tile table (transcribed from the tile pictures, below), its own CGN
reader, and a plain recompute-everything approach (features are found by a
breadth-first walk every time they are needed) instead of the engine's
incremental union-find. It exists to cross-check carc: where both agree on
every turn of many games, neither is likely to be wrong in the same way.

Commands:
  oracle.py check FILE...       replay every game, check legality, claims and
                                Result; one line per game; exit 1 if any game
                                is illegal or has a false claim
  oracle.py annotate FILE       print FILE with a claim of every seated colour's
                                total on every turn line and a Result tag, as
                                this oracle computes them (only for games that
                                it finds legal)
  oracle.py explain FILE        replay and list every scoring event and the map
  oracle.py compare CARC FILE...
                                referee every game with this oracle and with
                                `CARC check`: the verdicts (legal or not) and
                                the scores must agree, and the file annotated
                                with this oracle's per-turn totals must pass
                                `CARC check`; "N passed, N failed" (per game)
  oracle.py gen [--seed N] [--players N] [--edition E] [--claims every|scoring]
                [--deploy PERCENT] [--compact PERCENT] [--style random|greedy]
                                play a random legal 72-tile game and print it

Base game only: games with another Rules or Tileset tag are skipped.
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------- tiles ----
#
# Edges are numbered N=0 E=1 S=2 W=3; half-edges clockwise from the north-west
# corner: NNW=0 NNE=1 ENE=2 ESE=3 SSE=4 SSW=5 WSW=6 WNW=7. Each tile lists its
# segments in its pictured orientation as (kind, ports, extra):
#   road / city: ports are the edges it crosses; extra for a city is its
#   pennant count;
#   field: ports are the half-edges it covers; extra is the list of indices
#   of the city segments of the same tile whose wall bounds it;
#   cloister: no ports.

N, E, S, W = 0, 1, 2, 3
NNW, NNE, ENE, ESE, SSE, SSW, WSW, WNW = range(8)
EDGE_NAMES = ["N", "E", "S", "W"]
HALF_NAMES = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"]
DX = [0, 1, 0, -1]
DY = [1, 0, -1, 0]
ALL_HALVES = list(range(8))


def road(*edges):
    return ("road", tuple(edges), 0)


def city(*edges, pennant=0):
    return ("city", tuple(edges), pennant)


def field(halves, touches=()):
    return ("field", tuple(halves), tuple(touches))


CLOISTER = ("cloister", (), 0)

# letter: (count in the box, the start tile included, segments)
TILES = {
    "A": (2, [CLOISTER, road(S), field(ALL_HALVES)]),
    "B": (4, [CLOISTER, field(ALL_HALVES)]),
    "C": (1, [city(N, E, S, W, pennant=1)]),
    "D": (4, [city(N), road(E, W), field([ENE, WNW], [0]), field([ESE, SSE, SSW, WSW])]),
    "E": (5, [city(N), field([ENE, ESE, SSE, SSW, WSW, WNW], [0])]),
    "F": (2, [city(E, W, pennant=1), field([NNW, NNE], [0]), field([SSE, SSW], [0])]),
    "G": (1, [city(E, W), field([NNW, NNE], [0]), field([SSE, SSW], [0])]),
    "H": (3, [city(E), city(W), field([NNW, NNE, SSE, SSW], [0, 1])]),
    "I": (2, [city(N), city(E), field([SSE, SSW, WSW, WNW], [0, 1])]),
    "J": (3, [city(N), road(E, S), field([ENE, SSW, WSW, WNW], [0]), field([ESE, SSE])]),
    "K": (3, [city(N), road(S, W), field([ENE, ESE, SSE, WNW], [0]), field([SSW, WSW])]),
    "L": (3, [city(N), road(E), road(S), road(W),
              field([ENE, WNW], [0]), field([ESE, SSE]), field([SSW, WSW])]),
    "M": (2, [city(N, W, pennant=1), field([ENE, ESE, SSE, SSW], [0])]),
    "N": (3, [city(N, W), field([ENE, ESE, SSE, SSW], [0])]),
    "O": (2, [city(N, W, pennant=1), road(E, S), field([ENE, SSW], [0]), field([ESE, SSE])]),
    "P": (3, [city(N, W), road(E, S), field([ENE, SSW], [0]), field([ESE, SSE])]),
    "Q": (1, [city(N, E, W, pennant=1), field([SSE, SSW], [0])]),
    "R": (3, [city(N, E, W), field([SSE, SSW], [0])]),
    "S": (2, [city(N, E, W, pennant=1), road(S), field([SSW], [0]), field([SSE], [0])]),
    "T": (1, [city(N, E, W), road(S), field([SSW], [0]), field([SSE], [0])]),
    "U": (8, [road(N, S), field([NNE, ENE, ESE, SSE]), field([SSW, WSW, WNW, NNW])]),
    "V": (9, [road(S, W), field([SSW, WSW]), field([WNW, NNW, NNE, ENE, ESE, SSE])]),
    "W": (4, [road(E), road(S), road(W),
              field([WNW, NNW, NNE, ENE]), field([ESE, SSE]), field([SSW, WSW])]),
    "X": (1, [road(N), road(E), road(S), road(W),
              field([WNW, NNW]), field([NNE, ENE]), field([ESE, SSE]), field([SSW, WSW])]),
}
START_TILE = "D"

ROLE_KIND = {"knight": "city", "thief": "road", "monk": "cloister", "farmer": "field"}
COLOURS = ["red", "green", "blue", "yellow", "black", "gray", "pink"]


def edge_terrain(letter, e):
    """Terrain of pictured edge e: the road or city crossing it, else field."""
    for kind, ports, _ in TILES[letter][1]:
        if kind in ("road", "city") and e in ports:
            return kind
    return "field"


def board_edges(ports, rot):
    return [(p + rot) % 4 for p in ports]


def board_halves(ports, rot):
    return [(p + 2 * rot) % 8 for p in ports]


def opposite_half(h):
    """The half-edge of the neighbour that meets half-edge h."""
    e = h // 2
    return 2 * ((e + 2) % 4) + (1 - h % 2)


# ---------------------------------------------------------------- game ----

class Illegal(Exception):
    pass


class Game:
    def __init__(self, seats, followers=7, edition=3, start=(START_TILE, 0)):
        self.seats = list(seats)
        self.edition = edition
        self.board = {}            # (x, y) -> (letter, rot)
        self.left = {t: c for t, (c, _) in TILES.items()}
        self.left[start[0]] -= 1
        self.supply = {c: followers for c in seats}
        self.score = {c: 0 for c in seats}
        self.followers = []        # [colour, kind, seg, active]
        self.events = []           # (turn, description, points, winners)
        self.table = None          # (width, height) of the Table tag
        self.board[(0, 0)] = start

    # ---- geometry ----
    def segments(self, x, y):
        letter, _ = self.board[(x, y)]
        return TILES[letter][1]

    def terrain(self, x, y, e):
        letter, rot = self.board[(x, y)]
        return edge_terrain(letter, (e - rot) % 4)

    def neighbours_of(self, seg):
        """Segments joined to seg across its tile's edges, and its open ports."""
        x, y, i = seg
        letter, rot = self.board[(x, y)]
        kind, ports, _ = TILES[letter][1][i]
        out, open_ports = [], 0
        if kind in ("road", "city"):
            for e in board_edges(ports, rot):
                n = (x + DX[e], y + DY[e])
                if n not in self.board:
                    open_ports += 1
                    continue
                nl, nr = self.board[n]
                for j, (k2, p2, _) in enumerate(TILES[nl][1]):
                    if k2 == kind and (e + 2) % 4 in board_edges(p2, nr):
                        out.append((n[0], n[1], j))
        elif kind == "field":
            for h in board_halves(ports, rot):
                e = h // 2
                n = (x + DX[e], y + DY[e])
                if n not in self.board:
                    open_ports += 1
                    continue
                nl, nr = self.board[n]
                oh = opposite_half(h)
                for j, (k2, p2, _) in enumerate(TILES[nl][1]):
                    if k2 == "field" and oh in board_halves(p2, nr):
                        out.append((n[0], n[1], j))
        return out, open_ports

    def feature(self, seg):
        """The connected feature of seg: (frozenset of segments, open ports)."""
        seen = {seg}
        todo = [seg]
        open_total = 0
        while todo:
            s = todo.pop()
            nbrs, op = self.neighbours_of(s)
            open_total += op
            for n in nbrs:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen), open_total

    def kind(self, seg):
        return self.segments(seg[0], seg[1])[seg[2]][0]

    def surrounding(self, x, y):
        return sum(1 for ddx in (-1, 0, 1) for ddy in (-1, 0, 1)
                   if (ddx or ddy) and (x + ddx, y + ddy) in self.board)

    # ---- legality ----
    def place_problem(self, letter, rot, x, y):
        if (x, y) in self.board:
            return "cell %d,%d is taken" % (x, y)
        touching = 0
        for e in range(4):
            n = (x + DX[e], y + DY[e])
            if n not in self.board:
                continue
            touching += 1
            mine = edge_terrain(letter, (e - rot) % 4)
            theirs = self.terrain(n[0], n[1], (e + 2) % 4)
            if mine != theirs:
                return "edge %s is %s against %s" % (EDGE_NAMES[e], mine, theirs)
        if not touching:
            return "tile at %d,%d touches no tile" % (x, y)
        if self.table:
            xs = [p[0] for p in self.board] + [x]
            ys = [p[1] for p in self.board] + [y]
            if max(xs) - min(xs) + 1 > self.table[0] or max(ys) - min(ys) + 1 > self.table[1]:
                return "tile at %d,%d lies beyond the %d x %d table" % (x, y, self.table[0], self.table[1])
        return None

    def legal_places(self, letter):
        cells = set()
        for (x, y) in self.board:
            for e in range(4):
                n = (x + DX[e], y + DY[e])
                if n not in self.board:
                    cells.add(n)
        return [(x, y, r) for (x, y) in sorted(cells) for r in range(4)
                if self.place_problem(letter, r, x, y) is None]

    def spot_segment(self, x, y, spot):
        """The segment index at a spot of the tile at x,y, or None."""
        letter, rot = self.board[(x, y)]
        segs = TILES[letter][1]
        if spot == "C":
            for i, (k, _, _) in enumerate(segs):
                if k == "cloister":
                    return i
            return None
        if spot in EDGE_NAMES:
            e = (EDGE_NAMES.index(spot) - rot) % 4
            for i, (k, p, _) in enumerate(segs):
                if k in ("road", "city") and e in p:
                    return i
            for i, (k, p, _) in enumerate(segs):
                if k == "field" and 2 * e in p and 2 * e + 1 in p:
                    return i
            return None
        h = (HALF_NAMES.index(spot) - 2 * rot) % 8
        for i, (k, p, _) in enumerate(segs):
            if k == "field" and h in p:
                return i
            if k == "city" and h // 2 in p:
                return i
        return None

    def occupants(self, feat):
        return [f for f in self.followers if f[3] and f[2] in feat]

    # ---- a turn ----
    def draw(self, letter):
        if self.left.get(letter, 0) <= 0:
            raise Illegal("no tile %s left in the supply" % letter)
        self.left[letter] -= 1

    def supply_left(self):
        return sum(self.left.values())

    def place(self, colour, letter, x, y, rot, deploy, turn):
        why = self.place_problem(letter, rot, x, y)
        if why:
            raise Illegal(why)
        self.board[(x, y)] = (letter, rot)
        if deploy:
            role, spot = deploy
            if role not in ROLE_KIND:
                raise Illegal("role %s is not a base-game role" % role)
            i = self.spot_segment(x, y, spot)
            if i is None:
                raise Illegal("no feature at %s" % spot)
            if self.segments(x, y)[i][0] != ROLE_KIND[role]:
                raise Illegal("%s on a %s" % (role, self.segments(x, y)[i][0]))
            if self.supply[colour] <= 0:
                raise Illegal("%s has no follower left" % colour)
            seg = (x, y, i)
            feat = {seg} if ROLE_KIND[role] == "cloister" else self.feature(seg)[0]
            if self.occupants(feat):
                raise Illegal("feature at %s is occupied" % spot)
            self.supply[colour] -= 1
            self.followers.append([colour, ROLE_KIND[role], seg, True])
        self.score_completed(x, y, turn)

    def value(self, feat, kind, complete):
        tiles = len({(s[0], s[1]) for s in feat})
        if kind == "road":
            return tiles
        if kind == "city":
            pennants = sum(self.segments(s[0], s[1])[s[2]][2] for s in feat)
            if not complete:
                return tiles + pennants
            if self.edition < 3 and tiles == 2:
                return 2 + pennants
            return 2 * tiles + 2 * pennants
        raise ValueError(kind)

    def award(self, feat, points, turn, what):
        on = self.occupants(feat)
        counts = {}
        for f in on:
            counts[f[0]] = counts.get(f[0], 0) + 1
        winners = []
        if counts:
            best = max(counts.values())
            winners = [c for c in self.seats if counts.get(c) == best]
        for c in winners:
            self.score[c] += points
        for f in on:
            f[3] = False
            if f[1] != "field":
                self.supply[f[0]] += 1
        self.events.append((turn, what, points, winners))

    def score_completed(self, x, y, turn):
        done = set()
        for i, (k, _, _) in enumerate(self.segments(x, y)):
            if k not in ("road", "city"):
                continue
            feat, open_ports = self.feature((x, y, i))
            if open_ports == 0 and feat not in done:
                done.add(feat)
                self.award(feat, self.value(feat, k, True), turn, k)
        for ddy in (1, 0, -1):
            for ddx in (-1, 0, 1):
                cx, cy = x + ddx, y + ddy
                if (cx, cy) not in self.board:
                    continue
                for i, (k, _, _) in enumerate(self.segments(cx, cy)):
                    if k == "cloister" and self.surrounding(cx, cy) == 8:
                        self.award({(cx, cy, i)}, 9, turn, "cloister")

    # ---- the end ----
    def all_features(self, kinds):
        seen, out = set(), []
        for (x, y) in sorted(self.board):
            for i, (k, _, _) in enumerate(self.segments(x, y)):
                if k in kinds and (x, y, i) not in seen:
                    feat, op = self.feature((x, y, i))
                    seen |= feat
                    out.append((k, feat, op))
        return out

    def score_final(self):
        for k, feat, op in self.all_features(("road", "city")):
            if op and self.occupants(feat):
                self.award(feat, self.value(feat, k, False), 0, "incomplete " + k)
        for (x, y) in sorted(self.board):
            for i, (k, _, _) in enumerate(self.segments(x, y)):
                if k == "cloister" and self.occupants({(x, y, i)}):
                    self.award({(x, y, i)}, 1 + self.surrounding(x, y), 0, "incomplete cloister")
        self.score_farms()

    def score_farms(self):
        closed = {}    # city segment -> its feature, for completed cities
        for k, feat, op in self.all_features(("city",)):
            if op == 0:
                for s in feat:
                    closed[s] = feat
        farms = []     # (farmer counts, set of bordering completed cities)
        for k, feat, op in self.all_features(("field",)):
            counts = {}
            for f in self.occupants(feat):
                counts[f[0]] = counts.get(f[0], 0) + 1
            if not counts:
                continue
            cities = set()
            for (x, y, i) in feat:
                for j in self.segments(x, y)[i][2]:
                    if (x, y, j) in closed:
                        cities.add(closed[(x, y, j)])
            farms.append((counts, cities))

        def owners(counts):
            best = max(counts.values())
            return [c for c in self.seats if counts.get(c) == best]

        if self.edition == 3:
            for counts, cities in farms:
                for c in owners(counts):
                    self.score[c] += 3 * len(cities)
                self.events.append((0, "farm", 3 * len(cities), owners(counts)))
        elif self.edition == 2:
            supplied = {c: set() for c in self.seats}
            for counts, cities in farms:
                for c in owners(counts):
                    supplied[c] |= cities
            for c in self.seats:
                self.score[c] += 3 * len(supplied[c])
                self.events.append((0, "farms", 3 * len(supplied[c]), [c]))
        else:
            every = set()
            for _, cities in farms:
                every |= cities
            for town in every:
                counts = {}
                for fc, cities in farms:
                    if town in cities:
                        for c, n in fc.items():
                            counts[c] = counts.get(c, 0) + n
                for c in owners(counts):
                    self.score[c] += 4
                self.events.append((0, "city supplied", 4, owners(counts)))


# ---------------------------------------------------------------- CGN ----

class Move:
    def __init__(self):
        self.line = 0          # line number in the file
        self.start = 0         # offsets of the logical line in the file text
        self.end = 0
        self.number = None
        self.colour = None
        self.tile = None
        self.discard = False
        self.x = self.y = self.rot = None
        self.deploy = None     # (role, spot) or None
        self.claims = None     # [(colour, points)] or None
        self.claim_span = None  # (start, end) offsets of "= ..." in the file


class Record:
    def __init__(self):
        self.tags = {}         # name -> value
        self.tag_lines = []    # (start, end) offsets of tag lines
        self.result_span = None
        self.moves = []
        self.first_line = 0
        self.problem = None    # a syntax problem the oracle cannot read past


def blank_comments(text):
    """text with every comment character turned into a space (newlines inside
    { } too, so that the comment joins its lines into one), same length."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == ";":
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif ch == "{":
            unclosed = "}" not in text[i:]
            at = i
            while i < n and text[i] != "}":
                out[i] = " "
                i += 1
            if unclosed:
                out[at] = "\0"     # read_records objects to the game
            if i < n:
                out[i] = " "
                i += 1
        elif ch == '"':     # inside a tag value: copy up to the closing quote
            i += 1
            while i < n and text[i] not in '"\n':
                i += 2 if text[i] == "\\" else 1
            i += 1
        else:
            i += 1
    return "".join(out)


TAG_RE = re.compile(r'\s*\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
CLAIM_RE = re.compile(r"\s*([A-Za-z]+)\s+(-?\d+)\s*$")


def parse_claims(text):
    out = []
    for part in text.split(","):
        m = CLAIM_RE.match(part)
        if not m or m.group(1).lower() not in COLOURS + ["grey"]:
            raise ValueError("bad claim %r" % part)
        c = m.group(1).lower()
        out.append(("gray" if c == "grey" else c, int(m.group(2))))
    return out


def read_records(text):
    clean = blank_comments(text)
    records = []
    rec = None
    pos = 0
    for raw in clean.split("\n"):
        start, end = pos, pos + len(raw)
        pos = end + 1
        line = raw.strip()
        if "\0" in raw:
            if rec is not None:
                rec.problem = rec.problem or "an unclosed { comment"
            raw = raw.replace("\0", " ")
            line = raw.strip()
        if not line:
            continue
        lineno = text.count("\n", 0, start) + 1
        if line.startswith("["):
            if rec is None or rec.moves:
                rec = Record()
                rec.first_line = lineno
                records.append(rec)
            m = TAG_RE.match(raw)
            if not m:
                rec.problem = rec.problem or "line %d: bad tag" % lineno
                continue
            if m.group(1) in rec.tags:
                rec.problem = rec.problem or "line %d: tag %s given twice" % (lineno, m.group(1))
            rec.tags[m.group(1)] = m.group(2)
            rec.tag_lines.append((start, end))
            if m.group(1) == "Result":
                vs = start + raw.index('"') + 1
                rec.result_span = (vs, vs + len(m.group(2)))
            continue
        if rec is None:
            rec = Record()
            rec.first_line = lineno
            records.append(rec)
        mv = Move()
        mv.line, mv.start, mv.end = lineno, start, end
        body = raw
        if "=" in raw:
            eq = raw.index("=")
            body = raw[:eq]
            tail = raw[eq + 1:]
            try:
                mv.claims = parse_claims(tail)
            except ValueError as e:
                rec.problem = rec.problem or "line %d: %s" % (lineno, e)
            mv.claim_span = (start + eq, start + len(raw.rstrip()))
        words = body.split()
        try:
            if words and re.match(r"^\d+\.$", words[0]):
                mv.number = int(words[0][:-1])
                words = words[1:]
            mv.colour = words[0].lower()
            if mv.colour == "grey":
                mv.colour = "gray"
            if mv.colour not in COLOURS:
                raise ValueError("bad colour")
            mv.tile = words[1].upper()
            if mv.tile not in TILES:
                raise ValueError("bad tile")
            if words[2].lower() == "discard":
                mv.discard = True
                if len(words) != 3:
                    raise ValueError("text after discard")
            else:
                xs, ys = words[2].split(",")
                mv.x, mv.y = int(xs), int(ys)
                deg = int(words[3])
                if deg not in (0, 90, 180, 270):
                    raise ValueError("bad rotation")
                mv.rot = deg // 90
                rest = words[4:]
                if rest and rest[0] == "-":
                    rest = rest[1:]
                elif rest:
                    spot = rest[1].upper()
                    if spot not in EDGE_NAMES + HALF_NAMES + ["C"]:
                        raise ValueError("bad spot")
                    mv.deploy = (rest[0].lower(), spot)
                    rest = rest[2:]
                if rest:
                    raise ValueError("unexpected %r" % rest[0])
        except (ValueError, IndexError) as e:
            rec.problem = rec.problem or "line %d: cannot read the turn (%s)" % (lineno, e)
        rec.moves.append(mv)
    return records


class Outcome:
    def __init__(self):
        self.skipped = None    # why the game was not refereed
        self.illegal = None    # the first illegal move: "line N: ..."
        self.mismatches = []   # false claims
        self.turn_scores = []  # per move: totals after it, or None
        self.final = None      # totals after final scoring, or None
        self.finished = False
        self.seats = []


def header_problem(tags):
    """What is wrong with the known tags of a base game, or None. The limits
    are the notation's (notation/cgn.md), not the rule book's: it seats 1 to 7
    colours and allows 1 to 99 followers."""
    if "Seats" in tags:
        seats = [c.lower() for c in re.split(r"[ ,\t]+", tags["Seats"].strip()) if c]
        seats = ["gray" if c == "grey" else c for c in seats]
        if not seats or len(seats) > 7 or len(set(seats)) != len(seats) or \
                any(c not in COLOURS for c in seats):
            return "bad Seats tag"
    if tags.get("Edition", "3") not in ("1", "2", "3"):
        return "bad Edition tag"
    if not re.match(r"^[1-9][0-9]?$", tags.get("Followers", "7")):
        return "bad Followers tag"
    start = tags.get("Start", START_TILE + " 0").split(" ")
    if len(start) != 2 or start[0] not in TILES or start[1] not in ("0", "90", "180", "270"):
        return "bad Start tag"
    if "Table" in tags and not re.match(r"^ *[1-9][0-9]{0,3} *x *[1-9][0-9]{0,3} *$", tags["Table"]):
        return "bad Table tag"
    if "Date" in tags:
        m = re.match(r"^(\d{4})-(\d{2})-(\d{2})$", tags["Date"])
        import datetime
        try:
            datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except (AttributeError, ValueError):
            return "bad Date tag"
    if "Result" in tags:
        try:
            claimed = [c for c, _ in parse_claims(tags["Result"])]
        except ValueError:
            return "bad Result tag"
        if len(set(claimed)) != len(claimed):
            return "bad Result tag"
    return None


def referee(rec, force_final=False):
    """Replays rec. Final scoring follows the last turn when the supply is
    used up, when the record has a Result tag, or when force_final."""
    out = Outcome()
    rules = rec.tags.get("Rules", "base").lower()
    if rules != "base" or rec.tags.get("Tileset", "base").lower() != "base":
        out.skipped = "not a base game (Rules %s, Tileset %s)" % (rules, rec.tags.get("Tileset", "base"))
        return out
    if rec.problem:
        out.illegal = rec.problem
        return out
    why = header_problem(rec.tags)
    if why:
        out.illegal = why
        return out
    if "Seats" in rec.tags:
        seats = [c.lower() for c in re.split(r"[ ,\t]+", rec.tags["Seats"].strip())]
    else:
        seats = []
        for mv in rec.moves:
            if mv.colour not in seats:
                seats.append(mv.colour)
    seats = ["gray" if c == "grey" else c for c in seats]
    out.seats = seats
    edition = int(rec.tags.get("Edition", "3"))
    followers = int(rec.tags.get("Followers", "7"))
    start = rec.tags.get("Start", START_TILE + " 0").split()
    g = Game(seats, followers, edition, (start[0], int(start[1]) // 90))
    if "Table" in rec.tags:
        w, h = rec.tags["Table"].split("x")
        g.table = (int(w), int(h))

    seat, turn, over = 0, 1, False
    for mv in rec.moves:
        try:
            if over:
                raise Illegal("a turn after the game ended")
            if mv.colour not in seats:
                raise Illegal("%s does not play" % mv.colour)
            if mv.colour != seats[seat]:
                raise Illegal("it is %s's turn, not %s's" % (seats[seat], mv.colour))
            if mv.number is not None and mv.number != turn:
                raise Illegal("numbered %d, but this is turn %d" % (mv.number, turn))
            g.draw(mv.tile)
            if mv.discard:
                fits = g.legal_places(mv.tile)
                if fits:
                    raise Illegal("discarded %s fits at %d,%d" % ((mv.tile,) + fits[0][:2]))
            else:
                g.place(mv.colour, mv.tile, mv.x, mv.y, mv.rot, mv.deploy, turn)
        except Illegal as e:
            out.illegal = "line %d: turn %d: %s" % (mv.line, turn, e)
            return out
        out.turn_scores.append(dict(g.score))
        for c, p in mv.claims or []:
            if c not in seats or g.score[c] != p:
                out.mismatches.append("line %d: claim %s %d, computed %s" % (mv.line, c, p, g.score.get(c)))
        if g.supply_left() == 0:
            over = True
        if not mv.discard:
            seat = (seat + 1) % len(seats)
            turn += 1
    out.finished = over
    if over or force_final or "Result" in rec.tags:
        g.score_final()
        out.final = dict(g.score)
        if "Result" in rec.tags:
            try:
                claimed = parse_claims(rec.tags["Result"])
            except ValueError:
                out.illegal = "bad Result tag"
                return out
            for c, p in claimed:
                if c not in seats or g.score[c] != p:
                    out.mismatches.append("Result %s %d, computed %s" % (c, p, g.score.get(c)))
    out.game = g
    return out


def scores_text(seats, scores):
    return ", ".join("%s %d" % (c, scores[c]) for c in seats)


def cmd_check(paths):
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for k, rec in enumerate(read_records(text), 1):
            o = referee(rec)
            where = "%s: game %d" % (path, k)
            if o.skipped:
                print("%s: skipped: %s" % (where, o.skipped))
            elif o.illegal:
                print("%s: illegal: %s" % (where, o.illegal))
                bad += 1
            elif o.mismatches:
                print("%s: false claims: %s" % (where, "; ".join(o.mismatches)))
                bad += 1
            else:
                final = o.final if o.final is not None else (o.turn_scores[-1] if o.turn_scores else {})
                print("%s: valid, %s%s" % (where, "finished" if o.finished else "unfinished",
                                            ", " + scores_text(o.seats, final) if final else ""))
    return 1 if bad else 0


def cmd_annotate(path):
    """Prints the file with every turn line claiming every seated colour's
    total, and every game with a Result tag, all as computed here."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    clean = blank_comments(text)
    edits = []  # (start, end, replacement)
    for rec in read_records(text):
        o = referee(rec, force_final=True)
        if o.skipped or o.illegal:
            continue
        for mv, sc in zip(rec.moves, o.turn_scores):
            claim = "= " + scores_text(o.seats, sc)
            if mv.claim_span:
                edits.append((mv.claim_span[0], mv.claim_span[1], claim))
            else:
                at = mv.start + len(clean[mv.start:mv.end].rstrip())
                edits.append((at, at, " " + claim))
        final = o.final
        result = scores_text(o.seats, final)
        if rec.result_span:
            edits.append((rec.result_span[0], rec.result_span[1], result))
        elif rec.tag_lines:
            at = rec.tag_lines[-1][1]
            edits.append((at, at, '\n[Result "%s"]' % result))
        elif rec.moves:
            at = rec.moves[0].start
            edits.append((at, at, '[Result "%s"]\n' % result))
    for s, e, r in sorted(edits, reverse=True):
        text = text[:s] + r + text[e:]
    sys.stdout.write(text)
    return 0


def draw_map(g):
    """The map, 3 x 3 characters a tile: edges C city, R road, . field; the
    centre is the tile's letter."""
    xs = [x for x, _ in g.board]
    ys = [y for _, y in g.board]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        band = ["", "", ""]
        for x in range(min(xs), max(xs) + 1):
            if (x, y) not in g.board:
                for k in range(3):
                    band[k] += "   "
                continue
            letter, rot = g.board[(x, y)]
            t = [g.terrain(x, y, e)[0].upper().replace("F", ".") for e in range(4)]
            band[0] += "." + t[N] + "."
            band[1] += t[W] + letter + t[E]
            band[2] += "." + t[S] + "."
        rows.append("%4d %s" % (y, band[0]))
        rows.extend("     " + b for b in band[1:])
    rows.append("     x from %d to %d" % (min(xs), max(xs)))
    return "\n".join(rows)


def cmd_explain(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for k, rec in enumerate(read_records(text), 1):
        o = referee(rec, force_final=True)
        print("game %d" % k)
        if o.skipped or o.illegal:
            print("  " + (o.skipped or o.illegal))
            continue
        for ev in o.game.events:
            turn, what, points, winners = ev
            print("  %s %s: %d to %s" % ("turn %d" % turn if turn else "final", what, points,
                                         " ".join(winners) or "nobody"))
        for m in o.mismatches:
            print("  MISMATCH " + m)
        print("  final: " + scores_text(o.seats, o.final))
        print(draw_map(o.game))
    return 0


def carc_games(carc, path):
    """carc's verdict on every game of a file: a list of JSON objects."""
    run = subprocess.run([carc, "check", "--format", "json", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    games = []
    for line in run.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            games.append(json.loads(line))
    return games


def cmd_compare(carc, paths):
    passed = failed = skipped = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError:
            print("%s: skipped: not UTF-8 text" % path)
            continue
        records = read_records(text)
        mine = [referee(rec) for rec in records]
        theirs = carc_games(carc, path)
        problems = []
        if len(theirs) != len(records):
            problems.append("carc reads %d games, the oracle %d" % (len(theirs), len(records)))
        else:
            # The file with this oracle's totals claimed on every turn.
            annotated = {}
            if any(not o.skipped and not o.illegal for o in mine):
                fd, tmp = tempfile.mkstemp(suffix=".cgn")
                try:
                    with os.fdopen(fd, "w", encoding="utf-8") as out:
                        saved = sys.stdout
                        sys.stdout = out
                        try:
                            cmd_annotate(path)
                        finally:
                            sys.stdout = saved
                    annotated = {g["game"]: g for g in carc_games(carc, tmp)}
                finally:
                    os.unlink(tmp)
            for k, (o, g) in enumerate(zip(mine, theirs), 1):
                where = "%s: game %d" % (path, k)
                if o.skipped:
                    skipped += 1
                    continue
                ok_mine = not o.illegal and not o.mismatches
                bad = []
                if ok_mine != g["valid"]:
                    bad.append("the oracle finds it %s (%s), carc %s" % (
                        "valid" if ok_mine else "invalid", o.illegal or "; ".join(o.mismatches) or "no error",
                        "valid" if g["valid"] else "invalid: " + "; ".join(
                            d["code"] + " " + d["message"] for d in g.get("diagnostics", [])
                            if d["severity"] == "error")))
                if not o.illegal:
                    final = o.final if o.final is not None else (o.turn_scores[-1] if o.turn_scores else
                                                                  {c: 0 for c in o.seats})
                    if g["scores"] != final:
                        bad.append("scores: oracle %s, carc %s" % (scores_text(o.seats, final), g["scores"]))
                    a = annotated.get(k)
                    if a is None or not a["valid"]:
                        bad.append("with the oracle's per-turn totals claimed, carc objects: %s" % (
                            "; ".join(d["code"] + " " + d["message"] for d in (a or {}).get("diagnostics", [])
                                      if d["severity"] == "error") if a else "game missing"))
                if bad:
                    failed += 1
                    print("FAIL %s: %s" % (where, "; ".join(bad)))
                else:
                    passed += 1
        if problems:
            failed += 1
            print("FAIL %s: %s" % (path, "; ".join(problems)))
    if skipped:
        print("%d games skipped (not base games)" % skipped)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


# ---------------------------------------------------------------- gen ----

def deploy_options(g, x, y, letter, rot):
    """(role, spot) for each free feature of the tile if it lay at x,y, one
    spot per feature."""
    g.board[(x, y)] = (letter, rot)
    options, seen = [], set()
    for spot in EDGE_NAMES + HALF_NAMES + ["C"]:
        i = g.spot_segment(x, y, spot)
        if i is None or i in seen:
            continue
        seen.add(i)
        kind = g.segments(x, y)[i][0]
        feat = {(x, y, i)} if kind == "cloister" else g.feature((x, y, i))[0]
        if not g.occupants(feat):
            options.append(([r for r, k in ROLE_KIND.items() if k == kind][0], spot))
    del g.board[(x, y)]
    return options


def greedy_choice(g, rnd, colour, letter, places, turn):
    """A plausible move: each placement and deployment is tried (and taken
    back), and valued by the points it brings the player against those it
    brings the others, how snugly the tile fits, and what a follower left on
    an open feature may bring later."""
    best, best_value = None, None
    others = [c for c in g.seats if c != colour]
    for x, y, rot in places:
        touching = sum((x + DX[e], y + DY[e]) in g.board for e in range(4))
        for deploy in [None] + (deploy_options(g, x, y, letter, rot) if g.supply[colour] else []):
            saved = (dict(g.score), dict(g.supply), [f[:] for f in g.followers], len(g.events))
            g.place(colour, letter, x, y, rot, deploy, turn)
            gain = g.score[colour] - saved[0][colour]
            theirs = max([g.score[c] - saved[0][c] for c in others] or [0])
            value = gain - 0.7 * theirs + 0.4 * touching + rnd.random() * 1.5
            if deploy and g.followers[-1][3]:       # still standing: a bet on later
                kind = g.followers[-1][1]
                supply = g.supply[colour]
                if kind == "field":
                    value += (1.5 if turn > 35 else 0.2) if supply > 1 else -2
                elif kind == "cloister":
                    value += 1 + 0.4 * g.surrounding(x, y)
                else:
                    feat, _ = g.feature(g.followers[-1][2])
                    value += (1.2 if kind == "city" else 0.6) + 0.2 * len({(s[0], s[1]) for s in feat})
                value -= 0.8 if supply <= 1 else 0
            g.score, g.supply, g.followers = saved[0], saved[1], saved[2]
            del g.events[saved[3]:]
            del g.board[(x, y)]
            if best_value is None or value > best_value:
                best, best_value = (x, y, rot, deploy), value
    return best


def cmd_gen(seed, players, edition, claims, deploy=60, compact=0, style="random"):
    """A random legal game: every tile drawn at random, placed at a random
    legal position (with compact percent chance, one of those touching the
    most tiles, which closes more features), and a follower deployed with
    deploy percent chance on a random free feature of it; or, with style
    greedy, each move chosen by greedy_choice. Claims every seated colour's
    total on every turn that scored (or on every turn), and the Result."""
    rnd = random.Random(seed)
    seats = COLOURS[:players] if players <= 5 else COLOURS[:5]
    rnd.shuffle(seats)
    stack = [t for t, (c, _) in TILES.items() for _ in range(c - (t == START_TILE))]
    rnd.shuffle(stack)
    g = Game(seats, 7, edition)
    lines = ['[Event "random game, seed %d"]' % seed, '[Seats "%s"]' % " ".join(seats)]
    if edition != 3:
        lines.append('[Edition "%d"]' % edition)
    seat, turn = 0, 1
    for letter in stack:
        colour = seats[seat]
        g.draw(letter)
        places = g.legal_places(letter)
        if not places:
            lines.append("%d. %s %s discard" % (turn, colour, letter))
            continue
        if style == "greedy":
            x, y, rot, chosen = greedy_choice(g, rnd, colour, letter, places, turn)
        else:
            if rnd.random() * 100 < compact:
                touching = [(sum((px + DX[e], py + DY[e]) in g.board for e in range(4)), (px, py, pr))
                            for px, py, pr in places]
                most = max(t for t, _ in touching)
                places = [p for t, p in touching if t == most]
            x, y, rot = rnd.choice(places)
            chosen = None
            if g.supply[colour] and rnd.random() * 100 < deploy:
                options = deploy_options(g, x, y, letter, rot)
                if options:
                    chosen = rnd.choice(options)
        before = len(g.events)
        g.place(colour, letter, x, y, rot, chosen, turn)
        line = "%d. %s %s %d,%d %d %s" % (turn, colour, letter, x, y, rot * 90,
                                          "%s %s" % chosen if chosen else "-")
        scored = any(ev[3] for ev in g.events[before:])
        if claims == "every" or scored:
            line += " = " + scores_text(seats, g.score)
        lines.append(line)
        seat = (seat + 1) % len(seats)
        turn += 1
    g.score_final()
    lines.insert(2, '[Result "%s"]' % scores_text(seats, g.score))
    print("\n".join(lines))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "check":
        return cmd_check(argv[2:])
    if len(argv) == 3 and argv[1] == "annotate":
        return cmd_annotate(argv[2])
    if len(argv) >= 3 and argv[1] == "compare":
        return cmd_compare(argv[2], argv[3:])
    if len(argv) == 3 and argv[1] == "explain":
        return cmd_explain(argv[2])
    if len(argv) >= 2 and argv[1] == "gen":
        opts = {"--seed": 1, "--players": 2, "--edition": 3, "--claims": "scoring", "--deploy": 60,
                "--compact": 0, "--style": "random"}
        args = argv[2:]
        while args:
            if args[0] not in opts or len(args) < 2:
                break
            opts[args[0]] = args[1] if args[0] in ("--claims", "--style") else int(args[1])
            args = args[2:]
        if not args:
            return cmd_gen(opts["--seed"], opts["--players"], opts["--edition"], opts["--claims"],
                           opts["--deploy"], opts["--compact"], opts["--style"])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
