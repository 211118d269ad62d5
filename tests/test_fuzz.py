"""Mutation fuzzing: every single-field mutant of a valid certificate is rejected or, if
accepted, confirmed true by an independent oracle (the generator's own routes)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import check_bytes
from kernelbounds.lab.fuzz import campaign, mutants, oracle, seeds

SEEDS = seeds()


@settings(max_examples=150)
@given(st.integers(0, len(SEEDS) - 1), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_no_mutant_is_falsely_accepted(which, rng_seed, index):
    doc = SEEDS[which]
    for i, (pointer, mutant) in enumerate(mutants(doc, random.Random(rng_seed), index + 1)):
        if i == index:
            verdict = check_bytes(canonical_json(mutant).encode() if isinstance(mutant, dict) else b"null")
            if verdict.code == 0:
                assert oracle(mutant) is not False, f"false accept at {pointer}"
            else:
                assert verdict.code in (1, 2, 3) and (verdict.pointer or verdict.code == 2)


def test_seeds_are_valid_and_the_oracle_confirms_them():
    for doc in SEEDS:
        assert check_bytes(canonical_json(doc).encode()).code == 0
        assert oracle(doc) is not False


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
    assert counts.get("accepted, true (oracle confirms)", 0) > 0  # some mutants are true statements


@pytest.mark.slow
def test_large_campaign_has_no_false_accepts():
    counts = campaign(12000, seed=1)
    assert counts["mutants"] == 12000 and not counts.get("FALSE ACCEPT")
