"""Numbers of any size in `evaluate`'s messages and JSON: a head may hold 4096-digit
entries (docs/head-format-v1.md), and exact arithmetic on them passes Python's 4300-digit
int-to-str limit and the float range.  Every message shortens such a number through the one
helper (kernelbounds.shown); the JSON keeps it exact; no internal error (exit 4)."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from kernelbounds.cli import main
from kernelbounds.shown import SHOWN_BITS, approx, shown, to_float

BIG = 10**4096 - 1  # 4096 nines: the largest integer the head format reads


def _head(tmp_path, phi_q, phi_k, value, w, b) -> str:
    tokens = {s: {"phi_q": [phi_q], "phi_k": [phi_k[i]], "value": [value], "readout": {"w": [w], "b": b}} for i, s in enumerate("01")}
    path = tmp_path / "head.json"
    path.write_text(json.dumps({"format": "kernelbounds-head", "version": 1, "m": 1, "tokens": tokens}))
    return str(path)


def _run(capsys, *args):
    code = main(["evaluate", *args])
    out, err = capsys.readouterr()
    return code, out, err


# BIG^2 + 1/BIG = (BIG^3 + 1) / BIG in lowest terms (BIG^3 + 1 = 1 mod BIG), and 3 BIG^2, in
# decimal: 10^12288 - 3 10^8192 + 3 10^4096 and 3 10^8192 - 6 10^4096 + 3
WORST = "9" * 4095 + "7" + "0" * 4095 + "3" + "0" * 4096 + "/" + "9" * 4096
LEAST = "2" + "9" * 4095 + "4" + "0" * 4095 + "3"


@pytest.mark.parametrize("family", [["--all", "--m", "1", "--n", "3"], "listed"])
def test_a_worst_error_of_8192_digits_is_shortened_in_the_text_and_exact_in_json(tmp_path, capsys, family):
    """F(q, z) = BIG * BIG + 1/BIG for every pair, so every output is that number and the
    worst error (target 0) is it exactly: 8192 digits, beyond the float range."""
    head = _head(tmp_path, "1", ["1", "2"], str(BIG), str(BIG), f"1/{BIG}")
    if family == "listed":
        (tmp_path / "family.json").write_text(json.dumps({"inputs": [["0", "1", "1"], ["1", "0", "0"]], "scored": "all"}))
        family = ["--family", str(tmp_path / "family.json")]
    code, out, err = _run(capsys, "--head", head, *family)
    assert code == 1 and err == ""
    assert "worst error ~1.00000e+8192 (a ratio of" in out and max(len(line) for line in out.splitlines()) < 400
    code, out, _ = _run(capsys, "--head", head, *family, "--json")
    doc = json.loads(out)
    assert code == 1 and doc["worst_error"] == WORST and doc["worst_error_float"] is None


def test_a_least_denominator_of_8192_digits_and_features_beyond_floats(tmp_path, capsys):
    """K(q, z) = BIG^2 for every pair: at n = 3 every denominator is 3 BIG^2, the least."""
    head = _head(tmp_path, str(BIG), [str(BIG), str(BIG)], "0", "1", "0")
    code, out, err = _run(capsys, "--head", head, "--all", "--m", "1", "--n", "3")
    assert code == 1 and err == "" and "least denominator: 3.00000e+8192 (> 0)" in out
    assert f"(least ~3.00000e+8192 (a {(3 * BIG * BIG).bit_length()}-bit integer), at 0 0 0)" in out
    code, out, _ = _run(capsys, "--head", head, "--all", "--m", "1", "--n", "3", "--json")
    assert json.loads(out)["least_denominator"] == LEAST


@given(st.integers(), st.integers(min_value=1))
def test_a_short_rational_is_shown_exactly(p, q):
    x = Fraction(p, q)
    if max(x.numerator.bit_length(), x.denominator.bit_length()) <= SHOWN_BITS:
        assert Fraction(shown(x)) == x
    else:
        assert shown(x).startswith("~")


@given(st.integers(min_value=-(10**5000), max_value=10**5000), st.integers(min_value=1, max_value=10**5000))
def test_the_magnitude_of_any_rational_is_its_value_to_six_digits(p, q):
    x = Fraction(p, q)
    text = approx(x)
    mantissa, _, exponent = text.partition("e")
    value = Fraction(mantissa) * Fraction(10) ** int(exponent or 0)
    assert abs(value - x) <= abs(x) * Fraction(1, 10**5)


@given(st.integers(min_value=0, max_value=5000), st.sampled_from([1, -1]))
def test_to_float_is_float_within_the_range_and_an_infinity_of_its_sign_beyond(e, sign):
    x = Fraction(sign * 10**e, 3)
    assert to_float(x) == (float(x) if e <= 308 else sign * float("inf"))  # 10^308 / 3 < 1.8e308 < 10^309 / 3
