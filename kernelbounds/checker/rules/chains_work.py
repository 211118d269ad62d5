"""Work estimates shared by the lower-bound rules (listed, linear and orbit forms; direct sums): the schedules' sizes and the L3 least-rank search."""

from __future__ import annotations

from itertools import pairwise
from ..jsonread import Node
from ..sizes import sized, small_int
from ..cost import frac, mul


def schedule_sizes(doc: Node, n: int, m: int) -> list[tuple[int, int, int]]:
    """Per schedule (links, sum of intermediate levels, bits of its chain product), read
    tolerantly (bad values are rejected later by read_schedules)."""
    out = []
    items = sized(doc, "schedules")
    for s in items if isinstance(items, list) else []:
        levels = s.get("levels") if isinstance(s, dict) else None
        levels = [small_int(x, 0, 0, m) for x in levels] if isinstance(levels, list) else []
        steps = [b - a for a, b in pairwise(levels)]
        bits = sum(((n - 2) * max(d - 1, 1)).bit_length() for d in steps)
        out.append((len(steps), sum(levels[1:-1]), bits))
    return out[: m + 1]


def l3_work(n_words: int, k: int, product_bits: list[int]) -> int:
    """S_k = sum_P c_P / P^(2k) over the distinct products, X = N^2 / (N + S_k), and the
    doubling-and-bisection search for the least r (r <= N + 1 since C(r+k-1, k) >= r)."""
    h_s = sum(2 * k * b + 64 for b in product_bits) + 2 * n_words.bit_length()
    powers = sum(mul(2 * k * b) * (2 * k).bit_length() for b in product_bits)
    steps = 2 * (n_words + 2).bit_length() + 4
    comb_bits = k * (n_words + k + 2).bit_length()
    return powers + (len(product_bits) + 4) * frac(h_s) + steps * (k * mul(comb_bits) + frac(h_s + comb_bits))
