"""Independent SMT proofs over the reals (z3), for L1 and tiny end-to-end instances.

Needs the optional dependency z3-solver (installed with the test extra).  Every query
states the premise exactly as THEORY does, with the division cleared by a positive
denominator: |num/den - t| < 1/2  <=>  den > 0 and (t - 1/2) den < num < (t + 1/2) den.
By the shift F -> F - s the lower level can be taken to be s = 0.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from fractions import Fraction


def _z3():
    import z3

    return z3


def _solved(z3, pairs, target):
    """den > 0 and |num/den - target| < 1/2, for a list of (weight, value) terms."""
    den = z3.Sum([k for k, _ in pairs])
    num = z3.Sum([k * f for k, f in pairs])
    half = z3.RealVal("1/2")
    return z3.And(den > 0, (target - half) * den < num, num < (target + half) * den)


def l1_query(n: int, d: int, positional: bool = False, scale: Fraction = Fraction(1)):
    """A solver holding L1's premise and the negated conclusion D(a) <= scale*(n-2)(d-1)*D(b):
    unsat proves L1 for (n, d); with scale > 1 it is sat (the factor is tight)."""
    z3 = _z3()
    k0, fq = z3.Real("K0"), z3.Real("Fq")
    keys = n - 1
    if positional:
        ka = [z3.Real(f"Ka{j}") for j in range(keys)]
        kb = [z3.Real(f"Kb{j}") for j in range(keys)]
        fa = [z3.Real(f"Fa{j}") for j in range(keys)]
        fb = [z3.Real(f"Fb{j}") for j in range(keys)]
    else:
        ka, kb = [z3.Real("Ka")] * keys, [z3.Real("Kb")] * keys
        fa, fb = [z3.Real("Fa")] * keys, [z3.Real("Fb")] * keys
    solver = z3.Solver()
    solver.add(k0 >= 0, *[k >= 0 for k in ka + kb])
    q = (k0, fq)
    solver.add(_solved(z3, [q] + list(zip(ka, fa, strict=True)), 0))
    solver.add(_solved(z3, [q] + list(zip(kb, fb, strict=True)), d))
    placements = range(keys) if positional else range(1)
    for t in placements:
        solver.add(_solved(z3, [q] + [(ka[j], fa[j]) if j == t else (kb[j], fb[j]) for j in range(keys)], 0))
    d_a = k0 + z3.Sum(ka if positional else [ka[0]] * keys)
    d_b = k0 + z3.Sum(kb if positional else [kb[0]] * keys)
    rho = z3.RealVal(str(scale * (n - 2) * (d - 1)))
    solver.add(d_a <= 0 if d == 1 else d_a <= rho * d_b)
    return solver


def prove_l1(n: int, d: int, positional: bool = False, timeout_ms: int = 60_000, scale: Fraction = Fraction(1)) -> str:
    """'unsat' (L1 proved for this instance), 'sat' (a counterexample) or 'unknown'."""
    solver = l1_query(n, d, positional, scale)
    solver.set("timeout", timeout_ms)
    return str(solver.check())


@dataclass(frozen=True)
class TinyInstance:
    """Three (or more) keys c_i with queries q_i = comp(c_i), n = 3, and the L4 family."""

    m: int
    keys: tuple[int, ...]

    @property
    def queries(self) -> tuple[int, ...]:
        full = (1 << self.m) - 1
        return tuple(full ^ c for c in self.keys)

    def family(self) -> list[tuple[int, int, int]]:
        out = []
        for i, q in enumerate(self.queries):
            out.append((q, self.keys[i], self.keys[i]))
            for j, c in enumerate(self.keys):
                if j != i:
                    out += [(q, c, c), (q, self.keys[i], c)]
        return out


def head_query(inst: TinyInstance, rank: int):
    """A rank-`rank` head with nonnegative features solving the family (query at position 1):
    unknown phi_Q(q_i), phi_K(z) >= 0 and F(q_i, z) (values and readouts are free)."""
    z3 = _z3()
    tokens = sorted(set(inst.keys) | set(inst.queries))
    phi_q = {q: [z3.Real(f"pq_{q}_{t}") for t in range(rank)] for q in inst.queries}
    phi_k = {z: [z3.Real(f"pk_{z}_{t}") for t in range(rank)] for z in tokens}
    f = {(q, z): z3.Real(f"F_{q}_{z}") for q in inst.queries for z in tokens}
    solver = z3.Solver()
    solver.add(*[x >= 0 for v in list(phi_q.values()) + list(phi_k.values()) for x in v])
    for inp in inst.family():
        q = inp[0]
        weight = {z: z3.Sum([a * b for a, b in zip(phi_q[q], phi_k[z], strict=True)]) for z in set(inp)}
        target = min((q & z).bit_count() for z in inp)
        solver.add(_solved(z3, [(weight[z], f[(q, z)]) for z in inp], target))
    return solver, phi_q, phi_k, f


def rational(value) -> Fraction:
    """A z3 numeral as a Fraction (an algebraic number is approximated to 40 digits)."""
    z3 = _z3()
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    return Fraction(value.approx(40).as_fraction())


def main(argv: list[str] | None = None) -> int:
    """``python -m lab.smt``: prove L1 for n = 3..6, d = 1..8 (z3); exit 1 if any is not unsat."""
    ap = argparse.ArgumentParser(prog="python -m lab.smt", description=main.__doc__)
    ap.add_argument("--positional", action="store_true", help="the position-dependent form (L5)")
    args = ap.parse_args(argv)
    bad = 0
    for n in range(3, 7):
        for d in range(1, 9):
            verdict = prove_l1(n, d, positional=args.positional)
            bad += verdict != "unsat"
            print(f"L1 n = {n}, d = {d}: {verdict}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
