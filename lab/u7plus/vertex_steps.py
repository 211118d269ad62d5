"""Probe: extend a stored rank refutation by ONE new coordinate per step (THEORY U7+ needs
an edge, i.e. two).  A step adds a query q* on m + 1 coordinates and, for every pattern s of
the current family, two key pairs at m + 1 whose forced signs agree with s on its support and
force q* positive, resp. negative; then the projection argument of U7+ adds one rank.
Prints, per step and candidate q*, how many patterns can be flipped."""
import sys

from kernelbounds.bits import from_str
from kernelbounds.lowerbounds import refutation


def sign(q, a, b):
    d = (q & b).bit_count() - (q & a).bit_count()
    return 1 if d >= 2 else -1 if d <= -2 else 0


m0, r0 = int(sys.argv[1]), int(sys.argv[2])
base = refutation.stored(m0, r0)
Q = [from_str(q) for q in base["queries"]]
S = {tuple(sign(q, from_str(a), from_str(b)) for q in Q) for a, b in base["pairs"]}
m = m0 + 1
pairs = [(a, b) for a in range(1 << m) for b in range(1 << m) if a != b]
pat = {(a, b): tuple(sign(q, a, b) for q in Q) for a, b in pairs}
results = []
for qs in range(1, 1 << m):
    if not qs >> m0 & 1:
        continue  # q* must use the new coordinate (else it is a base-coordinate query)
    flipped = 0
    for s in S:
        need = [(i, x) for i, x in enumerate(s) if x]
        got = set()
        for (a, b), p in pat.items():
            if all(p[i] == x for i, x in need):
                t = sign(qs, a, b)
                if t:
                    got.add(t)
                    if len(got) == 2:
                        break
        flipped += len(got) == 2
    results.append((flipped, format(qs, f"0{m}b")[::-1]))
results.sort(reverse=True)
print(f"base m = {m0}, r = {r0}: {len(S)} patterns; best q* at m = {m}:", results[:6])
