"""Codes for the lower bound (THEORY §3 L4): lists of distinct m-bit words.

For a code c_1..c_N with queries q_i = comp(c_i), the level of c_j against q_i is
<q_i, c_j> = |c_j \\ c_i|, the *gap* of the ordered pair (i, j); <q_i, c_i> = 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...errors import InvalidArgument
from .verify import gap_histogram, intersection_matrix


@dataclass(frozen=True)
class Code:
    name: str
    m: int
    words: tuple[int, ...]
    note: str = field(default="", compare=False)

    def __post_init__(self):
        if len(set(self.words)) != len(self.words):
            raise InvalidArgument(f"code {self.name} has repeated words")
        if any(w < 0 or w >> self.m for w in self.words):
            raise InvalidArgument(f"code {self.name} has a word longer than m = {self.m}")

    @property
    def size(self) -> int:
        return len(self.words)

    def gaps(self) -> dict[int, int]:
        """{g: number of ordered pairs i != j with |c_j \\ c_i| = g} (computed once)."""
        return dict(self._gaps)

    @cached_property
    def _gaps(self) -> dict[int, int]:
        return gap_histogram(self.words, self.m)

    def weight(self) -> int | None:
        """The common weight of a constant-weight code, else None."""
        weights = {w.bit_count() for w in self.words}
        return weights.pop() if len(weights) == 1 else None

    def min_gap(self) -> int:
        return min(self.gaps())

    def prefix(self, count: int) -> Code:
        return Code(f"{self.name}[:{count}]", self.m, self.words[:count], self.note)

    def padded(self, m: int) -> Code:
        """The same words inside {0,1}^m for m >= self.m (zeros appended)."""
        if m < self.m:
            raise InvalidArgument("cannot pad to a smaller m")
        return self if m == self.m else Code(f"{self.name}+{m - self.m}", m, self.words, self.note)


__all__ = ["Code", "gap_histogram", "intersection_matrix"]
