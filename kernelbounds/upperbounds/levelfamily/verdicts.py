"""A level family's answers (THEORY §2 U4): the `level-family` certificate, every family at
once, the committed least-rank certificate, its restriction to fewer bits, and the literal
head a certificate describes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from .families import HALF, LevelFamily, differences, exact_worst_error, families, readout_table, value_dim
from .supports import Found, Refutation, least, prove_minimal


def _multiplier_json(label: tuple, y: int) -> dict:
    from ...certificate import rational

    if label[0] == "weight":
        return {"weight": label[1], "y": rational(y)}
    _, p, levels, side = label
    return {"class": [p, *levels], "side": side, "y": rational(y)}


def certificate(found: Found, refutations: list[Refutation] | None = None) -> dict:
    """A format-v2 `level-family` certificate (docs/certificate-format-v2.md)."""
    from ...certificate import header, rational

    fam, m, n = found.family, found.m, found.n
    if found.support is None:
        raise ValueError("no construction to certify")
    worst, _ = exact_worst_error(fam, found.g, readout_table(fam, found.eps, found.f, m), m, n)
    if worst is None or worst >= HALF:
        raise ValueError("the construction does not solve length n")  # least() returns verified ones only
    doc = header("level-family", version=2)
    if fam.readout == "affine":
        readout = {"type": "affine", "eps": rational(found.eps)}
    else:
        readout = {"type": "free", "table": [[rational(x) for x in row] for row in found.f], "value_dim": value_dim(found.f, m)}
    doc.update(
        m=m,
        n=n,
        positions="all",
        basis=fam.basis,
        differences=[rational(found.g.get(j, 0)) for j in range(m + 1)],
        readout=readout,
        claims={
            "worst_error": rational(worst),
            "feature_rank": found.rank,
            "kernel_rank": found.rank,
            "nonnegative_features": found.nonnegative_features,
            "support": sorted(found.g),
        },
    )
    if refutations is not None:
        doc["minimality"] = {
            "signs": "nonnegative" if fam.nonnegative else "any",
            "refuted": [
                {"support": list(r.support), "multipliers": sorted((_multiplier_json(lab, y) for lab, y in r.multipliers), key=lambda e: (sorted(e.items()).__repr__()))}
                for r in refutations
            ],
        }
    return doc


# ---------------------------------------------------------------- every family at once


@dataclass
class Result:
    """One family's answer: the construction (or None) and, on request, its minimality."""

    found: Found
    refutations: list[Refutation] | None  # exact Motzkin multipliers for every maximal cheaper support
    proved: bool  # minimality (or, with no construction, infeasibility of the family) proved exactly

    @property
    def rank(self) -> int | None:
        return self.found.rank


def solve_family(fam: LevelFamily, m: int, n: int, prove: bool = False) -> Result:
    found = least(fam, m, n)
    refs = prove_minimal(found) if prove else None
    return Result(found, refs, refs is not None)


def _solve_job(job):
    return solve_family(*job)


SMALL_CLASSES = 1500  # below this many level classes a process pool costs more than it saves


def solve_families(fams: list[LevelFamily], m: int, n: int, prove: bool = False, processes: int = 2) -> list[Result]:
    """solve_family for each family, over a process pool (results in the order given)."""
    jobs = [(fam, m, n, prove) for fam in fams]
    if processes <= 1 or len(jobs) <= 1 or comb(m + n, n) < SMALL_CLASSES:
        return [_solve_job(j) for j in jobs]
    from ...parallel import pmap  # its workers die with this process

    return pmap(_solve_job, jobs, min(processes, len(jobs)))


def best(results: list[Result]) -> Result | None:
    """The least rank; ties go to the first family in the order of families()."""
    found = [r for r in results if r.rank is not None]
    return min(found, key=lambda r: r.rank) if found else None


def filename(m: int, n: int, nonnegative: bool) -> str:
    """The committed file of the least rank over the families at (m, n)."""
    return f"upper-{'nonnegative' if nonnegative else 'any'}-m{m:02d}-n{n}.json"


SUBSET_MAX_CLASSES = 5000  # beyond this many level classes the committed set searches the complement basis only:
# the subset-basis free-readout search at n = 5, m = 12 (6188 classes) ran over 15 minutes, and the
# subset basis was never better than the complement basis at any committed (m, n) with m >= 5


def least_certificate(m: int, n: int, nonnegative: bool, prove: bool = True, processes: int = 2) -> dict:
    """The committed `level-family` certificate: the least rank over the families of U4
    (any signs, or nonnegative features), with exact minimality in its family when every
    maximal cheaper support was refuted exactly."""
    basis = "best" if comb(m + n, n) <= SUBSET_MAX_CLASSES else "complement"
    r = best(solve_families(families(basis, nonnegative=nonnegative), m, n, prove=prove, processes=processes))
    if r is None:
        raise ValueError(f"no level family solves m = {m}, n = {n}")
    return certificate(r.found, r.refutations if r.proved else None)


def restrict(doc: dict, m: int) -> dict:
    """The level-family certificate of the same head on m <= doc's m bits (tokens whose top
    bits are 0): its level classes are a subset of the original's and g_j with j > m never
    contributes (C(d, j) = 0 for d <= m < j), so it solves length n with support S ∩ [0, m]
    (THEORY U4).  Claims are recomputed exactly; a minimality section is dropped."""
    if not 1 <= m <= doc["m"]:
        raise ValueError(f"cannot restrict a certificate for m = {doc['m']} to m = {m}")
    if m == doc["m"]:
        return doc
    if doc["basis"] == "complement" and doc["readout"]["type"] == "affine":  # O(m^2) extreme classes (U4')
        from .. import complementbasis

        return complementbasis.restrict(doc, m)
    fam = LevelFamily(doc["basis"], doc["readout"]["type"], False)
    g = {j: Fraction(x) for j, x in enumerate(doc["differences"][: m + 1]) if Fraction(x) != 0}
    ro = doc["readout"]
    eps = Fraction(ro["eps"]) if ro["type"] == "affine" else None
    f = [[Fraction(x) for x in row] for row in ro["table"][: m + 1]] if ro["type"] == "free" else None
    found = Found(fam, m, doc["n"], tuple(sorted(g)), g, eps, f)
    return certificate(found)


def explicit_head(doc: dict):
    """The literal head of a level-family certificate (THEORY U4), as a model.KernelHead:
    phi_T(q) = g_|T| [T ⊆ q], psi_T(z) = [T ⊆ z] or [T ∩ z = ∅]; affine: v(z) = z,
    L_q(v) = <q, v> - 1/2 + eps; free: v(z)_S = [S ⊆ z] for |S| <= D and
    L_q(v) = sum_(S ⊆ q, |S| <= D) a_(|q|,|S|) v_S.  Returns (head, features, value_dim)."""
    from ...model import feature_head

    m = doc["m"]
    g = [Fraction(x) for x in doc["differences"]]
    sets = [t for t in range(2**m) if g[t.bit_count()] != 0]
    subset = doc["basis"] == "subset"

    def phi_q(x, i):
        return tuple(g[t.bit_count()] if t & ~x == 0 else Fraction(0) for t in sets)

    def phi_k(z, j):
        return tuple(Fraction(int((t & ~z if subset else t & z) == 0)) for t in sets)

    ro = doc["readout"]
    if ro["type"] == "affine":
        eps = Fraction(ro["eps"])

        def value(z, j):
            return tuple(Fraction((z >> i) & 1) for i in range(m))

        def readout(q, i):
            return tuple(Fraction((q >> k) & 1) for k in range(m)), eps - HALF

        return feature_head(phi_q, phi_k, value, readout), len(sets), m
    diffs = [differences([Fraction(x) for x in row]) for row in ro["table"]]
    top = max((i for row in diffs for i, a in enumerate(row) if a != 0), default=0)
    vsets = [s for s in range(2**m) if s.bit_count() <= top]

    def value(z, j):
        return tuple(Fraction(int(s & ~z == 0)) for s in vsets)

    def readout(q, i):
        a = diffs[q.bit_count()]
        return tuple(a[s.bit_count()] if s & ~q == 0 else Fraction(0) for s in vsets), Fraction(0)

    return feature_head(phi_q, phi_k, value, readout), len(sets), len(vsets)
