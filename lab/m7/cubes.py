"""Cube hardness probe: the CNF of `cnf` plus units fixing chi on every 4-subset of the first
`j` queries, read from random Gaussian vectors in R^4 (so each cube is a realisable partial
chirotope, chi(first 4) = + by flipping vector 0).  Prints each cube's solver status and time.
Usage: cubes.py file.cnf k j cubes seconds"""
import os
import subprocess
import sys
import time
from itertools import combinations

import numpy as np

cnf, k, j, cubes, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
index = {t: i + 1 for i, t in enumerate(combinations(range(k), 4))}
text = open(cnf).read()
head, body = text.split("\n", 1)
_, _, nv, nc = head.split()
rng = np.random.default_rng(11)
for c in range(cubes):
    X = rng.normal(size=(k, 4))
    if np.linalg.det(X[:4]) < 0:
        X[0] = -X[0]
    units = [index[t] * (1 if np.linalg.det(X[list(t)]) > 0 else -1) for t in combinations(range(j), 4)]
    path = f"/tmp/m7/cube_{os.getpid()}.cnf"
    with open(path, "w") as f:
        f.write(f"p cnf {nv} {int(nc) + len(units)}\n{body}")
        f.writelines(f"{u} 0\n" for u in units)
    t = time.time()
    p = subprocess.run(["nice", "-n", "19", "/usr/bin/cadical", "-q", "-t", str(secs), path], capture_output=True, text=True)
    print(f"cube {c}: {len(units)} units, {({10: 'SAT', 20: 'UNSAT'}).get(p.returncode, 'UNKNOWN')} {time.time() - t:.1f}s", flush=True)
    os.unlink(path)
