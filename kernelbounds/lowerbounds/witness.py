"""Witness families of the chain lower bound (THEORY §3 L4-L6): per row i the query
q_i = comp(c_i), a uniform input per key and mixed inputs per chain link (one placement,
or n - 1 for position-dependent maps, L5); and their count without listing them.
The forms are those of :mod:`.assemble` (their bases in :mod:`.forms`);
:func:`.assemble.smallest_witness` picks the smallest family for a target.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import numpy as np

from .amplification import chain_keys
from ..bits import comp, low_bits
from .codes.verify import intersection_matrix
from .forms import PerEntry, Ranked


def placements(variant: str, n: int) -> int:
    """Mixed inputs per link: every placement of the better key for position-dependent
    maps (THEORY L5), one otherwise."""
    return n - 1 if variant == "position-dependent" else 1


def witness_rows(lb: PerEntry) -> Iterator[tuple[int, set[int], set[tuple[int, int]]]]:
    """Per row i: (q_i, keys needing a uniform input, links (a, b) needing a mixed input)."""
    words = lb.code.words
    for i, c_i in enumerate(words):
        q = comp(c_i, lb.m)
        keys, links = {c_i}, set()
        for j, c_j in enumerate(words):
            if j == i:
                continue
            levels = lb.schedules[(q & c_j).bit_count()]
            chain = chain_keys(q, c_i, c_j, levels)
            keys.update(chain)
            links.update(pairwise(chain))
        yield q, keys, links


def witness_count(lb: PerEntry) -> int:
    """|W| without listing it: per row, N keys plus intermediates that are not code words,
    plus the shared prefix links of the row's schedules and one final link per j (final
    links differ in c_j; one can coincide with a prefix link only if c_j is an
    intermediate token, which is checked)."""
    words, m = lb.code.words, lb.m
    index = set(words)
    position = {c: j for j, c in enumerate(words)}
    inter = intersection_matrix(words, m)
    weights = np.array([w.bit_count() for w in words])
    total = 0
    for i, c_i in enumerate(words):
        q = comp(c_i, m)
        gaps_row = weights - inter[i]
        used = sorted(set(np.delete(gaps_row, i).tolist()))  # the gaps of row i's pairs (j != i)
        tokens, prefix_links, prev = {}, set(), {}
        for g in used:
            chain = [c_i] + [tokens.setdefault(l, low_bits(q, l)) for l in lb.schedules[g][1:-1]]
            prefix_links.update(pairwise(chain))
            prev[g] = chain[-1]
        shared = [position[t] for t in set(tokens.values()) & index]  # intermediates that are code words
        collisions = sum(1 for j in shared if j != i and (prev[int(gaps_row[j])], words[j]) in prefix_links)
        extra_keys = len(set(tokens.values()) - index)
        links = len(prefix_links) + len(words) - 1 - collisions
        total += len(words) + extra_keys + links * placements(lb.variant, lb.n)
    return total


def mixed_inputs(q: int, a: int, b: int, n: int, variant: str) -> list[tuple[int, ...]]:
    """The mixed inputs of one link (a better key a, worse key b)."""
    if variant == "causal":
        return [(a,) + (b,) * (n - 2) + (q,)]
    if variant == "position-dependent":
        return [(q,) + tuple(a if j == t else b for j in range(1, n)) for t in range(1, n)]
    return [(q, a) + (b,) * (n - 2)]


def uniform_input(q: int, z: int, n: int, variant: str) -> tuple[int, ...]:
    return (z,) * (n - 1) + (q,) if variant == "causal" else (q,) + (z,) * (n - 1)


def witness_family(lb: PerEntry) -> list[tuple[int, ...]]:
    """The explicit inputs: the query first (last for causal), uniform and mixed inputs."""
    n, variant = lb.n, lb.variant
    inputs = []
    for q, keys, links in witness_rows(lb):
        inputs += [uniform_input(q, z, n, variant) for z in sorted(keys)]
        for a, b in sorted(links):
            inputs += mixed_inputs(q, a, b, n, variant)
    return inputs


def linear_witness_count(lb: Ranked) -> int:
    """Per row: N keys + (k-1) intermediates (weights < g <= w: never code words), and
    (k-1) prefix links + (N-1) final links, each with its placements."""
    links = len(lb.levels) - 1
    per_row = lb.size + (links - 1) + placements(lb.variant, lb.n) * ((links - 1) + lb.size - 1)
    return lb.size * per_row
