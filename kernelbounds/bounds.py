"""THE ANSWER: what is known about r*(m, n), both sides, from one place.

``bounds(m, n, variant)`` returns the best certified lower bound, the best certified upper
bound with any features and with nonnegative features, whether they meet (``exact``), and
for each side the method, the THEORY section, and the certificate that proves it (a
committed file in certificates/, or the rule that rebuilds it).  The CLI (`bound`, `upper`,
`table`), the Python API (``kb.bound``, ``kb.upper``), the catalog, the docs tables and the
bench all read this module; nothing else assembles an answer.

r*(m, n) is the least feature rank of a head of the variant's class with a nonnegative kernel
that solves Min-IP of length n on m-bit tokens (THEORY §1; for the causal variant only the
final position is scored).  Upper bounds are position-independent heads that solve every
position, so they bound every variant; lower bounds hold for any head that solves their
witness family, so they bound r* of the full task too.

Sources (THEORY sections), best first within a side:
- lower: committed certificates (codes L4/orbits, rank-one Farkas U5, sign rank L7, single
  crossing U6), the code search of L4-L6 (``lowerbounds.assemble.best``), the orthant family
  L7 (floor(m/2)); the trivial r >= 1.
- upper: U1 (rank 1 for n <= 2), committed explicit heads (U5) and level families (U4/U4'),
  the explicit nonnegative chain (U4'), U2's 2^m nonnegative features.
Closure under restriction in m (r*(m, n) <= r*(m + 1, n), THEORY U5: restrict a head to tokens
whose top bits are 0): a certificate at m' < m bounds the lower side at m, one at m' > m the
upper side at m (level families by the restricted support S ∩ [0, m], THEORY U4).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from math import comb
from pathlib import Path

VARIANTS = ("position-independent", "position-dependent", "causal")
MAX_M = 256  # the lower side's code search handles m up to 256; upper sources beyond 64 are U2 only


@dataclass(frozen=True)
class Side:
    """One side of the bound: its value, how it is proved, and where the proof is.

    ``certificate`` names the committed file (in certificates/) that proves it, at m =
    ``from_m`` (the restriction closure when from_m != m); ``rebuild`` is the command
    that writes a certificate for it at this (m, n)."""

    value: int
    method: str
    theory: str
    certificate: str | None = None
    from_m: int | None = None
    nonnegative_features: bool | None = None
    detail: str = ""
    rebuild: str | None = None
    code: dict | None = field(default=None, repr=False)  # a code's side (L4): lowerbounds.assemble.summary
    _build: Callable[[], dict] | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {
            "value": self.value,
            "method": self.method,
            "theory": self.theory,
            "certificate": self.certificate,
            "from_m": self.from_m,
            "nonnegative_features": self.nonnegative_features,
            "detail": self.detail,
            "rebuild": self.rebuild,
        }

    def certificate_document(self) -> dict:
        """A certificate that proves this side (at from_m when the closure is used; a
        restricted level-family certificate is rebuilt at m itself)."""
        if self._build is None:
            raise ValueError(f"{self.method}: {self.detail or 'no certificate is needed or available'}")
        return self._build()


@dataclass(frozen=True)
class Answer:
    """What is known about r*(m, n) for one variant: lower <= r* <= upper."""

    m: int
    n: int
    variant: str
    lower: Side
    upper: Side  # any features (at most upper_nonnegative)
    upper_nonnegative: Side

    @property
    def exact(self) -> bool:
        return self.lower.value == self.upper.value

    def to_json(self) -> dict:
        return {
            "m": self.m,
            "n": self.n,
            "variant": self.variant,
            "lower": self.lower.value,
            "upper": self.upper.value,
            "upper_nonnegative": self.upper_nonnegative.value,
            "exact": self.exact,
            "sides": {"lower": self.lower.to_json(), "upper": self.upper.to_json(), "upper_nonnegative": self.upper_nonnegative.to_json()},
        }


# ---------------------------------------------------------------- the committed set


def certificates_dir() -> Path | None:
    """The committed certificate set: $KERNELBOUNDS_CERTIFICATES, else the repository's
    certificates/ beside the package, else None (then only computed sources answer)."""
    env = os.environ.get("KERNELBOUNDS_CERTIFICATES")
    for cand in ([Path(env)] if env else []) + [Path(__file__).resolve().parents[1] / "certificates"]:
        if cand.is_dir():
            return cand
    return None


@dataclass(frozen=True)
class Known:
    """One committed certificate's claim on r*: side 'lower' or 'upper', at (m, n)."""

    filename: str
    kind: str
    side: str
    m: int
    n: int
    value: int
    variants: tuple[str, ...]
    nonnegative_features: bool | None
    support: tuple[int, ...] | None = None  # level families: the restriction closure
    variant: str = "position-independent"  # the variant the file itself claims


def _claim(doc: dict, filename: str) -> Known | None:
    """The claim on r*(m, n) of a committed certificate, or None (rank, transcript files)."""
    kind, m, n, claims = doc.get("kind"), doc.get("m"), doc.get("n"), doc.get("claims", {})
    if not isinstance(m, int) or not isinstance(n, int):
        return None
    if kind in ("lower-bound", "orthant", "crossing"):  # L4, L7, U6: a variant each
        return Known(filename, kind, "lower", m, n, claims["bound"], LOWER_HOLDS_FOR[doc["variant"]], None, None, doc["variant"])
    if kind == "rank-one-infeasible":  # THEORY U5: position-independent heads, full task
        return Known(filename, kind, "lower", m, n, claims["lower_bound"], ("position-independent",), None)
    if kind == "level-family":
        return Known(filename, kind, "upper", m, n, claims["feature_rank"], VARIANTS, claims["nonnegative_features"], tuple(claims["support"]))
    if kind == "explicit-head":
        return Known(filename, kind, "upper", m, n, claims["feature_rank"], VARIANTS, claims["nonnegative_features"])
    if kind == "construction" and doc.get("construction") in ("rank1", "tensor"):
        return Known(filename, kind, "upper", m, n, claims["feature_rank"], VARIANTS, claims["nonnegative_features"])
    return None


@lru_cache(maxsize=4)
def committed(directory: str | None = None) -> tuple[Known, ...]:
    """Every claim of the committed set, parsed (not checked here: `kernelbounds
    certificates` / scripts/run and tests/test_bounds.py check every committed file)."""
    root = Path(directory) if directory else certificates_dir()
    if root is None:
        return ()
    out = []
    for path in sorted(root.glob("*.json")):
        try:
            doc = json.loads(path.read_text())
            k = _claim(doc, path.name)
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not a claim the hub can use; `kernelbounds certificates` reports bad files
        if k is not None:
            out.append(k)
    return tuple(out)


def _read(filename: str) -> dict:
    return json.loads((certificates_dir() / filename).read_text())


# A lower bound for the variant of the key holds for the variants listed (THEORY L5, §1):
# a position-independent head is a position-dependent one, and a head that solves every
# position of every input also solves the causal task (its final position); so lower bounds
# of either variant bound the full task's r* too.  Upper bounds (position-independent heads
# that solve every position) hold for every variant.
LOWER_HOLDS_FOR = {
    "position-independent": ("position-independent",),
    "position-dependent": ("position-dependent", "position-independent"),
    "causal": ("causal", "position-independent"),
}


def _known(side: str, m: int | None, n: int, variant: str) -> list[Known]:
    return [k for k in committed() if k.side == side and k.n == n and variant in k.variants and (m is None or k.m == m)]


# ---------------------------------------------------------------- lower sources

KIND_THEORY = {"lower-bound": "L4", "rank-one-infeasible": "U5", "orthant": "L7", "crossing": "U6"}
KIND_METHOD = {"lower-bound": "codes", "rank-one-infeasible": "rank-one Farkas", "orthant": "sign rank (orthant family)", "crossing": "single crossing"}


def _closure_note(source_m: int, m: int, side: str) -> str:
    if source_m == m:
        return ""
    return f"from m = {source_m}: r* is nondecreasing in m (THEORY U5), so the {side} bound at m = {source_m} holds at m = {m}"


def _committed_lower(m: int, n: int, variant: str) -> list[Side]:
    """Committed lower-bound claims at m' <= m, those at m first."""
    out = []
    for k in sorted(_known("lower", None, n, variant), key=lambda k: (k.m != m, k.variant != variant, -k.m, k.filename)):
        if k.m <= m:
            out.append(Side(k.value, KIND_METHOD.get(k.kind, k.kind), KIND_THEORY.get(k.kind, "?"), k.filename, k.m,
                            detail=_closure_note(k.m, m, "lower"), _build=partial(_read, k.filename)))
    return out


@lru_cache(maxsize=256)
def _code_summary(filename: str) -> dict:
    from .lowerbounds import assemble

    return assemble.summary(assemble.from_certificate(_read(filename)))


ORTHANT_MAX_M = 41  # signrank's certificates list the pairs up to here; above, L4's codes are far better


def _computed_lower(m: int, n: int, variant: str) -> list[Side]:
    """The code search of L4-L6 at m (THEORY §3) and the orthant family of L7."""
    return _orthant_lower(m, n, variant) + _code_lower(m, n, variant)


def _orthant_lower(m: int, n: int, variant: str) -> list[Side]:
    """THEORY L7: r >= floor(m/2) for n >= 3, every variant, kernels of any sign."""
    if not (4 <= m <= ORTHANT_MAX_M):
        return []
    from .lowerbounds import signrank

    o = signrank.orthant(m, n, variant)
    detail = f"t = {o.bound} queries on disjoint bit pairs shattered by the signs L1 forces (sign rank >= VC dimension), witness family {o.witness_count} inputs"
    return [Side(o.bound, KIND_METHOD["orthant"], "L7", None, m, detail=detail, rebuild=f"kernelbounds bound --m {m} --n {n} --variant {variant} -o FILE",
                 _build=partial(_orthant_certificate, m, n, variant))]


def _orthant_certificate(m: int, n: int, variant: str) -> dict:
    from .lowerbounds import signrank

    return signrank.orthant(m, n, variant).certificate()


def _code_lower(m: int, n: int, variant: str) -> list[Side]:
    from .lowerbounds import assemble

    lb = assemble.best(m, n, variant)
    if not lb.size:
        return []
    info = assemble.describe(lb)
    detail = f"code {info['code']}: N = {info['size']}, {info['form']} form, least chain product {lb.min_product}, Hadamard power k = {lb.k}"
    return [Side(lb.bound, "codes", "L4", None, m, detail=detail, rebuild=f"kernelbounds bound --m {m} --n {n} --variant {variant} -o FILE",
                 code=assemble.summary(lb), _build=partial(_code_certificate, m, n, variant))]


def _code_certificate(m: int, n: int, variant: str) -> dict:
    from .lowerbounds import assemble

    return assemble.any_certificate(assemble.best(m, n, variant))



def _lower_candidates(m: int, n: int, variant: str) -> list[Side]:
    """Every source, in the order that wins ties: a committed file at m, computed at m,
    the closure from m' < m, the trivial bound."""
    trivial = Side(1, "trivial", "§1", detail="a head that solves any input has a nonzero kernel, so r >= 1")
    if n <= 2:
        return [trivial]
    kept = _committed_lower(m, n, variant)
    at_m = [s for s in kept if s.from_m == m]
    # a committed code certificate at (m, n, variant) is the code search's own output (the
    # catalog regenerates it byte for byte from lowerbounds.assemble.best): replay, not search
    own = any(k.kind == "lower-bound" and k.variant == variant for k in _known("lower", m, n, variant))
    computed = _orthant_lower(m, n, variant) + ([] if own else _code_lower(m, n, variant))
    return at_m + computed + [s for s in kept if s.from_m != m] + [trivial]


def lower(m: int, n: int, variant: str = "position-independent") -> Side:
    """The best certified lower bound on r*(m, n) (THEORY §3; L7, U5, U6)."""
    from dataclasses import replace

    cands = _lower_candidates(m, n, variant)
    best = cands[max(range(len(cands)), key=lambda i: (cands[i].value, -i))]
    if best.method == "codes" and best.code is None:  # a committed code file: describe its code
        best = replace(best, code=_code_summary(best.certificate))
    return best


# ---------------------------------------------------------------- upper sources


def _committed_upper(m: int, n: int) -> list[Side]:
    """Committed upper-bound claims at m' >= m, those at m first, then by m'."""
    out = []
    for k in sorted(_known("upper", None, n, "position-independent"), key=lambda k: (k.m != m, k.m, k.filename)):
        if k.m < m or (k.kind == "construction" and (k.m != m or k.value == 2**m)):
            continue  # U1's and U2's files are the computed sources below
        if k.kind == "level-family":
            value = sum(comb(m, j) for j in k.support if j <= m)  # THEORY U4: C(d, j) = 0 for d <= m < j
            build = partial(_read, k.filename) if k.m == m else partial(_restricted_level_family, k.filename, m)
            out.append(Side(value, "level family", "U4", k.filename, k.m, k.nonnegative_features, _closure_note(k.m, m, "upper"), None, _build=build))
        elif k.kind == "construction":  # U1's file (rank one, n <= 2)
            out.append(Side(k.value, "U1 rank one", "U1", k.filename, k.m, True, "", None, _build=partial(_read, k.filename)))
        else:
            out.append(Side(k.value, "explicit head", "U5", k.filename, k.m, k.nonnegative_features, _closure_note(k.m, m, "upper"), None, _build=partial(_read, k.filename)))
    return out


def _restricted_level_family(filename: str, m: int) -> dict:
    from .upperbounds import levelfamily

    return levelfamily.restrict(_read(filename), m)


def _computed_upper(m: int, n: int) -> list[Side]:
    """U1 for n <= 2; the explicit nonnegative chain (U4'); U2."""
    if n <= 2:
        return [Side(1, "U1 rank one", "U1", None, m, True, "phi = psi = 1, v(z) = z, L_q(y) = 2<q,y> - |q|: error 0 on every input of length <= 2",
                     f"kernelbounds construct rank1 --m {m} --n {n} -o FILE", _build=partial(_construction_certificate, "rank1", m, n))]
    return [Side(2**m, "U2 tensor", "U2", None, m, True, f"a(x, z) = c^<x,z> with c = 1/{2 * n - 1}: 2^m nonnegative features",
                 f"kernelbounds construct tensor --m {m} --n {n} -o FILE", _build=partial(_construction_certificate, "tensor", m, n))]


def _construction_certificate(name: str, m: int, n: int) -> dict:
    from .upperbounds import constructions

    return constructions.certificate(constructions.CONSTRUCTIONS[name](m, n))


def _upper_candidates(m: int, n: int) -> list[Side]:
    """Every source, in the order that wins ties: a committed file at m, computed at m,
    the closure from m' > m, U2."""
    kept = _committed_upper(m, n)
    computed = _computed_upper(m, n)
    u2 = [s for s in computed if s.theory == "U2"]
    return [s for s in kept if s.from_m == m] + [s for s in computed if s.theory != "U2"] + [s for s in kept if s.from_m != m] + u2


def upper(m: int, n: int, nonnegative: bool = False) -> Side:
    """The best certified upper bound on r*(m, n), with any features or (nonnegative=True)
    with nonnegative features (THEORY §2)."""
    cands = [s for s in _upper_candidates(m, n) if s.nonnegative_features or not nonnegative]
    return cands[min(range(len(cands)), key=lambda i: (cands[i].value, i))]


# ---------------------------------------------------------------- the answer


def _check(m: int, n: int, variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if not (isinstance(m, int) and 1 <= m <= MAX_M):
        raise ValueError(f"m must be an integer in 1..{MAX_M}, not {m!r}")
    if not (isinstance(n, int) and n >= 1):
        raise ValueError(f"n must be a positive integer, not {n!r}")


_ANSWERS: dict[tuple[int, int, str], Answer] = {}  # answers are pure functions of (m, n, variant)


def bounds(m: int, n: int, variant: str = "position-independent") -> Answer:
    """What is known about r*(m, n): lower <= r* <= upper <= upper_nonnegative."""
    key = (m, n, variant)
    if key not in _ANSWERS:
        _check(m, n, variant)
        _ANSWERS[key] = Answer(m, n, variant, lower(m, n, variant), upper(m, n), upper(m, n, nonnegative=True))
    return _ANSWERS[key]


def _row(job: tuple[int, tuple[int, ...], str]) -> list[Answer]:
    m, ns, variant = job
    return [bounds(m, n, variant) for n in ns]


def table(ms, ns, variant: str = "position-independent", jobs: int | None = 1, executor=None) -> list[Answer]:
    """bounds(m, n) for every m in ms and n in ns (m-major order); the cells of one m run
    together, large m first, in `jobs` processes (or on `executor`); the answers do not
    depend on how they were computed."""
    from .parallel import pmap

    order = [m for m in sorted(ms, reverse=True) if any((m, n, variant) not in _ANSWERS for n in ns)]
    for answers in pmap(_row, [(m, tuple(ns), variant) for m in order], jobs):
        for a in answers:
            _ANSWERS.setdefault((a.m, a.n, a.variant), a)  # computed in a worker: keep it here too
    return [bounds(m, n, variant) for m in ms for n in ns]
