"""Probe (THEORY U7+ with one new coordinate): is there a query q* at m = 7 such that every
pattern s of the m = 6 base refutation (17 pairs on the prism queries) is extended, on its
forced queries, by one key pair forcing q* positive and one forcing it negative?  Then the
lemma's projection argument would refute rank 4 at m = 7."""
from kernelbounds.lowerbounds import refutation
from kernelbounds.bits import from_str

M = 7
base = refutation.stored(6, 3)
Q = [from_str(q) for q in base["queries"]]


def sign(q, a, b):
    d = (q & b).bit_count() - (q & a).bit_count()
    return 1 if d >= 2 else -1 if d <= -2 else 0


S = [tuple(sign(q, from_str(a), from_str(b)) for q in Q) for a, b in base["pairs"]]
pairs = [(a, b) for a in range(1 << M) for b in range(1 << M) if a != b]
pat = {(a, b): tuple(sign(q, a, b) for q in Q) for a, b in pairs}
best = []
for qs in range(1, 1 << M):
    ok = 0
    for s in S:
        need = [(i, x) for i, x in enumerate(s) if x]
        got = {1: False, -1: False}
        for (a, b), p in pat.items():
            if all(p[i] == x for i, x in need):
                t = sign(qs, a, b)
                if t:
                    got[t] = True
            if got[1] and got[-1]:
                break
        ok += got[1] and got[-1]
    best.append((ok, qs))
best.sort(reverse=True)
print(len(S), "patterns; best q*:", [(ok, format(q, "07b")[::-1]) for ok, q in best[:10]])
