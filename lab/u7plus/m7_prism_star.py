"""Rank 4 at m = 7 on the prism (the m = 6 core) plus the star of coordinate 6 (K7 minus a
6-cycle, 15 weight-2 queries): one key pair per forced pattern class, CaDiCaL with a time limit."""
import subprocess
import sys
import time

from kernelbounds.bits import from_str
from kernelbounds.lowerbounds import refutation
from kernelbounds.lowerbounds.chirotope import dimacs, encode

secs = int(sys.argv[1]) if len(sys.argv) > 1 else 480
base = refutation.stored(6, 3)
queries = sorted([from_str(q + "0") for q in base["queries"]] + [(1 << i) | (1 << 6) for i in range(6)])
t = time.time()
pairs = refutation.useful_pairs(7, queries, 4)
enc = encode(queries, pairs, 4)
print(f"{len(queries)} queries, {len(pairs)} pairs, {enc.variables} variables, {len(enc.clauses)} clauses, built in {time.time() - t:.0f} s", flush=True)
open("/tmp/u7p-m7-star.cnf", "w").write(dimacs(enc))
del enc
t = time.time()
p = subprocess.run(["/usr/bin/cadical", "-q", "-t", str(secs), "/tmp/u7p-m7-star.cnf"], capture_output=True, text=True)
print(f"cadical: exit {p.returncode} ({ {10: 'SAT', 20: 'UNSAT'}.get(p.returncode, 'undecided') }) after {time.time() - t:.0f} s", flush=True)
