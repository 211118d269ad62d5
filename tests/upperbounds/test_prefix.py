"""The complement basis at scale (THEORY §2 U4'): extreme classes, the explicit
nonnegative chain, the prefix search, the stored answers and the checker's LF3x route."""

import copy
import json
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes
from kernelbounds.upperbounds import chain, complementbasis, prefix, replay

ROOT = Path(__file__).resolve().parents[2]
HALF = Fraction(1, 2)


def literal_worst(g: dict, eps: Fraction, m: int, n: int):
    """max |y - t| over every level class (p, l_2..l_n), written from THEORY U4 (complement
    basis: w = H(p - l), F = l - 1/2 + eps); None if some weight is <= 0."""
    h = [sum(v * comb(x, j) for j, v in g.items()) for x in range(m + 1)]
    if min(h) <= 0:
        return None
    worst = Fraction(-1)
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            ls = (p, *levels)
            w = [h[p - l] for l in ls]
            y = sum(wi * (l - HALF + eps) for wi, l in zip(w, ls)) / sum(w)
            worst = max(worst, abs(y - min(ls)))
    return worst


@st.composite
def positive_kernels(draw, max_m=9, signed=True):
    """(g, m, n, eps) with every H(x) > 0 by construction: H(0..m) drawn positive (g = its
    forward differences, of any sign) or g >= 0 drawn directly with g_0 > 0."""
    m = draw(st.integers(1, max_m))
    n = draw(st.integers(2, 5))
    if signed:
        h = draw(st.lists(st.integers(1, 10**6), min_size=m + 1, max_size=m + 1))
        g, row = {}, list(h)
        for j in range(m + 1):
            g[j] = Fraction(row[0])
            row = [b - a for a, b in zip(row, row[1:])]
    else:
        g = {j: Fraction(draw(st.integers(1 if j == 0 else 0, 10**4))) for j in range(m + 1)}
    g = {j: v for j, v in g.items() if v != 0}
    eps = Fraction(draw(st.integers(1, 63)), 64)
    return g, m, n, eps


# ------------------------------------------------------------ extreme classes (LF3x)


@settings(max_examples=60, deadline=None)
@given(positive_kernels())
def test_extreme_classes_give_the_worst_error_of_every_class(case):
    """The reduction of checker/rules/extremeclasses.py: the worst |y - t| over the O(m^2) extreme
    classes equals the one over all C(m+n, n) level classes, for every g with H > 0."""
    from kernelbounds.checker.rules import complementbasis as lf3x

    g, m, n, eps = case
    gl = [g.get(j, Fraction(0)) for j in range(m + 1)]
    worst, at = lf3x.worst(gl, eps, m, n)
    assert worst == literal_worst(g, eps, m, n)
    p, *levels = at  # the witness is a level class attaining it
    ls = (p, *levels)
    h = [sum(v * comb(x, j) for j, v in g.items()) for x in range(m + 1)]
    w = [h[p - l] for l in ls]
    assert abs(sum(wi * (l - HALF + eps) for wi, l in zip(w, ls)) / sum(w) - min(ls)) == worst


@settings(max_examples=40, deadline=None)
@given(positive_kernels(max_m=8))
def test_generator_verdict_agrees_with_every_class(case):
    """complementbasis.verdict: ok iff some eps works on every class (eps < room), and its worst
    error is the literal one at its eps."""
    g, m, n, _ = case
    v = complementbasis.verdict(g, m, n)
    literal_rows = []
    h = [sum(x * comb(d, j) for j, x in g.items()) for d in range(m + 1)]
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            ls = (p, *levels)
            t = min(ls)
            literal_rows.append((-sum(h[p - l] * (l - t - 1) for l in ls), sum(h[p - l] for l in ls)))
    ok = all(s > 0 for s, _ in literal_rows)
    assert v.ok == ok
    if ok:
        assert v.room == min(Fraction(s, d) for s, d in literal_rows)
        assert 0 < v.eps < v.room and v.worst == literal_worst(g, v.eps, m, n) < HALF


# ------------------------------------------------------------ the explicit chain


@pytest.mark.parametrize(
    "m,support,rank",
    [(16, (0, 1, 3, 15), 593), (32, (0, 1, 6, 27), 1_107_601), (48, (0, 2, 9, 40), None), (64, (0, 1, 3, 12, 52), None)],
)
def test_explicit_chain_reproduces_theory(m, support, rank):
    """THEORY U4': the chains {0,1,3,15}, {0,1,6,27}, {0,2,9,40}, {0,1,3,12,52}."""
    c = chain.explicit(m, 3)
    assert c.support == support and c.nonnegative
    assert c.rank == (rank if rank is not None else sum(comb(m, j) for j in support))
    assert c.g[0] == 1 and all(c.g[j] == chain.BETA * sum(v * comb(j - 1, i) for i, v in c.g.items() if i < j) for j in support[1:])


def test_explicit_chain_at_m64_is_below_2_to_the_43():
    assert chain.explicit(64, 3).rank < 2**43


@st.composite
def nonnegative_prefixes(draw):
    """g >= 0 on a support inside [0, k] with g_0 > 0 and g_k > 0, n in 3..6."""
    k = draw(st.integers(0, 12))
    n = draw(st.integers(3, 6))
    g = {j: draw(st.integers(0, 10**6)) for j in range(1, k)}
    g[0] = draw(st.integers(1, 10**6))
    if k:
        g[k] = draw(st.integers(1, 10**12))
    return {j: v for j, v in g.items() if v}, k, n


@settings(max_examples=80, deadline=None)
@given(nonnegative_prefixes())
def test_reach_bound_holds_for_every_nonnegative_g(case):
    """chain.reach_bound(k, n) bounds the exact reach of every g >= 0 supported on [0, k]."""
    g, k, n = case
    u = chain.reach_bound(k, n)
    assert complementbasis.reach(g, n, limit=u + 2) <= u


def test_explicit_chain_meets_the_lower_bound_of_its_family():
    """The cheapest chain j_(i+1) <= U(j_i) + 1 with U(j_k) >= m bounds every g >= 0
    complement-basis affine support from below; the explicit chain meets it (n = 3..8; all
    m <= 64 in the slow suite)."""
    for n in range(3, 9):
        for m in (5, 16, 24, 33, 64):
            assert chain_lower_bound(m, n) == chain.explicit(m, n).rank


def chain_lower_bound(m, n):
    t = chain.cost_to_go(m, n)
    u0 = chain.reach_bound(0, n)
    return 1 if u0 >= m else 1 + min(comb(m, j) + t[j] for j in range(1, min(u0 + 1, m) + 1))


@pytest.mark.slow
def test_explicit_chain_meets_the_lower_bound_everywhere():
    assert all(chain_lower_bound(m, n) == chain.explicit(m, n).rank for n in range(3, 9) for m in range(1, 65))


def test_explicit_chain_certificate_checks_at_m64():
    for n in (3, 8):
        doc = chain.explicit(64, n).certificate()
        v = check_bytes(canonical_json(doc).encode(), "chain")
        assert v.ok, v.render()
        assert any("extreme classes (LF3x)" in r for r in v.routes)


# ------------------------------------------------------------ the prefix search


def test_prefix_search_reproduces_theory_at_m24():
    """THEORY U4': 14,951 signed and 42,553 nonnegative at m = 24, n = 3."""
    signed = prefix.search(24, 3)
    assert signed.rank == 14_951 and signed.stats["complete"]
    nonneg = prefix.search(24, 3, nonnegative=True)
    assert nonneg.rank == 42_553 and nonneg.nonnegative
    for found in (signed, nonneg):
        v = check_bytes(canonical_json(found.certificate()).encode(), "search")
        assert v.ok, v.render()


@pytest.mark.slow
def test_prefix_search_reaches_the_reference_at_m32():
    assert prefix.search(32, 3).rank == 952_601  # THEORY's reference value


@pytest.mark.parametrize("n", [3, 4])
def test_prefix_search_and_chain_meet_the_proved_least_ranks_at_small_m(n):
    """levelfamily.least (every cheaper support refuted, exact multipliers on request)
    gives the least rank of the complement-basis affine families for m <= 8."""
    from kernelbounds.upperbounds import levelfamily as lf

    for m in range(1, 9):
        for nonneg in (False, True):
            least = lf.least(lf.LevelFamily("complement", "affine", nonneg), m, n)
            assert prefix.search(m, n, nonnegative=nonneg).rank == least.rank
        assert chain.explicit(m, n).rank == lf.least(lf.LevelFamily("complement", "affine", True), m, n).rank


def test_prefix_search_is_deterministic_for_a_node_budget():
    a = prefix.search(30, 4, max_nodes=12)
    b = prefix.search(30, 4, max_nodes=12)
    assert a.g == b.g and a.stats["nodes"] == b.stats["nodes"] == 12 and not a.stats["complete"]
    assert a.rank <= chain.explicit(30, 4).rank


def test_progress_off_a_terminal_changes_nothing():
    """progress=True draws a bar only on a terminal (tqdm); under pytest stderr is captured."""
    assert prefix.search(26, 3, progress=True).g == prefix.search(26, 3).g


def test_a_time_budget_stops_early_and_still_answers():
    found = prefix.search(40, 3, time_budget=0.0)
    assert found.stats["stopped"] == "time_budget" and not found.stats["complete"]
    assert found.rank == chain.explicit(40, 3).rank  # nothing tried: the incumbent, the chain


def test_the_lp_only_proposes():
    """A candidate whose rounding fails the exact check is never returned."""
    bad = {0: 1.0, 1: -5.0}
    assert prefix.rationalise(bad, 8, 3, {}) is None


# ------------------------------------------------------------ stored answers and the checker


def test_every_stored_answer_replays_and_beats_or_meets_the_chain():
    answers = replay._read()
    assert sorted(answers) == sorted(replay.CELLS)
    last = {}
    for m, n in sorted(replay.CELLS):
        found = replay.stored(m, n)
        assert found.rank == answers[(m, n)]["rank"] <= chain.explicit(m, n).rank
        assert found.rank >= last.get(n, 0)  # the least of a family is nondecreasing in m
        last[n] = found.rank


def test_committed_scale_certificates_check_fast():
    for m, n in [(64, 3), (64, 8), (21, 3)]:
        for signs in ("any", "nonnegative"):
            path = ROOT / "certificates" / f"upper-{signs}-m{m:02d}-n{n}.json"
            v = check_bytes(path.read_bytes(), str(path))
            assert v.ok, v.render()
            assert v.work < 10**8  # the estimate: under 10 s at the reference speed


def _tampered(doc, fn):
    doc = copy.deepcopy(doc)
    fn(doc)
    return check_bytes(canonical_json(doc).encode(), "tampered")


def test_lf3x_rejects_tampered_files():
    doc = chain.explicit(64, 3).certificate()
    v = _tampered(doc, lambda d: d["claims"].update(worst_error="1/3"))
    assert v.code == 1 and v.pointer == "/claims/worst_error"
    v = _tampered(doc, lambda d: d["readout"].update(eps="1/2"))  # some class then errs by >= 1/2
    assert v.code == 1 and v.pointer == "/claims/worst_error"
    j = doc["claims"]["support"][-1]
    v = _tampered(doc, lambda d: d["differences"].__setitem__(j, "1"))  # g_52 = 1: the chain breaks
    assert v.code == 1 and v.pointer in ("/claims/worst_error", "/claims/support")
    small = chain.explicit(16, 3).certificate()
    v = _tampered(small, lambda d: d.update(basis="subset"))  # LF3x does not apply: LF3 enumerates, and a class fails
    assert v.code == 1 and v.pointer == "/claims/worst_error"


def test_restriction_of_a_scale_certificate_checks():
    """complementbasis.restrict (for the hub): the m = 64 chain restricted to m = 40 is valid, with
    the support cut at 40 and the rank recomputed."""
    doc = chain.explicit(64, 3).certificate()
    small = complementbasis.restrict(doc, 40)
    assert small["claims"]["support"] == [j for j in doc["claims"]["support"] if j <= 40]
    assert small["claims"]["feature_rank"] == sum(comb(40, j) for j in small["claims"]["support"])
    v = check_bytes(canonical_json(small).encode(), "restricted")
    assert v.ok, v.render()


@pytest.mark.parametrize("name,m", [("upper-nonnegative-m16-n3.json", 11), ("upper-any-m12-n5.json", 7), ("upper-any-m24-n3.json", 17)])
def test_restriction_through_extreme_classes_is_the_enumerated_one(name, m):
    """levelfamily.restrict sends complement-basis affine files to complementbasis.restrict; the
    document equals the one built by enumerating every class (levelfamily.certificate)."""
    from kernelbounds.upperbounds import levelfamily as lf

    doc = json.loads((ROOT / "certificates" / name).read_text())
    assert doc["basis"] == "complement" and doc["readout"]["type"] == "affine"
    g = {j: Fraction(x) for j, x in enumerate(doc["differences"][: m + 1]) if Fraction(x) != 0}
    fam = lf.LevelFamily("complement", "affine", False)
    enumerated = lf.certificate(lf.Found(fam, m, doc["n"], tuple(sorted(g)), g, Fraction(doc["readout"]["eps"]), None))
    assert lf.restrict(doc, m) == enumerated


def test_lf3x_is_not_used_outside_its_family():
    from kernelbounds.checker.rules import complementbasis as lf3x

    assert lf3x.applies("complement", "affine")
    assert not lf3x.applies("subset", "affine") and not lf3x.applies("complement", "free")


def test_committed_scale_files_match_the_catalog_cells():
    names = {p.name for p in (ROOT / "certificates").glob("upper-*-m*-n*.json")}
    for m, n in replay.CELLS:
        for signs in ("any", "nonnegative"):
            assert f"upper-{signs}-m{m:02d}-n{n}.json" in names
    doc = json.loads((ROOT / "certificates" / "upper-any-m64-n3.json").read_text())
    assert doc["claims"]["feature_rank"] < 2**40
    doc = json.loads((ROOT / "certificates" / "upper-nonnegative-m64-n3.json").read_text())
    assert doc["claims"]["feature_rank"] < 2**43 and doc["claims"]["nonnegative_features"]


def test_upper_search_beyond_the_lp_limit_runs_the_prefix_search(tmp_path):
    """Over 20,000 level classes `upper --search` runs the complement-basis prefix search
    (THEORY U4'): its certificate checks, and it is never worse than the explicit chain."""
    import io
    from contextlib import redirect_stdout

    import kernelbounds as kb
    from kernelbounds.cli import main

    out, printed = tmp_path / "u.json", io.StringIO()
    with redirect_stdout(printed):
        assert main(["upper", "--m", "14", "--n", "6", "--search", "--json", "-o", str(out)]) == 0
    info = json.loads(printed.getvalue())
    assert comb(14 + 6, 6) > 20_000
    assert info["rank"] <= chain.explicit(14, 6).rank and info["readout"] == "affine"
    assert kb.check(out).ok and json.loads(out.read_text())["claims"]["feature_rank"] == info["rank"]
