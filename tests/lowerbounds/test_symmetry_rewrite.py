"""symmetry.apply (Python-int byte tables) and symmetry.orbits (components numbered with
numpy) against the numpy-table and dict-loop versions they replaced, copied here as
oracles: the same images, labels, representatives and sizes on random permutations and
on random word sets closed under random groups."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.lowerbounds.symmetry import Orbits, apply, orbits


def old_apply(images, words):
    words = np.asarray(words, dtype=np.uint64)
    out = np.zeros_like(words)
    for start in range(0, len(images), 8):
        table = np.zeros(256, dtype=np.uint64)
        for x in range(1, 256):
            low = x & -x
            bit = start + low.bit_length() - 1
            table[x] = table[x ^ low] | (np.uint64(1 << images[bit]) if bit < len(images) else np.uint64(0))
        out |= table[(words >> np.uint64(start)) & np.uint64(255)]
    return out


def old_orbits(words, perms):
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    words = np.asarray(words, dtype=np.uint64)
    if len(words) > 1 and not (words[1:] > words[:-1]).all():
        raise ValueError("words must be sorted and distinct")
    n = len(words)
    src, dst = [], []
    for p in perms:
        img = old_apply(p, words)
        idx = np.searchsorted(words, img)
        if (idx >= n).any() or (words[np.minimum(idx, n - 1)] != img).any():
            raise ValueError("a permutation maps a word outside the code")
        src.append(np.arange(n))
        dst.append(idx)
    if perms:
        graph = coo_matrix((np.ones(n * len(perms), dtype=np.int8), (np.concatenate(src), np.concatenate(dst))), shape=(n, n))
        _, raw = connected_components(graph, directed=True, connection="weak")
    else:
        raw = np.arange(n)
    first = {}
    for i, lab in enumerate(raw.tolist()):
        first.setdefault(lab, len(first))
    labels = np.array([first[x] for x in raw.tolist()], dtype=np.int64)
    sizes = np.bincount(labels, minlength=len(first))
    reps = words[np.unique(labels, return_index=True)[1]]
    return Orbits(labels, tuple(int(x) for x in reps), tuple(int(x) for x in sizes))


def _apply_int(images, w):
    return sum(1 << images[i] for i in range(len(images)) if w >> i & 1)


def _closure(seeds, perms):
    """The least set holding the seeds and closed under every permutation."""
    out, todo = set(seeds), list(seeds)
    while todo:
        w = todo.pop()
        for p in perms:
            v = _apply_int(p, w)
            if v not in out:
                out.add(v)
                todo.append(v)
    return out


def _same(a: Orbits, b: Orbits) -> None:
    assert a.labels.dtype == b.labels.dtype and a.labels.tolist() == b.labels.tolist()
    assert a.representatives == b.representatives and a.sizes == b.sizes


@given(st.integers(1, 64).flatmap(lambda m: st.tuples(st.permutations(range(m)), st.lists(st.integers(0, 2**m - 1), max_size=40))))
def test_apply_equals_the_numpy_table_version(case):
    images, words = case
    words = np.array(words, dtype=np.uint64)
    new, old = apply(tuple(images), words), old_apply(tuple(images), words)
    assert new.dtype == old.dtype == np.uint64 and new.tolist() == old.tolist()
    assert new.tolist() == [_apply_int(images, int(w)) for w in words.tolist()]


@st.composite
def closed_codes(draw):
    m = draw(st.integers(1, 10))
    perms = draw(st.lists(st.permutations(range(m)).map(tuple), max_size=3))
    seeds = draw(st.lists(st.integers(0, 2**m - 1), max_size=6))
    return m, perms, sorted(_closure(seeds, perms))


@given(closed_codes())
def test_orbits_equal_the_dict_numbering(case):
    _, perms, words = case
    words = np.array(words, dtype=np.uint64)
    new = orbits(words, perms)
    _same(new, old_orbits(words, perms))
    assert sum(new.sizes) == len(words)


@given(st.integers(2, 10).flatmap(lambda m: st.tuples(st.permutations(range(m)).map(tuple), st.lists(st.integers(0, 2**m - 1), min_size=1, max_size=8, unique=True))))
def test_both_refuse_the_same_open_sets(case):
    perm, words = case
    words = np.array(sorted(words), dtype=np.uint64)
    closed = set(words.tolist()) == {_apply_int(perm, int(w)) for w in words.tolist()}
    if closed:
        _same(orbits(words, [perm]), old_orbits(words, [perm]))
    else:
        with pytest.raises(ValueError, match="outside the code"):
            orbits(words, [perm])
        with pytest.raises(ValueError, match="outside the code"):
            old_orbits(words, [perm])


def test_an_empty_word_set_and_no_generators():
    empty = np.array([], dtype=np.uint64)
    _same(orbits(empty, [(1, 0)]), old_orbits(empty, [(1, 0)]))
    _same(orbits(empty, []), old_orbits(empty, []))
    _same(orbits(np.array([1, 2, 5], dtype=np.uint64), []), old_orbits(np.array([1, 2, 5], dtype=np.uint64), []))
