"""Throughput of Tablebase.probe_many, and of Tablebase.probe in a loop.

    python python/examples/probe_many_rate.py DIR PIECES COUNT

Draws COUNT random legal Russian positions of PIECES pieces (a fixed seed), probes
them once to read their blocks into the cache, then times probe_many over all of
them and probe over the first tenth, and prints positions per second.
"""

import random
import sys
import time

import damka

DARK = [f"{'abcdefgh'[f]}{r + 1}" for r in range(8) for f in range(8) if (f + r) % 2 == 0]


def random_fens(pieces, count, seed=15):
    """`count` random legal Russian positions of `pieces` pieces, each side at
    least one, either side to move."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        sides = {"W": [], "B": []}
        for i, square in enumerate(rng.sample(DARK, pieces)):
            color = "W" if i == 0 else "B" if i == 1 else rng.choice("WB")
            king = rng.random() < 0.4 or square[1] == ("8" if color == "W" else "1")
            sides[color].append(("K" if king else "") + square)
        fens.append(f"{rng.choice('WB')}:W{','.join(sides['W'])}:B{','.join(sides['B'])}")
    return fens


def main(directory, pieces, count):
    tb = damka.Tablebase(directory, "russian")
    fens = random_fens(pieces, count)
    tb.probe_many(fens)
    start = time.perf_counter()
    tb.probe_many(fens)
    many = len(fens) / (time.perf_counter() - start)
    some = fens[: max(1, count // 10)]
    start = time.perf_counter()
    for fen in some:
        tb.probe(fen)
    one = len(some) / (time.perf_counter() - start)
    print(f"{count} random {pieces}-piece Russian positions, blocks cached")
    print(f"probe_many: {many:,.0f} positions/s")
    print(f"probe in a loop: {one:,.0f} positions/s")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
