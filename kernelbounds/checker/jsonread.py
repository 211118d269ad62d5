"""Strict, pointer-aware reading of certificate JSON.

Every accessor either returns a value of the expected type or raises ``Malformed``
naming the exact field.  Rationals are strings "p/q" or "p" (q > 0, lowest terms not
required); tokens are strings of m characters '0'/'1' (character i is bit i).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Set
from fractions import Fraction

from .errors import LimitExceeded, Malformed, pointer_join
from .text import show

_RATIONAL = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
MAX_DIGITS = 4000
# the builtins under other names, for annotations inside Node (whose accessors int, str and
# list shadow them there)
Int = int
List = list


def _no_duplicates(pairs: Iterable[tuple[str, object]]) -> dict[str, object]:
    obj: dict[str, object] = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {show(key)}")
        obj[key] = value
    return obj


def _reject_constant(name: str) -> None:
    raise ValueError(f"non-finite number {name}")


def parse_json(data: bytes) -> object:
    """Parse bytes as JSON, rejecting duplicate keys, NaN/Infinity and absurd nesting."""
    try:
        text = data.decode("utf-8")
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Malformed("", f"not valid JSON: {exc}") from None


class Node:
    """A JSON value together with its pointer.

    The accessors ``int``, ``bool``, ``str`` and ``list`` shadow the builtins inside the class
    body, so the annotations after them name ``Int`` etc."""

    def __init__(self, value: object, pointer: str = "") -> None:
        self.value = value
        self.pointer = pointer

    def fail(self, reason: str) -> Malformed:
        return Malformed(self.pointer, reason)

    def obj(self, required: Set[str], optional: Set[str] = frozenset()) -> Node:
        if not isinstance(self.value, dict):
            raise self.fail(f"expected an object, got {type(self.value).__name__}")
        missing = sorted(required - self.value.keys())
        if missing:
            raise Malformed(pointer_join(self.pointer, missing[0]), "missing required field")
        unknown = sorted(self.value.keys() - required - optional)
        if unknown:
            raise Malformed(pointer_join(self.pointer, unknown[0]), "unknown field")
        return self

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def __getitem__(self, key: str | int) -> Node:
        v = self.value
        if isinstance(key, str):
            if not isinstance(v, dict) or key not in v:
                raise Malformed(pointer_join(self.pointer, key), "missing required field")
            return Node(v[key], pointer_join(self.pointer, key))
        if not isinstance(v, list):
            raise self.fail(f"expected an array, got {type(v).__name__}")
        return Node(v[key], pointer_join(self.pointer, key))

    def int(self, lo: int | None = None, hi: int | None = None, limit: int | None = None) -> int:
        """An integer in [lo, hi]; above `limit` (a configured work limit) is exit code 3."""
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"expected an integer, got {type(v).__name__}")
        if limit is not None and v > limit:
            raise LimitExceeded(self.pointer, f"{show(v)} is over the configured limit {limit}")
        if lo is not None and v < lo or hi is not None and v > hi:
            raise self.fail(f"integer {show(v)} outside the allowed range [{lo}, {hi}]")
        return v

    def bool(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail(f"expected true or false, got {type(self.value).__name__}")
        return self.value

    def str(self, choices: tuple[str, ...] | None = None) -> str:
        v = self.value
        if not isinstance(v, str):
            raise self.fail(f"expected a string, got {type(v).__name__}")
        if choices is not None and v not in choices:
            raise self.fail(f"unknown value {show(v)}; expected one of {', '.join(choices)}")
        return v

    def rational(self) -> Fraction:
        v = self.str()
        if len(v) > MAX_DIGITS or not _RATIONAL.fullmatch(v):
            raise self.fail(f"expected a rational 'p' or 'p/q' (q > 0), got {show(v[:40])}")
        return Fraction(v)

    def list(self, max_len: Int, length: Int | None = None) -> List[Node]:
        v = self.value
        if not isinstance(v, list):
            raise self.fail(f"expected an array, got {type(v).__name__}")
        if length is not None and len(v) != length:
            raise self.fail(f"expected {length} items, got {len(v)}")
        if len(v) > max_len:
            raise LimitExceeded(self.pointer, f"array of {len(v)} items is over the limit {max_len}")
        return [Node(x, pointer_join(self.pointer, i)) for i, x in enumerate(v)]

    def token(self, m: Int) -> Int:
        v = self.str()
        if len(v) != m or v.strip("01"):
            raise self.fail(f"expected a token: a string of {m} characters '0'/'1'")
        return int(v[::-1], 2)
