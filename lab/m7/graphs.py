"""Edge sets of graphs on 7 vertices as weight-2 query strings (bit i = character i)."""
import sys
from itertools import combinations


def edge(i, j, m=7):
    return "".join("1" if k in (i, j) else "0" for k in range(m))


def complement(edges, m=7):
    E = {frozenset(e) for e in edges}
    return [edge(i, j, m) for i, j in combinations(range(m), 2) if frozenset((i, j)) not in E]


if __name__ == "__main__":
    name = sys.argv[1]
    if name == "cC7":
        print(" ".join(complement([(i, (i + 1) % 7) for i in range(7)])))
    elif name == "cC3C4":
        print(" ".join(complement([(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (5, 6), (3, 6)])))
    elif name == "edges":  # e.g. edges 01,12,...
        print(" ".join(edge(int(e[0]), int(e[1])) for e in sys.argv[2:]))
