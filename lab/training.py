"""Training single-head attention on Min-IP families, in numpy float64.

Trained models (floats are fine here: they only *propose* heads; every trained kernel
head is converted to exact rationals and re-evaluated by kernelbounds.heads.evaluate):
- ``kernel``: free per-token features phi_Q = A*A, phi_K = B*B (nonnegative by
  squares), values V and affine readouts (W, c), feature rank r;
- ``softmax``: dense softmax with scores <W_Q x, W_K z> on the tokens' m bits
  (m-dimensional scores), free values and readouts.
Both output y = sum_j K_j F_j / sum_j K_j with F_j = <W[q], V[x_j]> + c[q] at position 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from kernelbounds.heads.tables import TableHead


@dataclass
class Data:
    tokens: list[int]  # token index -> bitmask
    x: np.ndarray  # (N, n) token indices, scored position 0
    t: np.ndarray  # (N,) Min-IP targets at position 0
    m: int


def make_data(inputs: list[tuple[int, ...]], m: int, tokens: list[int] | None = None) -> Data:
    tokens = tokens or sorted({z for inp in inputs for z in inp})
    index = {z: i for i, z in enumerate(tokens)}
    x = np.array([[index[z] for z in inp] for inp in inputs], dtype=np.int64)
    t = np.array([min((inp[0] & z).bit_count() for z in inp) for inp in inputs], dtype=float)
    return Data(tokens, x, t, m)


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float):
        self.p, self.lr, self.step = params, lr, 0
        self.m1 = {k: np.zeros_like(v) for k, v in params.items()}
        self.m2 = {k: np.zeros_like(v) for k, v in params.items()}

    def update(self, grads: dict[str, np.ndarray]) -> None:
        self.step += 1
        for k, g in grads.items():
            self.m1[k] = 0.9 * self.m1[k] + 0.1 * g
            self.m2[k] = 0.999 * self.m2[k] + 0.001 * g * g
            mh, vh = self.m1[k] / (1 - 0.9**self.step), self.m2[k] / (1 - 0.999**self.step)
            self.p[k] -= self.lr * mh / (np.sqrt(vh) + 1e-9)


def _readout_terms(p, d: Data):
    q = d.x[:, 0]
    f = np.einsum("nd,njd->nj", p["W"][q], p["V"][d.x]) + p["c"][q][:, None]
    return q, f


def _head_grads(p, d: Data, k: np.ndarray, f: np.ndarray, q: np.ndarray):
    """Loss (mean squared error) and gradients with respect to K (N x n) and the readout."""
    s = k.sum(axis=1) + 1e-30
    y = (k * f).sum(axis=1) / s
    dy = 2 * (y - d.t) / len(d.t)
    g_k = dy[:, None] * (f - y[:, None]) / s[:, None]
    g_f = dy[:, None] * k / s[:, None]
    grads = {"W": np.zeros_like(p["W"]), "V": np.zeros_like(p["V"]), "c": np.zeros_like(p["c"])}
    np.add.at(grads["W"], q, np.einsum("nj,njd->nd", g_f, p["V"][d.x]))
    np.add.at(grads["V"], d.x, g_f[:, :, None] * p["W"][q][:, None, :])
    np.add.at(grads["c"], q, g_f.sum(axis=1))
    return float(np.mean((y - d.t) ** 2)), g_k, grads, y


def init(kind: str, d: Data, r: int, rng: np.random.Generator, dv: int = 16) -> dict[str, np.ndarray]:
    size = len(d.tokens)
    p = {"V": rng.normal(0, 1, (size, dv)), "W": rng.normal(0, 0.3, (size, dv)), "c": np.zeros(size)}
    if kind == "kernel":
        p["A"] = rng.uniform(0.2, 1.0, (size, r))
        p["B"] = rng.uniform(0.2, 1.0, (size, r))
    else:
        p["WQ"] = rng.normal(0, 0.3, (d.m, d.m))
        p["WK"] = rng.normal(0, 0.3, (d.m, d.m))
    return p


def _bits(d: Data) -> np.ndarray:
    return np.array([[(z >> i) & 1 for i in range(d.m)] for z in d.tokens], dtype=float)


def step(kind: str, p, d: Data, bits: np.ndarray | None = None):
    """Loss, gradients and outputs of one full-batch pass."""
    q, f = _readout_terms(p, d)
    if kind == "kernel":
        fq, fk = p["A"] ** 2, p["B"] ** 2
        k = np.einsum("nr,njr->nj", fq[q], fk[d.x])
        loss, g_k, grads, y = _head_grads(p, d, k, f, q)
        g_fq, g_fk = np.zeros_like(fq), np.zeros_like(fk)
        np.add.at(g_fq, q, np.einsum("nj,njr->nr", g_k, fk[d.x]))
        np.add.at(g_fk, d.x, g_k[:, :, None] * fq[q][:, None, :])
        grads["A"], grads["B"] = 2 * p["A"] * g_fq, 2 * p["B"] * g_fk
    else:
        uq, uk = bits @ p["WQ"].T, bits @ p["WK"].T  # (T, m)
        s = np.einsum("nd,njd->nj", uq[q], uk[d.x])
        k = np.exp(s - s.max(axis=1, keepdims=True))
        loss, g_k, grads, y = _head_grads(p, d, k, f, q)
        g_s = g_k * k
        g_uq, g_uk = np.zeros_like(uq), np.zeros_like(uk)
        np.add.at(g_uq, q, np.einsum("nj,njd->nd", g_s, uk[d.x]))
        np.add.at(g_uk, d.x, g_s[:, :, None] * uq[q][:, None, :])
        grads["WQ"], grads["WK"] = g_uq.T @ bits, g_uk.T @ bits
    return loss, grads, y


def train(kind: str, d: Data, r: int, seed: int, steps: int = 3000, lr: float = 0.03) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = init(kind, d, r, rng)
    bits = _bits(d) if kind == "softmax" else None
    opt = Adam(p, lr)
    for _ in range(steps):
        _, grads, _ = step(kind, p, d, bits)
        opt.update(grads)
    return p


def float_errors(kind: str, p, d: Data) -> np.ndarray:
    _, _, y = step(kind, p, d, _bits(d) if kind == "softmax" else None)
    return np.abs(y - d.t)


def to_table_head(p, d: Data) -> TableHead:
    """The trained kernel head as exact rationals (each float converted exactly)."""
    fq, fk = p["A"] ** 2, p["B"] ** 2
    conv = lambda row: tuple(Fraction(float(v)) for v in row)  # noqa: E731
    head = TableHead(d.m, {}, {}, {}, {})
    for i, z in enumerate(d.tokens):
        head.phi_q[z], head.phi_k[z], head.value[z] = conv(fq[i]), conv(fk[i]), conv(p["V"][i])
        head.readout[z] = (conv(p["W"][i]), Fraction(float(p["c"][i])))
    return head


def softmax_errors_highprec(p, d: Data, digits: int = 50) -> list:
    """Errors of a trained softmax head at `digits` decimal digits (exp is not rational)."""
    import mpmath

    mpmath.mp.dps = digits
    bits = _bits(d)
    uq, uk = bits @ p["WQ"].T, bits @ p["WK"].T
    out = []
    for row, t in zip(d.x, d.t, strict=True):
        q = row[0]
        ws = [mpmath.exp(mpmath.mpf(float(np.dot(uq[q], uk[j])))) for j in row]
        fs = [mpmath.mpf(float(np.dot(p["W"][q], p["V"][j]) + p["c"][q])) for j in row]
        out.append(abs(sum(w * f for w, f in zip(ws, fs, strict=True)) / sum(ws) - t))
    return out
