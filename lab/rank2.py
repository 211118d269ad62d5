"""Research (THEORY U5, last sentences): is there a rank-2 head at m = 5, n = 3?  An SMT
formulation over the reals (z3) on a subset S of tokens, with the GL(2) gauge fixed.

Soundness of the restriction: a head that solves every input also solves the inputs
whose tokens all lie in S, and its kernel restricted to S x S has rank <= r.  So "unsat
on S" proves r*(m, n) > r; "sat" on S proves nothing about the full task.  The subsets
are chosen up to the bit-permutation symmetry (S_m acts on tokens; a subset and its image
give the same answer), which is the symmetry breaking here: one representative per
family (tokens of given weights; a complement-closed subset).

Encoding (r = 2): phi(q) = (a_q, b_q), psi(z) = (c_z, d_z), u(q, z) = K(q, z) F(q, z);
K(q, z) = a_q c_z + b_q d_z >= 0; every input X over S scored at q: (t - 1/2) sum_X K <
sum_X u < (t + 1/2) sum_X K.  Gauge: psi(s0) = (1, 0) for the first token s0 of S (a
query's own key weight is > 0, so psi(s0) != 0; rotate and scale), and psi(s1) = (0, 1)
or psi(s1) = (lambda, 0) (two cases: independent of psi(s0) or not).

Nonnegative gauge (default for r = 2): a nonnegative matrix of rank <= 2 has a
nonnegative factorisation of rank 2 (Cohen and Rothblum 1993: nonnegative rank = rank
when rank <= 2), so phi, psi >= 0 loses nothing; then phi(q) = (1 - a_q, a_q) with
0 <= a_q <= 1 (a positive scale per query changes no output), each column of psi sums
to 1 over S (a zero column would be rank one; a small positive column keeps every strict
inequality), and psi(s0)_0 >= psi(s0)_1 (swap the columns).

Run: python -m lab.rank2 [--m 5] [--n 3] [--timeout 120] [--gl]
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations_with_replacement


def _inputs(s, z3, S, n, K, u):
    half = z3.RealVal("1/2")
    for q in S:
        for others in combinations_with_replacement(S, n - 1):
            xs = (q, *others)
            t = min((q & z).bit_count() for z in xs)
            den = z3.Sum([K[(q, z)] for z in xs])
            num = z3.Sum([u[(q, z)] for z in xs])
            s.add((t - half) * den < num, num < (t + half) * den)


def solver(m: int, n: int, S: list[int], case: str, rank: int = 2):
    """case "independent" / "parallel": the GL(2) gauge; "nonnegative": the nonnegative one."""
    import z3

    s = z3.SolverFor("QF_NRA")
    u = {(q, z): z3.Real(f"u{q}_{z}") for q in S for z in S}
    psi = {z: [z3.Real(f"s{z}_{k}") for k in range(rank)] for z in S}
    if case == "nonnegative":
        a = {q: z3.Real(f"a{q}") for q in S}
        phi = {q: [1 - a[q], a[q]] for q in S}
        s.add(*[z3.And(a[q] >= 0, a[q] <= 1) for q in S], *[x >= 0 for z in S for x in psi[z]])
        s.add(*[z3.Sum([psi[z][k] for z in S]) == 1 for k in range(2)], psi[S[0]][0] >= psi[S[0]][1])
        K = {(q, z): phi[q][0] * psi[z][0] + phi[q][1] * psi[z][1] for q in S for z in S}
        _inputs(s, z3, S, n, K, u)
        return s
    phi = {q: [z3.Real(f"p{q}_{k}") for k in range(rank)] for q in S}
    K = {(q, z): z3.Sum([x * y for x, y in zip(phi[q], psi[z], strict=True)]) for q in S for z in S}
    s0, s1 = S[0], S[1]
    s.add(psi[s0][0] == 1, *[psi[s0][k] == 0 for k in range(1, rank)])
    if rank >= 2:
        if case == "independent":
            s.add(psi[s1][0] == 0, psi[s1][1] == 1, *[psi[s1][k] == 0 for k in range(2, rank)])
        else:
            s.add(*[psi[s1][k] == 0 for k in range(1, rank)])
    s.add(*[K[(q, z)] >= 0 for q in S for z in S])
    _inputs(s, z3, S, n, K, u)
    return s


def decide(m: int, n: int, S: list[int], timeout_s: float, rank: int = 2, gl: bool = False) -> tuple[str, float]:
    """'unsat' (every gauge case), 'sat' (a case has a model), or 'unknown'; seconds."""
    start = time.perf_counter()
    cases = ["nonnegative"] if rank == 2 and not gl else ["independent", "parallel"] if rank >= 2 else ["parallel"]
    verdicts = []
    for case in cases:
        s = solver(m, n, S, case, rank)
        left = max(1, int(1000 * (timeout_s - (time.perf_counter() - start))))
        s.set("timeout", left)
        v = str(s.check())
        verdicts.append(v)
        if v == "sat":
            return "sat", time.perf_counter() - start
    return ("unsat" if all(v == "unsat" for v in verdicts) else "unknown"), time.perf_counter() - start


def families(m: int) -> dict[str, list[int]]:
    """Representative token subsets (one per S_m orbit family)."""
    full = (1 << m) - 1
    weights = lambda ws: [z for z in range(1 << m) if z.bit_count() in ws]
    out = {
        "weight 2": weights({2}),
        f"weights 2, {m - 2}": weights({2, m - 2}),
        "weights 1..2": weights({1, 2}),
        f"weights 2..{m - 2}" if m > 4 else "weight 2 (m=4)": weights(set(range(2, m - 1))),
        "all tokens": list(range(1 << m)),
    }
    pairs = [z for z in range(1 << m) if z.bit_count() == 2]
    out["weight-2 tokens and complements"] = sorted(set(pairs) | {full ^ z for z in pairs})
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--m", type=int, default=5)
    p.add_argument("--n", type=int, default=3)
    p.add_argument("--rank", type=int, default=2)
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--gl", action="store_true", help="the GL(2) gauge instead of the nonnegative one")
    p.add_argument("--family", action="append", help="only these families (by name)")
    args = p.parse_args(argv)
    for name, S in families(args.m).items():
        if args.family and name not in args.family:
            continue
        verdict, secs = decide(args.m, args.n, S, args.timeout, args.rank, args.gl)
        print(f"m = {args.m}, n = {args.n}, rank {args.rank}, {name} ({len(S)} tokens): {verdict} in {secs:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
