#!/usr/bin/env python3
"""make-handmade.py - writes the hand-made .jcz games of the import golden tests.

Each all-tiles game places every JCloisterZone base tile once, all turned by
the same JCZ rotation (game 0: R0, game 1: R90, ...), so that the four games
together show every tile in every rotation; and deploys followers onto every
kind of feature (city, road, field, monastery). The river games open with The
River I (the spring, ten river tiles in an order that keeps JCZ's rules, the
lake), then place base tiles; river-abbot.jcz plays The Abbot too: gardens,
abbots deployed onto gardens and monasteries and taken back (RETURN_MEEPLE).
Placements and follower locations are worked out from JCloisterZone's own
tile definitions (basic.xml, river.xml) in JCZ's own conventions (y grows
southward, rotations clockwise, locations in board orientation),
independently of carc's tile sets, so that `carc import` followed by `carc
check` tests carc's mapping against JCZ's geometry.

    python3 tests/import/make-handmade.py [JCZDIR] OUTDIR

JCZDIR holds basic.xml and river.xml (default: the reference folder beside
the repository, $CARC_SHARED/reference/jcz, CARC_SHARED defaulting to
../shared from the top of the tree).

Development aid only: the generated files are committed in tests/import/,
and `make check` does not run this script.
"""
import json
import os
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
            if el.tag in ("city", "road", "river"):
                feats.append((el.tag, sum(1 << EDGES.index(e) for e in el.text.split()), 0))
            elif el.tag == "farm":
                feats.append(("farm", 0, sum(1 << HALVES.index(h) for h in el.text.split())))
            elif el.tag in ("cloister", "garden"):
                feats.append((el.tag, 0, 0))
        tiles[t.get("id")] = feats
    return tiles


def rot_edges(m, r):
    return ((m << r) | (m >> (4 - r))) & 15 if r else m


def rot_halves(m, r):
    r *= 2
    return ((m << r) | (m >> (8 - r))) & 255 if r else m


def edge_terrain(feats, rot, e):
    for kind, edges, _ in feats:
        if kind in ("city", "road", "river") and rot_edges(edges, rot) & (1 << e):
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
    if kind in ("cloister", "garden"):
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
    if kind in ("cloister", "garden"):
        return "I"
    if kind == "farm":
        return ".".join(HALVES[h] for h in range(8) if halves & (1 << h))
    return EDGE_NAMES[edges]


FEATURE = {"city": "City", "road": "Road", "farm": "Field", "cloister": "Monastery"}


def follower_or_pass(replay, options, supply, used, p, turn, x, y, extra):
    """A follower onto the least used kind of fresh feature, on two turns of
    three while the player has one; else a pass."""
    if options and supply[p] > 0 and turn % 3 != 2:
        _, _, kind, e, h = min(options)
        used[kind] += 1
        supply[p] -= 1
        replay.append(dict(type="DEPLOY_MEEPLE", payload=dict(
            pointer=dict(position=[x, y], feature=FEATURE[kind], location=location(kind, e, h)),
            meepleId="%d.small.%d" % (p, 7 - supply[p])), **extra))
    else:
        replay.append(dict(type="PASS", payload={}, **extra))


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
                if kind not in FEATURE:
                    continue
                e, h = rot_edges(edges, rot), rot_halves(halves, rot)
                if fresh(board, x, y, kind, e, h):
                    options.append((used[kind], "NESWI".find(location(kind, e, h)[0]), kind, e, h))
            board[spot] = (tid, rot)
            follower_or_pass(replay, options, supply, used, p, turn, x, y, extra)
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


RIVER_1 = ["RI.1/CICI", "RI.1/CIRI", "RI.1/LIRI", "RI.1/RIrI", "RI.1/IFI", "RI.1/IFI", "RI.1/CcII",
           "RI.1/RrII", "RI.1/II"]


def river_edges(feats, rot):
    return [e for e in range(4) if any(k == "river" and rot_edges(m, rot) & (1 << e) for k, m, _ in feats)]


def neighbours8(x, y):
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def river_course(tiles, ids, rng):
    """The river tiles in an order and with rotations that continue the river
    from the spring, turn right and left by turns (so never twice the same
    way, even with straights between), and leave JCZ's look-ahead free (the cell after an open end, its
    two side neighbours, the cell beyond and its side neighbours are empty);
    the lake last. A list of (id, rotation, x, y)."""
    def free(board, x, y, d):
        dx, dy = STEP[d]
        sx, sy = STEP[(d + 1) % 4]
        cells = [(x + dx, y + dy), (x + 2 * dx, y + 2 * dy)]
        cells += [(cx + sx * k, cy + sy * k) for cx, cy in cells for k in (-1, 1)]
        return not any(c in board for c in cells)

    def search(board, x, y, d, last_turn, left):
        if not left:
            return []
        order = list(left)
        rng.shuffle(order)
        if len(left) > 1:
            order = [t for t in order if t != "RI.1/I.e"]
        for tid in dict.fromkeys(order):
            for rot in range(4):
                if not fits(board, tiles, tid, rot, x, y):
                    continue
                ends = river_edges(tiles[tid], rot)
                back = (d + 2) % 4
                if back not in ends:
                    continue
                out = [e for e in ends if e != back]
                if tid == "RI.1/I.e":
                    return [(tid, rot, x, y)]
                turn = (out[0] - d) % 4
                if turn and turn == last_turn:
                    continue
                dx, dy = STEP[out[0]]
                if not free(board, x, y, out[0]):
                    continue
                board[(x, y)] = (tid, rot)
                rest = list(left)
                rest.remove(tid)
                tail = search(board, x + dx, y + dy, out[0], turn or last_turn, rest)
                del board[(x, y)]
                if tail is not None:
                    return [(tid, rot, x, y)] + tail
        return None

    board = {(0, 0): ("RI/s", 0)}
    return search(board, 1, 0, 1, 0, list(ids) + ["RI.1/I.e"])


def river_game(tiles, edition, abbot, players, name, seed):
    """The River I, then every base tile once (the garden tiles too in the
    2nd edition); followers as in the all-tiles games, and with the abbot an
    abbot onto each garden or monastery its player can, taken back now and
    then while its feature is unfinished."""
    rng = random.Random(seed)
    river = RIVER_1 + (["RI.1/IIG"] if edition == 2 else ["RI.1/II"])
    course = river_course(tiles, river, rng)
    if course is None:
        return None
    land = [t for t in tiles if t.startswith("BA/") and (edition == 2 or not t.endswith("G"))]
    board = {(0, 0): ("RI/s", 0)}
    supply = [7] * len(players)
    abbots = [None] * len(players)  # where each player's abbot stands
    used = {k: 0 for k in FEATURE}
    replay, order = [], []
    turn = 0

    def place(tid, rot, x, y):
        nonlocal turn
        p = turn % len(players)
        replay.append(dict(type="PLACE_TILE", payload=dict(tileId=tid, rotation="R%d" % (rot * 90),
                                                          position=[x, y]), player=p))
        order.append(tid)
        options = []
        for kind, edges, halves in tiles[tid]:
            if kind not in FEATURE and kind != "garden":
                continue
            e, h = rot_edges(edges, rot), rot_halves(halves, rot)
            if fresh(board, x, y, kind, e, h):
                options.append((used.get(kind, 0), "NESWI".find(location(kind, e, h)[0]), kind, e, h))
        board[(x, y)] = (tid, rot)
        sites = [o for o in options if o[2] in ("cloister", "garden")]
        mine = abbots[p]
        if abbot and mine is None and sites:
            kind = sites[0][2]
            abbots[p] = (x, y, kind)
            replay.append(dict(type="DEPLOY_MEEPLE", payload=dict(
                pointer=dict(position=[x, y], feature="Garden" if kind == "garden" else "Monastery", location="I"),
                meepleId="%d.abbot.1" % p), player=p))
        elif mine and turn % 3 == 1 and sum(c in board for c in neighbours8(mine[0], mine[1])) < 8:
            mx, my, kind = mine
            abbots[p] = None
            replay.append(dict(type="RETURN_MEEPLE", payload=dict(
                pointer=dict(featurePointer=dict(position=[mx, my], feature="Garden" if kind == "garden" else
                                                 "Monastery", location="I"), meepleId="%d.abbot.1" % p),
                source="ABBOT_RETURN"), player=p))
        else:
            options = [o for o in options if o[2] != "garden"]
            follower_or_pass(replay, options, supply, used, p, turn, x, y, {"player": p})
        # an abbot whose feature this tile completes scores and comes home
        for q, a in enumerate(abbots):
            if a and all(c in board for c in neighbours8(a[0], a[1])):
                abbots[q] = None
        replay.append(dict(type="COMMIT", payload=dict(random=0.0), player=p))
        turn += 1

    for tid, rot, x, y in course:
        place(tid, rot, x, y)
    pending = list(land)
    rng.shuffle(pending)
    while pending:
        for tid in pending:
            cells = sorted({(x + dx, y + dy) for (x, y) in board for dx, dy in STEP.values()},
                           key=lambda c: (abs(c[0]) + abs(c[1]), c[1], c[0]))
            spot = next(((c, r) for c in cells for r in range(4) if fits(board, tiles, tid, r, *c)), None)
            if spot:
                place(tid, spot[1], *spot[0])
                pending.remove(tid)
                break
        else:
            return None
    sets = {"basic:%d" % edition: 1, "river/1:%d" % edition: 1}
    elements = {"small-follower": 7, "farmers": True, "river": True}
    if edition == 2:
        elements["garden"] = True
    if abbot:
        elements["abbot"] = 1
    return {
        "appVersion": "5.7.0", "gameId": "1", "name": name, "initialRandom": 0.0,
        "created": "2024-04-0%dT20:00:00.000Z" % edition, "clock": 0,
        "setup": {"sets": sets, "elements": elements, "rules": {"tiny-city-scoring": "4"}, "timer": None,
                  "start": [{"tile": "RI/s", "x": 0, "y": 0, "rotation": 0}], "options": {}},
        "players": players, "replay": replay, "gameAnnotations": {"drawOrder": order},
    }


def write(g, path):
    with open(path, "w") as f:
        json.dump(g, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    args = sys.argv[1:]
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    shared = os.environ.get("CARC_SHARED") or os.path.join(top, "..", "shared")
    jcz = args.pop(0) if len(args) == 2 else os.path.join(shared, "reference", "jcz")
    out = args[0]
    tiles = load_tiles(os.path.join(jcz, "basic.xml"))
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
        write(g, "%s/all-tiles-r%d.jcz" % (out, rot * 90))
    tiles.update(load_tiles(os.path.join(jcz, "river.xml")))
    for file, edition, abbot, who in (("river", 1, False, seats[0]), ("river-abbot", 2, True, seats[1])):
        g = next(filter(None, (river_game(tiles, edition, abbot, who, "The River%s" % (" and The Abbot" if abbot
                                                                                         else ""), seed)
                               for seed in range(100))), None)
        if not g:
            sys.exit("no river game found for " + file)
        write(g, "%s/%s.jcz" % (out, file))


main()
