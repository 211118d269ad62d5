"""Exact re-evaluation of trained bit-feature heads (THEORY §0: exact decides).

A trained model only proposes a head.  The head that is judged is built from the float64
numbers the model computes for each token, read as the exact rationals they denote:

- kernel heads: phi_Q(q) = exp(W_Q q + b_Q - max_k(...)) (a per-query positive factor,
  which normalisation cancels) and phi_K(z) = exp(W_K z + b_K - C) (one global factor),
  each rounded to float64, with entries below 2^-128 of the largest entry of the table set
  to 0 (the head stays nonnegative; this moves an output by less than 2^-120 relative).
  Every output is then decided with integers: |y - t| < 1/2 iff
  2 |sum_j K_j (F_j - t)| < sum_j K_j (after clearing the power-of-two denominators).
- softmax heads: the scores s = tau <W_Q q, W_K z> are exact rationals (tau, W_Q, W_K are
  the float64 parameters), exp is irrational, so weights and outputs are arb balls
  (python-flint interval arithmetic at ``PREC`` bits): an output counts as correct only if
  its whole ball satisfies |y - t| < 1/2, and the reported worst error is the ball's
  upper endpoint (the largest ball radius is reported as the error bound).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from lab.models import Model, bit_matrix

FLUSH = 128  # entries below 2^-FLUSH of the table's largest entry become 0
PREC = 256  # arb working precision (bits)


@dataclass
class ExactResult:
    rows: int
    failures: int  # rows with error >= 1/2 or an undefined output
    undefined: int
    worst_error: Fraction | float | None  # exact (kernel) or ball upper endpoint (softmax); None if undefined
    seq_accuracy: float  # fraction of sequences with every scored row correct
    row_accuracy: float
    error_bound: float = 0.0  # softmax: the largest arb ball radius


def fixed(a: np.ndarray) -> tuple[list, int]:
    """Integers k and a shift E with a = k / 2^E exactly (entrywise, float64 input)."""
    a = np.asarray(a, dtype=float)
    mant, ex = np.frexp(a)
    mi = (mant * 2.0**53).astype(np.int64)  # exact: |mant| < 1 has 53 significant bits
    e = ex.astype(np.int64) - 53
    nz = mi != 0
    E = int(-e[nz].min()) if nz.any() else 0
    flat = [(k << (s + E)) if k else 0 for k, s in zip(mi.ravel().tolist(), e.ravel().tolist(), strict=True)]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(a.shape), E


def flushed(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=float).copy()
    top = np.abs(a).max() if a.size else 0.0
    a[np.abs(a) < top * 2.0**-FLUSH] = 0.0
    return a


def kernel_features(model: Model, tokens: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The head's float64 features on `tokens` (rows), before the exact reading."""
    p, X = model.p, bit_matrix(tokens, model.m)
    hq, hk = X @ p["WQ"].T + p["bQ"], X @ p["WK"].T + p["bK"]
    fq = np.exp(hq - hq.max(axis=1, keepdims=True))
    fk = np.exp(hk - hk.max())
    return flushed(fq), flushed(fk)


def readout_tables(model: Model, tokens: list[int]):
    """uq = U q + u0, vk = V z + v0 and the per-query offset <c, q> + c0 (float64)."""
    p, X = model.p, bit_matrix(tokens, model.m)
    return X @ p["U"].T + p["u0"], X @ p["V"].T + p["v0"], X @ p["c"] + p["c0"][0]


class _Readout:
    """Exact F(q, z) = <uq, vk> + off(q) as integers over 2^S."""

    def __init__(self, model: Model, tokens: list[int]):
        uq, vk, off = readout_tables(model, tokens)
        (self.u, eu), (self.v, ev), (self.o, eo) = fixed(uq), fixed(vk), fixed(off)
        self.S = max(eu + ev, eo)
        self.su, self.so = self.S - eu - ev, self.S - eo

    def __call__(self, i: int, j: int) -> int:
        return (sum(a * b for a, b in zip(self.u[i], self.v[j], strict=True)) << self.su) + (self.o[i] << self.so)


def _levels(seq, i):
    return min((seq[i] & z).bit_count() for z in seq)


def _summary(rows: list[tuple[int, bool, object]], nseq: int) -> tuple[float, float, int]:
    ok_seq = [True] * nseq
    good = 0
    for s, ok, _ in rows:
        good += ok
        ok_seq[s] = ok_seq[s] and ok
    return sum(ok_seq) / nseq, good / len(rows), len(rows) - good


def scored_rows(sequences, scored: str):
    positions = (lambda s: range(len(s))) if scored == "all" else (lambda s: [0])
    return [(k, i) for k, s in enumerate(sequences) for i in positions(s)]


def evaluate_kernel(model: Model, sequences: list[tuple[int, ...]], scored: str = "all") -> ExactResult:
    tokens = sorted({z for s in sequences for z in s})
    index = {z: a for a, z in enumerate(tokens)}
    fq, fk = kernel_features(model, tokens)
    (A, _), (B, _) = fixed(fq), fixed(fk)
    F = _Readout(model, tokens)
    kcache: dict[tuple[int, int], int] = {}
    fcache: dict[tuple[int, int], int] = {}
    rows, worst, undefined = [], Fraction(0), 0
    for k, i in scored_rows(sequences, scored):
        seq = sequences[k]
        qi = index[seq[i]]
        t = _levels(seq, i)
        num = den = 0
        for z in seq:
            zj = index[z]
            key = (qi, zj)
            if key not in kcache:
                kcache[key] = sum(a * b for a, b in zip(A[qi], B[zj], strict=True))
                fcache[key] = F(qi, zj)
            w = kcache[key]
            den += w
            num += w * (fcache[key] - (t << F.S))
        if den == 0:
            undefined += 1
            rows.append((k, False, None))
            continue
        err = Fraction(abs(num), den << F.S)
        worst = max(worst, err)
        rows.append((k, err < Fraction(1, 2), err))
    seq_acc, row_acc, failures = _summary(rows, len(sequences))
    return ExactResult(len(rows), failures, undefined, None if undefined else worst, seq_acc, row_acc)


def kernel_rank(model: Model, tokens: list[int], prime: int = 2**61 - 1, seed: int = 0) -> int:
    """Exact rank of [a(x, z)] over `tokens` (x, z both ranging over them).

    With A, B the integer feature tables (T x r), the kernel is A B^T up to a positive
    scale.  For any matrices X (r x T), Y (T x r) over GF(p),
    rank_p(X A B^T Y) <= rank_p(A B^T) <= rank_Q(A B^T) <= r, so a full rank of the r x r
    sketch (random X, Y mod p: O(T r^2) work) is exact; otherwise
    rank_Q(A B^T) = rank_Q(A^T A B^T B) (over R, null(A^T A) = null(A) and
    col(B^T B) = col(B^T)), an r x r integer matrix ranked exactly by FLINT."""
    import flint

    fq, fk = kernel_features(model, tokens)
    (A, _), (B, _) = fixed(fq), fixed(fk)
    T, r = A.shape
    rng = random.Random(seed)
    modp = lambda M: flint.nmod_mat([[int(v) % prime for v in row] for row in M], prime)  # noqa: E731
    X = flint.nmod_mat([[rng.randrange(prime) for _ in range(T)] for _ in range(r)], prime)
    Y = flint.nmod_mat([[rng.randrange(prime) for _ in range(r)] for _ in range(T)], prime)
    low = ((X * modp(A)) * (modp(B).transpose() * Y)).rank()
    if low == min(r, T):
        return low
    Am, Bm = flint.fmpz_mat([[int(v) for v in row] for row in A]), flint.fmpz_mat([[int(v) for v in row] for row in B])
    return (Am.transpose() * Am * Bm.transpose() * Bm).rank()


def table_head(model: Model, tokens: list[int]):
    """The same kernel head as a kernelbounds.heads.tables.TableHead (for kernelbounds.heads.evaluate)."""
    from kernelbounds.heads.tables import TableHead

    fq, fk = kernel_features(model, tokens)
    uq, vk, off = readout_tables(model, tokens)
    head = TableHead(model.m, {}, {}, {}, {})
    conv = lambda row: tuple(Fraction(float(v)) for v in row)  # noqa: E731
    for a, z in enumerate(tokens):
        head.phi_q[z], head.phi_k[z], head.value[z] = conv(fq[a]), conv(fk[a]), conv(vk[a])
        head.readout[z] = (conv(uq[a]), Fraction(float(off[a])))
    return head


def evaluate_softmax(model: Model, sequences: list[tuple[int, ...]], scored: str = "all", prec: int = PREC) -> ExactResult:
    import flint

    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        return _evaluate_softmax(model, sequences, scored)
    finally:
        flint.ctx.prec = old


def _evaluate_softmax(model: Model, sequences, scored: str) -> ExactResult:
    import flint

    p = model.p
    tokens = sorted({z for s in sequences for z in s})
    index = {z: a for a, z in enumerate(tokens)}
    X = bit_matrix(tokens, model.m)
    (WQ, eq), (WK, ek) = fixed(p["WQ"]), fixed(p["WK"])
    tau, et = fixed(np.exp(p["log_tau"]))
    # exact integer score vectors: a(q) = W_Q q, b(z) = W_K z (over 2^eq, 2^ek)
    cols = lambda W, x: [sum(W[d][i] for i in np.flatnonzero(x)) for d in range(len(W))]  # noqa: E731
    aq = [cols(WQ, x) for x in X]
    bk = [cols(WK, x) for x in X]
    scale = flint.arb(2) ** (-(eq + ek + et))
    F = _Readout(model, tokens)
    fscale = flint.arb(2) ** (-F.S)
    half = flint.arb(1) / 2
    rows, worst, radius, undefined = [], 0.0, 0.0, 0
    for k, i in scored_rows(sequences, scored):
        seq = sequences[k]
        qi = index[seq[i]]
        t = _levels(seq, i)
        s = [int(tau[0]) * sum(a * b for a, b in zip(aq[qi], bk[index[z]], strict=True)) for z in seq]
        top = max(s)
        ws = [(flint.arb(v - top) * scale).exp() for v in s]
        fs = [flint.arb(F(qi, index[z])) * fscale for z in seq]
        y = sum((w * f for w, f in zip(ws, fs, strict=True)), flint.arb(0)) / sum(ws, flint.arb(0))
        err = abs(y - t)
        ok = bool(err < half)
        rows.append((k, ok, err))
        worst = max(worst, float(err.upper()))
        radius = max(radius, float(err.rad()))
    seq_acc, row_acc, failures = _summary(rows, len(sequences))
    return ExactResult(len(rows), failures, undefined, worst, seq_acc, row_acc, radius)
