"""Numeric rank-r realisability screen of named weight-2 graphs on 7 vertices (evidence only)."""
import sys
from itertools import combinations
import numpy as np
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from realize import columns, attempt

K7 = [frozenset(e) for e in combinations(range(7), 2)]
C7 = [frozenset((i, (i + 1) % 7)) for i in range(7)]
GRAPHS = {
    "K7-tri": [(0, 1), (1, 2), (0, 2)],
    "K7-P4": [(0, 1), (1, 2), (2, 3)],
    "K7-star3": [(0, 1), (0, 2), (0, 3)],
    "K7-3K2": [(0, 1), (2, 3), (4, 5)],
    "K7-P3+K2": [(0, 1), (1, 2), (3, 4)],
    "K7-C4": [(0, 1), (1, 2), (2, 3), (0, 3)],
    "K7-P5": [(0, 1), (1, 2), (2, 3), (3, 4)],
    "K7-2P3": [(0, 1), (1, 2), (3, 4), (4, 5)],
    "K7-C5": [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)],
    "K7-P6": [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
    "K7-C6": [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (0, 5)],
    "K7-P7": [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)],
    "K7-C3C3": [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)],
}

if __name__ == "__main__":
    r, tries = int(sys.argv[1]), int(sys.argv[2])
    for name in sys.argv[3:]:
        rem = {frozenset(e) for e in GRAPHS[name]}
        qs = sorted(sum(1 << i for i in e) for e in K7 if e not in rem)
        S = columns(7, qs)
        rng = np.random.default_rng(7)
        v = [attempt(S, r, rng)[0] for _ in range(tries)]
        print(name, len(qs), v, flush=True)
