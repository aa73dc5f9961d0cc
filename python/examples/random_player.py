#!/usr/bin/env python3
"""A random player: every seat draws its tile, lists the legal moves and
plays one of them chosen at random, until the supply is used up. Writes
each game as CGN on standard output (check it with `carc check -`) and the
final scores on standard error.

    python3 random_player.py --rules base --expansions river abbot --players 3 --games 5 --seed 1
"""

import argparse
import random
import sys

import carc


def play_random(game, rng):
    """Plays game to its end with random legal moves."""
    while not game.over:
        game.draw()
        game.play(rng.choice(game.legal_moves()))
    return game


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="base", help="base, solo or hunters")
    ap.add_argument("--expansions", nargs="*", default=[], help="river, abbot")
    ap.add_argument("--players", type=int, default=None, help="seats (default: the rules' usual)")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    for k in range(a.games):
        g = carc.Game(players=a.players, rules=a.rules, expansions=a.expansions, seed=a.seed + k)
        play_random(g, rng)
        sys.stdout.write(g.cgn())
        sys.stdout.write("\n")
        print("game %d: %s" % (k + 1, ", ".join("%s %d" % kv for kv in g.scores.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
