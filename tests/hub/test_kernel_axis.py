"""The hub's kernel axis (THEORY L8): one answer per (m, n, variant, kernel class).

Upper sides are the nonnegative column's (a nonnegative kernel is a signed one); a lower
claim counts for a class iff the checker's claim lists it; the computed code bound b gives
b - 1 for both signed classes (rank of the D-ratio matrix <= r + 1); L7 holds for
nonnegative and signed kernels, not for denominators of either sign."""

import pytest

from helpers import verdict
from kernelbounds.hub import answer as hub
from kernelbounds.hub.answer import KERNELS, VARIANTS, bounds

GRID = [(m, n) for m in range(2, 65) for n in range(3, 9)]


def _classes(variant):
    return [k for k in KERNELS if not (k == "signed-any-denominator" and variant == "position-dependent")]


def _indexed(kind: str, kernel: str) -> bool:
    return any(k.kind == kind and kernel in k.kernels for k in hub.committed())


def _shipped_claims() -> dict:
    """The checker's claims of the shipped index, read from the INDEX file itself (not
    through the hub): file name -> claim."""
    import json
    from pathlib import Path

    doc = json.loads((Path(hub.__file__).parents[1] / "certificates" / "INDEX").read_text())
    return {e["name"]: e["claim"] for e in doc["certificates"]}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_lower_side_is_justified_for_its_kernel_class(variant):
    """A lower side citing a shipped file uses a claim the checker made for this class,
    variant and n, at m' <= m with the same value (THEORY U5's restriction; L8: a claim
    counts for a class iff it lists it); a computed side of a signed class is a code bound
    b - 1 or L7's floor(m/2) (positive denominators only), never more."""
    claims = _shipped_claims()
    stored = hub._stored()
    for m, n in GRID:
        for k in _classes(variant):
            side = bounds(m, n, variant, kernel=k).lower
            if side.certificate is not None:
                c = claims[side.certificate]
                assert k in c["kernels"] and variant in c["variants"] and c["side"] == "lower", (m, n, k, side.certificate)
                assert c["n"] == n and c["m"] == side.from_m <= m and c["value"] == side.value, (m, n, k, side.certificate)
            elif k != "nonnegative" and side.method.startswith("codes"):
                assert side.value == stored.cells[(m, n, variant)]["codes"]["bound"] - 1, (m, n, k)
            elif k != "nonnegative" and side.theory == "L7":
                assert k == "signed" and side.value == m // 2, (m, n, k)


def test_upper_sides_equal_the_nonnegative_column():
    for m in range(2, 65):
        base = bounds(m, 3)
        for k in KERNELS[1:]:
            a = bounds(m, 3, kernel=k)
            assert (a.upper, a.upper_nonnegative) == (base.upper, base.upper_nonnegative)
            assert a.kernel == k and a.to_json()["kernel"] == k


def test_signed_code_bound_is_one_below_the_nonnegative_code_bound():
    """THEORY L8: the same code and chains bound rank M <= r + 1 for signed kernels."""
    stored = hub._stored()
    for m in range(9, 65):
        for variant in ("position-independent", "causal"):
            c = stored.cells[(m, 3, variant)]["codes"]
            for k in ("signed", "signed-any-denominator"):
                a = bounds(m, 3, variant, kernel=k)
                assert a.lower.value >= c["bound"] - 1
                if a.lower.method.startswith("codes") and a.lower.certificate is None:
                    assert a.lower.value == c["bound"] - 1


def test_m64_signed_reaches_3614_for_both_denominator_conventions():
    for k in ("signed", "signed-any-denominator"):
        assert bounds(64, 3, kernel=k).lower.value >= 3614


def test_any_denominator_at_small_m_has_only_what_l3_gives():
    """No sign-rank bound (orthant, crossing, rank refutation, Farkas) for denominators of
    either sign (THEORY L8's three-input example): at m <= 8 only L3 through the codes."""
    stored = hub._stored()
    for m in range(2, 9):
        for n in range(3, 9):
            for variant in ("position-independent", "causal"):
                c = stored.cells[(m, n, variant)]["codes"]
                expect = max(1, (c["bound"] - 1) if c else 1)
                assert bounds(m, n, variant, kernel="signed-any-denominator").lower.value == expect


def test_orthant_and_crossing_by_class():
    """L7 (floor(m/2)) holds for signed kernels; U6's crossing and U5's Farkas do not."""
    assert bounds(8, 3, kernel="signed").lower.value >= 4
    for m in (4, 5):
        for k in KERNELS[1:]:
            assert bounds(m, 3, kernel=k).lower.method not in ("single crossing", "rank-one Farkas")


def test_signed_lower_at_m5_m6_from_the_rank_refutations():
    assert _indexed("rank-refutation", "signed")  # the committed r = 2 (m = 5) and r = 3 (m = 6) files
    assert bounds(6, 3, kernel="signed").lower.value == 4
    assert bounds(5, 3, kernel="signed").lower.value == 3


def test_position_dependent_any_denominator_is_refused():
    with pytest.raises(ValueError, match="THEORY L8 \\(b\\)"):
        bounds(24, 3, "position-dependent", kernel="signed-any-denominator")
    with pytest.raises(ValueError, match="kernel must be one of"):
        bounds(24, 3, kernel="negative")


def test_signed_certificates_are_valid_and_claim_their_class():
    for m, n, k in ((24, 3, "signed"), (12, 4, "signed-any-denominator"), (10, 3, "signed")):
        a = bounds(m, n, kernel=k)
        v = verdict(a.lower.certificate_document())
        assert v.code == 0, (m, n, k, v.reason)
        assert k in v.claim["kernels"] and v.claim["value"] == a.lower.value


def test_api_bound_kernel():
    import kernelbounds as kb

    b = kb.bound(24, 3, kernel="signed")
    assert b.kernel == "signed" and b.lower == kb.bound(24, 3).lower - 1 and b.to_json()["kernel"] == "signed"
