"""The multi-block level-family generator (THEORY U8; kernelbounds/upperbounds/multiblock.py):
its kernel on the box, the one-block case (Vandermonde), the exact decision, the search, and
the stored answers the committed certificates replay."""

from fractions import Fraction
from math import comb, prod

from hypothesis import given, strategies as st

from helpers import verdict
from kernelbounds.upperbounds import multiblock


@st.composite
def blocks_and_g(draw):
    blocks = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    box = multiblock.box(blocks)
    chosen = draw(st.lists(st.sampled_from(box), unique=True, min_size=1, max_size=6))
    return blocks, {J: draw(st.integers(-50, 50)) for J in chosen}


@given(blocks_and_g())
def test_the_box_kernel_is_the_definition(case):
    """H(x) = sum_J g_J prod_i C(x_i, J_i) at every point, by block-wise contraction."""
    blocks, g = case
    H = multiblock.box_kernel(blocks, g)
    assert set(H) == set(multiblock.box(blocks))
    for x, value in H.items():
        assert value == sum(v * prod(comb(a, b) for a, b in zip(x, J, strict=True)) for J, v in g.items())


@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.lists(st.integers(-9, 9), min_size=1, max_size=16))
def test_one_block_is_the_level_family_by_vandermonde(blocks, coefficients):
    """g_J = g_|J| (the one-block family lifted) gives H(x) = sum_j g_j C(|x|, j) and the
    rank sum_j C(m, j) (THEORY U8: the one-block case is U4')."""
    blocks = tuple(blocks)
    m = sum(blocks)
    g1 = {j: c for j, c in enumerate(coefficients[: m + 1]) if c}
    lifted = {J: g1[sum(J)] for J in multiblock.box(blocks) if sum(J) in g1}
    H = multiblock.box_kernel(blocks, lifted)
    assert all(H[x] == sum(c * comb(sum(x), j) for j, c in g1.items()) for x in H)
    assert sum(multiblock.term_cost(blocks, J) for J in lifted) == sum(comb(m, j) for j in g1)


def test_decide_accepts_the_stored_answers_and_rejects_a_dropped_term():
    for m, n, nonnegative in multiblock.cells():
        fam = multiblock.stored(m, n, nonnegative)
        assert fam.worst_error < Fraction(1, 2) and (fam.nonnegative or not nonnegative)
        g = dict(fam.g)
        g.pop(max(g))  # the highest term carries the classes of the largest totals
        assert multiblock.decide(fam.blocks, g, n) is None
        doc = fam.certificate()
        doc["terms"].pop()
        assert verdict(doc).code == 1  # the checker agrees


def test_the_committed_ranks_beat_the_one_block_families():
    """Each stored family is below the committed level family of its column at the same m
    (U4: upper-any / upper-nonnegative), which the same kind contains (one block)."""
    import json
    from pathlib import Path

    certs = Path(__file__).resolve().parents[2] / "certificates"
    for m, n, nonnegative in multiblock.cells():
        one_block = json.loads((certs / f"upper-{'nonnegative' if nonnegative else 'any'}-m{m:02d}-n{n}.json").read_text())
        assert multiblock.stored(m, n, nonnegative).rank < one_block["claims"]["feature_rank"]


def test_the_search_finds_a_checked_family_below_the_level_family_at_m4():
    """Blocks 2+2 at n = 3: a family the checker accepts, of rank <= 4 (the least one-block
    level family at m = 4 has rank 5)."""
    fam = multiblock.search((2, 2), 3, nonnegative=False, time_limit=60)
    assert fam is not None and fam.rank <= 4
    v = verdict(fam.certificate())
    assert v.code == 0 and v.claim["value"] == fam.rank


def test_seed_and_prune_at_m16_keeps_a_checked_family_below_its_seed():
    """prune from the one-block support {0, 1, 3, 15} (rank 593 at m = 16) lifted to 8+8,
    with every term as a candidate: a family the checker accepts, of rank below the seed's."""
    fam = multiblock.prune((8, 8), 3, False, (0, 1, 3, 15), cap=10**9)
    assert fam is not None and fam.rank < 593
    v = verdict(fam.certificate())
    assert v.code == 0 and v.claim["value"] == fam.rank


@st.composite
def symmetric_g(draw):
    h = draw(st.integers(1, 4))
    reps = [J for J in multiblock.box((h, h)) if J <= J[::-1]]
    chosen = draw(st.lists(st.sampled_from(reps), unique=True, min_size=1, max_size=min(5, len(reps))))
    return (h, h), {J: draw(st.integers(-50, 50)) for J in chosen}


@given(symmetric_g())
def test_the_mirrored_incidence_is_the_kernel_of_a_symmetric_g(case):
    """With two equal blocks and g_(a, b) = g_(b, a), one column per mirror pair over the
    points x_1 <= x_2 gives H(x) there (the LP of ``prune(..., mirror=True)``)."""
    blocks, g = case
    chosen = list(g)
    pts, C = multiblock._incidence(blocks, chosen, mirror=True)
    H = multiblock.box_kernel(blocks, {K: v for J, v in g.items() for K in (J, J[::-1])})
    assert pts == [x for x in multiblock.box(blocks) if x <= x[::-1]]
    assert list(C @ [float(g[J]) for J in chosen]) == [float(H[x]) for x in pts]


def test_seeded_at_m32_with_symmetric_g_reaches_the_stored_rank():
    """seeded (16+16, g symmetric) decides a family the checker accepts, as cheap as
    the stored m = 32 answer (288,593, a third of the one-block 952,601)."""
    fam = multiblock.seeded(32, 3, False, 400_000)
    assert fam is not None and fam.rank <= multiblock.stored(32, 3, False).rank
    assert all(dict(fam.g).get(J[::-1]) == v for J, v in fam.g)
    v = verdict(fam.certificate())
    assert v.code == 0 and v.claim["value"] == fam.rank
