"""Mutation fuzzing: every single-field mutant of a valid certificate is rejected or, if
accepted, confirmed true by an independent oracle (the generator's own routes)."""

import random

import pytest
from helpers import verdict
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Code, check_bytes
from lab.fuzz import campaign, mutants, oracle, seeds

SEEDS = seeds()


@pytest.fixture(autouse=True)
def in_process(monkeypatch):
    """Check in process: the runtime guard forks once per check (about 70 ms each) and only
    bounds CPU time and memory, which its own tests cover (tests/checker/test_guard_and_valid_lines.py)."""
    import lab.fuzz

    monkeypatch.setattr(lab.fuzz, "GUARD", False)


@settings(max_examples=150)
@given(st.integers(0, len(SEEDS) - 1), st.integers(0, 2**32 - 1), st.data())
def test_no_mutant_is_falsely_accepted(which, rng_seed, data):
    """One mutant drawn from the seed's whole mutant stream: rejected with a pointer (or
    as malformed), or accepted and then confirmed true by the oracle."""
    stream = list(mutants(SEEDS[which], random.Random(rng_seed), 400))
    pointer, mutant = stream[data.draw(st.integers(0, len(stream) - 1))]
    verdict = check_bytes(canonical_json(mutant).encode() if isinstance(mutant, dict) else b"null", guard=False)
    if verdict.code == Code.VALID:
        assert oracle(mutant) is True, f"accepted but not confirmed at {pointer}"
    else:
        assert verdict.code in (Code.INVALID, Code.MALFORMED, Code.LIMIT) and (verdict.pointer or verdict.code in (Code.MALFORMED, Code.LIMIT))


def test_seeds_are_valid_and_the_oracle_confirms_them():
    for doc in SEEDS:
        assert verdict(doc).code == Code.VALID
        assert oracle(doc) is True


def test_the_oracle_is_not_vacuous():
    """It refutes known-false claims of every kind."""
    for doc in SEEDS:
        bad = __import__("copy").deepcopy(doc)
        key = {"construction": "worst_error", "lower-bound": "bound", "rank": "rank", "transcript": "bits", "level-family": "worst_error"}[doc["kind"]]
        bad["claims"][key] = bad["claims"][key] + 1 if isinstance(bad["claims"][key], int) else "1/3"
        assert oracle(bad) is False, doc["kind"]


def test_small_campaign_has_no_false_accepts():
    counts = campaign(1500, seed=7)
    assert counts["mutants"] == 1500 and not counts.get("FALSE ACCEPT")
    assert not counts.get("accepted, not judged"), counts.get("not judged")  # the oracle decides every accepted mutant
    assert counts.get("accepted, true (oracle confirms)", 0) > 0  # some mutants are true statements


@pytest.mark.slow
def test_large_campaign_has_no_false_accepts():
    counts = campaign(12000, seed=1)
    assert counts["mutants"] == 12000 and not counts.get("FALSE ACCEPT")
    assert not counts.get("accepted, not judged"), counts.get("not judged")


# ----------------------------------------------------------------- coordinated mutants

import copy  # noqa: E402
import itertools  # noqa: E402

from lab.fuzz import data_mutants, settle  # noqa: E402
from lab.spec_oracle import judge  # noqa: E402

CHEAP = [d for d in SEEDS if not ("linear" in d.get("code", {}) and d["claims"]["code_size"] > 100)]


@settings(max_examples=20, deadline=None)  # the slow suite's campaigns run thousands
@given(st.integers(0, len(CHEAP) - 1), st.integers(0, 2**32 - 1), st.integers(0, 300))
def test_no_coordinated_mutant_is_falsely_accepted(which, rng_seed, index):
    """Change one datum, re-derive every claim until the checker accepts or rejects for a
    non-claim reason: an accepted mutant is true by the spec oracle; never exit 4."""
    items = list(itertools.islice(data_mutants(CHEAP[which], random.Random(rng_seed), index + 1), index + 1))
    pointer, mutant = items[index % len(items)]
    settled, verdict, _ = settle(mutant)
    assert verdict.code in (0, 1, 2, 3), f"{pointer}: {verdict.render()}"
    if verdict.code == 0:
        assert judge(settled) is True, f"{pointer}: accepted, but the spec oracle says it is not true"


def test_the_spec_oracle_confirms_the_seeds_and_refutes_false_claims():
    # the spec oracle is written from docs/certificate-format-v1.md: the v1 seeds (the v2
    # kinds and forms are judged by lab/fuzz.oracle, the generator's independent routes)
    for doc in (d for d in CHEAP if d["version"] == 1):
        assert judge(doc) is True, doc["kind"]
        key = {"construction": "worst_error", "lower-bound": "bound", "rank": "rank", "transcript": "bits"}[doc["kind"]]
        bad = copy.deepcopy(doc)
        bad["claims"][key] = bad["claims"][key] + 1 if isinstance(bad["claims"][key], int) else "1/3"
        assert judge(bad) is False, doc["kind"]
    tr = next(d for d in CHEAP if d["kind"] == "transcript" and d["s"] > 1)
    assert judge({**tr, "s": 1}) is False  # a false accept of the past: answers above s


def test_settling_reaches_large_valid_instances():
    """Large valid instances made by coordinated mutation: k = 256 at m = 60,
    n = 64, and a linear code at m = 1500: accepted, true by the spec oracle."""
    from kernelbounds.lowerbounds import assemble
    from kernelbounds.lowerbounds import certify
    from kernelbounds.lowerbounds.codes import paley

    doc = certify.certificate(assemble.assemble(paley.paley(23).padded(60), 64))
    doc["claims"]["k"] = 256
    settled, verdict, fixed = settle(doc)
    assert verdict.code == 0 and fixed >= 1 and judge(settled) is True, verdict.render()
    lin = next(d for d in SEEDS if "linear" in d.get("code", {}) and d["claims"]["code_size"] < 100)
    wide = next(m for p, m in data_mutants(lin, random.Random(0), 10) if p.startswith("/m="))
    wide = {**wide, "m": 1500, "code": {"linear": {**lin["code"]["linear"], "generator": [(r + "0" * 1500)[:1500] for r in lin["code"]["linear"]["generator"]]}}}
    settled, verdict, _ = settle(wide)
    assert verdict.code == 0, verdict.render()
    assert judge(settled) is True
