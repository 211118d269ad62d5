"""Unions of two rotation orbits (i -> i+1 mod 7) of tokens of weight 2..4 at m = 7, rank 4:
short CaDiCaL runs on each chirotope CNF (lab/m7/sat.py)."""
import os
import sys
from itertools import combinations

from kernelbounds.bits import to_str
sys.path.insert(0, os.path.dirname(__file__))
from sat import build, run, write  # noqa: E402

m, r = 7, 4


def rot(q):
    return ((q << 1) | (q >> (m - 1))) & ((1 << m) - 1)


def orbits(weights):
    seen, out = set(), []
    for q in range(1 << m):
        if bin(q).count("1") in weights and q not in seen:
            orb, x = [], q
            while x not in orb:
                orb.append(x)
                x = rot(x)
            seen.update(orb)
            out.append(orb)
    return out


if __name__ == "__main__":
    secs = float(sys.argv[1])
    weights = [int(w) for w in sys.argv[2].split(",")]
    extra = sys.argv[3:] if len(sys.argv) > 3 else []
    O = orbits(weights)
    path = f"/tmp/m7_orb_{os.getpid()}.cnf"
    for i, j in combinations(range(len(O)), 2):
        qs = sorted(set(O[i] + O[j]))
        nv, cl, pairs = build(m, r, qs)
        write(path, nv, cl)
        status, dt, _ = run(path, secs)
        print(status, f"{dt:.1f}s", f"pairs={len(pairs)} clauses={len(cl)}", to_str(O[i][0], m), to_str(O[j][0], m), flush=True)
    os.unlink(path)
