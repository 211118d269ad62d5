"""Linear algebra over F_2 on words as integers (bit i = coordinate i): an echelon basis,
independence, membership in a span (used by the linear-code and orbit forms of the
lower-bound rule)."""

from __future__ import annotations


def echelon(rows: list[int]) -> dict[int, int] | None:
    """An echelon basis {leading bit: row} of the rows' F_2 span; None if they are dependent."""
    basis: dict[int, int] = {}
    for r in rows:
        while r:
            top = r.bit_length() - 1
            if top not in basis:
                basis[top] = r
                break
            r ^= basis[top]
        else:
            return None
    return basis


def independent(rows: list[int]) -> bool:
    return echelon(rows) is not None


def in_span(basis: dict[int, int], word: int) -> bool:
    """word lies in the span of an echelon basis (reduce by the leading bits)."""
    while word:
        top = word.bit_length() - 1
        if top not in basis:
            return False
        word ^= basis[top]
    return True
