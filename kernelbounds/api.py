"""The public Python API (docs/api.md): one call per command, frozen results.

Every result is a frozen dataclass with a short repr, ``to_json()`` (the same object,
with the same field names, as the command's ``--json`` output) and, where the command
writes one, ``to_certificate()`` (a certificate document; :func:`check` verifies it).
The functions call the library modules; they hold no mathematics of their own.

Tokens: an int whose bit i is the coordinate x_i (THEORY §0); in files and strings a
token is m characters '0'/'1' whose character i is x_i, so the string reads bit 0
first (``Token.from_str("100") == 1``; ``format(x, "03b")`` is the reverse and wrong).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from fractions import Fraction
from pathlib import Path

from .errors import InvalidArgument
from . import arguments, bits
from .hub.answer import StaleIndex as StaleIndex, TheoryContradicted as TheoryContradicted  # public names ("X as X": re-exported)
from .heads.inputs import Family, load_family
from .heads.tables import TableHead
from .heads.results import Counterexample as Counterexample, Evaluation

from .publicnames import NAMES

__all__ = list(NAMES)  # the public names, kept once in kernelbounds/publicnames.py

Head = TableHead  # a head given by tables over tokens (docs/head-format-v1.md)


class Token:
    """Tokens as ints; the string form's character i is bit i (bit 0 first)."""

    @staticmethod
    def from_str(text: str) -> int:
        """'0'/'1' string, character i = bit i, to the int token: ``Token.from_str("011") == 6``."""
        return bits.from_str(text)

    @staticmethod
    def to_str(x: int, m: int) -> str:
        """The int token as m characters, character i = bit i: ``Token.to_str(6, 3) == "011"``."""
        return bits.to_str(x, m)


def _certificate_of(result) -> dict:
    if result._certificate is None:
        raise InvalidArgument("this result has no certificate")
    return result._certificate()


def _side(side) -> dict:
    return side.to_json()


@dataclass(frozen=True)
class Bound:
    """What is known about r*(m, n): ``lower <= r* <= upper`` (any features), and
    ``upper_nonnegative`` with nonnegative features; ``exact`` when lower == upper.  The
    answer of the hub :func:`kernelbounds.hub.answer.bounds`, as `kernelbounds bound`.

    ``sides`` gives each side's method, THEORY section and certificate, and ``verdict``: the
    checker's verdict behind its value (``source`` "shipped certificate" or "user
    certificate" with the file, or "rebuilt certificate (COMPUTED)" with the sha256 of the
    certificate the checker accepted and its claim; None only for the trivial r >= 1 and
    for U2's 2^m beyond the stored grid).  When the lower
    side is a code (THEORY L4) the code fields describe it: min_product is the least chain
    product (R in L4), k the Hadamard power, gaps maps each gap (a decimal string, as in
    JSON) to its number of ordered pairs; for a direct sum of codes (THEORY L9) ``form`` is
    "direct sum", ``code`` names the components and code_size, min_product, k,
    witness_inputs and orbits are the checked file's (code_weight, min_gap, gaps are None);
    otherwise they are None.

    The same fields as `bound --json` and a row of `table --json` (docs/api.md, "One name per
    quantity"; schemas in kernelbounds/schemas/): per side ``*_method`` (the method alone),
    ``*_from_m`` (the m whose certificate proves it: below m for a lower side, above m for
    an upper side, by the restriction closure of THEORY U5), ``*_from_n`` (the length n
    it is proved at: below n for a lower side, above n for an upper side, by the closure in
    n of THEORY L6'), and in ``to_json()``
    ``*_certificate`` (the committed file, or None); ``ceiling`` the most any L3/L4 certificate can prove at
    (m, n) (THEORY "The ceiling of L3/L4 (sharp form)"; None for n <= 2)."""

    m: int
    n: int
    variant: str
    lower: int
    upper: int
    upper_nonnegative: int
    exact: bool
    lower_method: str
    upper_method: str
    code: str | None = None
    code_size: int | None = None
    min_product: int | None = None
    k: int | None = None
    witness_inputs: int | None = None
    code_weight: int | None = field(default=None, repr=False)
    min_gap: int | None = field(default=None, repr=False)
    gaps: dict | None = field(default=None, repr=False)
    form: str | None = field(default=None, repr=False)
    orbits: int | None = field(default=None, repr=False)
    johnson_bound: int | None = field(default=None, repr=False)
    kernel: str = "nonnegative"
    upper_nonnegative_method: str = field(default="", repr=False)
    lower_from_m: int | None = field(default=None, repr=False)
    upper_from_m: int | None = field(default=None, repr=False)
    upper_nonnegative_from_m: int | None = field(default=None, repr=False)
    lower_from_n: int | None = field(default=None, repr=False)
    upper_from_n: int | None = field(default=None, repr=False)
    upper_nonnegative_from_n: int | None = field(default=None, repr=False)
    ceiling: int | None = field(default=None, repr=False)
    sides: dict = field(default_factory=dict, repr=False)
    _lower_doc: object = field(default=None, repr=False, compare=False)
    _answer: object = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        """The fields, and per side ``*_certificate``: the committed file cited (None for a
        computed side; the methods ``upper_certificate()`` write certificates)."""
        cited = {f"{name}_certificate": self.sides[name]["certificate"] if name in self.sides else None for name in SIDES}
        return {k: v for k, v in asdict(self).items() if not k.startswith("_")} | cited

    def to_certificate(self) -> dict:
        """The certificate of the lower side (ValueError for the trivial r >= 1)."""
        return self._lower_doc()

    def upper_certificate(self, nonnegative: bool = False) -> dict:
        """The certificate of the upper side (any features, or nonnegative features)."""
        a = self._answer
        return (a.upper_nonnegative if nonnegative else a.upper).certificate_document()

    def lower_base(self) -> tuple[str | None, bytes] | None:
        """The file the lower side's certificate names by sha256 (a rank extension's base,
        THEORY U7+) as (its hinted name or None, its exact bytes), found by the checker's own
        resolver beside the certificate (hub.index.base_of); None when the lower side's
        certificate names no other file.  ``kernelbounds bound --base-out FILE`` writes it."""
        known = getattr(self._answer.lower, "_known", None)
        if known is None or known.kind != "rank-extension":
            return None
        from .hub.index import base_of

        return base_of(known)


SIDES = ("lower", "upper", "upper_nonnegative")
CODE_FIELDS = ("code", "code_size", "min_product", "k", "witness_inputs", "code_weight", "min_gap", "gaps", "form", "orbits", "johnson_bound")


def _bound_of(answer) -> Bound:
    details = answer.lower.code or {}
    return Bound(
        answer.m, answer.n, answer.variant, answer.lower.value, answer.upper.value, answer.upper_nonnegative.value, answer.exact,
        answer.lower.method, answer.upper.method, **{f: details.get(f) for f in CODE_FIELDS}, kernel=answer.kernel,
        **{f"{name}_from_m": getattr(answer, name).from_m for name in SIDES},
        **{f"{name}_from_n": getattr(answer, name).from_n for name in SIDES},
        upper_nonnegative_method=answer.upper_nonnegative.method, ceiling=answer.ceiling,
        sides={"lower": answer.lower.to_json(), "upper": answer.upper.to_json(), "upper_nonnegative": answer.upper_nonnegative.to_json()},
        _lower_doc=answer.lower.certificate_document, _answer=answer,
    )


def bound(m: int, n: int, variant: str = "position-independent", certificates: str | None = None, kernel: str = "nonnegative") -> Bound:
    """What is known about r*(m, n), both sides (as `kernelbounds bound`).  Committed
    claims come from the shipped, checked index; ``certificates`` (default
    $KERNELBOUNDS_CERTIFICATES) adds a folder of your own certificates, each checked by the
    checker before its claim is used (a rejected file is named in a warning on stderr and
    ignored).  Raises ``TheoryContradicted`` if two certified sides disagree.
    ``kernel``: nonnegative (r*), signed or signed-any-denominator (THEORY L8; the latter
    raises ValueError for the position-dependent variant).

    >>> b = bound(24, 3)
    >>> b.lower, b.min_product, b.lower_method
    (23, 3, 'codes')
    >>> bound(12, 2).exact
    True
    """
    from .hub.answer import bounds

    certificates = arguments.bound_args(m, n, variant, kernel, certificates)
    return _bound_of(bounds(m, n, variant, certificates, kernel))


def symmetric_head(m: int, n: int, rank: int, cycles: str = "auto", seconds: int | None = None, time_limit: int = 900, seed: int = 0, nonnegative: bool = True,
                   starts: int = 1):
    """Search a head of the symmetry ansatz (THEORY U5, as `kernelbounds general-head
    --symmetric`): key features equivariant under the permutation ``cycles`` (cycle
    notation, or "auto": every cycle type of S_m of order <= rank in turn; "()", the
    identity, searches every head of the rank, as `general-head` without --symmetric),
    from seeds ``seed``, ..., ``seed + starts - 1`` each, at most ``seconds`` per run and
    ``time_limit`` in all.  Returns the sweep
    (``upperbounds.symmetricsweep.Sweep``): ``.found`` is the certified head (its exact
    ``worst_error`` and ``certificate()``) or None, which proves nothing."""
    from .upperbounds import symmetricsweep

    arguments.whole("m", m, 1, 8)
    arguments.whole("n", n, 2, 8)
    arguments.whole("rank", rank, 1, 64)
    arguments.whole("seed", seed, 0, 2**31)
    arguments.whole("time_limit", time_limit, 1, 86400)
    arguments.whole("starts", starts, 1, 10**4)
    if seconds is not None:
        arguments.whole("seconds", seconds, 1, 86400)
    if not isinstance(cycles, str):
        raise InvalidArgument(f"cycles must be a string in cycle notation or 'auto', not {type(cycles).__name__}")
    return symmetricsweep.sweep(m, n, rank, cycles, seconds, time_limit, seed, bool(nonnegative), starts=starts)


def witness(m: int, n: int, target_rank: int, variant: str = "position-independent") -> Bound | None:
    """The smallest explicit witness family certifying r >= target_rank (as `kernelbounds
    witness`); its certificate lists the inputs.  None if no candidate code reaches it.
    The other fields are the hub's answer at (m, n) except lower, code and its fields,
    which describe this witness family."""
    arguments.whole("m", m, *arguments.WITNESS_M)
    arguments.whole("n", n, *arguments.WITNESS_N)
    arguments.whole("target_rank", target_rank, *arguments.TARGET_RANK)
    arguments.choice("variant", variant, arguments.VARIANTS)
    return _witness(m, n, target_rank, variant)


@lru_cache(maxsize=128)  # pure and deterministic; results are frozen
def _witness(m: int, n: int, target_rank: int, variant: str) -> Bound | None:
    from .hub.answer import bounds
    from .lowerbounds import assemble
    from .lowerbounds import certify as certify_module

    lb = assemble.smallest_witness(m, n, target_rank, variant)
    if lb is None:
        return None
    b = _bound_of(bounds(m, n, variant))
    details = assemble.summary(lb)

    def listed_doc() -> dict:
        from .lowerbounds.certify import ListedTooLarge, listed_refusal

        refusal = listed_refusal(lb)  # before the family is built
        if refusal:
            raise ListedTooLarge(refusal)
        return certify_module.certificate(lb, listed=True)

    return replace(b, lower=lb.bound, exact=lb.bound == b.upper, lower_method="codes", lower_from_m=m, lower_from_n=n,
                   **{f: details.get(f) for f in CODE_FIELDS}, _lower_doc=listed_doc)


@dataclass(frozen=True)
class Upper:
    """The best certified upper bound on r*(m, n) (any features, or nonnegative features
    with ``nonnegative=True``), as `kernelbounds upper`: the hub's answer."""

    m: int
    n: int
    upper: int
    nonnegative: bool
    method: str
    theory: str
    certificate: str | None
    from_m: int | None
    nonnegative_features: bool | None
    lower: int = field(repr=False, default=1)
    from_n: int | None = field(repr=False, default=None)
    detail: str = field(repr=False, default="")
    rebuild: str | None = field(repr=False, default=None)
    least_of_family: str | None = field(repr=False, default=None)
    _side: object = field(default=None, repr=False, compare=False)

    @property
    def rank(self) -> int:
        return self.upper

    def to_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if not k.startswith("_")}

    def to_certificate(self) -> dict:
        return self._side.certificate_document()


def upper(m: int, n: int, nonnegative: bool = False, certificates: str | None = None) -> Upper:
    """The best certified upper bound on r*(m, n) (as `kernelbounds upper`); ``certificates``
    as for :func:`bound`.

    >>> kb_upper = upper(12, 3)
    >>> kb_upper.upper, kb_upper.method
    (69, 'multi-block level family')
    >>> upper(12, 3, nonnegative=True).upper
    81
    """
    from .hub.answer import bounds

    certificates = arguments.bound_args(m, n, "position-independent", "nonnegative", certificates, arguments.UPPER_M)
    if not isinstance(nonnegative, bool):
        raise InvalidArgument(f"nonnegative must be True or False, not {type(nonnegative).__name__}")
    a = bounds(m, n, certificates=certificates)
    s = a.upper_nonnegative if nonnegative else a.upper
    return Upper(m, n, s.value, nonnegative, s.method, s.theory, s.certificate, s.from_m, s.nonnegative_features, a.lower.value, s.from_n, s.detail, s.rebuild, s.least_of_family, s)


@dataclass(frozen=True)
class Construction:
    """U1 (rank1), U2 (tensor) or U3 (softmax) at (m, n) (THEORY §2)."""

    kind: str
    m: int
    n: int
    worst_error: Fraction
    feature_rank: int | None
    kernel_rank: int
    _certificate: object = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        from .certificate import rational

        return {"kind": self.kind, "m": self.m, "n": self.n, "worst_error": rational(self.worst_error), "feature_rank": self.feature_rank, "kernel_rank": self.kernel_rank}

    def to_certificate(self) -> dict:
        return _certificate_of(self)


def construct(kind: str, m: int, n: int) -> Construction:
    """A construction, verified exactly by level classes (raises ConstructionFails when it
    does not solve length n, e.g. rank1 for n >= 3).

    >>> construct("tensor", 4, 3)
    Construction(kind='tensor', m=4, n=3, worst_error=Fraction(2, 7), feature_rank=16, kernel_rank=16)
    """
    from .upperbounds import constructions

    if kind not in constructions.CONSTRUCTIONS:
        raise InvalidArgument(f"unknown construction {kind!r}: one of {', '.join(constructions.CONSTRUCTIONS)}")
    doc = constructions.certificate(constructions.CONSTRUCTIONS[kind](m, n))
    claims = doc["claims"]
    return Construction(kind, m, n, Fraction(claims["worst_error"]), claims.get("feature_rank"), claims["kernel_rank"], lambda: doc)


@dataclass(frozen=True)
class Verdict:
    """The checker's verdict; ``code`` is the exit code (0 valid, 1 invalid, 2 malformed,
    3 resource limit, 4 internal error)."""

    ok: bool
    code: int
    kind: str
    summary: str
    pointer: str = ""
    reason: str = ""
    routes: tuple[str, ...] = field(default=(), repr=False)
    path: str = field(default="", repr=False)
    seconds: float = field(default=0.0, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.ok

    def to_json(self) -> dict:
        from .checker.errors import CODE_NAMES

        return {"path": self.path, "ok": self.ok, "code": self.code, "verdict": CODE_NAMES[self.code], "kind": self.kind, "summary": self.summary, "pointer": self.pointer, "reason": self.reason, "routes": list(self.routes), "seconds": round(self.seconds, 3)}


def _verdict(v) -> Verdict:
    return Verdict(v.ok, v.code, v.kind, v.summary, v.pointer, v.reason, tuple(v.routes), v.path, v.seconds)


def _json_problem(doc: dict) -> tuple[str, str] | None:
    """(JSON pointer, reason) of the first value a JSON document cannot hold (a key that is
    not a string, NaN or an infinity, a Fraction, a set, any other object), or None.  An
    explicit stack: any depth; a container met twice is read once (cycles are left to
    canonical_json, which names them)."""
    stack, seen = [("", doc)], set()
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, (str, bool, int)) or value is None:
            continue
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                return pointer, f"{value!r} is not a JSON number"
            continue
        if isinstance(value, (dict, list, tuple)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, dict):
                for key in value:
                    if not isinstance(key, str):
                        return pointer, f"the key {repr(key)[:80]} ({type(key).__name__}) is not a string: JSON object keys are strings"
                items = [(f"{pointer}/{k.replace('~', '~0').replace('/', '~1')}", v) for k, v in value.items()]
            else:
                items = [(f"{pointer}/{i}", v) for i, v in enumerate(value)]
            stack.extend(reversed(items))
            continue
        hint = " (write rationals as strings, e.g. \"1/3\")" if isinstance(value, Fraction) else ""
        return pointer, f"a {type(value).__name__} is not a JSON value{hint}"
    return None


def check(source, limits=None) -> Verdict:
    """Check a certificate with the independent checker: a path (str or Path), the file's
    bytes, or a parsed document (dict, checked as its canonical JSON; a value JSON cannot
    hold, such as NaN, a Fraction or a non-string key, is code 2 at its JSON pointer).  The check runs
    under the runtime guard (a forked child limited to ``limits.time_limit`` CPU seconds
    and ``limits.memory_limit`` added bytes, default 60 s and 2 GiB; a breach is code 3).

    A path that does not exist but names a shipped certificate (``"witness-m24-n3-r8.json"``,
    or ``"certificates/witness-m24-n3-r8.json"`` outside the repository) checks the shipped
    file, as ``kernelbounds check`` does; the verdict's ``path`` is the shipped file's.

    >>> check(construct("tensor", 3, 3).to_certificate()).ok
    True
    >>> check("witness-m24-n3-r8.json").ok
    True
    """
    from .certificate import canonical_json
    from .checker import check_bytes, check_file

    if isinstance(source, dict):
        problem = _json_problem(source)
        if problem is None:
            try:
                text = canonical_json(source)
            except (ValueError, TypeError, RecursionError) as exc:  # e.g. a circular reference
                problem = "", f"not a JSON document: {str(exc)[:200]}"
        if problem is not None:
            return Verdict(False, 2, "", "", problem[0], problem[1], (), "<dict>")
        return _verdict(check_bytes(text.encode("ascii"), "<dict>", limits))
    if isinstance(source, (bytes, bytearray)):
        return _verdict(check_bytes(bytes(source), "<bytes>", limits))
    if isinstance(source, (str, os.PathLike)):
        return _verdict(check_file(_local_or_shipped(str(source)), limits))
    raise TypeError("check() takes a path, bytes or a dict")


def _local_or_shipped(name: str) -> str:
    from .release.shipped import local_or_shipped

    return local_or_shipped(name)[0]


def certificate_path(name: str) -> Path:
    """The installed path of a shipped certificate, by its file name (with or without
    ``.json``; ``kernelbounds certificates --path NAME``).  An unknown name raises
    ``LookupError`` naming it.

    >>> certificate_path("witness-m24-n3-r8").name
    'witness-m24-n3-r8.json'
    """
    from .release import shipped

    return shipped.path(name)


def certificate_names() -> list[str]:
    """The file names of the shipped certificates, sorted (``kernelbounds certificates --list``).

    >>> "witness-m24-n3-r8.json" in certificate_names()
    True
    """
    from .release import shipped

    return shipped.names()


@dataclass(frozen=True)
class Rank:
    """The exact rank of a kernel matrix over all m-bit tokens (level-expansion formula,
    and FLINT on the full matrix when computed) or of a head's kernel over its tokens
    (kernel "head": feature_rank and tokens set, h None)."""

    kernel: str
    m: int
    rank: int
    formula: int | None = None
    flint: int | None = None
    h: tuple[Fraction, ...] | None = field(default=None, repr=False)
    feature_rank: int | None = field(default=None, repr=False)
    tokens: int | None = field(default=None, repr=False)
    _certificate: object = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {
            "kernel": self.kernel, "m": self.m, "rank": self.rank, "formula": self.formula, "flint": self.flint,
            "h": None if self.h is None else [str(x) for x in self.h], "feature_rank": self.feature_rank, "tokens": self.tokens,
        }

    def to_certificate(self) -> dict:
        return _certificate_of(self)


def rank(kernel: str | None = None, m: int | None = None, *, n: int = 3, c=None, h=None, head=None, max_matrix_m: int = 12) -> Rank:
    """As `kernelbounds rank`: a named level kernel (tensor, softmax, level, inner,
    disjoint) on m bits, or ``head=`` a Head (its kernel's exact rank over its tokens).

    >>> rank("tensor", 6)
    Rank(kernel='tensor', m=6, rank=64, formula=64, flint=64)
    """
    from . import kernelrank as rk

    if head is not None:
        head = load_head(head)
        tokens, rows = rk.head_rows(head)
        exact = rk.flint_rank(rows)
        return Rank("head", head.m, exact, None, exact, None, head.rank, len(tokens), lambda: rk.head_certificate(head))
    if kernel is None or m is None:
        raise InvalidArgument("give kernel and m, or head=")
    hv = rk.named_kernel(kernel, m, n=n, c=None if c is None else Fraction(c), h=None if h is None else [Fraction(x) for x in h])
    formula = rk.formula_rank(hv, m)
    exact = rk.flint_rank(rk.kernel_rows(hv, m)) if m <= max_matrix_m else None
    if exact is not None and exact != formula:
        raise ArithmeticError(f"the level-expansion formula ({formula}) and FLINT ({exact}) disagree: this contradicts THEORY §2")
    return Rank(kernel, m, formula, formula, exact, tuple(hv), None, None, (lambda: rk.certificate(hv, m, kernel)) if m <= 12 else None)


@dataclass(frozen=True)
class Transcript:
    """The transcript bound for q independent answers in {0..s} (THEORY §4)."""

    q: int
    s: int
    m: int
    n: int
    answer_vectors: int
    bits: int
    _certificate: object = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {"q": self.q, "s": self.s, "m": self.m, "n": self.n, "answer_vectors": self.answer_vectors, "bits": self.bits}

    def to_certificate(self) -> dict:
        return _certificate_of(self)


def transcript(q: int, s: int) -> Transcript:
    """As `kernelbounds transcript`.

    >>> transcript(3, 4)
    Transcript(q=3, s=4, m=16, n=6, answer_vectors=125, bits=7)
    """
    from .lowerbounds import transcript as tr

    tb = tr.verify(q, s)
    return Transcript(q, s, tb.m, 2 * q, tb.vectors, tb.bits, lambda: tr.certificate(q, s))


def load_head(source) -> TableHead:
    """A Head from a Head, a path to a head file, its text/bytes, or a parsed dict."""
    from .heads.tables import load

    if isinstance(source, TableHead):
        return source.validate()  # tables filled in after construction are checked here
    if isinstance(source, dict):
        return load(json.dumps(source))
    if isinstance(source, (bytes, bytearray)):
        return load(bytes(source).decode("utf-8"))
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        return load(Path(source).read_text(encoding="utf-8"))
    if isinstance(source, str):
        return load(source)
    raise TypeError("a head is a Head, a path, JSON text or a dict")


def _family(source) -> Family:
    if isinstance(source, Family):
        return source
    if isinstance(source, (str, os.PathLike)):
        return load_family(json.loads(Path(_local_or_shipped(str(source))).read_text(encoding="utf-8")))
    if isinstance(source, dict):
        return load_family(source)
    if isinstance(source, Bound):
        return load_family(source.to_certificate())
    if isinstance(source, (list, tuple)) and source and all(isinstance(x, int) for x in source[0]):
        raise TypeError("int tokens do not say m: give token strings, {'inputs': [...]} or a Family")
    if isinstance(source, (list, tuple)):
        return load_family({"inputs": [list(inp) for inp in source]})
    raise TypeError("a family is a Family, a path, a dict (certificate or {'inputs': ...}), a list of inputs of token strings, or a Bound")


def evaluate(head, family, exact: bool | None = None, max_seconds: float | None = None) -> Evaluation:
    """Evaluate a head on a family (as `kernelbounds evaluate`): head a Head, path or dict;
    family a certificate path/dict, {"inputs": [...]} dict, Family (``Family.all(m, n)``:
    every input and position, through the extreme-class route), or Bound.  The result's
    ``to_json()`` is the command's ``--json`` object; ``to_certificate()`` the
    explicit-head certificate of a head that solves every input.  ``max_seconds``: a time
    limit enforced while it runs (``TimeLimit`` past it; docs/api.md, "Evaluating heads at
    scale")."""
    from .heads.evaluate import evaluate_family

    return evaluate_family(load_head(head), _family(family), exact=exact, max_seconds=max_seconds)


def family_tokens(certificate) -> list[int]:
    """The sorted tokens of a family (a certificate path or dict, an inputs dict, a
    Family or a Bound): exactly the tokens a head must define to be evaluated on it.

    >>> len(family_tokens("certificates/witness-m24-n3-r8.json"))
    20
    """
    return _family(certificate).tokens()
