"""The answer is closed in n (THEORY L6', r*(m, n) <= r*(m, n') for n <= n'): no cell's lower
side is below the one at a shorter length, no upper side above the one at a longer length,
over the whole stored grid (m = 1..256, n = 3..8) and every variant and kernel class; with
denominators of either sign (THEORY L8 (b)) only a length that divides n carries its lower
side.  A side carried in n cites a certificate whose checked claim is at that length."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.hub import answer, stored
from kernelbounds.reports.site import classes

NS = range(3, max(stored.NS) + 1)
CLASSES = list(classes())


def _claim_length(side: answer.Side) -> int | None:
    """The n of the checked claim behind a side: its committed file's, or the stored verdict's."""
    if side._known is not None:
        return side._known.n
    claim = (side.verdict or {}).get("claim")
    return claim["n"] if claim else None


def _carried(side: answer.Side, n: int, kernel: str, shorter: bool) -> None:
    """A side proved at another length: the right direction, a divisor for a lower side
    with either-sign denominators, the claim at that length with this value, and the note saying so."""
    assert side.from_n is not None and side.from_n != n
    assert (side.from_n < n) if shorter else (side.from_n > n)
    if shorter and kernel == "signed-any-denominator":  # an upper side is a nonnegative head's
        assert n % side.from_n == 0
    length = _claim_length(side)
    assert length is None or length == side.from_n  # None: a closed form (U2), proved at every length
    assert f"from n = {side.from_n}" in side.detail and "L6'" in side.detail


def test_every_stored_cell_is_closed_in_n():
    carried = 0
    for variant, kernel in CLASSES:
        for m in range(1, 257):
            cells = {n: answer.bounds(m, n, variant, kernel=kernel) for n in NS}
            for n in NS:
                a = cells[n]
                for n0 in range(3, n):
                    if kernel != "signed-any-denominator" or n % n0 == 0:
                        assert a.lower.value >= cells[n0].lower.value, (variant, kernel, m, n0, n)
                for n1 in range(n, max(NS) + 1):
                    assert a.upper.value <= cells[n1].upper.value, (m, n, n1)
                    assert a.upper_nonnegative.value <= cells[n1].upper_nonnegative.value, (m, n, n1)
                if a.lower.from_n not in (None, n):
                    _carried(a.lower, n, kernel, shorter=True)
                    carried += 1
                for side in (a.upper, a.upper_nonnegative):
                    if side.from_n not in (None, n):
                        _carried(side, n, kernel, shorter=False)
                        carried += 1
    assert carried > 0  # the closure decides some cells of the stored grid


def test_either_sign_denominators_take_only_divisors():
    """At (m, 5) no shorter length divides 5, so the either-sign lower side is proved at 5
    itself even where the positive-denominator one is carried from a shorter length."""
    assert answer.shorter_lengths(5, "signed-any-denominator") == []
    assert answer.shorter_lengths(8, "signed-any-denominator") == [4]
    assert answer.shorter_lengths(12, "signed-any-denominator") == [6, 4, 3]
    assert answer.shorter_lengths(12, "signed") == [8, 7, 6, 5, 4, 3]
    for m in range(1, 257):
        side = answer.bounds(m, 5, "causal", kernel="signed-any-denominator").lower
        assert side.from_n in (None, 5)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 12), st.integers(9, 12), st.sampled_from(CLASSES))
def test_a_length_beyond_the_stored_grid_keeps_every_stored_lower_side(m, n, cls):
    variant, kernel = cls
    a = answer.bounds(m, n, variant, kernel=kernel)
    for n0 in answer.shorter_lengths(n, kernel):
        assert a.lower.value >= answer.bounds(m, n0, variant, kernel=kernel).lower.value
    if a.lower.from_n not in (None, n):
        _carried(a.lower, n, kernel, shorter=True)


def _shipped_heads(max_m: int) -> list[tuple[str, dict]]:
    import json

    from kernelbounds.vocabulary import shipped_path

    found = sorted(shipped_path().glob("explicit-head-m*.json"))
    docs = [(p.name, json.loads(p.read_text())) for p in found]
    return [(name, d) for name, d in docs if d["m"] <= max_m and d["n"] >= 4]


def test_every_shipped_head_solves_every_shorter_length_exactly():
    """THEORY L6' on the shipped heads themselves: a head that solves length n' solves every
    n < n' unchanged, which the checker confirms from scratch for each restated certificate."""
    from dataclasses import replace

    from kernelbounds.certificate import canonical_json
    from kernelbounds.checker import check_bytes
    from kernelbounds.upperbounds import generalheads

    heads = _shipped_heads(max_m=7)
    assert len(heads) >= 8
    for name, doc in heads:
        head = generalheads.from_tables(doc)
        for n in range(2, head.n):
            verdict = check_bytes(canonical_json(generalheads.certificate(replace(head, n=n))).encode("ascii"))
            assert verdict.code == 0, (name, n, verdict.reason)
            assert (verdict.claim["side"], verdict.claim["value"], verdict.claim["n"]) == ("upper", head.rank, n)


def test_the_api_the_cli_and_the_hub_name_the_same_carried_length(capsys):
    """At (4, 3) the nonnegative-features upper side is r* = 2 itself, proved by the rank-2
    head with nonnegative features at n = 7 (the one at n = 8 has signed features)."""
    import json

    import kernelbounds as kb
    from kernelbounds.cli import main

    side = answer.bounds(4, 3).upper_nonnegative
    assert (side.value, side.from_n, side.certificate) == (2, 7, "explicit-head-m04-n7-r2.json")
    up = kb.upper(4, 3, nonnegative=True)
    assert (up.upper, up.from_n, up.certificate) == (2, 7, side.certificate)
    assert kb.bound(4, 3).upper_nonnegative_from_n == 7
    assert main(["upper", "--m", "4", "--n", "3", "--nonnegative", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["from_n"] == 7
