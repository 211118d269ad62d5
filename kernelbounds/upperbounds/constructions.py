"""The constructions U1, U2, U3 of THEORY §2 (upper bounds).

Each is a *level-determined* head with values v(z) = z and a query-affine readout
L_q(y) = alpha <q, y> + beta |q| + gamma, so that F(q, z) = alpha l + beta p + gamma
for |q| = p, <q, z> = l.

- U1 (``rank1``): per-bit factors f = g = (1): phi = 1, r = 1; readout 2<q,y> - |q|.
- U2 (``tensor``): f(0) = (1,0), f(1) = (c,1-c), g(0) = (1,1), g(1) = (1,0) with
  c = 1/(2n-1); the Kronecker power gives a(x,z) = c^<x,z>, r = 2^m, all >= 0.
- U3 (``softmax``): scores <W_Q q, W_K z> with W_Q = -I_m, W_K = I_m at inverse
  temperature beta = ln(2n-1), i.e. weights (2n-1)^(-<q,z>), kept as rationals.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import reduce

from ..errors import InvalidArgument, KernelboundsError
from ..bits import popcount
from ..certificate import header, rational
from ..classes import LevelProfile, worst_error_by_classes
from ..model import KernelHead, feature_head

Pair = tuple[Fraction, ...]


@dataclass(frozen=True)
class TensorKernel:
    """a(x, z) = <f(x_1) (x) ... (x) f(x_m), g(z_1) (x) ... (x) g(z_m)>."""

    f0: Pair
    f1: Pair
    g0: Pair
    g1: Pair

    def gram(self) -> tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]:
        """G[a][b] = <f(a), g(b)>."""
        f, g = (self.f0, self.f1), (self.g0, self.g1)
        return tuple(tuple(sum((u * v for u, v in zip(f[a], g[b], strict=True)), Fraction(0)) for b in (0, 1)) for a in (0, 1))

    @property
    def c(self) -> Fraction:
        return self.gram()[1][1]

    def feature(self, x: int, m: int, side: str) -> tuple[Fraction, ...]:
        """phi_Q(x) (side 'q') or phi_K(x) (side 'k') as an explicit Kronecker product."""
        zero, one = (self.f0, self.f1) if side == "q" else (self.g0, self.g1)
        parts = [one if (x >> i) & 1 else zero for i in range(m)]
        return reduce(lambda acc, v: tuple(a * b for a in acc for b in v), parts, (Fraction(1),))

    def feature_rank(self, m: int) -> int:
        return len(self.f0) ** m

    def kernel_rank(self, m: int) -> int:
        """rank(G^{(x)m}) = rank(G)^m."""
        (a, b), (c, d) = self.gram()
        rank_g = 2 if a * d - b * c != 0 else (1 if any((a, b, c, d)) else 0)
        return rank_g**m


@dataclass(frozen=True)
class SoftmaxKernel:
    """Weights exp(beta <W_Q q, W_K z>) with exp(beta) = base, W_Q = -I, W_K = I."""

    base: int

    def weight_of_level(self, level: int) -> Fraction:
        return Fraction(1, self.base**level)

    @staticmethod
    def matrices(m: int) -> tuple[list[list[int]], list[list[int]]]:
        w_q = [[-1 if i == j else 0 for j in range(m)] for i in range(m)]
        w_k = [[1 if i == j else 0 for j in range(m)] for i in range(m)]
        return w_q, w_k


@dataclass(frozen=True)
class Readout:
    """L_q(y) = alpha <q, y> + beta |q| + gamma, with values v(z) = z."""

    alpha: Fraction
    beta: Fraction
    gamma: Fraction = Fraction(0)

    def score(self, p: int, level: int) -> Fraction:
        return self.alpha * level + self.beta * p + self.gamma

    def affine(self, q: int, m: int) -> tuple[tuple[Fraction, ...], Fraction]:
        w = tuple(self.alpha if (q >> i) & 1 else Fraction(0) for i in range(m))
        return w, self.beta * popcount(q) + self.gamma


@dataclass(frozen=True)
class Construction:
    name: str
    m: int
    n: int
    kernel: TensorKernel | SoftmaxKernel
    readout: Readout

    def level_weight(self, p: int, level: int) -> Fraction:
        if isinstance(self.kernel, SoftmaxKernel):
            return self.kernel.weight_of_level(level)
        return self.kernel.c**level

    def profile(self) -> LevelProfile:
        return LevelProfile(self.level_weight, self.readout.score)

    def head(self) -> KernelHead:
        """The explicit head (features built as Kronecker products: small m only)."""
        m = self.m
        value = lambda z, j: tuple(Fraction((z >> i) & 1) for i in range(m))  # noqa: E731
        readout = lambda q, i: self.readout.affine(q, m)  # noqa: E731
        if isinstance(self.kernel, SoftmaxKernel):
            w_q, w_k = SoftmaxKernel.matrices(m)
            base = Fraction(self.kernel.base)

            def score_weight(q: int, i: int, z: int, j: int) -> Fraction:
                qv = [sum(w_q[r][c] * ((q >> c) & 1) for c in range(m)) for r in range(m)]
                zv = [sum(w_k[r][c] * ((z >> c) & 1) for c in range(m)) for r in range(m)]
                return base ** sum(a * b for a, b in zip(qv, zv, strict=True))

            return KernelHead(score_weight, value, readout)
        ker = self.kernel
        return feature_head(lambda x, i: ker.feature(x, m, "q"), lambda z, j: ker.feature(z, m, "k"), value, readout)


def tensor_constant(n: int) -> Fraction:
    """c = 1/(2n-1) in (0, 1/(2(n-1))) for n >= 2 (THEORY U2)."""
    if n < 1:
        raise InvalidArgument("n must be >= 1")
    return Fraction(1, 2 * n - 1)


def rank1(m: int, n: int) -> Construction:
    one = (Fraction(1),)
    return Construction("rank1", m, n, TensorKernel(one, one, one, one), Readout(Fraction(2), Fraction(-1)))


def tensor(m: int, n: int) -> Construction:
    c = tensor_constant(n)
    kernel = TensorKernel((Fraction(1), Fraction(0)), (c, 1 - c), (Fraction(1), Fraction(1)), (Fraction(1), Fraction(0)))
    return Construction("tensor", m, n, kernel, Readout(Fraction(1), Fraction(0)))


def softmax(m: int, n: int) -> Construction:
    return Construction("softmax", m, n, SoftmaxKernel(2 * n - 1), Readout(Fraction(1), Fraction(0)))


CONSTRUCTIONS = {"rank1": rank1, "tensor": tensor, "softmax": softmax}


class ConstructionFails(KernelboundsError, ValueError):
    """The construction does not solve the requested length (no certificate is written)."""


def _pair(v: Pair) -> list[str]:
    return [rational(x) for x in v]


def certificate(c: Construction) -> dict:
    """The v1 construction certificate of c; raises ConstructionFails if error >= 1/2."""
    result = worst_error_by_classes(c.profile(), c.m, c.n)
    if result.worst_error is None or result.worst_error >= Fraction(1, 2):
        shown = "undefined" if result.worst_error is None else rational(result.worst_error)
        raise ConstructionFails(
            f"{c.name} does not solve length {c.n} at m = {c.m}: worst error {shown} "
            f"at level class (|q|, levels) = {result.witness}"
        )
    claims: dict = {"worst_error": rational(result.worst_error)}
    if isinstance(c.kernel, SoftmaxKernel):
        w_q, w_k = SoftmaxKernel.matrices(c.m)
        kernel = {"type": "softmax-bilinear", "exp_beta": str(c.kernel.base), "W_Q": w_q, "W_K": w_k}
        claims.update(score_dim=c.m, kernel_rank=2**c.m)
    else:
        k = c.kernel
        kernel = {"type": "tensor-power", "f0": _pair(k.f0), "f1": _pair(k.f1), "g0": _pair(k.g0), "g1": _pair(k.g1)}
        nonneg = all(x >= 0 for v in (k.f0, k.f1, k.g0, k.g1) for x in v)
        claims.update(feature_rank=k.feature_rank(c.m), kernel_rank=k.kernel_rank(c.m), nonnegative_features=nonneg)
    r = c.readout
    doc = header("construction")
    doc.update(
        construction=c.name,
        m=c.m,
        n=c.n,
        positions="all",
        head={
            "kernel": kernel,
            "values": {"type": "identity"},
            "readout": {"type": "query-affine", "alpha": rational(r.alpha), "beta": rational(r.beta), "gamma": rational(r.gamma)},
        },
        claims=claims,
    )
    return doc
