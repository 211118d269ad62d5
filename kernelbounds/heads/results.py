"""The result of evaluating a head (THEORY §1): the :class:`Evaluation` record, its JSON
and text rendering, the :class:`Counterexample` positions it names, and the verdict data it
carries: the lower bound a family certifies (THEORY §3, L8) and the chain links where a head
breaks the domination of THEORY L1 (the explanation of a contradiction).

:mod:`.evaluate` computes these results; this module only holds and renders them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from ..errors import InvalidArgument
from ..bits import comp, from_str, to_str
from ..lowerbounds.amplification import chain_keys
from ..lowerbounds.domination import dominates, factor
from .inputs import Family
from .tables import TableHead
from ..shown import approx, to_float


@dataclass(frozen=True)
class Counterexample:
    """One scored position of one input: ``input`` as int tokens (the Python convention of
    docs/api.md, "Tokens"), ``position`` counted from 1 (x_1 .. x_n, THEORY §1, as in JSON
    and the CLI), the target t and the exact output y (None: denominator <= 0)."""

    input: tuple[int, ...]
    position: int
    target: int
    output: Fraction | None
    m: int = field(repr=False)

    @property
    def error(self) -> Fraction | None:
        """|y - t| exactly (None when the output is undefined)."""
        return None if self.output is None else abs(self.output - self.target)

    def strings(self) -> list[str]:
        return [to_str(x, self.m) for x in self.input]

    def __str__(self) -> str:
        y = "undefined" if self.output is None else f"~{approx(self.output)}"
        return f"position {self.position} of {' '.join(self.strings())}: target {self.target}, output {y}"

    def to_json(self) -> dict:
        from ..certificate import rational

        err = self.error
        return {
            "input": self.strings(),
            "position": self.position,
            "target": self.target,
            "output": None if self.output is None else rational(self.output),
            "error": None if err is None else rational(err),
        }


@dataclass(frozen=True)
class Evaluation:
    """The result of evaluating a head on a family; ``to_json()`` is exactly the object that
    ``kernelbounds evaluate --json`` prints (docs/api.md, "One result shape").

    ``worst_error`` is exact: on the extreme-class route (every input, ``Family.all``) and the
    exact route it is the maximum over every scored position; on the float route it is the
    largest exact error among the positions checked exactly (always including the
    float-worst one) and ``worst_error_bound`` bounds every position's error.
    ``worst_input`` attains ``worst_error``; ``first_failure`` is the first failing position
    (family order; on the extreme-class route the failing input of the least failing class).
    ``failures`` counts failing scored positions, or on the extreme-class route failing classes
    (query token, least level): ``failure_unit`` says which.
    """

    inputs: int
    positions: int
    worst_error: Fraction | None  # None: some output is undefined
    failures: int
    first_failure: Counterexample | None
    kernel_rank: int
    tokens: int
    negative_weights: int
    rechecked: int = 0
    worst_error_bound: float | None = None
    method: str = "exact"
    seconds: float = field(default=0.0, compare=False)
    m: int = 0
    n: int = 0
    head_rank: int = 0
    worst_input: Counterexample | None = None
    failure_unit: str = "position"
    certified_bound: int | None = None
    contradiction: bool = False
    l1_violations: tuple[str, ...] = ()
    least_denominator: Fraction | None = None  # exact least sum of weights over the evaluated positions
    least_denominator_exact: bool = True  # False: more than LEAST_CANDIDATES float ties in a block (docs/api.md)
    denominators: str = "positive"  # the convention: output defined when > 0 (THEORY §1), or != 0 ("nonzero", L8 (b))
    reduction: str | None = None  # all-inputs route: whether its extreme-class reduction holds for the head
    caveat: str = ""  # where the head differs from the library's forward pass (kernelbounds.adapters)
    _certificate: object = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        worst = "undefined" if self.worst_error is None else approx(self.worst_error)
        first = "None" if self.first_failure is None else repr(str(self.first_failure))
        unit = " classes" if self.failure_unit == "class" and self.failures else ""
        return (
            f"Evaluation(solves={self.solves}, worst_error={worst}, first_failure={first}, "
            f"inputs={self.inputs}, failures={self.failures}{unit}, kernel_rank={self.kernel_rank}, method={self.method!r})"
        )

    @property
    def solves(self) -> bool:
        return self.failures == 0

    @property
    def denominator_sign(self) -> int | None:
        """The sign of the least denominator: 1 (every denominator > 0, the class of THEORY
        §1 and L8 (a) whatever the kernel's sign), 0 or -1; None when not computed."""
        d = self.least_denominator
        return None if d is None else (d > 0) - (d < 0)

    def to_json(self) -> dict:
        from ..certificate import rational

        return {
            "m": self.m,
            "n": self.n,
            "inputs": self.inputs,
            "positions": self.positions,
            "failures": self.failures,
            "failure_unit": self.failure_unit,
            "solves": self.solves,
            "worst_error": None if self.worst_error is None else rational(self.worst_error),
            "worst_error_float": None if self.worst_error is None else to_float(self.worst_error),
            "worst_error_bound": self.worst_error_bound,
            "worst_input": None if self.worst_input is None else self.worst_input.to_json(),
            "first_failure": None if self.first_failure is None else self.first_failure.to_json(),
            "kernel_rank": self.kernel_rank,
            "head_rank": self.head_rank,
            "tokens": self.tokens,
            "negative_weights": self.negative_weights,
            "rechecked": self.rechecked,
            "method": self.method,
            "certified_bound": self.certified_bound,
            "contradiction": self.contradiction,
            "l1_violations": list(self.l1_violations),
            "least_denominator": None if self.least_denominator is None else rational(self.least_denominator),
            "least_denominator_sign": self.denominator_sign,
            "least_denominator_exact": self.least_denominator_exact,
            "denominators": self.denominators,
            "reduction": self.reduction,
            "caveat": self.caveat,
            "seconds": round(self.seconds, 3),
        }

    def to_certificate(self) -> dict:
        """The explicit-head certificate of a head that solves every input (``Family.all``;
        docs/certificate-format-v2.md, "explicit-head"); ValueError says why there is none."""
        if not callable(self._certificate):
            raise InvalidArgument(self._certificate or "this evaluation has no certificate")
        return self._certificate()


def certified_bound(family: Family) -> int | None:
    """The lower bound the family certifies: the certificate's claim, or for every input
    the best certified bound on r*(m, n) (any head solving every input solves every
    witness family at (m, n), THEORY §3)."""
    cert = family.certificate
    if cert is not None and "claims" in cert:  # the checker's re-derived bound, never the file's own claim
        from .familycheck import checked_bound

        return checked_bound(cert)[0]
    if family.everything and family.n >= 3:
        return _known_lower(family.m, family.n)
    return None


def kernels_covered(family: Family) -> tuple[str, ...]:
    """The kernel classes the family's certificate bound holds for: those of the checker's
    claim (its field `kernel`, docs/certificate-format-v2.md "Signed kernels"); otherwise nonnegative."""
    cert = family.certificate
    if isinstance(cert, dict) and "claims" in cert:  # the kernel classes of the checker's claim
        from .familycheck import checked_bound

        return checked_bound(cert)[1] or ("nonnegative",)
    return ("nonnegative",)


@lru_cache(maxsize=64)
def _known_lower(m: int, n: int) -> int:
    """The best certified lower bound on r*(m, n), from the hub (kernelbounds.hub.answer)."""
    from ..hub.answer import lower

    return lower(m, n).value


def l1_violations(head: TableHead, lb_doc: dict, limit: int = 3, max_links: int = 200_000) -> list[str]:
    """Chain links (a, b) of the certificate where D(a) > (n-2)(d-1) D(b) fails
    (THEORY L1), looking at no more than max_links links."""
    m, n = lb_doc["m"], lb_doc["n"]
    words = [from_str(w) for w in lb_doc["code"]["words"]]
    schedules = {s["gap"]: tuple(s["levels"]) for s in lb_doc["schedules"]}
    out = []
    kh = head.kernel_head()
    looked = 0
    for i, c_i in enumerate(words):
        q = comp(c_i, m)
        k0 = kh.weight(q, 0, q, 0)
        for j, c_j in enumerate(words):
            if i == j:
                continue
            chain = chain_keys(q, c_i, c_j, schedules[(q & c_j).bit_count()])
            for a, b in pairwise(chain):
                looked += 1
                if looked > max_links:
                    return out
                d = (q & b).bit_count() - (q & a).bit_count()
                rho = factor(n, d)
                d_a, d_b = k0 + (n - 1) * kh.weight(q, 0, a, 1), k0 + (n - 1) * kh.weight(q, 0, b, 1)
                if not dominates(n, d, d_a, d_b):
                    out.append(
                        f"L1 at query {to_str(q, m)}: keys a = {to_str(a, m)} (level {(q & a).bit_count()}), "
                        f"b = {to_str(b, m)} (level {(q & b).bit_count()}): D(a) = {approx(d_a)} is not > "
                        f"(n-2)(d-1) D(b) = {rho} * {approx(d_b)}, so the head fails one of S_A, S_B, S_M"
                    )
                    if len(out) >= limit:
                        return out
    return out
