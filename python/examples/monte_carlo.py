#!/usr/bin/env python3
"""A tiny Monte Carlo search: on its turn the first seat tries some of its
legal moves, plays each on clones of the game followed by random playouts
to the end, and takes the move with the best mean final lead (its score
minus the best of the others'); the other seats play at random. Writes the
game as CGN on standard output and the scores on standard error.

    python3 monte_carlo.py --seed 5 --moves 8 --playouts 4 [--turns N]
"""

import argparse
import random
import sys

import carc


def playout(game, rng):
    """Plays game (a clone) to its end at random."""
    while not game.over:
        game.draw()
        game.play(rng.choice(game.legal_moves()))
    return game


def final_lead(game, colour):
    s = game.scores
    others = [v for c, v in s.items() if c != colour]
    return s[colour] - (max(others) if others else 0)


def search(game, rng, moves, playouts):
    """The move with the best mean lead after random playouts."""
    me = game.to_move
    legal = list(game.legal_moves())
    candidates = legal if len(legal) <= moves else rng.sample(legal, moves)
    best, best_mean = None, None
    for move in candidates:
        total = 0
        for _ in range(playouts):
            trial = game.clone()
            trial.play(move)
            total += final_lead(playout(trial, rng), me)
        mean = total / playouts
        if best_mean is None or mean > best_mean:
            best, best_mean = move, mean
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--moves", type=int, default=8, help="moves tried a turn")
    ap.add_argument("--playouts", type=int, default=4, help="random games after each move tried")
    ap.add_argument("--turns", type=int, default=0, help="search on this many turns only (0: all)")
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    g = carc.Game(players=a.players, seed=a.seed)
    searcher = g.players[0]
    turn = 0
    while not g.over:
        g.draw()
        turn += 1
        if g.to_move == searcher and (not a.turns or turn <= a.turns):
            g.play(search(g, rng, a.moves, a.playouts))
        else:
            g.play(rng.choice(g.legal_moves()))
    sys.stdout.write(g.cgn())
    print("search %s: %s" % (searcher, ", ".join("%s %d" % kv for kv in g.scores.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
