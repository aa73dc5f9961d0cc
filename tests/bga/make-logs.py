#!/usr/bin/env python3
"""Writes the synthetic Board Game Arena replay logs of tests/bga/ and of
tests/diag/E52x.json: small games in BGA's log form (packets of events, as
notation/bga.md describes), made up for carc's tests. Run it from the
repository's top folder after changing it; the logs are committed."""
import json
import os

ANN, BOB, CAT = 1001, 1002, 1003
NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}


def tile(pid, ttype, x, y, ori, tid):
    return {"type": "playTile", "log": "${player_name} plays a tile ${tileimg}",
            "args": {"player_name": NAMES[pid], "player_id": str(pid), "id": str(tid), "x": str(x),
                     "y": str(y), "type": str(ttype), "ori": str(ori), "tileimg": ""}}


def meeple(pid, x, y, pos, target, ptype="normal"):
    return {"type": "playPartisan", "log": "${player_name} plays a partisan on a ${target}",
            "args": {"player_name": NAMES[pid], "player_id": str(pid), "piece": "partisan", "ptype": ptype,
                     "x": str(x), "y": str(y), "pos": str(pos), "type": target, "target": target}}


def points(pid, won, score, final=False, kind="city"):
    log = "Counting unachieved ${real_type}" if final else "${player_name} achieved a ${real_type}"
    return [{"type": "realizationAchieved", "log": log,
             "args": {"real_type": kind, "player_id": str(pid), "winners": [pid]}},
            {"type": "winPoints", "log": "${player_name} wins ${points} points",
             "args": {"player_name": NAMES[pid], "player_id": pid, "points": won, "score": str(score)}}]


def state(sid, active, args=None):
    return {"type": "gameStateChange", "log": "", "args": {"id": sid, "active_player": active, "args": args}}


def result(entries):
    return state(99, entries[0][0], {"result": [
        {"name": NAMES[p], "color": c, "score": str(s), "player": str(p), "rank": i + 1}
        for i, (p, c, s) in enumerate(entries)]})


def log(packets, key="data", table="123456789"):
    out = []
    for i, events in enumerate(packets):
        out.append({"channel": "/table/t" + table, "table_id": table, "packet_id": str(i + 1),
                    "packet_type": "resend", "move_id": str(i + 1), "time": str(1700000000 + 60 * i),
                    "data": events})
    return {"status": 1, "data": {"valid": 1, key: out}}


def write(path, doc, indent=1):
    with open(path, "w") as f:
        json.dump(doc, f, indent=indent)
        f.write("\n")


# game.json: two players, every event carc reads, and the noise it passes over.
GAME = [
    [{"type": "simpleNote", "log": "Colors of ${players} have been chosen", "args": {"players": "Ann, Bob"}},
     {"type": "deck_size", "log": "", "args": {"deck_size": "70"}},
     state(2, ANN, {"tile_type": "11", "tile_id": "40"})],
    # 1. Ann: E north of the start tile, its city facing south, closing the start's city
    [tile(ANN, 11, 0, -1, 3, 40), state(3, ANN, {"spots": []}), {"type": "pickTile", "log": "", "args": None}],
    [meeple(ANN, 0, -1, 1, "city"), *points(ANN, 4, 4), state(5, ANN), state(10, ANN)],
    # 2. Bob: V east of the start, a thief on its road
    [tile(BOB, 17, 1, 0, 1, 55), meeple(BOB, 1, 0, 1, "road"),
     {"type": "updateReflexionTime", "log": "", "args": {"delta": "30"}}],
    # 3. Ann: A west of the start, turned so its road meets the start's, a monk
    [tile(ANN, 21, -1, 0, 4, 66), meeple(ANN, -1, 0, 1, "abbey")],
    # 4. Bob: U south of the V, a farmer in its east field
    [tile(BOB, 16, 1, 1, 1, 50), meeple(BOB, 1, 1, 4, "field")],
    # the final scoring, then the result
    [state(6, ANN), *points(BOB, 4, 4, True, "road"), *points(ANN, 3, 7, True, "abbey"), state(7, ANN),
     *points(BOB, 3, 7, True, "field"), result([(ANN, "ff0000", 7), (BOB, "0000ff", 7)]),
     {"type": "simpleNode", "log": "End of game : ${player_name} wins!", "args": {"player_name": "Ann"}}],
]

# discard.json: three players, packets under "logs", a packet holding one
# event, a cantPlay, and no final result.
DISCARD = [
    [tile(ANN, 11, 0, -1, 3, 40)],
    tile(BOB, 17, 1, 0, 1, 55),
    [{"type": "cantPlay", "log": "${player_name} cannot play this tile", "args": {"player_id": str(CAT),
                                                                                   "type": "22"}},
     tile(CAT, 21, -1, 0, 4, 66)],
    [tile(ANN, 16, 1, 1, 1, 50)],
]


def main():
    write("tests/bga/game.json", log(GAME))
    write("tests/bga/discard.json", log(DISCARD, key="logs"))
    # errors, one event changed each
    bad = log(GAME[:2])
    write("tests/diag/E520.json", bad, indent=None)
    with open("tests/diag/E520.json", "r+") as f:  # cut off inside the last packet
        text = f.read()
        f.seek(0)
        f.truncate()
        f.write(text[:text.rindex('"type": "pickTile"')])
    bad = log([[tile(ANN, 11, 0, "north", 3, 40)]])
    write("tests/diag/E521.json", bad)
    write("tests/diag/E522.json", log([[tile(ANN, 25, 0, -1, 3, 40)]]))
    write("tests/bga/figure.json", log([[tile(ANN, 11, 0, -1, 3, 40), meeple(ANN, 0, -1, 1, "city", "big")]]))
    write("tests/diag/E523.json", log([[tile(ANN, 11, 0, -1, 3, 40), meeple(ANN, 0, -1, 3, "city")]]))
    write("tests/bga/target.json", log([[tile(ANN, 11, 0, -1, 3, 40), meeple(ANN, 0, -1, 2, "city")]]))
    write("tests/diag/E524.json", log([[tile(ANN, 11, 0, -1, 3, 40), meeple(ANN, 1, 0, 1, "city")]]))
    write("tests/bga/out-of-turn.json", log([[tile(ANN, 11, 0, -1, 3, 40), tile(BOB, 17, 1, 0, 1, 55),
                                              tile(BOB, 21, -1, 0, 4, 66)]]))
    write("tests/bga/points.json", log([[tile(ANN, 11, 0, -1, 3, 40), meeple(ANN, 0, -1, 1, "city"),
                                         *points(ANN, 3, 4)]]))
    write("tests/bga/after-final.json", log([GAME[1][0], *points(ANN, 4, 4, True),
                                              tile(BOB, 17, 1, 0, 1, 55)]))
    write("tests/bga/second-round.json", log([[tile(ANN, 11, 0, -1, 3, 40), tile(BOB, 17, 1, 0, 1, 55),
                                               tile(ANN, 21, -1, 0, 4, 66), tile(ANN, 16, 1, 1, 1, 50)]]))
    write("tests/diag/E525.json", log([[tile(ANN, 11, 0, -1, 3, 40), tile(BOB, 17, 1, 0, 1, 55),
                                        result([(ANN, "ff0000", 4), (BOB, "00ffff", 0)])]]))


if __name__ == "__main__":
    main()
