"""Hostile campaign over rank refutations and signed lower bounds (lab/campaign_newkinds.py),
judged by the spec oracle lab/spec_oracle_newkinds.py (written from the spec alone)."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lab.campaign_newkinds import campaign, load  # noqa: E402
from lab.spec_oracle_newkinds import judge  # noqa: E402

FAST = ["refutation-position-independent-m05-n3-r2", "refutation-position-dependent-m05-n4-r2",
        "refutation-causal-m05-n3-r2", "witness-signed-m24-n3-r7",
        "lower-signed-any-denominator-position-independent-m24-n5"]


def _summary(res):
    return json.dumps({k: res[k] for k in ("false_accepts", "crashes")}, default=str)[:3000]


def test_oracle_accepts_every_committed_refutation():
    for path in sorted((ROOT / "certificates").glob("refutation-*-m05-*.json")):
        assert judge(json.loads(path.read_text()))[0] == "valid", path.name


def test_fast_sample_has_no_false_accept_and_no_crash():
    """A deterministic sample of 150 mutants (checked in-process, guards off; the slow
    suite runs the full campaign): the checker never accepts what the oracle rejects, and
    never fails internally (no exit 4, no exception from kb.check)."""
    res = campaign(fast=True, sample=150, bases=FAST, guard=False)
    assert res["false_accepts"] == [], _summary(res)
    assert res["crashes"] == [], _summary(res)
    assert res["inputs"] == 150
    assert res["oracle"].get("valid", 0) >= len(FAST)


def test_kb_check_nesting_bomb_in_dict_is_malformed():
    """A 100,000-deep nested list in a field is code 2 (it raised RecursionError from
    canonical_json before kb.check named non-JSON values)."""
    import kernelbounds as kb
    doc = load("refutation-causal-m05-n3-r2")
    x = []
    for _ in range(100_000):
        x = [x]
    doc["pairs"] = x
    v = kb.check(doc)
    assert int(v.code) == 2


@pytest.mark.slow
def test_full_campaign():
    res = campaign(fast=False, n_subprocess=40)
    assert res["false_accepts"] == [], _summary(res)
    assert res["crashes"] == [], _summary(res)
    assert res["subprocess"]["tracebacks"] == []
    assert res["out_of_scope"] == []


@pytest.mark.parametrize("first", ["\u0661" + "12", "\uff11" + "12", "1_12", "+12", "012"])
def test_proof_step_numbers_are_ascii_decimals(first):
    import kernelbounds as kb
    from kernelbounds.checker import Limits
    doc = load("refutation-causal-m05-n3-r2")
    steps = doc["proof"]["steps"]
    steps[0] = first + steps[0][3:]
    assert int(kb.check(doc, Limits(time_limit=0, memory_limit=0)).code) == 2


def test_user_folder_ignores_tampered_new_kinds(tmp_path, capfd):
    """The hub's user folder (certificates=DIR, as KERNELBOUNDS_CERTIFICATES): tampered
    refutation and signed files are each named in a warning and ignored, so the answer is
    the one without the folder (a tampered r >= 4 at m = 5 would otherwise contradict the
    committed upper bound 3); an untouched copy of a committed file draws no warning."""
    import kernelbounds as kb
    ref = load("refutation-position-independent-m05-n3-r2")
    tampered = {
        "rank-4-claim": {**ref, "rank": 3, "claims": {**ref["claims"], "bound": 4}},
        "truncated-proof": {**ref, "proof": {**ref["proof"], "steps": ref["proof"]["steps"][:-1]}},
        "sad-kernel": {**ref, "kernel": "signed-any-denominator"},
    }
    sig = load("lower-signed-any-denominator-position-independent-m24-n5")
    tampered["signed-bound-plus-1"] = {**sig, "claims": {**sig["claims"], "bound": sig["claims"]["bound"] + 1}}
    for name, doc in tampered.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(doc))
    (tmp_path / "valid-copy.json").write_text(json.dumps(load("refutation-causal-m05-n3-r2")))
    err = ""
    for m, n in ((5, 3), (24, 5)):
        plain = kb.bound(m, n, "position-independent")
        capfd.readouterr()
        with_folder = kb.bound(m, n, "position-independent", certificates=str(tmp_path))
        err += capfd.readouterr().err  # verdicts are cached by sha256: warned once
        assert (with_folder.lower, with_folder.upper) == (plain.lower, plain.upper)
    for name in tampered:
        assert f"{name}.json" in err and "ignoring" in err
    assert "valid-copy.json" not in err
