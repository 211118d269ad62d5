"""Write the chirotope CNF (m, r, queries; all useful pairs) to a DIMACS file and the
query/pair list to a JSON file beside it.  Usage: mkcnf.py m r out.cnf QUERY..."""
import json
import os
import sys
import time

from kernelbounds.bits import from_str, to_str
sys.path.insert(0, os.path.dirname(__file__))
from sat import build, write  # noqa: E402

m, r, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
qs = sorted(from_str(s) for s in sys.argv[4:])
t = time.time()
nv, cl, pairs = build(m, r, qs)
write(out, nv, cl)
json.dump({"m": m, "rank": r, "queries": [to_str(q, m) for q in qs], "pairs": [[to_str(a, m), to_str(b, m)] for a, b in pairs]},
          open(out[:-4] + ".json", "w"))
print(f"k={len(qs)} pairs={len(pairs)} vars={nv} clauses={len(cl)} build {time.time()-t:.1f}s", flush=True)
