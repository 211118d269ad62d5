"""Hypothesis strategies and assertions for users' own property-based tests (docs/api.md).

    from hypothesis import given
    from kernelbounds.testing import inputs, nonnegative_heads, assert_bound_respected

Strategies draw only objects that satisfy their premise (no filtering): tokens of m
bits, inputs of given m and n, witness families (lower-bound certificates with listed
inputs), nonnegative heads of a given feature rank, and valid certificates of each kind.
Requires hypothesis (``pip install kernelbounds[test]``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from .errors import InvalidArgument


try:
    from hypothesis import strategies as st
except ImportError as exc:  # the [test] extra is not installed
    raise ImportError("kernelbounds.testing needs hypothesis: install the test extra, pip install 'kernelbounds[test]'") from exc

__all__ = [
    "tokens", "inputs", "witness_families", "nonnegative_heads", "certificates",
    "assert_solves", "assert_valid", "assert_bound_respected", "CERTIFICATE_KINDS",
]

CERTIFICATE_KINDS = ("construction", "lower-bound", "rank", "transcript")


def tokens(m: int) -> st.SearchStrategy[int]:
    """Tokens of {0,1}^m as ints (bit i = x_i)."""
    return st.integers(0, 2**m - 1)


def inputs(m: int, n: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Inputs (x_1, ..., x_n) over {0,1}^m."""
    return st.tuples(*[tokens(m)] * n)


def _rationals(lo: int, hi: int, denominators=(1, 2, 3, 4, 7)) -> st.SearchStrategy[Fraction]:
    return st.builds(lambda p, q: Fraction(p, q), st.integers(lo, hi), st.sampled_from(denominators))


@st.composite
def nonnegative_heads(draw, m: int, rank: int, dv: int = 1, token_list=None):
    """Heads (kernelbounds.Head) over token_list (default all 2^m tokens) with
    nonnegative features of dimension ``rank`` (so a nonnegative kernel), arbitrary
    rational values of dimension dv and readouts."""
    from .heads.tables import TableHead

    head = TableHead(m, {}, {}, {}, {})
    for x in (range(2**m) if token_list is None else token_list):
        head.phi_q[x] = tuple(draw(_rationals(0, 9)) for _ in range(rank))
        head.phi_k[x] = tuple(draw(_rationals(0, 9)) for _ in range(rank))
        head.value[x] = tuple(draw(_rationals(-9, 9)) for _ in range(dv))
        head.readout[x] = (tuple(draw(_rationals(-3, 3)) for _ in range(dv)), draw(_rationals(-3, 3)))
    return head


@lru_cache(maxsize=None)
def _codes(m: int):
    from .lowerbounds.codes.library import candidates

    return tuple(c for c in candidates(m, thorough=False) if c.size >= 2)


@st.composite
def witness_families(draw, m: int | None = None, n: int | None = None, variant: str | None = None, max_words: int = 6):
    """Lower-bound certificates (dicts) with listed witness inputs: a prefix of 2..max_words
    words of a candidate code at m (default 8, 10 or 12), length n (default 3..5)."""
    from .lowerbounds import assemble
    from .lowerbounds import certify

    m = draw(st.sampled_from([8, 10, 12])) if m is None else m
    n = draw(st.integers(3, 5)) if n is None else n
    variant = draw(st.sampled_from(assemble.VARIANTS)) if variant is None else variant
    code = draw(st.sampled_from(_codes(m)))
    size = draw(st.integers(2, min(max_words, code.size)))
    return certify.certificate(assemble.assemble(code.prefix(size), n, variant), listed=True)


@st.composite
def certificates(draw, kind: str | None = None):
    """Valid certificates (dicts) of the given kind (default: any of CERTIFICATE_KINDS)."""
    kind = draw(st.sampled_from(CERTIFICATE_KINDS)) if kind is None else kind
    if kind == "construction":
        from .upperbounds import constructions

        name = draw(st.sampled_from(["rank1", "tensor", "softmax"]))
        m = draw(st.integers(1, 6))
        n = draw(st.integers(1, 2)) if name == "rank1" else draw(st.integers(2, 5))
        return constructions.certificate(constructions.CONSTRUCTIONS[name](m, n))
    if kind == "lower-bound":
        return draw(witness_families())
    if kind == "rank":
        from . import kernelrank as rank

        name = draw(st.sampled_from(["tensor", "softmax", "inner", "disjoint"]))
        m = draw(st.integers(1, 6))
        return rank.certificate(rank.named_kernel(name, m), m, name)
    if kind == "transcript":
        from .lowerbounds import transcript

        q, s = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        return transcript.certificate(q, s)
    raise InvalidArgument(f"unknown kind {kind!r}: one of {', '.join(CERTIFICATE_KINDS)}")


def assert_valid(certificate) -> None:
    """Fail unless the independent checker accepts the certificate (path, bytes or dict)."""
    from .api import check

    verdict = check(certificate)
    if not verdict.ok:
        raise AssertionError(f"certificate rejected (exit {verdict.code}) at {verdict.pointer or '/'}: {verdict.reason}")


def assert_solves(head, family) -> None:
    """Fail unless the head solves every scored position of the family (exactly decided)."""
    from .api import evaluate

    result = evaluate(head, family)
    if result.failures:
        raise AssertionError(f"the head fails {result.failures} scored {result.failure_unit}s; first: {result.first_failure}")


def assert_bound_respected(head, m: int, n: int, variant: str = "position-independent") -> None:
    """Fail if the head contradicts the code lower bound at (m, n) (THEORY L4): feature
    rank below the bound, a nonnegative kernel, and yet it solves the bound's witness family
    (L4 says that cannot happen; if it does, keep the head and report it)."""
    from .api import evaluate
    from .lowerbounds import assemble

    lb = assemble.best(m, n, variant)  # the code bound of L4: its certificate is a witness family
    if head.rank >= lb.bound or not lb.size:
        return
    result = evaluate(head, assemble.any_certificate(lb))
    if result.failures == 0 and result.negative_weights == 0:
        raise AssertionError(f"a head of feature rank {head.rank} < {lb.bound} solves the witness family at m = {m}, n = {n}: this contradicts THEORY L4")
