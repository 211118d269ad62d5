"""evaluate --family takes the family's bound from the checker's verdict, never from the file's own claim."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kernelbounds import api
from kernelbounds.checker import check_bytes
from kernelbounds.heads.familycheck import FamilyRejected, checked_bound
from kernelbounds.heads.inputs import load_family
from kernelbounds.heads.results import certified_bound

from test_evaluate_heads import u2_table_head

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELBOUNDS_CACHE", str(tmp_path / "cache"))


def _family_doc():
    return api.witness(4, 3, 2).to_certificate()


def test_the_bound_is_the_checkers_claim():
    doc = _family_doc()
    verdict = check_bytes(json.dumps(doc).encode())
    assert verdict.ok and verdict.claim["side"] == "lower"
    assert certified_bound(load_family(doc)) == verdict.claim["value"] == checked_bound(doc)[0]


def test_a_raised_claim_is_refused_with_the_checkers_reason_not_a_contradiction(tmp_path):
    doc = _family_doc()
    head = u2_table_head(4)  # rank 16, solves every input (THEORY U2)
    doc["claims"]["bound"] = 17  # above the head's rank: read as a claim, a "contradiction"
    assert not check_bytes(json.dumps(doc).encode()).ok
    with pytest.raises(FamilyRejected):
        certified_bound(load_family(doc))
    fam, hp = tmp_path / "raised.json", tmp_path / "u2.json"
    fam.write_text(json.dumps(doc))
    hp.write_text(json.dumps(head.to_json()))
    r = subprocess.run([sys.executable, "-m", "kernelbounds", "evaluate", "--head", str(hp), "--family", str(fam)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout == "" and len(r.stderr.splitlines()) == 1 and "the checker rejects it (invalid at /claims" in r.stderr, r.stderr


def test_the_unchanged_family_is_solved_by_u2(tmp_path):
    fam, hp = tmp_path / "fam.json", tmp_path / "u2.json"
    fam.write_text(json.dumps(_family_doc()))
    hp.write_text(json.dumps(u2_table_head(4).to_json()))
    r = subprocess.run([sys.executable, "-m", "kernelbounds", "evaluate", "--head", str(hp), "--family", str(fam), "--json"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["certified_bound"] == 2
