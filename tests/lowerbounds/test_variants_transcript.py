"""L5 variants (position-dependent, causal) and the §4 transcript bound."""

import copy

import pytest
from helpers import verdict
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.lowerbounds.codes import paley
from kernelbounds.lowerbounds.assemble import assemble
from kernelbounds.lowerbounds.certify import certificate
from kernelbounds.lowerbounds.witness import witness_count, witness_family
from kernelbounds.model import min_ip_target
from kernelbounds.lowerbounds.transcript import answers, binary_bits, fooling_family, verify
from kernelbounds.lowerbounds.transcript import certificate as transcript_certificate


def test_worked_example_family_sizes():
    code = paley.paley(23).prefix(10)
    sizes = {v: witness_count(assemble(code, 3, v)) for v in ("position-independent", "position-dependent", "causal")}
    assert sizes == {"position-independent": 190, "position-dependent": 280, "causal": 190}


@pytest.mark.parametrize("variant", ["position-dependent", "causal"])
@pytest.mark.parametrize("n", [3, 4])
def test_variant_families(variant, n):
    lb = assemble(paley.paley(11).prefix(6), n, variant)
    family = witness_family(lb)
    assert len(family) == len(set(family)) == witness_count(lb)
    scored = n - 1 if variant == "causal" else 0
    for inp in family:
        others = [z for j, z in enumerate(inp) if j != scored]
        if len(set(others)) == 2:  # a mixed input: exactly one better key
            levels = sorted((inp[scored] & z).bit_count() for z in others)
            assert levels.count(levels[0]) == 1 and min_ip_target(inp, scored) == levels[0]
    doc = certificate(lb, listed=True)
    assert verdict(doc).code == 0


def test_changing_the_variant_of_a_listed_certificate_is_rejected():
    doc = certificate(assemble(paley.paley(23).prefix(10), 3, "position-dependent"), listed=True)
    for other in ("position-independent", "causal"):
        bad = copy.deepcopy(doc)
        bad["variant"] = other
        assert verdict(bad).code == 1


def test_rule_certificates_for_variants_check():
    for variant in ("position-dependent", "causal"):
        lb = assemble(paley.paley(23), 3, variant)
        assert verdict(certificate(lb)).code == 0


@given(st.integers(1, 3), st.integers(1, 4))
def test_fooling_family_answers_by_brute_force(q, s):
    family = fooling_family(q, s)
    assert len(family) == (s + 1) ** q
    fixed = family[0][1][:q]
    for t, tokens in family:
        assert tokens[:q] == fixed and len(tokens) == 2 * q
        assert all(x < 2 ** ((q + 1) * s) for x in tokens)
        assert answers(tokens, q) == t
    tb = verify(q, s)
    assert tb.bits >= 1 and 2**tb.bits >= (s + 1) ** q > 2 ** (tb.bits - 1)  # (s + 1)^q >= 2 here


def test_transcript_bits_and_vectors_of_small_cases():
    assert verify(3, 4).bits == 7 and verify(3, 4).vectors == 125
    assert verify(8, 1).bits == 8
    assert binary_bits(1) == 0 and binary_bits(2) == 1 and binary_bits(5) == 3


def test_transcript_certificate_and_tampering():
    doc = transcript_certificate(3, 2)
    assert verdict(doc).code == 0
    bad = copy.deepcopy(doc)
    bad["claims"]["bits"] += 1
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/claims/bits"
    bad = copy.deepcopy(doc)
    bad["inputs"][5][0] = bad["inputs"][5][3]  # a query token changes in one input
    v = verdict(bad)
    assert v.code == 1 and v.pointer == "/inputs/5"
    bad = copy.deepcopy(doc)
    bad["inputs"][7] = bad["inputs"][2]
    assert verdict(bad).code == 1
    assert verdict(doc, max_transcript_work=10).code == 3
