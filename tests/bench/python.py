"""make bench: the Python package's figures.

    CARC_LIBRARY=build/lib/libcarc.so.0 PYTHONPATH=python python3 tests/bench/python.py [GAMES]

1. Complete random games played from Python through carc.Game (draw, list
   the legal moves, pick one at random, play) per second, base rules, two
   players; the target is at least 100 a second. Beside it the same games
   played by calling libcarc directly through ctypes, with the same
   choices: the difference, spread over the calls, is what the package
   costs a call (a small constant, whatever the game's size). And `carc
   gen`'s games per second, for scale.
2. Legal-move listings per second: every turn of such games, its drawn
   tile's moves listed once on the fresh position, then again on it.
"""

import ctypes
import os
import random
import subprocess
import sys
import time

import carc
from carc import _lib

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 200
CARC = os.environ.get("CARC", "build/carc")


def play_package(seed):
    rng = random.Random(seed)
    g = carc.Game(players=2, seed=seed)
    calls = 1
    while not g.over:
        g.draw()
        moves = g.legal_moves()
        g.play(moves[rng.randrange(len(moves))])
        calls += 4
    return calls


def play_ctypes(seed):
    """The same game by libcarc's functions alone."""
    c = _lib.lib
    rng = random.Random(seed)
    setup = _lib.Setup(players=2, seed=seed, deploy_rate=-1.0, claim_rate=-1.0)
    why = ctypes.create_string_buffer(256)
    m = c.carc_match_new(ctypes.byref(setup), why, len(why))
    cap = 64
    while not c.carc_match_over(m):
        c.carc_match_draw(m, None)
        arr = (_lib.MoveSpec * cap)()
        n = c.carc_match_legal_moves(m, arr, cap)
        if n > cap:
            cap = n
            arr = (_lib.MoveSpec * cap)()
            n = c.carc_match_legal_moves(m, arr, cap)
        c.carc_match_play(m, ctypes.byref(arr[rng.randrange(n)]))
    c.carc_match_free(m)


def timed(fn, *args):
    t = time.process_time()
    r = fn(*args)
    return time.process_time() - t, r


def main():
    seeds = range(1, GAMES + 1)
    t_pkg, calls = timed(lambda: sum(play_package(s) for s in seeds))
    t_raw, _ = timed(lambda: [play_ctypes(s) for s in seeds])
    per_call = (t_pkg - t_raw) / calls * 1e6
    rate = GAMES / t_pkg
    print("python: %d random 2-player base games through carc.Game: %.2f s cpu, %.0f games/s (target 100: %s)"
          % (GAMES, t_pkg, rate, "met" if rate >= 100 else "NOT MET"))
    print("python: the same through ctypes alone: %.0f games/s; the package costs %.1f us a call (%d calls)"
          % (GAMES / t_raw, per_call, calls))
    t0 = time.time()
    p = subprocess.run([CARC, "gen", "-n", str(GAMES), "-s", "1"], stdout=subprocess.DEVNULL)
    if p.returncode == 0:
        print("python: carc gen, for scale: %.0f games/s (wall)" % (GAMES / (time.time() - t0)))
    # legal-move listings: the first of a turn (a fresh position), then the
    # same position listed again
    first = again = 0.0
    turns = moves = 0
    for seed in seeds[:max(1, GAMES // 10)]:
        rng = random.Random(seed)
        g = carc.Game(players=2, seed=seed)
        while not g.over:
            g.draw()
            t = time.process_time()
            ms = g.legal_moves()
            t1 = time.process_time()
            for _ in range(10):
                g.legal_moves()
            again += time.process_time() - t1
            first += t1 - t
            turns += 1
            moves += len(ms)
            g.play(ms[rng.randrange(len(ms))])
    print("python: legal-move listings: %.0f a second on a fresh position, %.0f listing it again (%.1f moves each)"
          % (turns / first, 10 * turns / again, moves / turns))

if __name__ == "__main__":
    main()
