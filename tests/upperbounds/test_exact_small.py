"""Exact r* at the smallest m (THEORY U5): explicit heads, rank-one Farkas certificates,
the extreme-class-input reduction, and the two v2 checker rules."""

import copy
import functools
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.upperbounds import rankone as farkas
from kernelbounds.upperbounds import generalheads, headsearch
from kernelbounds.certificate import canonical_json, header
from kernelbounds.checker import Limits, check_bytes
from kernelbounds.upperbounds.generalheads import ExplicitHead, target, worst_error


def verdict(doc, **limits):
    return check_bytes(canonical_json(doc).encode(), limits=Limits().with_overrides(**limits))


def brute_worst(head: ExplicitHead) -> Fraction:
    """max |y - t| over every query and every multiset of n-1 other tokens, literally."""
    tokens = range(1 << head.m)
    return max(abs(head.output(q, o) - target(q, o)) for q in tokens for o in combinations_with_replacement(tokens, head.n - 1))


positive = st.fractions(Fraction(1, 8), 4, max_denominator=8)


@st.composite
def heads(draw, m=2):
    """A head with positive tables (so every kernel value and denominator is > 0)."""
    n = draw(st.integers(2, 4))
    r = draw(st.integers(1, 2))
    T = 1 << m
    phi = tuple(tuple(draw(positive) for _ in range(r)) for _ in range(T))
    psi = tuple(tuple(draw(positive) for _ in range(r)) for _ in range(T))
    F = tuple(tuple(draw(st.fractions(-1, m + 1, max_denominator=4)) for _ in range(T)) for _ in range(T))
    return ExplicitHead(m, n, phi, psi, F)


@settings(max_examples=20)
@given(heads())
def test_the_worst_input_is_an_extreme_class_input_and_dinkelbach_finds_it_exactly(head):
    """For every head, the max over all inputs equals the max over the extreme-class inputs
    (q, a, b^(n-2)) that worst_error searches, and its witness attains it."""
    err, (q, others) = worst_error(head)
    assert err == brute_worst(head)
    assert abs(head.output(q, others) - target(q, others)) == err


@settings(max_examples=15)
@given(heads())
def test_checker_accepts_a_head_iff_its_true_worst_error_is_below_one_half(head):
    """The checker's verdict on the true claims is "valid" exactly when the head solves
    length n; a smaller claimed error is always rejected."""
    err, worst = worst_error(head)
    doc = generalheads.document(head, err, worst)
    v = verdict(doc)
    assert (v.code == 0) == (err < Fraction(1, 2)), v.render()
    if v.code:
        assert v.pointer == "/claims/worst_error"
    lower = generalheads.document(head, err * Fraction(99, 100) - Fraction(1, 1000), worst)
    assert verdict(lower).code == 1


@pytest.mark.parametrize("n", [3, 8, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)])
def test_rank_one_fails_at_m4_with_an_exact_sparse_farkas_certificate(n):
    cert = farkas.farkas(4, n)
    assert cert is not None and len(cert.multipliers) <= 16 + 256 + 1  # Caratheodory
    psi, u = farkas.combination(4, cert.multipliers)
    assert not any(u.values()) and all(c <= 0 for c in psi.values())
    v = verdict(farkas.certificate(cert))
    assert v.code == 0 and v.kind == "rank-one-infeasible", v.render()
    assert "r*(m', " in v.summary


def test_the_n3_farkas_certificate_is_the_two_token_argument():
    """q = 1010 and its complement c: query q needs psi(c) > psi(q), query c the reverse."""
    cert = farkas.farkas(4, 3)
    assert len(cert.multipliers) == 6
    assert {q for (q, _), _, _ in cert.multipliers} == {0b0101, 0b1010}


@pytest.mark.parametrize("n", [3, 5, 8])
@pytest.mark.parametrize("m", [1, 2, 3])
def test_rank_one_solves_m_up_to_3_and_the_checker_agrees_on_both_routes(m, n):
    head = farkas.rank_one_head(m, n)
    assert head is not None and head.rank == 1
    v = verdict(generalheads.certificate(head))
    assert v.code == 0, v.render()
    assert any(r.startswith("exhaustive: all") for r in v.routes)


def test_rank_one_lp_has_no_positive_margin_at_m4():
    assert farkas.rank_one_head(4, 3) is None


def _farkas_doc():
    return farkas.certificate(farkas.farkas(4, 3))


def test_every_change_to_a_farkas_multiplier_or_side_is_rejected():
    doc = _farkas_doc()
    for i, item in enumerate(doc["inequalities"]):
        bumped = copy.deepcopy(doc)
        bumped["inequalities"][i]["multiplier"] += 1
        assert verdict(bumped).code == 1
        flipped = copy.deepcopy(doc)
        flipped["inequalities"][i]["side"] = "upper" if item["side"] == "lower" else "lower"
        assert verdict(flipped).code == 1
        dropped = copy.deepcopy(doc)
        del dropped["inequalities"][i]
        v = verdict(dropped)
        assert v.code == 1 and v.pointer.startswith("/inequalities"), v.render()


def test_farkas_rejects_nonpositive_multipliers_duplicates_and_version_1():
    doc = _farkas_doc()
    zero = copy.deepcopy(doc)
    zero["inequalities"][0]["multiplier"] = 0
    assert verdict(zero).code == 2
    dup = copy.deepcopy(doc)
    dup["inequalities"].append(dup["inequalities"][0])
    assert verdict(dup).code == 1
    old = copy.deepcopy(doc)
    old["version"] = 1
    assert verdict(old).code == 2
    wrong = copy.deepcopy(doc)
    wrong["claims"]["lower_bound"] = 3
    assert verdict(wrong).code == 1


@functools.cache
def _m4_multipliers():
    return farkas.farkas(4, 3).multipliers


@st.composite
def farkas_rows(draw):
    """(m, n, rows (input, side, y)) for a rank-one-infeasible file: either random distinct
    rows at m <= 3 (each input on one side, or on both with one multiplier, so that every
    u cancels and F3 decides), or the m = 4, n = 3 Farkas rows scaled, one multiplier
    perhaps raised by one."""
    if draw(st.booleans()):
        rows = _m4_multipliers()
        scale, bump = draw(st.integers(1, 5)), draw(st.integers(-len(rows), len(rows) - 1))  # bump < 0: none
        rows = [(x, side, y * scale + (i == bump)) for i, (x, side, y) in enumerate(rows)]
        return 4, 3, rows
    m, n = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    token = st.integers(0, (1 << m) - 1)
    others = st.lists(token, min_size=n - 1, max_size=n - 1).map(lambda o: tuple(sorted(o)))
    inputs = draw(st.lists(st.tuples(token, others), min_size=1, max_size=6, unique=True))
    both = draw(st.booleans())
    rows = []
    for x in inputs:
        y = draw(st.integers(1, 4))
        rows += [(x, side, y) for side in (("lower", "upper") if both else (draw(st.sampled_from(("lower", "upper"))),))]
    return m, n, rows


@settings(max_examples=80, deadline=None)
@given(farkas_rows())
def test_checker_and_generator_combine_farkas_rows_alike(drawn):
    """The checker's rule (its own copy of the combination, kept independent) and
    farkas.combination agree on random rows: the file is valid iff the generator's
    combination is 0 on every u and <= 0 on every psi; otherwise the checker names the
    generator's first nonzero u coefficient, or else its first positive psi coefficient."""
    m, n, rows = drawn
    psi, u = farkas.combination(m, rows)
    tok = lambda z: generalheads.token_string(z, m)  # noqa: E731
    lines = [{"query": tok(q), "others": [tok(z) for z in others], "side": side, "multiplier": y} for (q, others), side, y in rows]
    v = verdict(header("rank-one-infeasible", version=2) | {"m": m, "n": n, "positions": "all", "inequalities": lines, "claims": {"lower_bound": 2}})
    bad_u = sorted((key, c) for key, c in u.items() if c != 0)
    bad_psi = sorted((z, c) for z, c in psi.items() if c > 0)
    if bad_u:
        (q, z), c = bad_u[0]
        assert v.code == 1 and f"coefficient on u(q={q}, z={z}) is {c}, not 0" in v.reason, v.render()
    elif bad_psi:
        z, c = bad_psi[0]
        assert v.code == 1 and f"coefficient on psi(z={z}) is {c} > 0" in v.reason, v.render()
    else:
        assert v.code == 0, v.render()


def _head_doc():
    return generalheads.certificate(farkas.rank_one_head(3, 3))


def test_a_negative_kernel_value_is_rejected_at_the_query_row():
    doc = _head_doc()
    doc["head"]["psi"][5] = ["-1"]
    v = verdict(doc)
    assert v.code == 1 and v.pointer.startswith("/head/phi/") and "negative" in v.reason


def test_a_bad_readout_entry_is_rejected():
    doc = _head_doc()
    doc["head"]["readout"][7][0] = "100"
    v = verdict(doc)
    assert v.code == 1 and v.pointer.startswith("/head/readout/7"), v.render()


def test_claims_are_recomputed():
    doc = _head_doc()
    for key, value in (("feature_rank", 2), ("value_dim", 3), ("nonnegative_features", False)):
        bad = copy.deepcopy(doc)
        bad["claims"][key] = value
        v = verdict(bad)
        assert v.code == 1 and v.pointer == f"/claims/{key}", v.render()
    old = copy.deepcopy(doc)
    old["version"] = 1
    assert verdict(old).code == 2


def test_an_oversized_explicit_head_is_refused_before_any_work():
    doc = _head_doc()
    doc["m"] = 11  # tables of 4^11 entries would be claimed: refused at once
    v = verdict(doc)
    # the estimate sizes the rows that are there (here 8 short ones: 5.2 * 10^8
    # units, under the budget), so the shape check refuses the file (exit 2) at the first
    # short table, before any route runs
    assert (v.code, v.pointer, v.routes) == (2, "/head/psi", []) and "expected 2048 items" in v.reason, v.render()
    doc["m"] = 12
    big = verdict(doc)
    assert big.code == 3 and big.pointer == "" and "nothing was checked" in big.reason


def test_extreme_class_route_alone_decides_beyond_the_exhaustive_limit():
    doc = _head_doc()
    v = verdict(doc, exhaustive_inputs=10)
    assert v.code == 0 and any(r.startswith("exhaustive: skipped") for r in v.routes)
    assert any(r.startswith("extreme classes: every denominator > 0") for r in v.routes)
    doc["head"]["readout"][7][0] = "100"
    assert verdict(doc, exhaustive_inputs=10).code == 1


def test_tables_round_trip():
    head = farkas.rank_one_head(2, 3)
    assert generalheads.from_tables(generalheads.tables(head)) == head
    assert generalheads.from_tables(generalheads.certificate(head)) == head


@pytest.mark.slow
def test_search_finds_a_rank_two_head_at_m4_n3():
    res = headsearch.search(4, 3, 2, starts=4)
    assert res.head is not None and res.head.rank == 2
    assert verdict(generalheads.certificate(res.head)).code == 0


def test_known_small_values_through_the_hub():
    """THEORY U5: r* = 1 for m <= 3 and r* = 2 at m = 4 (n = 3..8), exact in the hub."""
    from kernelbounds.hub import answer, report

    for n in range(3, 9):
        assert (answer.bounds(3, n).lower.value, answer.bounds(3, n).upper.value) == (1, 1)
        a = answer.bounds(4, n)
        assert a.lower.value == 2 and a.exact
    for m in range(4, 9):
        a = answer.bounds(m, 3)
        assert a.lower.value >= 2 and a.upper.value >= a.lower.value
    rows = {(r.m, r.n): r for r in report.table(range(3, 5), range(3, 4))}
    assert (rows[(3, 3)].lower, rows[(3, 3)].upper) == (1, 1)
    assert (rows[(4, 3)].lower, rows[(4, 3)].upper) == (2, 2)
    assert "2 (exact)" in report.markdown([rows[(4, 3)]])


def test_stored_heads_match_their_committed_certificates():
    import json
    from pathlib import Path

    from kernelbounds.hub import catalog

    root = Path(__file__).resolve().parents[2] / "certificates"
    for m, n, r, _ in catalog.general_heads():
        doc = json.loads((root / f"explicit-head-m{m:02d}-n{n}-r{r}.json").read_text())
        assert (doc["m"], doc["n"], doc["claims"]["feature_rank"]) == (m, n, r)


def test_cli_rank_one_writes_a_checkable_certificate(tmp_path):
    from kernelbounds.cli import main

    out = tmp_path / "f.json"
    assert main(["rank-one", "--m", "4", "--n", "3", "-o", str(out)]) == 0
    assert check_bytes(out.read_bytes()).kind == "rank-one-infeasible"
    assert main(["rank-one", "--m", "2", "--n", "3", "-o", str(out)]) == 0
    v = check_bytes(out.read_bytes())
    assert v.code == 0 and v.kind == "explicit-head"


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, path + (i,))
    else:
        yield path, obj


def _bumped(doc, path, value):
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    if isinstance(value, bool):
        node[path[-1]] = not value
    elif isinstance(value, int):
        node[path[-1]] = value + 1
    elif path[-2:] == ("side",) or value in ("lower", "upper"):
        node[path[-1]] = "upper" if value == "lower" else "lower"
    elif set(value) <= {"0", "1"} and path[-1] != "multiplier" and ("query" in path or "others" in path):
        node[path[-1]] = ("1" if value[0] == "0" else "0") + value[1:]
    else:
        node[path[-1]] = str(Fraction(value) + Fraction(1, 3))
    return out


def _explicit_oracle(doc) -> bool:
    """The generator's own judgement of an explicit-head file's claims."""
    head = generalheads.from_tables(doc)
    found = worst_error(head)
    if found is None or found[0] >= Fraction(1, 2):
        return False
    c = doc["claims"]
    q, others = c["worst_input"]["query"], c["worst_input"]["others"]
    tok = lambda s: int(s[::-1], 2)
    err_at = abs(head.output(tok(q), tuple(tok(z) for z in others)) - target(tok(q), tuple(tok(z) for z in others)))
    return (Fraction(c["worst_error"]) == found[0] == err_at and c["feature_rank"] == head.rank
            and c["value_dim"] == generalheads.value_dim(head.F) and c["nonnegative_features"] == head.nonnegative_features)


def _farkas_oracle(doc) -> bool:
    tok = lambda s: int(s[::-1], 2)
    items = [((tok(x["query"]), tuple(sorted(tok(z) for z in x["others"]))), x["side"], x["multiplier"]) for x in doc["inequalities"]]
    psi, u = farkas.combination(doc["m"], items)
    return doc["claims"]["lower_bound"] == 2 and not any(u.values()) and all(c <= 0 for c in psi.values())


@pytest.mark.parametrize("make,oracle", [(lambda: generalheads.certificate(farkas.rank_one_head(2, 3)), _explicit_oracle), (_farkas_doc, _farkas_oracle)])
def test_every_single_field_mutant_is_rejected_or_true(make, oracle):
    """No mutant of one field is accepted unless the generator's own routes confirm it."""
    doc = make()
    tried = 0
    for path, value in _leaves(doc):
        if path[0] in ("format", "kind", "positions"):
            continue
        mutant = _bumped(doc, path, value)
        v = verdict(mutant)
        tried += 1
        if v.code == 0:
            assert oracle(mutant), path
        else:
            assert v.code in (1, 2, 3) and v.pointer, (path, v.render())
    assert tried >= 20


def test_smt_rank_two_encoding_agrees_with_the_certificates_at_m4():
    """z3 on the weight-2 tokens of m = 4: rank one is unsat (as the Farkas certificate
    says) and rank two is sat (as the explicit rank-2 head says)."""
    from lab import rank2

    tokens = rank2.families(4)["weight 2"]
    assert rank2.decide(4, 3, tokens, 60, rank=1)[0] == "unsat"
    assert rank2.decide(4, 3, tokens, 60, rank=2, gl=True)[0] == "sat"
