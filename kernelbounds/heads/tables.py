"""Heads given as tables over tokens (docs/head-format-v1.md): load, save, and evaluate.

A table head lists, for each token it knows, phi_Q, phi_K, a value vector and the affine
readout (w, b).  Numbers are rationals "p/q" or JSON numbers; a JSON float is converted
to the rational it denotes exactly (Fraction(float)), so evaluation stays exact.
"""

from __future__ import annotations

import json
import numbers
import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import KernelboundsError
from ..bits import from_str, to_str
from ..certificate import rational
from ..model import KernelHead, dot

FORMAT = "kernelbounds-head"


class HeadError(KernelboundsError, ValueError):
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


MAX_M = 4096  # bits per token (as the head format and the checker)
ALL_TOKENS_M = 20  # tokens default to all 2^m tokens up to this m


def check_m(m, where: str = "m") -> int:
    """m as an int in 1..MAX_M, or a one-line HeadError naming the argument."""
    if isinstance(m, bool) or not isinstance(m, numbers.Integral):
        raise HeadError(f"{where}: expected an integer number of bits per token, got {type(m).__name__} {str(m)[:40]!r}")
    if not 1 <= m <= MAX_M:
        raise HeadError(f"{where} = {m}: the number of bits per token must be 1..{MAX_M}")
    return int(m)


def validate_head(m, phi_q, phi_k, value, readout, need_tokens: bool = False) -> None:
    """The one validation of a head's tables (THEORY §1), shared by the Head constructor,
    from_arrays, from_torch, load and load_head, and so by the adapters: m in 1..MAX_M;
    every token an int of m bits; phi_q and phi_k rows all of one width r >= 1, values rows
    of one width dv >= 1, every readout a pair (w, b) with w of width dv; every entry an
    exact rational (int or Fraction; floats are converted by from_arrays and load, not
    here).  ``need_tokens`` (a head about to be used: evaluate, load_head, from_arrays)
    also requires the four tables to define the same tokens, at least one; without it
    (the constructor) tables may still be filled in, and the rows present are checked.
    A one-line HeadError names the argument, the token and the widths."""
    check_m(m)
    named = (("phi_q", phi_q), ("phi_k", phi_k), ("values", value), ("readout", readout))
    for name, table in named:
        if not isinstance(table, dict):
            raise HeadError(f"{name}: expected a dict token -> row, got {type(table).__name__}")
    if need_tokens:
        keys = phi_q.keys()
        for name, table in named[1:]:
            if table.keys() != keys:
                odd = next(iter(sorted(set(keys) ^ set(table), key=repr)))
                raise HeadError(f"{name}: must define exactly the tokens of phi_q (they differ at token {odd!r})")
        if not keys:
            raise HeadError("phi_q: the head defines no tokens")
    width = {"r": None, "dv": None}
    for name, table in named:
        which, of = ("r", "phi_q") if name in ("phi_q", "phi_k") else ("dv", "values")
        for x, row in table.items():
            if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x >> m:
                raise HeadError(f"tokens: {x!r} is not a token of m = {m} bits (an int 0..2^m - 1)")
            rname = name
            if name == "readout":
                if not isinstance(row, tuple) or len(row) != 2:
                    raise HeadError(f"readout: expected a pair (w, b) at token {to_str(x, m)}")
                row, b = row
                if isinstance(b, bool) or not isinstance(b, numbers.Rational):
                    raise HeadError(f"readout b: {str(b)[:40]!r} ({type(b).__name__}) at token {to_str(x, m)} is not an exact rational")
                rname = "readout w"
            if not isinstance(row, tuple):
                raise HeadError(f"{rname}: expected a tuple of rationals at token {to_str(x, m)}, got {type(row).__name__}")
            bad = next((v for v in row if isinstance(v, bool) or not isinstance(v, numbers.Rational)), None)
            if bad is not None:
                raise HeadError(f"{rname}: entry {str(bad)[:40]!r} ({type(bad).__name__}) at token {to_str(x, m)} is not an exact rational")
            if not row:
                raise HeadError(f"{rname}: width 0 at token {to_str(x, m)}, must be >= 1")
            if width[which] is None:
                width[which] = (len(row), name if name != "readout" else "readout w")
            elif len(row) != width[which][0]:
                raise HeadError(f"{rname}: width {len(row)} at token {to_str(x, m)}, but {width[which][1]} has width {width[which][0]}")


@dataclass(repr=False)
class TableHead:
    m: int
    phi_q: dict[int, tuple[Fraction, ...]]
    phi_k: dict[int, tuple[Fraction, ...]]
    value: dict[int, tuple[Fraction, ...]]
    readout: dict[int, tuple[tuple[Fraction, ...], Fraction]]
    caveat: str = field(default="", compare=False)  # set by from_torch from an adapter (kernelbounds.adapters)

    def __post_init__(self):
        if not isinstance(self.caveat, str):
            raise HeadError(f"caveat: expected a string, got {type(self.caveat).__name__}")
        validate_head(self.m, self.phi_q, self.phi_k, self.value, self.readout)

    def validate(self) -> TableHead:
        """The head after :func:`validate_head` with at least one token (tables filled in
        after construction are checked here: evaluate and load_head call it)."""
        validate_head(self.m, self.phi_q, self.phi_k, self.value, self.readout, need_tokens=True)
        return self

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
            try:
                a = np.asarray(a, dtype=object) if not hasattr(a, "dtype") or a.dtype == object else np.asarray(a)
            except (ValueError, TypeError) as exc:
                raise HeadError(f"{name}: not an array ({str(exc).splitlines()[0][:80]})") from None
            if a.ndim == 1:
                a = a[:, None]
            if a.ndim != 2:
                raise HeadError(f"{name}: expected a 2-d array (tokens x dimension), got shape {a.shape}")
            return [tuple(_exact(v, name) for v in row) for row in a.tolist()]

        if not isinstance(readout, (tuple, list)) or len(readout) != 2:
            raise HeadError(f"readout: expected a pair (w, b), got {type(readout).__name__}")
        w, b = readout
        fq, fk, vv, ww = rows(phi_q, "phi_q"), rows(phi_k, "phi_k"), rows(values, "values"), rows(w, "readout w")
        b = np.asarray(b, dtype=object) if not hasattr(b, "dtype") else np.asarray(b)
        if b.ndim == 2 and b.shape[1] == 1:
            b = b[:, 0]
        if b.ndim != 1:
            raise HeadError(f"readout b: expected shape (tokens,), got {b.shape}")
        bb = [_exact(v, "readout b") for v in b.tolist()]
        count = len(fq)
        if tokens is None:
            if m is None:
                if count < 2 or count & (count - 1):
                    raise HeadError(f"phi_q: without tokens= and m= it needs 2^m rows (m >= 1), got {count}")
                m = count.bit_length() - 1
            m = check_m(m)
            if m > ALL_TOKENS_M or count != 2**m:
                raise HeadError(f"phi_q: without tokens= it needs all 2^{m} rows, got {count}")
            tokens = range(count)
        toks, m = _tokens_and_m(tokens, m)
        for name, a in (("phi_k", fk), ("values", vv), ("readout w", ww), ("readout b", bb), ("tokens", toks)):
            if len(a) != count:
                raise HeadError(f"{name}: {len(a)} rows, but phi_q has {count} (one row per token)")
        return cls(m, dict(zip(toks, fq, strict=True)), dict(zip(toks, fk, strict=True)), dict(zip(toks, vv, strict=True)), {x: (ww[k], bb[k]) for k, x in enumerate(toks)}).validate()

    @classmethod
    def from_torch(cls, module, tokens=None, m: int | None = None) -> TableHead:
        """A head from a PyTorch module (torch is imported here only; ``pip install
        kernelbounds[torch]``; adapters for library modules: :mod:`kernelbounds.adapters`).

        Protocol: ``module(bits)`` takes a tensor of shape (T, m), row k the bits of
        tokens[k] (column i = bit i), and returns (phi_q, phi_k, values) of shapes
        (T, r), (T, r), (T, dv); ``module.readout(bits)`` returns (w, b) of shapes
        (T, dv) and (T,).  Evaluated once under torch.no_grad().

        m: the number of bits per token.  Required with int tokens (a token's int does
        not say how many leading zero bits it has); with token strings it is their
        length; tokens default to all 2^m tokens 0 .. 2^m - 1.
        dtype: ``bits`` has the module's dtype (that of its first floating parameter or
        buffer; float64 for a module without any), so a float32 module runs in float32 as
        trained; the outputs are widened to float64 (exact) and converted exactly to
        rationals: the head evaluated is the module's float computation, bit for bit.
        """
        import numpy as np
        import torch

        toks, m = _tokens_and_m(tokens, m)
        if not callable(module) or not callable(getattr(module, "readout", None)):
            raise HeadError(f"module: a {type(module).__name__} is not a from_torch module (callable, with a readout(bits) method)")
        dtype = _module_dtype(module, torch)
        bits = torch.tensor([[(x >> i) & 1 for i in range(m)] for x in toks], dtype=dtype)

        def call(fn, what: str, names: tuple[str, ...]):
            try:
                out = fn(bits)
            except Exception as exc:  # the user's module: one line naming the call
                raise HeadError(f"module: {what} on the ({len(toks)}, {m}) bit tensor raised {type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}") from None
            if not isinstance(out, (tuple, list)) or len(out) != len(names):
                got = f"{len(out)} items" if isinstance(out, (tuple, list)) else type(out).__name__
                raise HeadError(f"module: {what} must return ({', '.join(names)}), got {got}")
            arrays = []
            for name, t in zip(names, out, strict=True):
                if not isinstance(t, torch.Tensor):
                    raise HeadError(f"module: {what} returned {type(t).__name__} for {name}, not a tensor")
                arrays.append(np.asarray(t.detach().cpu().double().numpy(), dtype=np.float64))
            return arrays

        with torch.no_grad():
            phi_q, phi_k, values = call(module, "module(bits)", ("phi_q", "phi_k", "values"))
            w, b = call(module.readout, "module.readout(bits)", ("readout w", "readout b"))
        if not (np.isfinite(phi_q).all() and np.isfinite(phi_k).all() and np.isfinite(values).all() and np.isfinite(w).all() and np.isfinite(b).all()):
            raise HeadError("module: returned a NaN or an infinity (not a head over the rationals)")
        head = cls.from_arrays(phi_q, phi_k, values, (w, b.reshape(-1) if b.ndim == 2 and 1 in b.shape else b), tokens=toks, m=m)
        head.caveat = str(getattr(module, "caveat", "") or "")  # an adapter says where it differs from its library
        return head

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
        doc = {"format": FORMAT, "version": 1, "m": self.m, "tokens": tokens}
        if self.caveat:
            doc["caveat"] = self.caveat
        return doc


def _tokens_and_m(tokens, m: int | None) -> tuple[list[int], int]:
    """(int tokens, m) from int or string tokens, or all 2^m tokens; m is never guessed.
    Tokens are all ints 0..2^m - 1 or all strings of m characters '0'/'1' (character i is
    bit i), without repeats."""
    if m is not None:
        m = check_m(m)
    if tokens is None:
        if m is None:
            raise HeadError("m: give m= (the number of bits per token); the tokens default to all 2^m of them")
        if m > ALL_TOKENS_M:
            raise HeadError(f"m = {m}: the default tokens are all 2^{m} of them (at most 2^{ALL_TOKENS_M}); give tokens=")
        return list(range(2**m)), m
    if isinstance(tokens, (str, bytes)) or not hasattr(tokens, "__iter__"):
        raise HeadError(f"tokens: expected a list of int or string tokens, got {type(tokens).__name__}")
    tokens = [t.item() if hasattr(t, "item") and not isinstance(t, str) else t for t in tokens]
    if not tokens:
        raise HeadError("tokens: the list is empty")
    kinds = {"str" if isinstance(t, str) else "int" if isinstance(t, int) and not isinstance(t, bool) else type(t).__name__ for t in tokens}
    if kinds - {"str", "int"}:
        odd = next(t for t in tokens if not (isinstance(t, str) or (isinstance(t, int) and not isinstance(t, bool))))
        raise HeadError(f"tokens: {str(odd)[:40]!r} ({type(odd).__name__}) is neither an int nor a string of '0'/'1'")
    if kinds == {"str", "int"}:
        raise HeadError("tokens: mixes ints and strings; give all ints (with m=) or all '0'/'1' strings")
    if kinds == {"str"}:
        bad = next((t for t in tokens if not t or t.strip("01")), None)
        if bad is not None:
            raise HeadError(f"tokens: {bad[:40]!r} is not a string of '0'/'1'")
        lengths = sorted({len(t) for t in tokens})
        if m is None:
            if len(lengths) != 1:
                raise HeadError(f"tokens: strings of {lengths[0]} and {lengths[-1]} characters; every token has m characters")
            m = check_m(lengths[0])
        elif lengths != [m]:
            raise HeadError(f"tokens: strings of {lengths[0] if lengths[0] != m else lengths[-1]} characters, but m = {m}")
        toks = [from_str(t) for t in tokens]
    else:
        if m is None:
            raise HeadError("m: give m= (the number of bits per token): int tokens do not say it")
        toks = [int(t) for t in tokens]
        too_big = next((x for x in toks if x < 0 or x >> m), None)
        if too_big is not None:
            raise HeadError(f"tokens: {too_big} does not fit in m = {m} bits")
    if len(set(toks)) != len(toks):
        seen: set[int] = set()
        dup = next(x for x in toks if x in seen or seen.add(x))
        raise HeadError(f"tokens: {to_str(dup, m)} is listed twice")
    return toks, m


def _module_dtype(module, torch):
    """The dtype of the module's first floating parameter or buffer (float64 if none)."""
    tensors = list(module.parameters()) + list(module.buffers()) if hasattr(module, "parameters") else []
    return next((t.dtype for t in tensors if t.is_floating_point()), torch.float64)


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
    caveat = doc.get("caveat", "")
    if not isinstance(caveat, str) or len(caveat) > 4000:
        raise HeadError("/caveat: expected a string of at most 4000 characters")
    head = TableHead(m, {}, {}, {}, {}, caveat)  # filled below, then validated by validate()
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
    return head.validate()
