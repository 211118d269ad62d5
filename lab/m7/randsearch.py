"""Random small query sets at m = 7, rank 4: which chirotope CNFs are UNSAT (short solver runs).

Usage: python lab/m7/randsearch.py k weights seconds trials seed [fixed queries...]"""
import os
import random
import sys

from kernelbounds.bits import to_str, from_str
sys.path.insert(0, os.path.dirname(__file__))
from sat import build, run, write  # noqa: E402

m, r = 7, 4
k = int(sys.argv[1])
weights = [int(w) for w in sys.argv[2].split(",")]
secs, trials, seed = float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
fixed = [from_str(s) for s in sys.argv[6:]]
pool = [q for q in range(1 << m) if bin(q).count("1") in weights and q not in fixed]
rng = random.Random(seed)
path = f"/tmp/m7_rand_{os.getpid()}.cnf"
for _trial in range(trials):
    qs = sorted(fixed + rng.sample(pool, k - len(fixed)))
    nv, cl, pairs = build(m, r, qs)
    write(path, nv, cl)
    status, dt, _ = run(path, secs)
    print(status, f"{dt:.1f}s", len(pairs), len(cl), " ".join(to_str(q, m) for q in qs), flush=True)
    if status == "UNSAT":
        break
os.unlink(path)
