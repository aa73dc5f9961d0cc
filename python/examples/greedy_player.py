#!/usr/bin/env python3
"""A greedy player: on its turn it tries every legal move on a clone of the
game and takes the one after which its projected final (what it would
score if the game ended there, as `carc score --projected` counts it) is
best against the best of the others; the other seats play at random.
Writes the game as CGN on standard output and the scores on standard error.

    python3 greedy_player.py --players 2 --seed 3 [--turns N]
"""

import argparse
import random
import sys

import carc


def projected_lead(game, colour):
    """colour's projected final minus the best of the others'."""
    p = game.projected
    others = [v for c, v in p.items() if c != colour]
    return p[colour] - (max(others) if others else 0)


def greedy_move(game):
    """The legal move of the drawn tile with the best projected lead for the
    colour to move (the first of equals)."""
    me = game.to_move
    best, best_lead = None, None
    for move in game.legal_moves():
        trial = game.clone()
        trial.play(move)
        lead = projected_lead(trial, me)
        if best_lead is None or lead > best_lead:
            best, best_lead = move, lead
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="base")
    ap.add_argument("--expansions", nargs="*", default=[])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=0, help="greedy for this many turns only (0: all)")
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    g = carc.Game(players=a.players, rules=a.rules, expansions=a.expansions, seed=a.seed)
    greedy = g.players[0]
    turn = 0
    while not g.over:
        g.draw()
        turn += 1
        if g.to_move == greedy and (not a.turns or turn <= a.turns):
            g.play(greedy_move(g))
        else:
            g.play(rng.choice(g.legal_moves()))
    sys.stdout.write(g.cgn())
    print("greedy %s: %s" % (greedy, ", ".join("%s %d" % kv for kv in g.scores.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
