"""Exact r* at the smallest m (THEORY U5): explicit heads, rank-one heads (the Farkas side is in tests/lowerbounds/test_rank_one_farkas.py),
the extreme-class-input reduction, and the two v2 checker rules."""

import copy
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.lowerbounds import rankonefarkas
from kernelbounds.model import min_ip_target
from kernelbounds.upperbounds import generalheads, rankone, symmetricsweep
from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, check_bytes
from kernelbounds.upperbounds.generalheads import ExplicitHead, worst_error


def verdict(doc, **limits):
    return check_bytes(canonical_json(doc).encode(), limits=Limits().with_overrides(**limits))


def brute_worst(head: ExplicitHead) -> Fraction:
    """max |y - t| over every query and every multiset of n-1 other tokens, literally."""
    tokens = range(1 << head.m)
    return max(abs(head.output(q, o) - min_ip_target((q, *o), 0)) for q in tokens for o in combinations_with_replacement(tokens, head.n - 1))


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
    assert abs(head.output(q, others) - min_ip_target((q, *others), 0)) == err


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


@pytest.mark.parametrize("n", [3, 5, 8])
@pytest.mark.parametrize("m", [1, 2, 3])
def test_rank_one_solves_m_up_to_3_and_the_checker_agrees_on_both_routes(m, n):
    head = rankone.rank_one_head(m, n)
    assert head is not None and head.rank == 1
    v = verdict(generalheads.certificate(head))
    assert v.code == 0, v.render()
    assert any(r.startswith("exhaustive: all") for r in v.routes)


def test_rank_one_lp_has_no_positive_margin_at_m4():
    assert rankone.rank_one_head(4, 3) is None


def _head_doc():
    return generalheads.certificate(rankone.rank_one_head(3, 3))


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
    # the estimate sizes the rows that are there (here 8 short ones: 1.0 * 10^8
    # units, under the budget), so the shape check refuses the file (exit 2) at the first
    # short table, before any route runs
    assert (v.code, v.pointer, v.routes) == (2, "/head/psi", []) and "expected 2048 items" in v.reason, v.render()
    doc["m"] = 12  # the same at m = 12 (4.0 * 10^8 units); with a budget below the estimate, exit 3
    assert verdict(doc).pointer == "/head/psi" and "expected 4096 items" in verdict(doc).reason
    big = verdict(doc, work_budget=10**8)
    assert big.code == 3 and big.pointer == "" and "nothing was checked" in big.reason


def test_extreme_class_route_alone_decides_beyond_the_exhaustive_limit():
    doc = _head_doc()
    v = verdict(doc, exhaustive_inputs=10)
    assert v.code == 0 and any(r.startswith("exhaustive: skipped") for r in v.routes)
    assert any(r.startswith("extreme classes: every denominator > 0") for r in v.routes)
    doc["head"]["readout"][7][0] = "100"
    assert verdict(doc, exhaustive_inputs=10).code == 1


def test_tables_round_trip():
    head = rankone.rank_one_head(2, 3)
    assert generalheads.from_tables(generalheads.tables(head)) == head
    assert generalheads.from_tables(generalheads.certificate(head)) == head


@pytest.mark.parametrize("n", [3, 8])
def test_the_general_search_finds_rank_two_at_m4(n):
    """THEORY U5: r*(4, n) = 2; the central alternation under the identity (every head of
    rank 2) finds one from a few seeded starts, and the checker accepts its certificate."""
    found = symmetricsweep.sweep(4, n, 2, "()", time_limit=300, starts=4).found
    assert found is not None
    v = verdict(found.certificate())
    assert v.code == 0 and (v.claim["value"], v.claim["m"], v.claim["n"]) == (2, 4, n)


def test_known_small_values_through_the_hub():
    """THEORY U5: r* = 1 for m <= 3 and r* = 2 at m = 4 (n = 3..8), exact in the hub."""
    from kernelbounds.hub import answer
    from kernelbounds.reports import report

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

    from kernelbounds.sources import explicitheads

    root = Path(__file__).resolve().parents[2] / "certificates"
    for m, n, r, _ in explicitheads.general_heads():
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
    err_at = abs(head.output(tok(q), tuple(tok(z) for z in others)) - min_ip_target(tuple(tok(x) for x in (q, *others)), 0))
    return (Fraction(c["worst_error"]) == found[0] == err_at and c["feature_rank"] == head.rank
            and c["value_dim"] == generalheads.value_dim(head.F) and c["nonnegative_features"] == head.nonnegative_features)


def _farkas_oracle(doc) -> bool:
    tok = lambda s: int(s[::-1], 2)
    items = [((tok(x["query"]), tuple(sorted(tok(z) for z in x["others"]))), x["side"], x["multiplier"]) for x in doc["inequalities"]]
    psi, u = rankonefarkas.combination(items)
    return doc["claims"]["lower_bound"] == 2 and not any(u.values()) and all(c <= 0 for c in psi.values())


@pytest.mark.parametrize("make,oracle", [(lambda: generalheads.certificate(rankone.rank_one_head(2, 3)), _explicit_oracle), (lambda: rankonefarkas.certificate(rankonefarkas.farkas(4, 3)), _farkas_oracle)])
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
