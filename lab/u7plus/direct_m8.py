"""Direct rank refutation at m = 8, r = 4: the m = 6 prism core plus the edge {6, 7}
(THEORY U7+), one key pair per forced pattern class, CaDiCaL, trimmed to LRAT.
Writes the record to lab/u7plus/m08-r4.json (copied into kernelbounds/data/refutations.json
by the generator's refresh)."""
import json
import sys
import time

from kernelbounds.lowerbounds import refutation
from kernelbounds.lowerbounds.chirotope import dimacs, encode
from kernelbounds.lowerbounds.trimming import trim
from kernelbounds.bits import from_str, to_str

m, r = int(sys.argv[1]) if len(sys.argv) > 1 else 8, 4
base = refutation.stored(6, 3)
extra = ["00000011"] if m == 8 else []
queries = sorted([from_str(q + "00") for q in base["queries"]] + [from_str(e) for e in extra])
t = time.perf_counter()
pairs = refutation.useful_pairs(m, queries, r)
enc = encode(queries, pairs, r)
print(f"{len(queries)} queries, {len(pairs)} pairs, {enc.variables} variables, {len(enc.clauses)} clauses ({time.perf_counter() - t:.1f} s)", flush=True)
best = None
for options in refutation.FINAL_OPTIONS:
    ans = refutation.solve(dimacs(enc), options)
    print(f"{' '.join(options)}: unsat={ans.unsat} {ans.seconds:.1f} s, {len(ans.proof)} DRAT lines", flush=True)
    if not ans.unsat:
        sys.exit(1)
    t = time.perf_counter()
    proof = trim(enc.variables, enc.clauses, ans.proof)
    size = sum(len(x) + 1 for x in proof)
    print(f"  trimmed to {len(proof)} LRAT lemmas, {size} bytes, in {time.perf_counter() - t:.1f} s", flush=True)
    if best is None or size < best[0]:
        best = (size, proof, options)
_, proof, options = best
rec = {"m": m, "rank": r, "queries": [to_str(q, m) for q in queries], "pairs": [[to_str(a, m), to_str(b, m)] for a, b in pairs],
       "solver": {"name": "cadical", "version": refutation.solver_version(), "options": " ".join(options)}, "proof": proof}
json.dump(rec, open(f"/work/wt-u7plus/lab/u7plus/m{m:02d}-r{r}.json", "w"))
print("written", flush=True)
