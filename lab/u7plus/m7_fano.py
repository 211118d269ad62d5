"""Rank 4 at m = 7 on the 7 Fano lines {i, i+1, i+3} (weight 3) plus the 7 edges {i, i+d}
(weight 2), d given: one key pair per forced pattern class, CaDiCaL with a time limit."""
import subprocess
import sys
import time

from kernelbounds.lowerbounds import refutation
from kernelbounds.lowerbounds.chirotope import dimacs, encode

d, secs = int(sys.argv[1]), int(sys.argv[2])
bit = lambda *xs: sum(1 << (x % 7) for x in xs)  # noqa: E731
queries = sorted({bit(i, i + 1, i + 3) for i in range(7)} | {bit(i, i + d) for i in range(7)})
t = time.time()
pairs = refutation.useful_pairs(7, queries, 4)
enc = encode(queries, pairs, 4)
print(f"d = {d}: {len(queries)} queries, {len(pairs)} pairs, {enc.variables} variables, {len(enc.clauses)} clauses, built in {time.time() - t:.0f} s", flush=True)
path = f"/tmp/u7p-fano-{d}.cnf"
open(path, "w").write(dimacs(enc))
del enc
t = time.time()
p = subprocess.run(["/usr/bin/cadical", "-q", "-t", str(secs), path], capture_output=True, text=True)
print(f"cadical: exit {p.returncode} ({ {10: 'SAT', 20: 'UNSAT'}.get(p.returncode, 'undecided') }) after {time.time() - t:.0f} s", flush=True)
