"""General position-independent heads at small m, given by rational tables (THEORY U5).

A head is phi_Q(q), psi_K(z) in Q^r for every token and a readout table F(q, z)
(THEORY §1: F = L_q(v(z)) may be any function, since dv is free; the value dimension it
needs is the affine rank of the columns F(., z), see :func:`value_dim`).  At query q the
output on an input (q and a multiset M of n-1 other tokens) is
y = sum_{z in q+M} w_q(z) F(q, z) / sum w_q(z) with w_q(z) = <phi_Q(q), psi_K(z)>.

**Extreme-class inputs.** For fixed q and least level t = min_{z in M} <q, z>, both sides of
"|y - t| <= e" are sums over q+M of a per-token term, so the worst multiset with least
level t is (q, a, b, ..., b) with <q,a> = t, <q,b> >= t: the least (or largest) term at
level t once and the least term at levels >= t n-2 times.  So every claim over all
2^m C(2^m+n-2, n-1) inputs is decided exactly in O(4^m m) steps, and the LPs of the search
(:mod:`.centralsearch`) need only the family of inputs (q, a, b^(n-2)) (:func:`kernelbounds.classes.extreme_class_inputs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .. import levelmin
from ..bits import to_str
from ..errors import InvalidArgument

HALF = Fraction(1, 2)
PACK_FROM_M = 8  # from here the readout is written in the packed layout (4^m entries: 65,536 at m = 8)
ENCODINGS = (("int16-le-base64", "<i2", 15), ("int32-le-base64", "<i4", 31))  # name, numpy dtype, magnitude bits


@dataclass(frozen=True)
class ExplicitHead:
    """Rational tables: phi[q], psi[z] (length r each) and F[q][z], on m-bit tokens."""

    m: int
    n: int
    phi: tuple[tuple[Fraction, ...], ...]
    psi: tuple[tuple[Fraction, ...], ...]
    F: tuple[tuple[Fraction, ...], ...]

    @property
    def rank(self) -> int:
        return len(self.psi[0])

    def weights(self, q: int) -> list[Fraction]:
        p = self.phi[q]
        return [sum((a * b for a, b in zip(p, s, strict=True)), Fraction(0)) for s in self.psi]

    @property
    def nonnegative_features(self) -> bool:
        return all(x >= 0 for table in (self.phi, self.psi) for row in table for x in row)

    def output(self, q: int, others: tuple[int, ...]) -> Fraction:
        w = self.weights(q)
        xs = (q, *others)
        den = sum(w[z] for z in xs)
        return sum(w[z] * self.F[q][z] for z in xs) / den


def _common(values: list[Fraction]) -> tuple[list[int], int]:
    from math import lcm

    d = lcm(*(v.denominator for v in values))
    return [v.numerator * (d // v.denominator) for v in values], d


def integer_weights(head: ExplicitHead) -> list[tuple[list[int], list[int]]]:
    """Per query q, integers (W, U) proportional to (w_q, w_q F(q, .)) with one positive
    factor per query (psi over one common denominator, phi and F row by row)."""
    T, r = 1 << head.m, head.rank
    flat, _ = _common([x for row in head.psi for x in row])
    Psi = [flat[z * r : (z + 1) * r] for z in range(T)]
    out = []
    for q in range(T):
        Phi, _ = _common(list(head.phi[q]))
        W = [sum(a * b for a, b in zip(Phi, Psi[z], strict=True)) for z in range(T)]
        Fq, d = _common(list(head.F[q]))
        out.append(([d * w for w in W], [w * f for w, f in zip(W, Fq, strict=True)]))
    return out


def worst_error(head: ExplicitHead) -> tuple[Fraction, tuple[int, tuple[int, ...]]] | None:
    """The exact max |y - t| over every input and position, and an input attaining it;
    None if some kernel value is negative or some denominator is not > 0.  Per query and
    least level t the worst input is an extreme-class input (module docstring), decided by
    the level-min engine (:func:`kernelbounds.levelmin.worst_error`)."""
    out = levelmin.worst_error(((q, W, U) for q, (W, U) in enumerate(integer_weights(head))), head.n)
    return None if out is None else (out[0], (out[1].q, out[1].others))


def value_dim(F) -> int:
    """The least dv with F(q, z) = <l_q, v(z)> + c_q: the affine rank of the columns
    F(., z), i.e. rank [F; 1 ... 1] - 1 (exact: a rank modulo a prime is at most the rank
    over Q, so a full rank modulo 2^61 - 1 decides it; otherwise FLINT's exact rank)."""
    import flint

    rows = [_common(list(row))[0] for row in F] + [[1] * len(F[0])]
    full, p = min(len(rows), len(rows[0])), 2**61 - 1  # a Mersenne prime
    if flint.nmod_mat(len(rows), len(rows[0]), [x % p for row in rows for x in row], p).rank() == full:
        return full - 1
    return flint.fmpz_mat(rows).rank() - 1


def readout_layout(F, m: int) -> list | dict:
    """The JSON of a readout table (docs/certificate-format-v2.md, explicit-head): rows of
    rationals up to m = 7, the packed layout from m = 8 (over the lcm of all denominators;
    the rows when the numerators do not fit 32 bits)."""
    from ..certificate import rational

    if m >= PACK_FROM_M:
        nums, d = _common([x for row in F for x in row])
        packed = pack(nums, d)
        if packed is not None:
            return packed
    return [[rational(x) for x in row] for row in F]


def pack(numerators: list[int], d: int) -> dict | None:
    """The packed layout of the table numerators / d (row-major): 16-bit numerators when
    they fit, else 32-bit; None when they fit neither."""
    import base64

    import numpy as np

    top = max(max(numerators), -min(numerators) - 1)
    for name, dtype, bits in ENCODINGS:
        if top < 2**bits:
            data = base64.b64encode(np.asarray(numerators, dtype=dtype).tobytes()).decode("ascii")
            return {"denominator": d, "encoding": name, "numerators": data}
    return None


def unpack(value: dict, T: int) -> tuple[list[list[int]], int]:
    """Inverse of :func:`pack` for a T x T table: (numerator rows, denominator)."""
    import base64

    import numpy as np

    dtype = {name: dt for name, dt, _ in ENCODINGS}[value["encoding"]]
    nums = np.frombuffer(base64.b64decode(value["numerators"], validate=True), dtype=dtype).tolist()
    if len(nums) != T * T:
        raise InvalidArgument(f"a packed {T} x {T} table holds {len(nums)} numerators, not {T * T}")
    return [nums[q * T : (q + 1) * T] for q in range(T)], value["denominator"]


def readout_from_json(value: list | dict, T: int) -> tuple[tuple[Fraction, ...], ...]:
    """Inverse of :func:`readout_layout`: the readout rows F(q, .) as Fractions."""
    if isinstance(value, list):
        return tuple(tuple(Fraction(x) for x in row) for row in value)
    rows, d = unpack(value, T)
    return tuple(tuple(Fraction(x, d) for x in row) for row in rows)


def certificate(head: ExplicitHead) -> dict:
    """A v2 `explicit-head` certificate: the tables, the exact worst error and an input
    attaining it, the feature rank and the value dimension."""
    found = worst_error(head)
    if found is None or found[0] >= HALF:
        raise InvalidArgument("the head does not solve length n")  # searches only return verified heads
    return document(head, *found)


def document(head: ExplicitHead, err: Fraction, worst: tuple[int, tuple[int, ...]]) -> dict:
    """The certificate's JSON for given claims (certificate() computes them; tests use this
    to write false claims)."""
    from ..certificate import header, rational

    q, others = worst
    doc = header("explicit-head", version=2)
    doc.update(
        m=head.m,
        n=head.n,
        positions="all",
        head={
            "phi": [[rational(x) for x in row] for row in head.phi],
            "psi": [[rational(x) for x in row] for row in head.psi],
            "readout": readout_layout(head.F, head.m),
        },
        claims={
            "worst_error": rational(err),
            "worst_input": {"query": to_str(q, head.m), "others": [to_str(z, head.m) for z in others]},
            "feature_rank": head.rank,
            "value_dim": value_dim(head.F),
            "nonnegative_features": head.nonnegative_features,
        },
    )
    return doc


def tables(head: ExplicitHead) -> dict:
    """The head alone as JSON (the data files the catalog builds certificates from)."""
    from ..certificate import rational

    return {
        "m": head.m,
        "n": head.n,
        "phi": [[rational(x) for x in row] for row in head.phi],
        "psi": [[rational(x) for x in row] for row in head.psi],
        "readout": [[rational(x) for x in row] for row in head.F],
    }


def from_tables(doc: dict) -> ExplicitHead:
    """Inverse of tables() (also reads an explicit-head certificate's `head` with m, n)."""
    head = doc.get("head", doc)

    def table(key):
        return tuple(tuple(Fraction(x) for x in row) for row in head[key])

    return ExplicitHead(doc["m"], doc["n"], table("phi"), table("psi"), readout_from_json(head["readout"], 1 << doc["m"]))



def filename(m: int, n: int, r: int) -> str:
    """The name of a stored head's data file, mMM-nN-rR.json."""
    return f"m{m:02d}-n{n}-r{r}.json"


def stored_in(folder) -> list:
    """(m, n, rank, path) of every data file mMM-nN-rR.json in folder, sorted."""
    import re
    from pathlib import Path

    out = []
    for path in Path(folder).glob("m*-n*-r*.json"):
        hit = re.fullmatch(r"m(\d+)-n(\d+)-r(\d+)\.json", path.name)
        if hit:
            out.append((*map(int, hit.groups()), path))
    return sorted(out)
