"""Heads given as tables over tokens (docs/head-format-v1.md): load, save, and evaluate.

A table head lists, for each token it knows, phi_Q, phi_K, a value vector and the affine
readout (w, b).  Numbers are rationals "p/q" or JSON numbers; a JSON float is converted
to the rational it denotes exactly (Fraction(float)), so evaluation stays exact.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

from .bits import from_str, to_str
from .certificate import rational
from .model import KernelHead, dot

FORMAT = "kernelbounds-head"


class HeadError(ValueError):
    """A head file that cannot be read; the message names the field."""


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
        try:
            return Fraction(x)
        except (ValueError, ZeroDivisionError):
            raise HeadError(f"{where}: not a rational: {x!r}") from None
    raise HeadError(f"{where}: expected a number, got {type(x).__name__}")


def _vector(v, where: str) -> tuple[Fraction, ...]:
    if not isinstance(v, list):
        raise HeadError(f"{where}: expected an array")
    return tuple(_number(x, f"{where}/{i}") for i, x in enumerate(v))


@dataclass
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
