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
- upper: U1 (rank 1 for n <= 2), committed explicit heads (U5), level families (U4/U4') and
  multi-block level families (U8), the explicit nonnegative chain (U4'), U2's 2^m nonnegative features.
Closure under restriction in m (r*(m, n) <= r*(m + 1, n), THEORY U5: restrict a head to tokens
whose top bits are 0): a certificate at m' < m bounds the lower side at m, one at m' > m the
upper side at m (level families by the restricted support S ∩ [0, m], THEORY U4).
Closure in n (r*(m, n) <= r*(m, n') for n <= n', THEORY L6'): a lower side at a shorter
stored length n0 < n holds at n (for denominators of either sign only when n0 divides n), an
upper side at a longer stored length n' > n holds at n; both are taken over the stored
lengths 3..8 (beyond them the code search at n itself is the best lower side: a code's bound
grows with n).

Where the claims come from (docs/index-format.md): committed claims only from the shipped
index (``index``: the checker's re-derived claim of every file it accepted; a cited
file's sha256 is verified before it is cited or copied), a user folder's only after the
checker accepts each file (``index.folder_claims``).  The computed sources at m <= 64,
n <= 8 are read from the stored file COMPUTED (``stored``), so every such cell is a lookup;
beyond it they are computed here.  Every answer satisfies lower <= upper <= upper_nonnegative
<= 2^m, else :class:`TheoryContradicted` names both sides' certificates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from itertools import pairwise
from math import comb

from ..errors import InvalidArgument, KernelboundsError
from .. import sources
from . import folders, index, stored
from .index import FamilyMinimum, Known, StaleIndex

from ..vocabulary import KERNELS, VARIANTS  # noqa: F401 (re-exported: the kernel axis, THEORY L8)
MAX_M = 256  # lower side beyond m = 64: committed direct sums (THEORY L9) or the stored m = 64 cell, padded; upper side: the level-family files up to m = 256 (THEORY U4')


@dataclass(frozen=True)
class Side:
    """One side of the bound: its value, how it is proved, and where the proof is.

    ``certificate`` names the committed file (in certificates/, or the user folder's file
    by its path) that proves it, at m = ``from_m`` (the restriction closure when from_m !=
    m) and length ``from_n`` (the closure in n, THEORY L6', when from_n != n); ``rebuild``
    is the command that writes a certificate for it."""

    value: int
    method: str
    theory: str
    certificate: str | None = None
    from_m: int | None = None
    nonnegative_features: bool | None = None
    detail: str = ""
    rebuild: str | None = None
    code: dict | None = field(default=None, repr=False)  # a code's side (L4): lowerbounds.assemble.summary
    least_of_family: str | None = None  # upper: the minimality file proving no cheaper head of its family exists
    verdict: dict | None = None  # the checker's verdict behind the value (``_verdict_of``); None only for r >= 1 and U2 beyond the stored grid
    from_n: int | None = None  # the length the certificate is at (None with from_m: no certificate)
    _build: Callable[[], dict] | None = field(default=None, repr=False, compare=False)
    _known: Known | None = field(default=None, repr=False, compare=False)  # the checked claim behind a cited file

    def to_json(self) -> dict:
        return {
            "value": self.value,
            "method": self.method,
            "theory": self.theory,
            "certificate": self.certificate,
            "from_m": self.from_m,
            "from_n": self.from_n,
            "nonnegative_features": self.nonnegative_features,
            "detail": self.detail,
            "rebuild": self.rebuild,
            "least_of_family": self.least_of_family,
            "verdict": self.verdict,
            "certificate_variant": None if self._known is None else self._known.variant,  # the variant the cited file is stated for
        }

    def certificate_document(self) -> dict:
        """A certificate that proves this side (at from_m and from_n when a closure is
        used; a restricted level-family certificate is rebuilt at m itself)."""
        if self._build is None:
            raise InvalidArgument(f"{self.method}: {self.detail or 'no certificate is needed or available'}")
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
    kernel: str = "nonnegative"

    @property
    def exact(self) -> bool:
        return self.lower.value == self.upper.value

    @property
    def ceiling(self) -> int | None:
        """The most any L3/L4 (codes, direct sums) certificate can prove about r*(m, n) for
        this kernel class (the codes source's ceiling: THEORY "The ceiling of L3/L4 (sharp form)"); None for n <= 2."""
        return sources.codes.ceiling(self.m, self.n, self.kernel)

    def to_json(self) -> dict:
        return {
            "m": self.m,
            "n": self.n,
            "variant": self.variant,
            "kernel": self.kernel,
            "lower": self.lower.value,
            "upper": self.upper.value,
            "upper_nonnegative": self.upper_nonnegative.value,
            "exact": self.exact,
            "ceiling": self.ceiling,
            "sides": {"lower": self.lower.to_json(), "upper": self.upper.to_json(), "upper_nonnegative": self.upper_nonnegative.to_json()},
        }


# ---------------------------------------------------------------- the claims


class TheoryContradicted(KernelboundsError):
    """Two certified sides disagree (lower > upper, upper > upper_nonnegative or an upper
    side above 2^m): the message names both sides' certificates (CLI exit code 5)."""


__all__ = ["KERNELS", "Answer", "Side", "StaleIndex", "TheoryContradicted", "bounds", "lower", "upper", "table", "committed"]


def _listing(folder: str | None) -> str | None:
    """What a user folder's claims depend on short of reading it (``folders.listing``: each
    entry's name, size, modification time and inode), None for no folder."""
    return folders.listing(folder) if folder else None


def committed(folder: str | None = None) -> tuple[Known, ...]:
    """Every checked claim on r*: the shipped index's, then (when given) a user folder's
    that the checker accepts (``index``), as the folder is now (``folders.listing``)."""
    return _committed(folder, _listing(folder))


@lru_cache(maxsize=8)
def _committed(folder: str | None, listing: str | None) -> tuple[Known, ...]:
    """``committed`` for the folder with this listing (the cache key: path and contents)."""
    shipped = tuple(k for k in index.shipped_claims() if isinstance(k, Known))
    return shipped + (tuple(k for k in index.folder_claims(folder) if isinstance(k, Known)) if folder else ())  # a user's family minimum proves no side


def _minimum(n: int, signs: str) -> FamilyMinimum | None:
    found = [k for k in index.shipped_claims() if isinstance(k, FamilyMinimum) and k.n == n and k.signs == signs]
    return found[0] if found else None


@lru_cache(maxsize=1)
def _stored() -> stored.Stored:
    """The stored computed sources (COMPUTED, its sha256 checked against the index)."""
    meta = index.index_meta().get("computed")
    if not (isinstance(meta, dict) and isinstance(meta.get("sha256"), str)):
        raise StaleIndex("the shipped index does not list COMPUTED: run `kernelbounds certificates --write certificates`")
    data = index.shipped_bytes(stored.NAME)
    if index.sha256(data) != meta["sha256"]:
        raise StaleIndex(f"{stored.NAME}: its sha256 differs from the shipped index: run `kernelbounds certificates`")
    return stored.parse(data)


def _read(k: Known) -> dict:
    """The file behind a claim, its hash verified, parsed anew (callers may change the dict)."""
    import json

    return json.loads(index.read(k))


def _known(claims: tuple[Known, ...], side: str, n: int, variant: str, kernel: str = "nonnegative") -> list[Known]:
    """The claims on this side of r*(m', n) for the variant and kernel class: a claim
    counts for a class iff the checker's claim lists it (THEORY §1, L8)."""
    return [k for k in claims if k.side == side and k.n == n and variant in k.variants and kernel in k.kernels]


# ---------------------------------------------------------------- lower sources


def _label(kind: str, kernel: str = "nonnegative") -> tuple[str, str]:
    """(method, THEORY section) of a side proved by a file of this kind (the registry's)."""
    source = sources.by_kind(kind)
    return source.label(kernel) if source is not None else (kind, "?")


def _closure_note(source_m: int, m: int, side: str) -> str:
    if source_m == m:
        return ""
    return f"from m = {source_m}: r* is nondecreasing in m (THEORY U5), so the {side} bound at m = {source_m} holds at m = {m}"


def _committed_lower(claims, m: int, n: int, variant: str, kernel: str = "nonnegative") -> list[Side]:
    """Checked lower-bound claims at m' <= m, those at m first; among equals the claim
    covering the fewest kernel classes (the file stated for this class)."""
    out = []
    for k in sorted(_known(claims, "lower", n, variant, kernel), key=lambda k: (k.m != m, k.variant != variant, -k.m, k.folder is not None, len(k.kernels), k.filename)):
        if k.m <= m:
            method, theory = _label(k.kind, kernel)
            out.append(Side(k.value, method, theory, k.cited, k.m,
                            detail=_closure_note(k.m, m, "lower"), verdict=_file_verdict(k), _build=partial(_read, k), _known=k))
    return out


def _described(k: Known) -> dict | None:
    """The code fields of a side proved by a checked file (its source's ``describe``): for
    a shipped code file stored in COMPUTED (keyed by name and sha256), else read from it."""
    row = _stored().code_files.get(k.filename) if k.folder is None else None
    if row is not None and row["sha256"] == k.sha256:
        return row["summary"]
    source = sources.by_kind(k.kind)
    return None if source is None else source.describe(_read(k))


def _file_verdict(k: Known) -> dict:
    """The verdict behind a committed or user file's claim: the checker accepted the file
    with this sha256 (the shipped index, or the user folder's check)."""
    return {"source": "shipped certificate" if k.folder is None else "user certificate", "certificate": k.cited, "sha256": k.sha256}


def _stored_verdict(found: dict, where: str, side: str, m: int, n: int, variant: str, kernel: str, value: int | None = None) -> tuple[int, dict]:
    """The value a stored (or just computed) checker verdict proves, and the side's
    ``verdict``: the claim must be whole and on this side of r*(m, n) for the variant and
    kernel class, and (``value``) equal the generator's number beside it, else StaleIndex."""
    from .entrycheck import HEX64, claim_problem

    claim, sha = found.get("claim"), found.get("sha256")
    problem = claim_problem(claim, m, n, variant) if isinstance(claim, dict) else "its claim is not an object"
    if problem is None and not (isinstance(sha, str) and HEX64.fullmatch(sha)):
        problem = "its sha256 is not 64 lowercase hexadecimal digits"
    if problem is None and (claim["side"] != side or kernel not in claim["kernels"]):
        problem = f"its claim is not a {side} bound for the {kernel} kernel class"
    if problem is None and value is not None and claim["value"] != value:
        from ..checker.text import show

        problem = f"its claim's value {show(claim['value'])} differs from the stored bound {show(value)}"
    if problem:
        raise StaleIndex(f"{stored.NAME}, {where}: {problem}: run `kernelbounds certificates --verify`")
    return claim["value"], {"source": f"rebuilt certificate ({stored.NAME})", "sha256": sha, "claim": claim}


def _lookup(name: str, m: int, n: int, variant: str) -> dict | None:
    """A stored source's row: from COMPUTED for m <= 64, n <= 8, else computed and checked now."""
    if _stored().covers(m, n):
        return _stored().row(name, m, n, variant)
    from ..progress import bar

    with bar(None, f"stored sources at m = {m}, n = {n}, each certificate checked", "search"):
        if sources.get(name).STORED == "features":
            return sources.features_row(name, m, n)
        return sources.cell(m, n, variant)[name]


def _same_bytes(build, sha: str, what: str) -> dict:
    """The certificate ``build`` writes, if its canonical bytes have the sha256 the checker's stored verdict is on."""
    from ..certificate import canonical_json

    doc = build()
    if index.sha256(canonical_json(doc).encode("ascii")) != sha:
        raise StaleIndex(f"{what} differs from the one the checker accepted ({stored.NAME}): run `kernelbounds certificates`")
    return doc


def _computed(side: str, m: int, n: int, variant: str, kernel: str = "nonnegative") -> list[Side]:
    """What each computed source of the registry states at (m, n), in registry order: per
    source the greatest checked lower value (the least upper one), its stored verdict
    checked (``_stored_verdict``) and its rebuild bound to the verdict's sha256."""
    out = []
    for source in sources.computed(side):
        if not source.covers(m, n, variant, kernel):
            continue
        found = []
        for st in source.statements(m, n, variant, kernel, _lookup):
            value, verdict, build = st.value, None, st.build
            if st.found is not None:
                value, verdict = _stored_verdict(st.found, st.where, side, *st.at, kernel, st.value)
                build = partial(_same_bytes, st.build, verdict["sha256"], f"the certificate of the {st.where}")
            detail = "; ".join(filter(None, [st.detail, _closure_note(st.from_m, m, side)]))
            found.append((st.fallback, Side(value, st.method, st.theory, None, st.from_m, st.nonnegative_features, detail, st.rebuild, st.code, verdict=verdict, _build=build)))
        for fallback in (False, True):
            kept = [s for f, s in found if f == fallback]
            if kept:
                pick = max if side == "lower" else min
                out.append((fallback, pick(kept, key=lambda s: s.value)))
    return out


def _lower_candidates(claims, m: int, n: int, variant: str, kernel: str = "nonnegative") -> list[Side]:
    """Every source, in the order that wins ties: a checked file at m, computed at m,
    the closure from m' < m, the trivial bound."""
    trivial = Side(1, "trivial", "§1", detail="a head that solves any input has a nonzero kernel, so r >= 1")
    if n <= 2:
        return [trivial]
    kept = _committed_lower(claims, m, n, variant, kernel)
    at_m = [s for s in kept if s.from_m == m]
    computed_sides = [side for _, side in _computed("lower", m, n, variant, kernel)]
    return at_m + computed_sides + [s for s in kept if s.from_m != m] + [trivial]


@lru_cache(maxsize=4096)
def _lower_at(m: int, n: int, variant: str, folder: str | None, listing: str | None, kernel: str) -> Side:
    """The best lower side proved at length n itself (the first of the candidates that wins ties)."""
    cands = _lower_candidates(_committed(folder, listing), m, n, variant, kernel)
    best = cands[max(range(len(cands)), key=lambda i: (cands[i].value, -i))]
    return best if best.from_m is None else replace(best, from_n=n)


def shorter_lengths(n: int, kernel: str) -> list[int]:
    """The stored lengths n0 < n whose lower sides hold at n, nearest first (THEORY L6':
    r*(m, n0) <= r*(m, n) for heads with nonnegative kernels or positive denominators, in
    every variant; with denominators of either sign only for n0 dividing n)."""
    return [n0 for n0 in range(min(n - 1, max(stored.NS)), 2, -1) if kernel != "signed-any-denominator" or n % n0 == 0]


def longer_lengths(n: int) -> list[int]:
    """The stored lengths n' > n whose upper sides hold at n, nearest first (THEORY L6':
    a position-independent head that solves length n' solves length n; for n >= 3)."""
    return list(range(n + 1, max(stored.NS) + 1)) if n >= 3 else []


def _length_note(source_n: int, n: int, side: str, kernel: str = "nonnegative") -> str:
    divides = f" ({source_n} divides {n}: denominators of either sign)" if kernel == "signed-any-denominator" else ""
    return f"from n = {source_n}: r* is nondecreasing in n (THEORY L6'){divides}, so the {side} bound at n = {source_n} holds at n = {n}"


def _closed_in_n(here: Side, others, n: int, side: str, kernel: str = "nonnegative") -> Side:
    """``here`` unless a side at another length (``others``: (length, side), nearest
    first) is strictly better; that side then carries its length's note."""
    best = here
    for length, s in others:
        if (s.value > best.value) if side == "lower" else (s.value < best.value):
            best = replace(s, detail="; ".join(filter(None, [s.detail, _length_note(length, n, side, kernel)])))
    return best


def lower(m: int, n: int, variant: str = "position-independent", certificates: str | None = None, kernel: str = "nonnegative") -> Side:
    """The best certified lower bound on r*(m, n) for the kernel class (THEORY §3; L6', L7, L8, U5, U6)."""
    folder = index.folder(certificates)
    listing = _listing(folder)
    here = _lower_at(m, n, variant, folder, listing, kernel)
    best = _closed_in_n(here, [(n0, _lower_at(m, n0, variant, folder, listing, kernel)) for n0 in shorter_lengths(n, kernel)], n, "lower", kernel)
    if best._known is not None:
        index.verify(best._known)
        described = _described(best._known)  # a checked code or direct-sum file: its code (THEORY L4, L9)
        if described is not None:
            best = replace(best, code=described)
    return best


# ---------------------------------------------------------------- upper sources


def _committed_upper(claims, m: int, n: int) -> list[Side]:
    """Checked upper-bound claims at m' >= m, those at m first, then by m'."""
    out = []
    for k in sorted(_known(claims, "upper", n, "position-independent"), key=lambda k: (k.m != m, k.m, k.folder is not None, k.filename)):
        if k.m < m or (k.kind == "construction" and (k.m != m or k.value == 2**m)):
            continue  # U1's and U2's files are the computed sources below
        method, theory = _label(k.kind)
        value, build = k.value, partial(_read, k)
        if k.support is not None:  # a level family: THEORY U4, C(d, j) = 0 for d <= m < j
            value = sum(comb(m, j) for j in k.support if j <= m)
            build = build if k.m == m else partial(_restricted, k, m)
        out.append(Side(value, method, theory, k.cited, k.m, k.nonnegative_features, _closure_note(k.m, m, "upper"), None, verdict=_file_verdict(k), _build=build, _known=k))
    return out


def _restricted(k: Known, m: int) -> dict:
    """A level family's certificate at m' > m, restricted to m (its source's ``restrict``)."""
    return sources.by_kind(k.kind).restrict(_read(k), m)


def _upper_candidates(claims, m: int, n: int) -> list[Side]:
    """Every source, in the order that wins ties: a checked file at m, computed at m,
    the closure from m' > m, the fallbacks (U2)."""
    kept = _committed_upper(claims, m, n)
    computed_sides = _computed("upper", m, n, "position-independent")
    fallbacks = [s for fallback, s in computed_sides if fallback]
    return [s for s in kept if s.from_m == m] + [s for fallback, s in computed_sides if not fallback] + [s for s in kept if s.from_m != m] + fallbacks


@lru_cache(maxsize=4096)
def _upper_at(m: int, n: int, nonnegative: bool, folder: str | None, listing: str | None) -> Side:
    """The best upper side proved at length n itself (the first of the candidates that wins ties)."""
    cands = [s for s in _upper_candidates(_committed(folder, listing), m, n) if s.nonnegative_features or not nonnegative]
    best = cands[min(range(len(cands)), key=lambda i: (cands[i].value, i))]
    return best if best.from_m is None else replace(best, from_n=n)


def upper(m: int, n: int, nonnegative: bool = False, certificates: str | None = None) -> Side:
    """The best certified upper bound on r*(m, n), with any features or (nonnegative=True)
    with nonnegative features (THEORY §2; L6')."""
    folder = index.folder(certificates)
    listing = _listing(folder)
    here = _upper_at(m, n, nonnegative, folder, listing)
    best = _closed_in_n(here, [(n1, _upper_at(m, n1, nonnegative, folder, listing)) for n1 in longer_lengths(n)], n, "upper")
    if best._known is not None:
        index.verify(best._known)
    proof = _least_of_family(best, m, n, nonnegative) if best.from_n == n else None
    return replace(best, least_of_family=proof) if proof else best


def _least_of_family(side: Side, m: int, n: int, nonnegative: bool) -> str | None:
    """The checked level-family-minimality claim (THEORY U4' "Minimality") whose chain bound
    at m equals this complement-basis, affine-readout side's rank: then no head of that
    family (g >= 0 for the nonnegative column, any g otherwise) has a smaller rank."""
    if side.theory == "U4" and side._known is not None:
        if dict(side._known.family or ()) != {"basis": "complement", "readout": "affine"}:
            return None
    elif side.theory != "U4'":  # the explicit chain is a complement-basis affine family by construction
        return None
    proof = _minimum(n, "nonnegative" if nonnegative else "any")
    if proof is None or not 1 <= m <= len(proof.chain_bounds) or proof.chain_bounds[m - 1] != side.value:
        return None
    index.read_shipped(proof.filename)
    return proof.filename


# ---------------------------------------------------------------- the answer


def _check(m: int, n: int, variant: str, kernel: str = "nonnegative") -> None:
    if variant not in VARIANTS:
        raise InvalidArgument(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if kernel not in KERNELS:
        raise InvalidArgument(f"kernel must be one of {', '.join(KERNELS)}, not {kernel!r}")
    if kernel == "signed-any-denominator" and variant == "position-dependent":
        raise InvalidArgument("kernel signed-any-denominator is not covered for the position-dependent variant (THEORY L8 (b): with denominators "
                         "of either sign the placement sum is no longer a convex combination); use --kernel signed or another variant")
    if not (isinstance(m, int) and 1 <= m <= MAX_M):
        raise InvalidArgument(f"m must be an integer in 1..{MAX_M}, not {m!r}")
    if not (isinstance(n, int) and n >= 1):
        raise InvalidArgument(f"n must be a positive integer, not {n!r}")


def _where(side: Side) -> str:
    return side.certificate or side.rebuild or f"{side.method} (THEORY {side.theory})"


def enforce(a: Answer, wider: Side | None = None) -> Answer:
    """lower <= upper <= upper_nonnegative <= 2^m, and (``wider``: the lower side of the
    next narrower kernel class, THEORY L8) lower(any denominator) <= lower(signed) <=
    lower(nonnegative), or TheoryContradicted naming both sides."""
    sides = [("lower", a.lower)] + ([] if wider is None else [("lower of the narrower kernel class", wider)])
    sides += [("upper", a.upper), ("upper_nonnegative", a.upper_nonnegative)]
    for (name_a, x), (name_b, y) in pairwise(sides):
        if x.value > y.value:
            raise TheoryContradicted(f"theory contradicted at m = {a.m}, n = {a.n} ({a.variant}, {a.kernel} kernel): {name_a} {x.value} by {_where(x)} > {name_b} {y.value} by {_where(y)}")
    if a.upper_nonnegative.value > 2**a.m:
        raise TheoryContradicted(f"theory contradicted at m = {a.m}, n = {a.n}: upper_nonnegative {a.upper_nonnegative.value} by {_where(a.upper_nonnegative)} > 2^m = {2**a.m} (U2)")
    return a


_ANSWERS: dict[tuple, Answer] = {}  # answers are pure functions of (m, n, variant, folder and its listing, kernel)


def forget() -> None:
    """Drop the answers and the per-length sides remembered so far (they are pure functions
    of the cell and the claims; a test that replaces the claims calls this)."""
    _ANSWERS.clear()
    _lower_at.cache_clear()
    _upper_at.cache_clear()


def bounds(m: int, n: int, variant: str = "position-independent", certificates: str | None = None, kernel: str = "nonnegative") -> Answer:
    """What is known about r*(m, n): lower <= r* <= upper <= upper_nonnegative.

    ``kernel``: the kernel class of the heads (THEORY L8): nonnegative (r* itself), signed
    (positive denominators) or signed-any-denominator (not for the position-dependent
    variant: ValueError).  The upper sides are the same for every class (a nonnegative
    kernel is a signed one); a lower claim counts iff the checker's claim lists the class.
    ``certificates``: a user folder of certificates, each checked before its claim is used
    (default: $KERNELBOUNDS_CERTIFICATES, if set)."""
    folder = index.folder(certificates)
    key = (m, n, variant, folder, _listing(folder), kernel)
    if key not in _ANSWERS:
        _check(m, n, variant, kernel)
        if kernel == "nonnegative":
            a = Answer(m, n, variant, lower(m, n, variant, folder), upper(m, n, certificates=folder), upper(m, n, nonnegative=True, certificates=folder))
            _ANSWERS[key] = enforce(a)
        else:
            narrower = bounds(m, n, variant, folder, KERNELS[KERNELS.index(kernel) - 1])
            a = Answer(m, n, variant, lower(m, n, variant, folder, kernel), narrower.upper, narrower.upper_nonnegative, kernel)
            _ANSWERS[key] = enforce(a, narrower.lower)
    return _ANSWERS[key]


def _row(job: tuple) -> list[Answer]:
    m, ns, variant, folder, kernel = job
    return [bounds(m, n, variant, folder, kernel) for n in ns]


def table(ms, ns, variant: str = "position-independent", jobs: int | None = 1, executor=None, scheduler: str | None = None, certificates: str | None = None,
          kernel: str = "nonnegative") -> list[Answer]:
    """bounds(m, n) for every m in ms and n in ns (m-major order).  Stored cells (m <= 64,
    n <= 8) are lookups, answered here; the cells of one m beyond them run together, large
    m first, in `jobs` processes, on a concurrent.futures `executor` or on a Dask
    `scheduler` (parallel.pmap); a progress bar on a terminal.  The answers do not depend
    on how they were computed."""
    from ..progress import bar, pmap

    folder = index.folder(certificates)
    listing = _listing(folder)
    committed(folder)  # check a user folder once, here, before any worker starts
    _check(1, 1, variant, kernel)
    todo = [m for m in sorted(ms, reverse=True) if any((m, n, variant, folder, listing, kernel) not in _ANSWERS for n in ns)]
    slow = [m for m in todo if not all(_stored().covers(min(m, stored.MAX_M), n) for n in ns if n >= 3)]
    with bar(len(todo) - len(slow), "bounds (stored cells)", "m") as progress:
        for m in [m for m in todo if m not in slow]:
            _row((m, tuple(ns), variant, folder, kernel))
            progress.update(1)
    for answers in pmap(_row, [(m, tuple(ns), variant, folder, kernel) for m in slow], jobs, "bounds (computed now)", "m", executor=executor, scheduler=scheduler):
        for a in answers:
            _ANSWERS.setdefault((a.m, a.n, a.variant, folder, listing, a.kernel), a)  # computed in a worker: keep it here too
    return [bounds(m, n, variant, folder, kernel) for m in ms for n in ns]
