"""Tolerant readers for the work estimates and route sizing: they size a document without
deciding anything, so a value of the wrong type counts as a default here and is rejected
later by the rule's check."""

from __future__ import annotations

from .jsonread import Node


def sized(node: Node, key: str | int) -> object:
    """The raw JSON value at node[key], or None when absent."""
    v = node.value
    if isinstance(key, str):
        return v.get(key) if isinstance(v, dict) else None
    return v[key] if isinstance(v, list) and -len(v) <= key < len(v) else None


def length(value: object) -> int:
    return len(value) if isinstance(value, (list, str)) else 0


def small_int(value: object, default: int, lo: int = 0, hi: int | None = None) -> int:
    """An integer field for sizing: the value if it is an int within [lo, hi], else default."""
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        return default
    return value


def height(value: object) -> int:
    """Bits of a rational string "p/q" (numerator + denominator), from its length."""
    return len(value) * 10 // 3 + 2 if isinstance(value, str) else 64


def heights(value: object) -> list[int]:
    """Heights of a list of rational strings (empty for anything else)."""
    return [height(x) for x in value] if isinstance(value, list) else []


def digits_bits(count: int) -> int:
    """Bits of an integer written with `count` decimal digits (log2 10 < 10/3)."""
    return count * 10 // 3 + 1


def row_height(value: object) -> tuple[int, int]:
    """(numerator bits, denominator-lcm bits) of a list of rational strings, from the text:
    the largest numerator, and the lcm of the denominators bounded by the product of the
    distinct ones.  A row scaled by that lcm has entries of at most the sum of both."""
    if not isinstance(value, list):
        return 64, 0
    texts = {x for x in value if isinstance(x, str)}
    num = den = 0
    dens = set()
    for x in texts:
        a, _, b = x.partition("/")
        num = max(num, len(a))
        if b:
            dens.add(b)
    den = sum(digits_bits(len(b)) for b in dens)
    return digits_bits(num), den


def read_cost(value: object) -> int:
    """Units to read a table of rational strings into Fractions (a Node and a parse per
    entry, 4-6 us measured; CPython's str -> int conversion is quadratic in the digits)."""
    stack, total = [value], 0
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            if v and isinstance(v[0], str):
                total += sum(60 + len(x) * len(x) // 20000 for x in v if isinstance(x, str))
            else:
                stack.extend(v)
        elif isinstance(v, str):
            total += 60 + len(v) * len(v) // 20000
    return total
