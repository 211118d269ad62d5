"""The float pass of head evaluation (THEORY §1) and its rigorous error bound: a table head
as float64 arrays, the vectorised outputs of a block of inputs with the enclosure radius
rho of each (the formulas and their validity range are in the docstring of
:mod:`.evaluate` and in docs/api.md, "Evaluating heads at scale"), and the exact count of
negative kernel values decided with the same bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..bits import to_str
from ..shown import to_float
from .tables import HeadError, TableHead

U = 2.0**-53
FLOAT_RANGE = (2.0**-200, 2.0**200)


def gamma(k: int) -> float:
    """gamma_k = k u / (1 - k u) (Higham §3.1)."""
    return k * U / (1 - k * U)


@dataclass(frozen=True)
class HeadArrays:
    """A table head's maps as float64 arrays over its tokens (row k = tokens[k])."""

    tokens: list[int]
    index: dict[int, int]
    phi_q: np.ndarray
    phi_k: np.ndarray
    value: np.ndarray
    w: np.ndarray
    b: np.ndarray
    bits: np.ndarray
    floatable: bool  # every entry 0 or within FLOAT_RANGE: the float pass's bound applies

    def _sorted(self) -> np.ndarray:
        """The tokens as a sorted int64 array (m <= 62), built once."""
        cached = self.__dict__.get("_sorted_cache")
        if cached is None:
            cached = np.array(self.tokens, dtype=np.int64)  # self.tokens is sorted
            object.__setattr__(self, "_sorted_cache", cached)
        return cached

    def lookup(self, tokens: Sequence[int]) -> np.ndarray:
        m = self.bits.shape[1]
        if m <= 62:  # vectorised: the head's tokens as a sorted int64 array
            sorted_tokens = self._sorted()
            want = np.asarray(tokens, dtype=np.int64)
            pos = np.minimum(np.searchsorted(sorted_tokens, want), len(sorted_tokens) - 1)
            missing = np.flatnonzero(sorted_tokens[pos] != want)
            if not len(missing):
                return pos
            tokens = [int(want[missing[0]])]
        try:
            return np.fromiter((self.index[x] for x in tokens), dtype=np.int64, count=len(tokens))
        except KeyError as exc:
            x = exc.args[0]
            raise HeadError(f"the head defines no maps for token {to_str(x, self.bits.shape[1])} (list the tokens a family needs with `kernelbounds evaluate --list-tokens`)") from None


def head_arrays(head: TableHead) -> HeadArrays:
    tokens = sorted(head.phi_q)
    if set(tokens) != set(head.phi_k) or set(tokens) != set(head.value) or set(tokens) != set(head.readout):
        raise HeadError("every token must define phi_q, phi_k, value and readout")
    conv = lambda rows: np.array([[to_float(v) for v in row] for row in rows], dtype=np.float64)  # noqa: E731  (beyond 1e308: inf, so not floatable)
    phi_q = conv(head.phi_q[x] for x in tokens)
    phi_k = conv(head.phi_k[x] for x in tokens)
    value = conv(head.value[x] for x in tokens)
    w = conv(head.readout[x][0] for x in tokens)
    b = np.array([to_float(head.readout[x][1]) for x in tokens], dtype=np.float64)
    m = head.m
    if m <= 62:
        bits = ((np.array(tokens, dtype=np.int64)[:, None] >> np.arange(m)) & 1).astype(np.int32)
    else:
        bits = np.array([[(x >> i) & 1 for i in range(m)] for x in tokens], dtype=np.int32)
    lo, hi = FLOAT_RANGE
    allv = np.concatenate([a.ravel() for a in (phi_q, phi_k, value, w, b)])
    mag = np.abs(allv)
    floatable = bool(np.all(np.isfinite(allv)) and np.all((mag == 0) | ((mag >= lo) & (mag <= hi))))
    return HeadArrays(tokens, {x: k for k, x in enumerate(tokens)}, phi_q, phi_k, value, w, b, bits, floatable)


# ------------------------------------------------------------------ the float pass


def float_pass(h: HeadArrays, x: np.ndarray, i: int, causal: bool):
    """(err, rho, status, (den, rden)) per input of block x (rows of head indices) at
    position i.

    status: 0 certainly solved, 1 certainly failed (error >= 1/2 or denominator < 0),
    2 undecided (re-check exactly).  err is the float error (nan when undefined); den is
    the float denominator and rden its rounding bound (|den - exact| <= rden)."""
    att = x[:, : i + 1] if causal else x
    q = x[:, i]
    uq, qinv = np.unique(q, return_inverse=True)
    uc, cinv = np.unique(att, return_inverse=True)
    cinv = cinv.reshape(att.shape)
    if len(uq) * len(uc) <= 4 * att.size + 4096:  # per-query tables, then gather
        kt = h.phi_q[uq] @ h.phi_k[uc].T
        kat = np.abs(h.phi_q[uq]) @ np.abs(h.phi_k[uc]).T
        ft = h.w[uq] @ h.value[uc].T + h.b[uq][:, None]
        fat = np.abs(h.w[uq]) @ np.abs(h.value[uc]).T + np.abs(h.b[uq])[:, None]
        rows = qinv[:, None]
        k, ka, f, fa = kt[rows, cinv], kat[rows, cinv], ft[rows, cinv], fat[rows, cinv]
    else:  # many queries: one dot product per (input, position)
        pq, pk = h.phi_q[q], h.phi_k[att]
        k = np.einsum("br,bjr->bj", pq, pk)
        ka = np.einsum("br,bjr->bj", np.abs(pq), np.abs(pk))
        wq, va = h.w[q], h.value[att]
        f = np.einsum("bd,bjd->bj", wq, va) + h.b[q][:, None]
        fa = np.einsum("bd,bjd->bj", np.abs(wq), np.abs(va)) + np.abs(h.b[q])[:, None]
    if att is x:
        ux, xinv = uc, cinv
    else:
        ux, xinv = np.unique(x, return_inverse=True)
        xinv = xinv.reshape(x.shape)
    if len(uq) * len(ux) <= 4 * x.size + 4096:
        levels = (h.bits[uq] @ h.bits[ux].T)[qinv[:, None], xinv]
    else:
        levels = np.einsum("bm,bjm->bj", h.bits[q], h.bits[x])
    t = levels.min(axis=1).astype(np.float64)
    r, dv = h.phi_q.shape[1], h.value.shape[1]
    nt = att.shape[1]
    with np.errstate(all="ignore"):
        rk = 2 * gamma(r + 2) * ka
        rf = 2 * gamma(dv + 3) * fa
        den = k.sum(axis=1)
        rden = rk.sum(axis=1) + 2 * gamma(nt) * np.abs(k).sum(axis=1)
        kf = k * f
        num = kf.sum(axis=1)
        rnum = (np.abs(k) * rf + np.abs(f) * rk + rk * rf).sum(axis=1) + 2 * gamma(nt + 1) * np.abs(kf).sum(axis=1)
        y = num / den
        ry = (np.abs(num) * rden + np.abs(den) * rnum) / (np.abs(den) * (np.abs(den) - rden)) + 2 * U * np.abs(y)
        err = np.abs(y - t)
        rho = 2 * (ry + 2 * U * (np.abs(y) + t))
    safe = (den > 2 * rden) & np.isfinite(err) & np.isfinite(rho)
    status = np.full(len(x), 2, dtype=np.int8)
    status[safe & (err + rho < 0.5)] = 0
    status[safe & (err - rho >= 0.5)] = 1
    status[(den + rden < 0) & np.isfinite(rden)] = 1  # the denominator is certainly negative
    err = np.where(safe, err, np.nan)
    return err, np.where(safe, rho, np.inf), status, (den, np.where(np.isfinite(rden), rden, np.inf))


def negative_weights(head: TableHead, h: HeadArrays, rows: np.ndarray, block: int = 1024) -> int:
    """The number of token pairs (x, z) of the family with a(x, z) < 0, decided exactly
    (float products with the bound rho_K; undecided pairs by Fractions)."""
    from ..model import dot

    if not len(rows):
        return 0
    r = h.phi_q.shape[1]
    count = 0
    pk, pka = h.phi_k[rows], np.abs(h.phi_k[rows])
    for s in range(0, len(rows), block):
        qs = rows[s : s + block]
        if h.floatable:
            k = h.phi_q[qs] @ pk.T
            rk = 2 * gamma(r + 2) * (np.abs(h.phi_q[qs]) @ pka.T)
            count += int(np.count_nonzero(k + rk < 0))
            unsure = np.argwhere((k - rk < 0) & (k + rk >= 0))
        else:
            unsure = np.argwhere(np.ones((len(qs), len(rows)), dtype=bool))
        for a, c in unsure.tolist():
            x, z = h.tokens[qs[a]], h.tokens[rows[c]]
            count += dot(head.phi_q[x], head.phi_k[z]) < 0
    return count
