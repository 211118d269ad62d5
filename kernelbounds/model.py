"""The single-head normalized kernel attention head, evaluated exactly (THEORY §1).

Positions are 0-based here (THEORY counts from 1).  A head is given by four maps that
take a token and its position; a position-independent head simply ignores the
position.  Every number is a ``Fraction`` (or an ``int``); nothing here uses floats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, product

from .errors import InvalidArgument
from .bits import all_tokens, inner

Number = Fraction | int
Vector = Sequence[Number]
TokenMap = Callable[[int, int], Vector]


def min_ip_target(tokens: Sequence[int], i: int) -> int:
    """t_i(X) = min_j <x_i, x_j> over all positions j (THEORY §1)."""
    return min(inner(tokens[i], z) for z in tokens)


def dot(u: Vector, v: Vector) -> Number:
    if len(u) != len(v):
        raise InvalidArgument(f"dimension mismatch: {len(u)} != {len(v)}")
    return sum((a * b for a, b in zip(u, v, strict=True)), Fraction(0))


KernelFn = Callable[[int, int, int, int], Number]


@dataclass(frozen=True)
class KernelHead:
    """A head: kernel a, values v and readout L_q, each allowed to depend on positions.

    ``kernel(q, i, z, j)`` is a(x_i, x_j) for x_i = q at position i and x_j = z at j;
    ``value(z, j)`` is v(z); ``readout(q, i)`` returns ``(w, b)`` for the affine map
    L(y) = <w, y> + b.  ``causal`` makes position i attend to positions 0..i only.
    """

    kernel: KernelFn
    value: TokenMap
    readout: Callable[[int, int], tuple[Vector, Number]]
    causal: bool = False

    def weight(self, q: int, i: int, z: int, j: int) -> Number:
        return self.kernel(q, i, z, j)

    def output(self, tokens: Sequence[int], i: int) -> Fraction | None:
        """y_i, or None when the denominator is not > 0 (the head is then undefined)."""
        attended = range(i + 1) if self.causal else range(len(tokens))
        q = tokens[i]
        weights = [self.weight(q, i, tokens[j], j) for j in attended]
        den = sum(weights, Fraction(0))
        if den <= 0:
            return None
        values = [self.value(tokens[j], j) for j in attended]
        dim = len(values[0])
        mean = [sum((a * v[k] for a, v in zip(weights, values, strict=True)), Fraction(0)) / den for k in range(dim)]
        w, b = self.readout(q, i)
        return Fraction(dot(w, mean)) + b

    def error(self, tokens: Sequence[int], i: int) -> Fraction | None:
        """|y_i - t_i(X)|, or None when y_i is undefined."""
        y = self.output(tokens, i)
        return None if y is None else abs(y - min_ip_target(tokens, i))


@dataclass(frozen=True)
class ExhaustiveResult:
    """Worst error over every input and scored position; ``witness`` attains it."""

    worst_error: Fraction | None  # None: some output is undefined
    witness: tuple[int, ...]
    inputs: int


def feature_head(phi_q: TokenMap, phi_k: TokenMap, value: TokenMap, readout, causal: bool = False) -> KernelHead:
    """The head with kernel a(x_i, x_j) = <phi_Q(x_i), phi_K(x_j)> (feature rank = len(phi))."""
    return KernelHead(lambda q, i, z, j: dot(phi_q(q, i), phi_k(z, j)), value, readout, causal)


def exhaustive_worst_error(head: KernelHead, m: int, n: int, all_positions: bool = True) -> ExhaustiveResult:
    """Evaluate a position-independent head on every input of ({0,1}^m)^n (THEORY §2).

    Uses the per-query reduction of THEORY §1 (y = sum K F / sum K with
    K(z) = a(q, z), F(z) = L_q(v(z))) and, since such a head's output at a position
    depends only on its query and the multiset of the other tokens, enumerates each
    query with each multiset of n-1 other tokens once.  ``all_positions=False`` is
    accepted for symmetry with the causal variant, whose last position sees the same
    sum.
    """
    tokens = list(all_tokens(m))
    worst: Fraction = Fraction(-1)
    witness: tuple[int, ...] = ()
    count = 0
    for q in tokens:
        w, b = head.readout(q, 0)
        k_row = [Fraction(head.weight(q, 0, z, 1)) for z in tokens]
        f_row = [Fraction(dot(w, head.value(z, 1))) + b for z in tokens]
        for others in combinations_with_replacement(tokens, n - 1):
            count += 1
            den = k_row[q] + sum(k_row[z] for z in others)
            if den <= 0:
                return ExhaustiveResult(None, (q, *others), count)
            num = k_row[q] * f_row[q] + sum(k_row[z] * f_row[z] for z in others)
            t = min([inner(q, z) for z in others] + [q.bit_count()])
            err = abs(num / den - t)
            if err > worst:
                worst, witness = err, (q, *others)
    return ExhaustiveResult(worst, witness, count)


def all_inputs(m: int, n: int):
    """Every input of length n over {0,1}^m, as tuples (for brute-force tests)."""
    return product(all_tokens(m), repeat=n)
