"""Linear algebra over F_2 on words as integers (bit i = coordinate i): an echelon basis
that remembers which rows make each of its vectors, independence, and a word's message
vector over the rows (used by the linear-code and orbit forms of the lower-bound rule)."""

from __future__ import annotations


def message_basis(rows: list[int]) -> dict[int, tuple[int, int]] | None:
    """An echelon basis {leading bit: (r, x_r)} of the rows' span with r the XOR of the rows
    t with bit t of x_r (Gaussian elimination); None if the rows are dependent."""
    basis: dict[int, tuple[int, int]] = {}
    for t, r in enumerate(rows):
        x = 1 << t
        while r and r.bit_length() - 1 in basis:
            b, x_b = basis[r.bit_length() - 1]
            r ^= b
            x ^= x_b
        if not r:
            return None
        basis[r.bit_length() - 1] = (r, x)
    return basis


def independent(rows: list[int]) -> bool:
    return message_basis(rows) is not None


def coordinates(basis: dict[int, tuple[int, int]], word: int) -> int | None:
    """The message vector x of `word` over a message_basis (the word is the XOR of the rows
    t with bit t of x); None: the word is outside the span."""
    x = 0
    while word:
        top = word.bit_length() - 1
        if top not in basis:
            return None
        r, x_r = basis[top]
        word ^= r
        x ^= x_r
    return x
