"""U4 level families: least ranks, exact class checks, certificates and minimality."""

import copy
import json
from fractions import Fraction
from itertools import combinations, pairwise
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.upperbounds.levelfamily import families as lf_families, supports as lf_supports, verdicts as lf_verdicts
from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes
from kernelbounds.model import exhaustive_worst_error, feature_head

ROOT = Path(__file__).resolve().parents[2]
HALF = Fraction(1, 2)
ALL = [lf_families.LevelFamily(b, r, s) for b in lf_families.BASES for r in lf_families.READOUTS for s in (False, True)]


# ------------------------------------------------------------ an independent literal head


def forward_differences(values):
    out, row = [], list(values)
    while row:
        out.append(row[0])
        row = [b - a for a, b in pairwise(row)]
    return out


def literal_head(basis, g, readout, m):
    """The head of U4 built from its explicit features, values and readout (no levelfamily code):
    phi_T(q) = g_|T| [T ⊆ q]; psi_T(z) = [T ⊆ z] or [T ∩ z = ∅]; affine: v(z) = z,
    L_q(v) = <q, v> - 1/2 + eps; free: v(z)_S = [S ⊆ z] (|S| <= D), L_q(v) = sum a_(|q|,|S|) v_S."""
    sets = [t for t in range(2**m) if g[t.bit_count()] != 0]
    phi_q = lambda x, i: tuple(g[t.bit_count()] if t & ~x == 0 else Fraction(0) for t in sets)  # noqa: E731
    if basis == "subset":
        phi_k = lambda z, j: tuple(Fraction(int(t & ~z == 0)) for t in sets)  # noqa: E731
    else:
        phi_k = lambda z, j: tuple(Fraction(int(t & z == 0)) for t in sets)  # noqa: E731
    if readout["type"] == "affine":
        eps = Fraction(readout["eps"])
        value = lambda z, j: tuple(Fraction((z >> i) & 1) for i in range(m))  # noqa: E731
        out = lambda q, i: (tuple(Fraction((q >> k) & 1) for k in range(m)), eps - HALF)  # noqa: E731
        dim = m
    else:
        diffs = [forward_differences([Fraction(x) for x in row]) for row in readout["table"]]
        top = max((i for row in diffs for i, a in enumerate(row) if a != 0), default=0)
        vsets = [s for s in range(2**m) if s.bit_count() <= top]
        value = lambda z, j: tuple(Fraction(int(s & ~z == 0)) for s in vsets)  # noqa: E731
        out = lambda q, i: (tuple(diffs[q.bit_count()][s.bit_count()] if s & ~q == 0 and s.bit_count() <= q.bit_count() else Fraction(0) for s in vsets), Fraction(0))  # noqa: E731
        dim = len(vsets)
    return feature_head(phi_q, phi_k, value, out), len(sets), dim


def literal_verdict(basis, g, readout, m, n):
    """(every kernel entry > 0, exact worst error over every input and position)."""
    head, _, _ = literal_head(basis, g, readout, m)
    positive = all(head.weight(q, 0, z, 1) > 0 for q in range(2**m) for z in range(2**m))
    return positive, exhaustive_worst_error(head, m, n).worst_error


def committed(prefix="upper-"):
    """The committed one-block level-family files (the multi-block families, THEORY U8, are their own kind)."""
    return sorted(p for p in (ROOT / "certificates").glob(f"{prefix}*.json") if not p.name.startswith("upper-multiblock-"))


# ------------------------------------------------------------ committed certificates


SMALL = [(m, n, s) for n in (3, 4) for m in (4, 5) for s in ("any", "nonnegative")]


@pytest.mark.parametrize("m,n,signs", [pytest.param(*x, marks=pytest.mark.slow) if x[:2] == (5, 4) else x for x in SMALL])
def test_committed_small_constructions_pass_the_exhaustive_route(m, n, signs):
    doc = json.loads((ROOT / "certificates" / f"upper-{signs}-m{m:02d}-n{n}.json").read_text())
    g = [Fraction(x) for x in doc["differences"]]
    head, features, dim = literal_head(doc["basis"], g, doc["readout"], m)
    assert features == doc["claims"]["feature_rank"] == sum(comb(m, j) for j in doc["claims"]["support"])
    if doc["readout"]["type"] == "free":
        assert dim == doc["readout"]["value_dim"]
    assert all(head.weight(q, 0, z, 1) > 0 for q in range(2**m) for z in range(2**m))
    worst = exhaustive_worst_error(head, m, n).worst_error
    assert worst == Fraction(doc["claims"]["worst_error"]) < HALF
    assert doc["claims"]["nonnegative_features"] == all(x >= 0 for x in g)
    if signs == "nonnegative":
        assert all(x >= 0 for x in g)


def test_every_committed_level_family_certificate_is_indexed_with_its_claim():
    """Each file is in the checked index (which only lists accepted files; the slow suite
    re-checks them all) with the file's own feature rank; the smallest and the largest m
    of each class are checked here.  Check times are a bench job, not a test."""
    from kernelbounds.upperbounds import extension
    from kernelbounds.upperbounds.replay import CELLS

    files = committed()
    # the small cells (m <= 20) and the cells at scale (m <= 64) in both columns; above 64
    # (THEORY U4') every cell's nonnegative chain and the any-sign file where the stored
    # answer beats it (extension.signed_cells)
    assert len(files) == 2 * (17 + 9 + 9 + len(CELLS)) + len(extension.CELLS) + len(extension.signed_cells())
    listed = {e["name"]: e for e in json.loads((ROOT / "certificates" / "INDEX").read_text())["certificates"]}
    for path in files:
        doc = json.loads(path.read_bytes())
        entry = listed[path.name]
        assert entry["kind"] == "level-family" and (entry["m"], entry["n"]) == (doc["m"], doc["n"])
        assert entry["claim"]["side"] == "upper" and entry["claim"]["value"] == doc["claims"]["feature_rank"]
    for prefix in ("upper-any-", "upper-nonnegative-"):
        group = sorted(committed(prefix), key=lambda p: json.loads(p.read_bytes())["m"])
        for path in (group[0], group[-1]):
            v = check_bytes(path.read_bytes(), str(path))
            assert v.ok and v.claim == listed[path.name]["claim"], v.render()


def test_committed_table_n3_far_below_2_to_the_m():
    doc = json.loads((ROOT / "certificates" / "upper-any-m12-n3.json").read_text())
    nonneg = json.loads((ROOT / "certificates" / "upper-nonnegative-m12-n3.json").read_text())
    assert doc["claims"]["feature_rank"] <= 91 and nonneg["claims"]["feature_rank"] <= 133
    assert nonneg["claims"]["nonnegative_features"] and "minimality" in nonneg


# ------------------------------------------------------------ class check vs exhaustive route


def _lp_solutions():
    """Exact LP solutions at m <= 4, n = 3 (valid heads to perturb)."""
    out = []
    for m in (2, 3, 4):
        for fam in ALL:
            f = lf_supports.least(fam, m, 3)
            if f.support is not None:
                out.append((fam, m, dict(f.g), f.eps, f.f))
    return out


SOLUTIONS = _lp_solutions()


def _as_readout(fam, eps, f):
    if fam.readout == "affine":
        return {"type": "affine", "eps": str(eps)}
    return {"type": "free", "table": [[str(x) for x in row] for row in f]}


def _draw_head(data):
    if data.draw(st.booleans()):  # a perturbation of an LP solution
        fam, m, g, eps, f = data.draw(st.sampled_from(SOLUTIONS))
        g = {j: v + data.draw(st.fractions(-1, 1, max_denominator=8)) * v for j, v in g.items()}
        g = {j: v for j, v in g.items() if v != 0} or {0: Fraction(1)}
        if fam.readout == "free":
            f = [[x + data.draw(st.fractions(-1, 1, max_denominator=8)) / 8 for x in row] for row in f]
    else:  # a random support with small rational g, f
        fam = data.draw(st.sampled_from(ALL))
        m = data.draw(st.integers(1, 4))
        support = [0] + [j for j in range(1, m + 1) if data.draw(st.booleans())]
        g = {j: data.draw(st.fractions(-4, 4, max_denominator=4)) for j in support}
        g = {j: v for j, v in g.items() if v != 0} or {0: Fraction(1)}
        eps = data.draw(st.fractions(Fraction(1, 16), Fraction(15, 16), max_denominator=16))
        f = [[l + data.draw(st.fractions(-1, 1, max_denominator=4)) for l in range(p + 1)] for p in range(m + 1)]
    return fam, m, g, eps, f


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_class_check_agrees_with_the_exhaustive_route(data):
    fam, m, g, eps, f = _draw_head(data)
    worst, _ = lf_families.exact_worst_error(fam, g, lf_families.readout_table(fam, eps, f, m), m, 3)
    gl = [g.get(j, Fraction(0)) for j in range(m + 1)]
    positive, literal = literal_verdict(fam.basis, gl, _as_readout(fam, eps, f), m, 3)
    assert positive == (worst is not None)
    if positive:
        assert literal == worst
        assert (literal < HALF) == (worst < HALF)


def test_perturbations_give_both_verdicts():
    import random

    rng = random.Random(12)
    verdicts = set()
    for fam, m, g, eps, f in SOLUTIONS:
        for _ in range(6):
            g2 = {j: v * (1 + Fraction(rng.randint(-8, 8), 16)) for j, v in g.items()}
            worst, _ = lf_families.exact_worst_error(fam, g2, lf_families.readout_table(fam, eps, f, m), m, 3)
            verdicts.add(worst is not None and worst < HALF)
    assert verdicts == {True, False}


# ------------------------------------------------------------ the search is exact


def independent_feasible(fam, support, m, n):
    """A second LP for the strict system of U4, written from the definitions: maximise the
    margin s with sum of weights <= 1 (another normalisation than levelfamily.propose)."""
    from itertools import combinations_with_replacement

    from scipy.optimize import linprog

    sup = sorted(support)

    def wvec(p, l):
        d = l if fam.basis == "subset" else p - l
        return np.array([comb(d, j) for j in sup], dtype=float)

    pairs = [(p, l) for p in range(m + 1) for l in range(p + 1)]
    nu = len(pairs) if fam.readout == "free" else 0
    idx = {pl: len(sup) + i for i, pl in enumerate(pairs)}
    nv = len(sup) + nu + 1  # last: s
    rows = []
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            ls = (p, *levels)
            t = min(ls)
            if fam.readout == "affine":
                r = np.zeros(nv)
                for l in ls:
                    r[: len(sup)] += (l - t - 1) * wvec(p, l)
                r[-1] = 1
                rows.append(r)
            else:
                hi, lo = np.zeros(nv), np.zeros(nv)
                for l in ls:
                    hi[: len(sup)] -= (t + 0.5) * wvec(p, l)
                    lo[: len(sup)] += (t - 0.5) * wvec(p, l)
                    hi[idx[(p, l)]] += 1
                    lo[idx[(p, l)]] -= 1
                hi[-1] = lo[-1] = 1
                rows += [hi, lo]
    for d in range(m + 1):
        r = np.zeros(nv)
        r[: len(sup)] = -np.array([comb(d, j) for j in sup])
        r[-1] = 1
        rows.append(r)
    norm = np.zeros(nv)
    norm[: len(sup)] = sum(np.array([comb(d, j) for j in sup], dtype=float) for d in range(m + 1))
    a = np.vstack(rows + [norm])
    b = np.concatenate([np.zeros(len(rows)), [1.0]])
    bounds = [(0, None) if fam.nonnegative else (None, None)] * len(sup) + [(None, None)] * nu + [(None, 1)]
    c = np.zeros(nv)
    c[-1] = -1
    res = linprog(c, A_ub=a, b_ub=b, bounds=bounds, method="highs")
    return res.status == 0 and -res.fun > 1e-12


@pytest.mark.parametrize("m", [2, 3, 4, 5, 6, pytest.param(7, marks=pytest.mark.slow), pytest.param(8, marks=pytest.mark.slow)])
def test_least_equals_brute_force_and_is_never_beaten(m):
    for fam in ALL:
        found = lf_supports.least(fam, m, 3)
        brute = lf_supports.brute_force(fam, m, 3)
        assert (found.support is None) == (brute is None)
        if brute is None:
            assert not independent_feasible(fam, range(m + 1), m, 3)
            continue
        assert found.support == brute and found.rank == lf_families.cost(brute, m)
        assert independent_feasible(fam, found.support, m, 3)
        cheaper = [(0, *s) for k in range(m + 1) for s in combinations(range(1, m + 1), k) if lf_families.cost((0, *s), m) < found.rank]
        assert not any(independent_feasible(fam, s, m, 3) for s in cheaper), fam


def test_every_feasible_support_contains_0():
    """U4: g_0 > 0 is forced (w(0) = g_0 is the weight of d = 0)."""
    for fam in ALL:
        assert lf_supports.refute(fam, (1, 2, 3), 3, 3) is not None


@pytest.mark.parametrize("m,n", [(5, 3), (4, 4)])
def test_minimality_certificates_check(m, n):
    for fam in ALL:
        res = lf_verdicts.solve_family(fam, m, n, prove=True)
        if res.found.support is None:
            assert res.proved  # the full support is refuted exactly
            continue
        assert res.proved
        doc = lf_verdicts.certificate(res.found, res.refutations)
        v = check_bytes(canonical_json(doc).encode())
        assert v.ok, v.render()
        assert any(r.startswith("minimality") for r in v.routes)


# ------------------------------------------------------------ tampering


def _doc(name):
    return json.loads((ROOT / "certificates" / name).read_text())


def _pointer(doc):
    v = check_bytes(canonical_json(doc).encode())
    assert not v.ok
    return v.pointer


def _free_doc():
    for path in committed():
        doc = json.loads(path.read_text())
        if doc["readout"]["type"] == "free" and doc["m"] <= 8:
            return doc
    raise AssertionError("no committed free-readout certificate")


def test_tampered_free_table_entry_is_rejected_at_the_worst_error():
    doc = _free_doc()
    bad = copy.deepcopy(doc)
    p = doc["m"]
    bad["readout"]["table"][p][0] = str(Fraction(bad["readout"]["table"][p][0]) + 100)
    assert _pointer(bad) == "/claims/worst_error"


def test_negative_g_with_the_nonnegative_claim_kept_is_rejected_at_that_g():
    doc = _doc("upper-nonnegative-m08-n3.json")
    j = max(doc["claims"]["support"])
    bad = copy.deepcopy(doc)
    bad["differences"][j] = "-1/1000000"
    assert _pointer(bad) == f"/differences/{j}"


def test_dropped_support_element_is_rejected_at_the_support():
    doc = _doc("upper-any-m08-n3.json")
    bad = copy.deepcopy(doc)
    bad["claims"]["support"] = bad["claims"]["support"][:-1]
    assert _pointer(bad) == "/claims/support"


def test_wrong_value_dim_is_rejected_at_value_dim():
    bad = copy.deepcopy(_free_doc())
    bad["readout"]["value_dim"] += 1
    assert _pointer(bad) == "/readout/value_dim"


def test_tampered_minimality_is_rejected():
    doc = _doc("upper-any-m08-n3.json")
    assert doc["minimality"]["signs"] == "any" and doc["minimality"]["refuted"]
    negative = copy.deepcopy(doc)
    negative["minimality"]["refuted"][0]["multipliers"][0]["y"] = "-1"
    assert _pointer(negative) == "/minimality/refuted/0/multipliers/0/y"
    bad = copy.deepcopy(doc)
    first = bad["minimality"]["refuted"][0]["multipliers"][0]
    first["y"] = str(Fraction(first["y"]) + 1)
    assert _pointer(bad) == "/minimality/refuted/0/multipliers"
    dropped = copy.deepcopy(doc)
    dropped["minimality"]["refuted"] = dropped["minimality"]["refuted"][1:]
    assert _pointer(dropped) == "/minimality/refuted"


def test_level_family_needs_version_2():
    bad = _doc("upper-any-m04-n3.json")
    bad["version"] = 1
    assert _pointer(bad) == "/kind"


@pytest.mark.parametrize("n", [3, 4])
def test_u2_is_the_complement_basis_with_g_j_equal_to_2n_minus_2_to_the_j(n):
    """THEORY U4: H_p(l) = sum_j (2n-2)^j C(p-l, j) = (2n-1)^(p-l), c^l times a per-query factor,
    so the class check gives U2's exact worst error (n-1)c/(1+(n-1)c) with c = 1/(2n-1)."""
    m = 5
    fam = lf_families.LevelFamily("complement", "affine", True)
    g = {j: Fraction(2 * n - 2) ** j for j in range(m + 1)}
    assert lf_families.weights(fam, g, m) == [Fraction(2 * n - 1) ** d for d in range(m + 1)]
    worst, _ = lf_families.exact_worst_error(fam, g, lf_families.readout_table(fam, HALF, None, m), m, n)
    c = Fraction(1, 2 * n - 1)
    assert worst == (n - 1) * c / (1 + (n - 1) * c)


def test_every_level_family_needs_rank_5_at_m4_n3():
    """THEORY U5 quotes 5 as the least level-family rank at m = 4, n = 3."""
    ranks = [lf_verdicts.solve_family(fam, 4, 3, prove=True) for fam in ALL]
    assert min(r.rank for r in ranks if r.rank is not None) == 5 and all(r.proved for r in ranks)


def test_work_estimate_grows_with_the_document_and_needs_no_checking():
    from kernelbounds.checker import Limits
    from kernelbounds.checker.jsonread import Node
    from kernelbounds.checker.rules.levelfamily_work import work

    small = _doc("upper-any-m08-n3.json")
    big = copy.deepcopy(small)
    big["m"] = 200
    assert 0 < work(Node(small), Limits()) < work(Node(big), Limits())
    assert work(Node({"m": "x"}), Limits()) == 1  # malformed sizes: the check itself will reject


def test_committed_ranks_are_nondecreasing_in_m():
    """Restriction to fewer bits keeps a construction in its family at no greater cost, so the
    least rank of each family, and their minimum, cannot decrease as m grows."""
    for signs in ("any", "nonnegative"):
        for n in (3, 4, 5):
            docs = sorted((json.loads(p.read_text()) for p in committed(f"upper-{signs}-m") if p.name.endswith(f"-n{n}.json")), key=lambda d: d["m"])
            ranks = [d["claims"]["feature_rank"] for d in docs]
            assert docs[-1]["m"] == 256 and ranks == sorted(ranks), (signs, n, ranks)
