"""Chirotope CNF (THEORY U7) for chosen queries at m, rank r: the project's encoder, with the
pattern-free Grassmann-Pluecker block cached per (k, r); CaDiCaL with a time limit.

Usage: python lab/m7/sat.py m r seconds QUERY...   (queries as bit strings)
The CNF equals kernelbounds.lowerbounds.chirotope.encode(queries, useful_pairs(...), r)
(the relation block does not depend on the patterns; Cramer clauses are added by the same
Encoding class).  Prints SAT/UNSAT/UNKNOWN, sizes, seconds."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

from kernelbounds.bits import from_str
from kernelbounds.lowerbounds.chirotope import Encoding, pattern
from kernelbounds.lowerbounds.refutation import useful_pairs

CACHE = Path("/tmp/m7_relcache")


def relations(k: int, r: int):
    CACHE.mkdir(exist_ok=True)
    f = CACHE / f"k{k}_r{r}.pkl"
    if f.exists():
        return pickle.loads(f.read_bytes())
    e = Encoding(k, r, [])
    data = (e.variables, e.clauses)
    f.write_bytes(pickle.dumps(data))
    return data


def cramer(k: int, r: int, patterns):
    """Exactly Encoding._cramer's clauses (after the relation block; deduplicated)."""
    enc = Encoding.__new__(Encoding)
    enc.k, enc.r = k, r
    from itertools import combinations
    enc.index = {t: i + 1 for i, t in enumerate(combinations(range(k), r))}
    enc.patterns = list(dict.fromkeys(patterns))
    enc.clauses, enc._seen = [], set()
    enc._cramer()
    return enc.clauses


def build(m: int, r: int, queries, pairs=None):
    queries = sorted(queries)
    if pairs is None:
        pairs = useful_pairs(m, queries, r)
    pats = [pattern(queries, a, b) for a, b in pairs]
    pats = [p for p in pats if sum(1 for x in p if x) >= r + 1]
    nv, rel = relations(len(queries), r)
    cl = rel + cramer(len(queries), r, pats)
    return nv, cl, pairs


def write(path, nv, clauses):
    with open(path, "w") as f:
        f.write(f"p cnf {nv} {len(clauses)}\n")
        for c in clauses:
            f.write(" ".join(map(str, c)) + " 0\n")


def run(path, seconds, proof=None, extra=()):
    cmd = ["nice", "-n", "19", "/usr/bin/cadical", "-t", str(int(seconds)), *extra, path]
    if proof:
        cmd += [proof, "--no-binary"]
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.time() - t
    model = None
    if p.returncode == 10:
        model = [int(w) for ln in p.stdout.splitlines() if ln.startswith("v ") for w in ln[2:].split()]
        model = {abs(x): x > 0 for x in model if x}
    status = {10: "SAT", 20: "UNSAT"}.get(p.returncode, f"UNKNOWN({p.returncode})")
    return status, dt, model


if __name__ == "__main__":
    m, r, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    qs = [from_str(s) for s in sys.argv[4:]]
    t = time.time()
    nv, cl, pairs = build(m, r, qs)
    path = f"/tmp/m7_{os.getpid()}.cnf"
    write(path, nv, cl)
    print(f"k={len(qs)} pairs={len(pairs)} vars={nv} clauses={len(cl)} build {time.time()-t:.1f}s", flush=True)
    status, dt, _ = run(path, secs)
    print(status, f"{dt:.1f}s", flush=True)
    os.unlink(path)
