#!/usr/bin/env python3
"""make-handmade.py - writes the hand-made .jcz games of the import golden tests.

Each game places every JCloisterZone base tile once, all turned by the same
JCZ rotation (game 0: R0, game 1: R90, ...), so that the four games together
show every tile in every rotation; and deploys followers onto every kind of
feature (city, road, field, monastery). Placements and follower locations are
worked out from JCloisterZone's own tile definitions (basic.xml) in JCZ's own
conventions (y grows southward, rotations clockwise, locations in board
orientation), independently of carc's tile set, so that `carc import` followed
by `carc check` tests carc's mapping against JCZ's geometry.

    python3 tests/import/make-handmade.py [basic.xml] OUTDIR

Development aid only: the generated files are committed in tests/import/,
and `make check` does not run this script.
"""
import json
import random
import sys
import xml.etree.ElementTree as ET

EDGES = "NESW"
HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]  # clockwise from the NW corner
EDGE_NAMES = {1: "N", 2: "E", 4: "S", 8: "W", 3: "NE", 6: "SE", 12: "SW", 9: "NW", 10: "WE", 5: "NS",
              15: "NWSE", 14: "_N", 13: "_E", 11: "_S", 7: "_W"}
STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}  # JCZ: north is y - 1


def load_tiles(path):
    tiles = {}
    for t in ET.parse(path).getroot().iter("tile"):
        feats = []
        for el in t:
            if el.tag in ("city", "road"):
                feats.append((el.tag, sum(1 << EDGES.index(e) for e in el.text.split()), 0))
            elif el.tag == "farm":
                feats.append(("farm", 0, sum(1 << HALVES.index(h) for h in el.text.split())))
            elif el.tag == "cloister":
                feats.append(("cloister", 0, 0))
        tiles[t.get("id")] = feats
    return tiles


def rot_edges(m, r):
    return ((m << r) | (m >> (4 - r))) & 15 if r else m


def rot_halves(m, r):
    r *= 2
    return ((m << r) | (m >> (8 - r))) & 255 if r else m


def edge_terrain(feats, rot, e):
    for kind, edges, _ in feats:
        if kind in ("city", "road") and rot_edges(edges, rot) & (1 << e):
            return kind
    return "farm"


def fits(board, tiles, tid, rot, x, y):
    if (x, y) in board:
        return False
    touching = False
    for e in range(4):
        dx, dy = STEP[e]
        n = board.get((x + dx, y + dy))
        if n:
            touching = True
            if edge_terrain(tiles[tid], rot, e) != edge_terrain(tiles[n[0]], n[1], (e + 2) % 4):
                return False
    return touching


def fresh(board, x, y, kind, edges, halves):
    """A feature touching no placed neighbour cannot hold anybody's follower yet."""
    if kind == "cloister":
        return True
    sides = edges
    if kind == "farm":
        sides = 0
        for h in range(8):
            if halves & (1 << h):
                sides |= 1 << (h // 2)
    for e in range(4):
        dx, dy = STEP[e]
        if sides & (1 << e) and (x + dx, y + dy) in board:
            return False
    return True


def location(kind, edges, halves):
    if kind == "cloister":
        return "I"
    if kind == "farm":
        return ".".join(HALVES[h] for h in range(8) if halves & (1 << h))
    return EDGE_NAMES[edges]


FEATURE = {"city": "City", "road": "Road", "farm": "Field", "cloister": "Monastery"}


def game(tiles, ids, rot, players, with_player_field, name):
    board = {(0, 0): ("BA/RCr", 0)}
    supply = [7] * len(players)
    used = {k: 0 for k in FEATURE}
    replay, order = [], []
    pending = list(ids)
    turn = 0
    while pending:
        placed = False
        for tid in pending:
            cells = sorted({(x + dx, y + dy) for (x, y) in board for dx, dy in STEP.values()},
                           key=lambda c: (abs(c[0]) + abs(c[1]), c[1], c[0]))
            spot = next((c for c in cells if fits(board, tiles, tid, rot, *c)), None)
            if spot is None:
                continue
            p = turn % len(players)
            x, y = spot
            extra = {"player": p} if with_player_field else {}
            replay.append(dict(type="PLACE_TILE", payload=dict(tileId=tid, rotation="R%d" % (rot * 90),
                                                              position=[x, y]), **extra))
            order.append(tid)
            options = []
            for kind, edges, halves in tiles[tid]:
                e, h = rot_edges(edges, rot), rot_halves(halves, rot)
                if fresh(board, x, y, kind, e, h):
                    options.append((used[kind], "NESWI".find(location(kind, e, h)[0]), kind, e, h))
            board[spot] = (tid, rot)
            if options and supply[p] > 0 and turn % 3 != 2:
                _, _, kind, e, h = min(options)
                used[kind] += 1
                supply[p] -= 1
                replay.append(dict(type="DEPLOY_MEEPLE", payload=dict(
                    pointer=dict(position=[x, y], feature=FEATURE[kind], location=location(kind, e, h)),
                    meepleId="%d.small.%d" % (p, 7 - supply[p])), **extra))
            else:
                replay.append(dict(type="PASS", payload={}, **extra))
            replay.append(dict(type="COMMIT", payload=dict(random=0.0), **extra))
            pending.remove(tid)
            turn += 1
            placed = True
            break
        if not placed:
            return None
    return {
        "appVersion": "5.7.0", "gameId": "1", "name": name, "initialRandom": 0.0,
        "created": "2024-03-0%dT20:00:00.000Z" % (rot + 1), "clock": 0,
        "setup": {"sets": {"basic:2" if "BA/CG" in ids else "basic:1": 1},
                  "elements": {"small-follower": 7, "farmers": True},
                  "rules": {"tiny-city-scoring": "4"}, "timer": None,
                  "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}], "options": {}},
        "players": players, "replay": replay, "gameAnnotations": {"drawOrder": order},
    }


def main():
    args = sys.argv[1:]
    xml = args.pop(0) if len(args) == 2 else "/work/shared/reference/jcz/basic.xml"
    out = args[0]
    tiles = load_tiles(xml)
    basic1 = [t for t in tiles if not t.endswith("G")]
    gardens = [t for t in tiles if t.endswith("G")]
    seats = [
        [{"name": "Alice", "slot": 0}, {"name": "Bob", "slot": 1}],
        [{"name": "Chloé", "slot": 2}, {"name": "Dmitri", "slot": 0}, {"name": "Eve \"the quiet\"", "slot": 4}],
        [{"name": "P%d" % i, "slot": i} for i in range(4)],
        [{"name": "Q%d" % i, "slot": 6 - i} for i in range(5)],
    ]
    for rot in range(4):
        ids = basic1 + (gardens if rot == 3 else [])
        shuffle = random.Random(rot)
        g = None
        for attempt in range(100):  # a tile order in which every tile finds a place
            g = game(tiles, ids, rot, seats[rot], rot % 2 == 1, "Every tile turned R%d" % (rot * 90))
            if g:
                break
            shuffle.shuffle(ids)
        if not g:
            sys.exit("no tile order works for R%d" % (rot * 90))
        with open("%s/all-tiles-r%d.jcz" % (out, rot * 90), "w") as f:
            json.dump(g, f, indent=2, ensure_ascii=False)
            f.write("\n")


main()
