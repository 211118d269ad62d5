"""The transcript bound for multi-head, multi-layer sketch models (THEORY §4).

If position i's answer is a function of its own token and the cross-token transcript T,
and a family of inputs keeps the scored query tokens fixed while the q answers take V
distinct vectors, then T takes >= V values: >= log2 V bits, ceil(log2 V) over {0,1}.

Fooling family for q answers in {0..s}: m = (q+1)s bits in blocks B_1..B_q, C of size
s; query x_i = B_i u C; for t in {0..s}^q the context token y_k = (first t_k bits of
B_k) u (B_i for all i != k); input (x_1..x_q, y_1..y_q), n = 2q.  Then
<x_i, x_j> = s (j != i), <x_i, x_i> = 2s, <x_i, y_k> = s (k != i), <x_i, y_i> = t_i,
so the answer at position i is t_i and V = (s+1)^q.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ..bits import to_str
from ..certificate import header
from ..model import min_ip_target


def block(i: int, s: int) -> int:
    """Block i (0-based: B_1..B_q are 0..q-1, C is q) as a bitmask."""
    return ((1 << s) - 1) << (i * s)


def queries(q: int, s: int) -> list[int]:
    return [block(i, s) | block(q, s) for i in range(q)]


def context(t: tuple[int, ...], q: int, s: int) -> list[int]:
    """y_k = first t_k bits of B_k, plus every other B_i."""
    out = []
    for k in range(q):
        others = sum(block(i, s) for i in range(q) if i != k)
        out.append(others | (((1 << t[k]) - 1) << (k * s)))
    return out


def fooling_family(q: int, s: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """[(target vector t, input)] for every t in {0..s}^q."""
    xs = queries(q, s)
    return [(t, tuple(xs + context(t, q, s))) for t in product(range(s + 1), repeat=q)]


def answers(tokens: tuple[int, ...], q: int) -> tuple[int, ...]:
    return tuple(min_ip_target(tokens, i) for i in range(q))


def binary_bits(v: int) -> int:
    """The least b with 2^b >= v (= ceil(log2 v))."""
    return (v - 1).bit_length() if v > 1 else 0


@dataclass(frozen=True)
class TranscriptBound:
    q: int
    s: int
    vectors: int
    bits: int

    @property
    def m(self) -> int:
        return (self.q + 1) * self.s


def verify(q: int, s: int) -> TranscriptBound:
    """Build the family, recompute every answer vector by brute force, check distinctness."""
    family = fooling_family(q, s)
    seen = set()
    for t, tokens in family:
        got = answers(tokens, q)
        if got != t:
            raise AssertionError(f"answers {got} != targets {t}: contradicts THEORY §4")
        seen.add(got)
    if len(seen) != (s + 1) ** q:
        raise AssertionError("answer vectors are not distinct")
    return TranscriptBound(q, s, len(seen), binary_bits(len(seen)))


def certificate(q: int, s: int) -> dict:
    tb = verify(q, s)
    m = tb.m
    doc = header("transcript")
    doc.update(
        q=q,
        s=s,
        m=m,
        n=2 * q,
        inputs=[[to_str(x, m) for x in tokens] for _, tokens in fooling_family(q, s)],
        claims={"answer_vectors": tb.vectors, "bits": tb.bits},
    )
    return doc
