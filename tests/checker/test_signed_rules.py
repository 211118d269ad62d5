"""The field `kernel` of lower-bound, orthant and crossing files (THEORY §3 L8;
docs/certificate-format-v2.md, "Signed kernels"): the checker states r >= L3 - 1 for signed
kernels, never the nonnegative K-ratio bound, and refuses the classes a kind does not cover."""

import copy
import json
from pathlib import Path

from hypothesis import given, strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes, check_file

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
KERNELS = ("nonnegative", "signed", "signed-any-denominator")
VARIANTS = ("position-independent", "position-dependent", "causal")


def load(name: str) -> dict:
    return json.loads((CORPUS / name).read_text())


def verdict(doc: dict):
    return check_bytes(canonical_json(doc).encode())


def restated(doc: dict, kernel: str | None, bound: int) -> dict:
    """doc with the field kernel (absent for None) and the given claimed bound."""
    out = copy.deepcopy(doc)
    out.pop("kernel", None)
    if kernel is not None:
        out.update(version=2, kernel=kernel)
    out["claims"]["bound"] = bound
    return out


PALEY10 = load("correct/lower-paley10-listed.json")  # ten Paley words, one-link chains P = 5: L3 = 8
PALEY11_PD = load("correct/lower-paley11-posdep.json")  # position-dependent, m = 12, n = 4: L3 = 10


def test_a_signed_file_states_l3_minus_one_and_the_nonnegative_bound_is_not_claimed():
    l3 = PALEY10["claims"]["bound"]
    assert l3 == 8
    nonneg = verdict(PALEY10)
    assert nonneg.ok and nonneg.claim["value"] == 8 and nonneg.claim["kernels"] == ["nonnegative"]
    for kernel, covered in (("signed", ["nonnegative", "signed"]), ("signed-any-denominator", list(KERNELS))):
        ok = verdict(restated(PALEY10, kernel, l3 - 1))
        assert ok.ok, ok.render()
        assert ok.claim == {"side": "lower", "value": 7, "m": 24, "n": 3, "variants": ["position-independent"], "kernels": covered}
        assert "r + 1" in " ".join(ok.routes)
        # the K-ratio bound r >= L3 needs K(q,q) >= 0: a signed file claiming it is rejected
        bad = verdict(restated(PALEY10, kernel, l3))
        assert (bad.code, bad.pointer) == (1, "/claims/bound")
        assert bad.derived == l3 - 1


@given(kernel=st.sampled_from((None,) + KERNELS), variant=st.sampled_from(VARIANTS), delta=st.integers(-1, 1))
def test_the_rule_table_for_kernel_and_variant(kernel, variant, delta):
    """Exactly one claimed bound is accepted for each (kernel, variant): L3 for nonnegative
    kernels, L3 - 1 for signed ones; signed-any-denominator refuses position-dependent."""
    base = PALEY11_PD if variant == "position-dependent" else PALEY10
    doc = copy.deepcopy(base)
    doc["variant"] = variant
    if variant == "causal":
        doc["witness"]["inputs"] = [inp[1:] + inp[:1] for inp in doc["witness"]["inputs"]]
    l3 = base["claims"]["bound"]
    right = l3 if kernel in (None, "nonnegative") else l3 - 1
    v = verdict(restated(doc, kernel, right + delta))
    if kernel == "signed-any-denominator" and variant == "position-dependent":
        assert (v.code, v.pointer) == (1, "/kernel") and "L8" in v.reason
    elif delta:
        assert (v.code, v.pointer) == (1, "/claims/bound")
    else:
        assert v.ok, v.render()
        holds = {"position-independent": [variant], "position-dependent": [variant, "position-independent"], "causal": [variant, "position-independent"]}[variant]
        assert v.claim["value"] == right and v.claim["variants"] == sorted(holds)


def test_the_field_is_a_version_2_feature_and_absent_means_nonnegative():
    v1 = copy.deepcopy(PALEY10)
    v1["kernel"] = "nonnegative"
    assert (verdict(v1).code, verdict(v1).pointer) == (2, "/kernel")
    v1["version"] = 2
    explicit = verdict(v1)
    assert explicit.ok and explicit.claim == verdict(PALEY10).claim
    unknown = restated(PALEY10, "nonpositive", 7)
    assert (verdict(unknown).code, verdict(unknown).pointer) == (2, "/kernel")


def test_orthant_covers_nonnegative_and_signed_not_any_denominator():
    doc = load("correct/orthant-listed-m6-n3.json")
    for kernel in (None, "nonnegative", "signed"):
        d = copy.deepcopy(doc)
        if kernel:
            d["kernel"] = kernel
        v = verdict(d)
        assert v.ok and v.claim["value"] == 3 and v.claim["kernels"] == ["nonnegative", "signed"]
    d = copy.deepcopy(doc)
    d["kernel"] = "signed-any-denominator"
    v = verdict(d)
    assert (v.code, v.pointer) == (1, "/kernel")


def test_crossing_covers_nonnegative_kernels_only():
    doc = load("correct/crossing-m5-n3.json")
    v = verdict(doc)
    assert v.ok and v.claim["kernels"] == ["nonnegative"] and v.claim["value"] == 3
    for kernel in ("signed", "signed-any-denominator"):
        d = copy.deepcopy(doc)
        d["kernel"] = kernel
        v = verdict(d)
        assert (v.code, v.pointer) == (1, "/kernel") and "K >= 0" in v.reason


def test_committed_signed_files_at_m24():
    for name, value, kernels in (
        ("witness-signed-m24-n3-r7.json", 7, ["nonnegative", "signed"]),
        ("lower-signed-position-dependent-m24-n3.json", 22, ["nonnegative", "signed"]),
        ("lower-signed-any-denominator-causal-m24-n3.json", 22, list(KERNELS)),
    ):
        v = check_file(str(ROOT / "certificates" / name))
        assert v.ok, v.render()
        assert v.claim["value"] == value and v.claim["kernels"] == kernels


def test_committed_signed_file_at_m64_certifies_3614():
    """THEORY L8: r + 1 >= 3615 (RM(2,6) weight 32 through orbits), so r >= 3614."""
    nonneg = json.loads((ROOT / "certificates" / "lower-position-independent-m64-n3.json").read_text())
    signed = json.loads((ROOT / "certificates" / "lower-signed-any-denominator-position-independent-m64-n3.json").read_text())
    assert nonneg["claims"]["bound"] == 3615 and signed["claims"]["bound"] == 3614
    assert restated(signed, None, 3615) == {k: v for k, v in nonneg.items()}  # same code, chains, orbits, family
    v = check_file(str(ROOT / "certificates" / "lower-signed-any-denominator-position-independent-m64-n3.json"))
    assert v.ok and v.claim["value"] == 3614 and v.claim["kernels"] == list(KERNELS)


def test_every_number_in_a_signed_valid_line_is_rederived():
    """Changing a claimed number of a signed file gets it rejected (the VALID line states
    only re-derived numbers, L3 - 1 included)."""
    doc = restated(PALEY10, "signed", 7)
    line = verdict(doc).line()
    for key, value in doc["claims"].items():
        for changed in (value - 1, value + 1):
            mutant = copy.deepcopy(doc)
            mutant["claims"][key] = changed
            v = verdict(mutant)
            assert not v.ok or v.line() == line, (key, changed)
