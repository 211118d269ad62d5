"""Hostile campaign v3 (lab/campaign_v3.py) over kind direct-sum, kind rank-extension, level-family
files at m > 64, the writers and bad inputs, judged by lab/spec_oracle_v3.py (written from the
spec alone)."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from lab import spec_oracle_v3 as oracle  # noqa: E402
from lab.campaign_v3 import DS_FAST_SEEDS, campaign  # noqa: E402


def _summary(s):
    return json.dumps({k: s[k] for k in ("false_accepts", "crashes", "hangs", "slow")}, default=str)[:3000]


def test_oracle_accepts_the_committed_dodecad_sums_and_rejects_the_corpus():
    for name in DS_FAST_SEEDS:
        doc = json.loads((ROOT / "certificates" / f"{name}.json").read_text())
        assert oracle.judge_direct_sum(doc) == ("valid", "every rule holds"), name
    for path in sorted((ROOT / "tests" / "corpus" / "incorrect").glob("direct-sum-*.json")):
        assert oracle.judge_direct_sum(json.loads(path.read_text()))[0] == "invalid", path.name


def test_oracle_derives_the_bound_for_another_k():
    """L3 at k = 2 on the dodecad sum is a different, still valid, claim; one more is invalid."""
    doc = json.loads((ROOT / "certificates" / f"{DS_FAST_SEEDS[0]}.json").read_text())
    doc["claims"]["k"] = 2
    claims = oracle.true_claims(doc)
    doc["claims"]["bound"] = claims["bound"]
    assert oracle.judge_direct_sum(doc)[0] == "valid"
    doc["claims"]["bound"] += 1
    assert oracle.judge_direct_sum(doc)[0] == "invalid"


def test_fast_sample_no_false_accept_no_crash_no_hang():
    """A deterministic sample (in-process checks with the guards off, a few CLI runs): the checker
    never accepts what the oracle rejects, never fails internally, never hangs (the slowest input is in the report)."""
    s = campaign(fast=True).summary()
    assert s["false_accepts"] == [], _summary(s)
    assert s["crashes"] == [], _summary(s)
    assert s["hangs"] == [], _summary(s)
    assert s["oracle"].get("valid", 0) >= 10
    assert set(s["codes"]) <= {"0", "1", "2", "3"}


@pytest.mark.slow
def test_full_campaign_no_false_accept_no_crash_no_hang():
    run = campaign(fast=False)
    s = run.summary()
    assert s["false_accepts"] == [], _summary(s)
    assert s["crashes"] == [], _summary(s)
    assert s["hangs"] == [], _summary(s)
    assert [r for r in run.rows if r.get("writer_verdict") == "FINDING"] == []
    assert [r for r in run.rows if r.get("one_line") is False] == []
