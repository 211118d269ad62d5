"""Heads whose maps are computed from the tokens' bits, so they can generalise.

Both models follow THEORY §1 with n-token inputs and a scored position i:
y_i = sum_j w_ij F(x_i, x_j) / sum_j w_ij, where

- values and readout (shared by both models): v(z) = V z + v0 in R^dv and the affine
  readout L_q(y) = <U q + u0, y> + <c, q> + c0, so F(q, z) = L_q(v(z)) =
  <U q + u0, V z + v0> + <c, q> + c0 (dv = m unless told);
- ``kernel`` (nonnegative kernel, positive features): phi_Q(q) = exp(W_Q q + b_Q),
  phi_K(z) = exp(W_K z + b_K) in R^r_{>0}, weights w = a(q, z) = <phi_Q(q), phi_K(z)>
  (computed as a log-sum-exp; the feature rank is r);
- ``softmax`` (dense softmax, THEORY §1 end): scores s(q, z) = tau <W_Q q, W_K z> with
  W_Q, W_K in R^{d x m} (d = m) and a learned temperature tau = exp(log_tau) (a scalar
  folded into W_Q: the score class is the same), weights exp(s).

Training is full numpy float64 (floats only propose a head: lab.exact
re-evaluates every trained head exactly).  The loss is the squared error of y plus,
with weight ``att``, the cross-entropy of the attention distribution against the set of
positions that attain the minimum level (the "attention loss" of the recipe, which
keeps a head from settling on attending to the query token itself).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


MAIN = "end to end, curriculum"  # the main dense softmax recipe's name (lab.experiments)
SUPERVISED = "ablation: attention supervised"


def softmax_label(recipe_name: str) -> str:
    """The model label of a trained dense softmax row under a named recipe."""
    return f"dense softmax (trained: {recipe_name})"


MAIN_LABEL = softmax_label(MAIN)


@dataclass
class Examples:
    """One scored position per row: query bits Q (N, m), the sequence's bits K (N, n, m)."""

    Q: np.ndarray
    K: np.ndarray
    t: np.ndarray  # (N,) Min-IP targets
    best: np.ndarray  # (N, n) 1.0 where the level equals the target
    seq: np.ndarray  # (N,) index of the sequence each row belongs to


def bit_matrix(tokens, m: int) -> np.ndarray:
    """Row k holds the m bits of tokens[k] (bit i in column i); m > 62 goes through Python ints."""
    if m <= 62:
        tokens = np.asarray(tokens, dtype=np.int64)
        return ((tokens[:, None] >> np.arange(m)) & 1).astype(float)
    return np.array([[(int(z) >> i) & 1 for i in range(m)] for z in np.asarray(tokens, dtype=object).ravel()], dtype=float).reshape(-1, m)


def examples(sequences: list[tuple[int, ...]], m: int, scored: str = "all") -> Examples:
    """Rows for every position (scored="all") or the first position (scored="first")."""
    seqs = np.asarray(sequences, dtype=np.int64 if m <= 62 else object)
    n = seqs.shape[1]
    positions = range(n) if scored == "all" else [0]
    rows, qs, ids = [], [], []
    for i in positions:
        rows.append(seqs)
        qs.append(seqs[:, i])
        ids.append(np.arange(len(seqs)))
    keys, queries, seq = np.concatenate(rows), np.concatenate(qs), np.concatenate(ids)
    kb = bit_matrix(keys.ravel(), m).reshape(len(keys), n, m)
    qb = bit_matrix(queries, m)
    levels = np.einsum("nm,njm->nj", qb, kb)
    t = levels.min(axis=1)
    return Examples(qb, kb, t, (levels == t[:, None]).astype(float), seq)


@dataclass
class Recipe:
    """Training choices (reported with every result)."""

    steps: int = 1500
    lr: float = 0.02
    batch: int = 1024
    att: float = 1.0  # weight of the attention loss (0: squared error only)
    init: float = 0.1  # std of the initial attention weights (W_Q, W_K)
    readout_init: str = "random"  # "random" or "identity" (U = V = I)
    dv: int | None = None
    wd: float = 0.0  # decoupled weight decay on W_Q, W_K (AdamW)
    score_init: str = "random"  # softmax: "random" or "negdef" (W_Q = -I + noise, W_K = I + noise: THEORY U3's direction)
    tau0: float = 1.0  # softmax: initial temperature tau = exp(log_tau)
    pretrain_steps: int = 0  # curriculum: steps on sequences of random tokens (every position scored) first ...
    pretrain_lr: float = 0.02  # ... at this learning rate; then `steps` at `lr` on the train set

    def describe(self) -> str:
        wd = f", weight decay {self.wd} on W_Q, W_K" if self.wd else ""
        start = "" if self.score_init == "random" else f", scores start at W_Q^T W_K ~ -I ({self.score_init})"
        tau = f", temperature starts at {self.tau0:g}" if self.tau0 != 1.0 else ""
        if self.pretrain_steps:
            return (f"curriculum: {self.pretrain_steps} steps (Adam lr {self.pretrain_lr}, cosine) on sequences of random tokens, every position scored, "
                    f"then {self.steps} steps (lr {self.lr}) on the train set mixed with them (about 8 of their rows per train row); batch {self.batch}, attention loss x{self.att}, init std {self.init}, readout init {self.readout_init}{start}{tau}{wd}")
        return f"Adam lr {self.lr} (cosine), {self.steps} steps, batch {self.batch}, attention loss x{self.att}, init std {self.init}, readout init {self.readout_init}{start}{tau}{wd}"


@dataclass
class Model:
    kind: str  # "kernel" or "softmax"
    m: int
    r: int  # feature rank (kernel) or score dimension d (softmax)
    p: dict[str, np.ndarray] = field(default_factory=dict)


KERNELS = ("kernel", "kernel-softplus")


def init(kind: str, m: int, r: int, recipe: Recipe, rng: np.random.Generator) -> Model:
    dv = recipe.dv or m
    s = recipe.init
    if recipe.readout_init == "identity" and dv == m:
        U, V = np.eye(m) + rng.normal(0, 0.01, (m, m)), np.eye(m) + rng.normal(0, 0.01, (m, m))
    else:
        U, V = rng.normal(0, 1 / np.sqrt(m), (dv, m)), rng.normal(0, 1 / np.sqrt(m), (dv, m))
    p = {"U": U, "u0": np.zeros(dv), "V": V, "v0": np.zeros(dv), "c": np.zeros(m), "c0": np.zeros(1)}
    if kind in KERNELS:
        p |= {"WQ": rng.normal(0, s, (r, m)), "bQ": np.zeros(r), "WK": rng.normal(0, s, (r, m)), "bK": np.zeros(r)}
    else:
        WQ, WK = rng.normal(0, s, (r, m)), rng.normal(0, s, (r, m))
        if recipe.score_init == "negdef":  # W_Q^T W_K ~ -I: U3's score direction (THEORY §2 U3)
            if r != m:
                raise ValueError("a negative-definite start needs d = m")
            WQ, WK = WQ - np.eye(m), WK + np.eye(m)
        elif recipe.score_init != "random":
            raise ValueError(f"unknown score_init {recipe.score_init!r}")
        p |= {"WQ": WQ, "WK": WK, "log_tau": np.full(1, np.log(recipe.tau0))}
    return Model(kind, m, r, p)


def _softmax(g: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(g - g.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def forward(model: Model, ex: Examples, att: float = 0.0, grad: bool = True):
    """(loss, gradients or None, outputs y, attention weights w)."""
    p, Q, K = model.p, ex.Q, ex.K
    N = len(ex.t)
    uq = Q @ p["U"].T + p["u0"]  # (N, dv)
    vk = K @ p["V"].T + p["v0"]  # (N, n, dv)
    F = np.einsum("nd,njd->nj", uq, vk) + (Q @ p["c"])[:, None] + p["c0"][0]
    if model.kind == "kernel-softplus":
        hq = Q @ p["WQ"].T + p["bQ"]  # (N, r)
        hk = K @ p["WK"].T + p["bK"]  # (N, n, r)
        fq, fk = np.logaddexp(0, hq), np.logaddexp(0, hk)
        kern = np.einsum("nr,njr->nj", fq, fk) + 1e-300
        g = np.log(kern)
    elif model.kind == "kernel":
        hq = Q @ p["WQ"].T + p["bQ"]  # (N, r)
        hk = K @ p["WK"].T + p["bK"]  # (N, n, r)
        e = hq[:, None, :] + hk
        emax = e.max(axis=2, keepdims=True)
        pi = np.exp(e - emax)
        tot = pi.sum(axis=2, keepdims=True)
        g = (emax + np.log(tot))[:, :, 0]
        pi /= tot
    else:
        tau = np.exp(p["log_tau"][0])
        aq = Q @ p["WQ"].T
        bk = K @ p["WK"].T
        g = tau * np.einsum("nd,njd->nj", aq, bk)
    w = _softmax(g, 1)
    y = (w * F).sum(axis=1)
    wb = (w * ex.best).sum(axis=1)
    loss = float(np.mean((y - ex.t) ** 2) + att * np.mean(-np.log(wb + 1e-300)))
    if not grad:
        return loss, None, y, w
    dy = 2 * (y - ex.t) / N
    dF = dy[:, None] * w
    dg = dy[:, None] * w * (F - y[:, None]) + (att / N) * (w - ex.best * w / (wb[:, None] + 1e-300))
    gr = {}
    duq = np.einsum("nj,njd->nd", dF, vk)
    dvk = dF[:, :, None] * uq[:, None, :]
    gr["U"], gr["u0"] = duq.T @ Q, duq.sum(axis=0)
    gr["V"], gr["v0"] = np.einsum("njd,njm->dm", dvk, K), dvk.sum(axis=(0, 1))
    sF = dF.sum(axis=1)
    gr["c"], gr["c0"] = sF @ Q, np.array([sF.sum()])
    if model.kind == "kernel-softplus":
        dk = dg / kern
        dhq = np.einsum("nj,njr->nr", dk, fk) / (1 + np.exp(-hq))
        dhk = dk[:, :, None] * fq[:, None, :] / (1 + np.exp(-hk))
        gr["WQ"], gr["bQ"] = dhq.T @ Q, dhq.sum(axis=0)
        gr["WK"], gr["bK"] = np.einsum("njr,njm->rm", dhk, K), dhk.sum(axis=(0, 1))
    elif model.kind == "kernel":
        de = dg[:, :, None] * pi
        dhq = de.sum(axis=1)
        gr["WQ"], gr["bQ"] = dhq.T @ Q, dhq.sum(axis=0)
        gr["WK"], gr["bK"] = np.einsum("njr,njm->rm", de, K), de.sum(axis=(0, 1))
    else:
        daq = tau * np.einsum("nj,njd->nd", dg, bk)
        dbk = tau * dg[:, :, None] * aq[:, None, :]
        gr["WQ"], gr["WK"] = daq.T @ Q, np.einsum("njd,njm->dm", dbk, K)
        gr["log_tau"] = np.array([(dg * g).sum()])
    return loss, gr, y, w


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float):
        self.p, self.lr, self.t = params, lr, 0
        self.m1 = {k: np.zeros_like(v) for k, v in params.items()}
        self.m2 = {k: np.zeros_like(v) for k, v in params.items()}

    def update(self, grads: dict[str, np.ndarray], lr: float, wd: float = 0.0) -> None:
        self.t += 1
        for k, g in grads.items():
            if wd and k in ("WQ", "WK"):
                self.p[k] *= 1 - lr * wd
            self.m1[k] = 0.9 * self.m1[k] + 0.1 * g
            self.m2[k] = 0.999 * self.m2[k] + 0.001 * g * g
            mh, vh = self.m1[k] / (1 - 0.9**self.t), self.m2[k] / (1 - 0.999**self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-9)


def _rows(ex: Examples, idx: np.ndarray) -> Examples:
    return Examples(ex.Q[idx], ex.K[idx], ex.t[idx], ex.best[idx], ex.seq[idx])


def train(kind: str, ex: Examples, m: int, r: int, seed: int, recipe: Recipe, progress=None, start: Model | None = None) -> Model:
    """Minibatch Adam with a cosine learning-rate schedule (from `start` if given: a curriculum)."""
    rng = np.random.default_rng(seed)
    model = init(kind, m, r, recipe, rng)
    if start is not None:
        model.p = {k: v.copy() for k, v in start.p.items()}
    opt = Adam(model.p, recipe.lr)
    N = len(ex.t)
    for step in range(recipe.steps):
        batch = ex if N <= recipe.batch else _rows(ex, rng.choice(N, recipe.batch, replace=False))
        _, grads, _, _ = forward(model, batch, recipe.att)
        lr = recipe.lr * 0.5 * (1 + np.cos(np.pi * step / recipe.steps))
        opt.update(grads, lr, recipe.wd)
        if progress is not None:
            progress(1)
    return model


def float_errors(model: Model, ex: Examples) -> np.ndarray:
    _, _, y, _ = forward(model, ex, grad=False)
    return np.abs(y - ex.t)
