"""Heads given as tables over tokens (docs/head-format-v1.md): load, save, and evaluate.

A table head lists, for each token it knows, phi_Q, phi_K, a value vector and the affine
readout (w, b).  Numbers are rationals "p/q" or JSON numbers; a JSON float is converted
to the rational it denotes exactly (Fraction(float)), so evaluation stays exact.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction

from ..bits import from_str, to_str
from ..certificate import rational
from ..model import KernelHead, dot

FORMAT = "kernelbounds-head"


class HeadError(ValueError):
    """A head file that cannot be read; the message names the field."""


_RATIONAL = re.compile(r"[+-]?\d{1,4096}(/\d{1,4096})?")
_DECIMAL = re.compile(r"[+-]?(\d{0,4096})(\.\d{0,4096})?([eE]([+-]?\d{1,30}))?")
MAX_EXPONENT = 4096  # |decimal exponent| above this is refused before a Fraction is built


def parse_rational(text: str, where: str) -> Fraction:
    """"p", "p/q" or a decimal "1.5e-3" as an exact Fraction; the size of every part is
    bounded first, so "1e-999999999" is refused at once instead of building 10^999999999."""
    if _RATIONAL.fullmatch(text):
        try:
            return Fraction(text)
        except ZeroDivisionError:
            raise HeadError(f"{where}: zero denominator in {text!r}") from None
    d = _DECIMAL.fullmatch(text)
    if d and (d.group(1) or (d.group(2) or "")[1:]):
        if d.group(4) is not None and abs(int(d.group(4))) > MAX_EXPONENT:
            raise HeadError(f"{where}: decimal exponent {d.group(4)} out of range (|e| <= {MAX_EXPONENT})")
        return Fraction(text)
    raise HeadError(f"{where}: not a rational: {text[:40]!r}")


def _number(x, where: str) -> Fraction:
    if isinstance(x, bool):
        raise HeadError(f"{where}: expected a number, got a boolean")
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, float):
        if x != x or x in (float("inf"), float("-inf")):
            raise HeadError(f"{where}: not a finite number")
        return Fraction(x)  # exactly the float's value
    if isinstance(x, str):
        return parse_rational(x, where)
    raise HeadError(f"{where}: expected a number, got {type(x).__name__}")


def _exact(v, where: str) -> Fraction:
    """An array entry as an exact Fraction (floats exactly, numpy scalars included)."""
    if isinstance(v, Fraction):
        return v
    if hasattr(v, "item"):
        v = v.item()
    return _number(v, where)


def _vector(v, where: str) -> tuple[Fraction, ...]:
    if not isinstance(v, list):
        raise HeadError(f"{where}: expected an array")
    return tuple(_number(x, f"{where}/{i}") for i, x in enumerate(v))


@dataclass(repr=False)
class TableHead:
    m: int
    phi_q: dict[int, tuple[Fraction, ...]]
    phi_k: dict[int, tuple[Fraction, ...]]
    value: dict[int, tuple[Fraction, ...]]
    readout: dict[int, tuple[tuple[Fraction, ...], Fraction]]

    @property
    def rank(self) -> int:
        """The feature dimension r."""
        return len(next(iter(self.phi_q.values())))

    def kernel_head(self, causal: bool = False) -> KernelHead:
        def need(table, x, what):
            if x not in table:
                raise HeadError(f"the head defines no {what} for token {to_str(x, self.m)}")
            return table[x]

        return KernelHead(
            lambda q, i, z, j: dot(need(self.phi_q, q, "phi_q"), need(self.phi_k, z, "phi_k")),
            lambda z, j: need(self.value, z, "value"),
            lambda q, i: need(self.readout, q, "readout"),
            causal,
        )

    def __repr__(self) -> str:
        dv = len(next(iter(self.value.values()))) if self.value else 0
        return f"Head(m={self.m}, rank={self.rank if self.phi_q else 0}, dv={dv}, tokens={len(self.phi_q)})"

    @property
    def tokens(self) -> list[int]:
        """The tokens the head defines, sorted."""
        return sorted(self.phi_q)

    @classmethod
    def from_arrays(cls, phi_q, phi_k, values, readout, tokens=None, m: int | None = None) -> TableHead:
        """A head from arrays whose row k belongs to tokens[k] (THEORY §1).

        phi_q, phi_k: (T, r); values: (T, dv); readout: a pair (w, b) with w of shape
        (T, dv) and b of shape (T,), the affine readout L_q(y) = <w_q, y> + b_q of query
        token q.  tokens: ints, or strings whose character i is bit i; default all 2^m
        tokens in the order 0, 1, ..., 2^m - 1 (then T = 2^m gives m).  Floats are
        converted exactly (Fraction(float)); Fractions and ints are kept.
        """
        import numpy as np

        def rows(a, name):
            a = np.asarray(a, dtype=object) if not hasattr(a, "dtype") or a.dtype == object else np.asarray(a)
            if a.ndim == 1:
                a = a[:, None]
            if a.ndim != 2:
                raise HeadError(f"{name}: expected a 2-d array (tokens x dimension)")
            return [tuple(_exact(v, name) for v in row) for row in a.tolist()]

        w, b = readout
        fq, fk, vv, ww = rows(phi_q, "phi_q"), rows(phi_k, "phi_k"), rows(values, "values"), rows(w, "readout w")
        bb = [_exact(v, "readout b") for v in (b.tolist() if hasattr(b, "tolist") else list(b))]
        count = len(fq)
        if tokens is None:
            m = m if m is not None else count.bit_length() - 1
            if count != 2**m:
                raise HeadError(f"without tokens, phi_q needs 2^m rows (got {count})")
            tokens = range(count)
        toks = [from_str(t) if isinstance(t, str) else int(t) for t in tokens]
        if m is None:
            lengths = {len(t) for t in tokens if isinstance(t, str)}
            m = lengths.pop() if len(lengths) == 1 else max(1, max(toks).bit_length())
        if not all(len(a) == count for a in (fk, vv, ww, bb)) or len(toks) != count:
            raise HeadError("phi_q, phi_k, values, readout and tokens must have one row per token")
        head = cls(m, {}, {}, {}, {})
        for k, x in enumerate(toks):
            head.phi_q[x], head.phi_k[x], head.value[x], head.readout[x] = fq[k], fk[k], vv[k], (ww[k], bb[k])
        return head

    @classmethod
    def from_torch(cls, module, tokens, m: int | None = None) -> TableHead:
        """A head from a PyTorch module (imported lazily; ``pip install torch``).

        Protocol: ``module(bits)`` takes a float tensor of shape (T, m), row k the bits
        of tokens[k] (column i = bit i), and returns (phi_q, phi_k, values) of shapes
        (T, r), (T, r), (T, dv); ``module.readout(bits)`` returns (w, b) of shapes
        (T, dv) and (T,).  Evaluated once under torch.no_grad(); the float64 values are
        converted exactly.
        """
        import numpy as np
        import torch

        toks = [from_str(t) if isinstance(t, str) else int(t) for t in tokens]
        if m is None:
            lengths = {len(t) for t in tokens if isinstance(t, str)}
            m = lengths.pop() if len(lengths) == 1 else max(1, max(toks).bit_length())
        bits = torch.tensor([[(x >> i) & 1 for i in range(m)] for x in toks], dtype=torch.float64)
        to_np = lambda t: np.asarray(t.detach().cpu().double().numpy(), dtype=np.float64)  # noqa: E731
        with torch.no_grad():
            phi_q, phi_k, values = module(bits)
            w, b = module.readout(bits)
        return cls.from_arrays(to_np(phi_q), to_np(phi_k), to_np(values), (to_np(w), to_np(b).reshape(-1)), tokens=toks, m=m)

    def to_json(self) -> dict:
        tokens = {}
        for x in sorted(self.phi_q):
            w, b = self.readout[x]
            tokens[to_str(x, self.m)] = {
                "phi_q": [rational(v) for v in self.phi_q[x]],
                "phi_k": [rational(v) for v in self.phi_k[x]],
                "value": [rational(v) for v in self.value[x]],
                "readout": {"w": [rational(v) for v in w], "b": rational(b)},
            }
        return {"format": FORMAT, "version": 1, "m": self.m, "tokens": tokens}


def load(text: str) -> TableHead:
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise HeadError(f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != 1:
        raise HeadError(f"/format: expected {FORMAT!r} version 1")
    m = doc.get("m")
    if not isinstance(m, int) or isinstance(m, bool) or not 1 <= m <= 4096:
        raise HeadError("/m: expected an integer 1..4096")
    tokens = doc.get("tokens")
    if not isinstance(tokens, dict) or not tokens:
        raise HeadError("/tokens: expected a non-empty object")
    head = TableHead(m, {}, {}, {}, {})
    dims = set()
    for key, entry in tokens.items():
        where = f"/tokens/{key}"
        try:
            x = from_str(key)
        except ValueError:
            raise HeadError(f"{where}: not a token") from None
        if len(key) != m or not isinstance(entry, dict):
            raise HeadError(f"{where}: expected an object for an m-bit token")
        ro = entry.get("readout")
        if not isinstance(ro, dict):
            raise HeadError(f"{where}/readout: expected an object with w and b")
        head.phi_q[x] = _vector(entry.get("phi_q"), f"{where}/phi_q")
        head.phi_k[x] = _vector(entry.get("phi_k"), f"{where}/phi_k")
        head.value[x] = _vector(entry.get("value"), f"{where}/value")
        head.readout[x] = (_vector(ro.get("w"), f"{where}/readout/w"), _number(ro.get("b"), f"{where}/readout/b"))
        dims.add((len(head.phi_q[x]), len(head.phi_k[x])))
        if len(head.readout[x][0]) != len(head.value[x]):
            raise HeadError(f"{where}/readout/w: its length must equal the value dimension")
    if len(dims) != 1 or len(next(iter(dims))) != 2 or len(set(next(iter(dims)))) != 1:
        raise HeadError("/tokens: phi_q and phi_k must all have one dimension r")
    if len({len(v) for v in head.value.values()}) != 1:
        raise HeadError("/tokens: every value vector must have the same dimension")
    return head
