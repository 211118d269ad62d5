"""Mutation fuzzing: every single-field mutant of a valid certificate is rejected or, if
accepted, confirmed true by an independent oracle (the generator's own routes)."""

import random

import pytest
from helpers import verdict
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Code, check_bytes
from kernelbounds.lab.fuzz import campaign, mutants, oracle, seeds

SEEDS = seeds()


@settings(max_examples=150)
@given(st.integers(0, len(SEEDS) - 1), st.integers(0, 2**32 - 1), st.data())
def test_no_mutant_is_falsely_accepted(which, rng_seed, data):
    """One mutant drawn from the seed's whole mutant stream: rejected with a pointer (or
    as malformed), or accepted and then confirmed true by the oracle."""
    stream = list(mutants(SEEDS[which], random.Random(rng_seed), 400))
    pointer, mutant = stream[data.draw(st.integers(0, len(stream) - 1))]
    verdict = check_bytes(canonical_json(mutant).encode() if isinstance(mutant, dict) else b"null")
    if verdict.code == Code.VALID:
        assert oracle(mutant) is True, f"accepted but not confirmed at {pointer}"
    else:
        assert verdict.code in (Code.INVALID, Code.MALFORMED, Code.LIMIT) and (verdict.pointer or verdict.code == Code.MALFORMED)


def test_seeds_are_valid_and_the_oracle_confirms_them():
    for doc in SEEDS:
        assert verdict(doc).code == Code.VALID
        assert oracle(doc) is True


def test_the_oracle_is_not_vacuous():
    """It refutes known-false claims of every kind."""
    for doc in SEEDS:
        bad = __import__("copy").deepcopy(doc)
        key = {"construction": "worst_error", "lower-bound": "bound", "rank": "rank", "transcript": "bits"}[doc["kind"]]
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
