"""L4 assembly, witness families and the lower-bound checker rule."""

import copy

import pytest
from helpers import verdict
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.lowerbounds.codes import Code, golay, paley
from kernelbounds.lowerbounds.assemble import any_certificate, assemble, best, smallest_witness
from kernelbounds.lowerbounds.certify import certificate
from kernelbounds.lowerbounds.witness import witness_count, witness_family
from kernelbounds.model import min_ip_target


def test_theory_worked_example_m24_n3():
    lb = assemble(paley.paley(23).prefix(10), 3)
    assert lb.bound == 8 and lb.min_product == 5 and witness_count(lb) == 190


def test_smallest_witness_for_r8_has_at_most_190_inputs():
    lb = smallest_witness(24, 3, 8)
    assert lb.bound >= 8 and witness_count(lb) <= 190
    doc = certificate(lb, listed=True)
    assert verdict(doc).code == 0 and len(doc["witness"]["inputs"]) == witness_count(lb)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_bound_m24_certificates_check(n):
    lb = best(24, n)
    assert lb.bound >= {3: 8, 4: 50, 5: 100}[n]
    v = verdict(any_certificate(lb))
    assert v.code == 0, v.render()


def _thin(words):
    """Keep each word whose gaps to every kept word, both ways, are >= 2."""
    kept = []
    for w in words:
        if all((w & ~k).bit_count() >= 2 and (k & ~w).bit_count() >= 2 for k in kept):
            kept.append(w)
    return kept


def small_codes():
    """Random small codes with all gaps >= 2."""
    return st.integers(5, 10).flatmap(
        lambda m: st.tuples(st.just(m), st.lists(st.integers(1, 2**m - 1), min_size=2, max_size=12).map(_thin).filter(lambda w: len(w) >= 2))
    )


@given(small_codes(), st.integers(3, 6))
def test_witness_count_equals_the_listed_distinct_family(mw, n):
    m, words = mw
    lb = assemble(Code("random", m, tuple(words)), n)
    family = witness_family(lb)
    assert len(family) == len(set(family)) == witness_count(lb)
    doc = certificate(lb, listed=True)
    assert verdict(doc).code == 0


@given(small_codes(), st.integers(3, 5))
def test_witness_inputs_have_the_levels_the_chains_need(mw, n):
    """Every mixed input (q, a, b, ..., b) has levels <q,a> < <q,b> with gap >= 2, and
    its Min-IP target at the query is <q, a> (THEORY L1's S_M)."""
    m, words = mw
    lb = assemble(Code("random", m, tuple(words)), n)
    for inp in witness_family(lb):
        q, a, b = inp[0], inp[1], inp[-1]
        la, lb_ = (q & a).bit_count(), (q & b).bit_count()
        if a != b:
            assert lb_ - la >= 2 and min_ip_target(inp, 0) == la
        else:
            assert min_ip_target(inp, 0) == la


def _lb_doc():
    return certificate(assemble(golay.octads().prefix(40), 3))


def test_claiming_one_more_is_rejected():
    doc = _lb_doc()
    doc["claims"]["bound"] += 1
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/claims/bound"
    doc["claims"]["bound"] -= 2
    assert verdict(doc).code == 1


@pytest.mark.parametrize("field,delta", [("k", 1), ("min_product", 1), ("witness_inputs", 1), ("witness_inputs", -1)])
def test_tampered_claims_are_rejected(field, delta):
    doc = _lb_doc()
    doc["claims"][field] += delta
    v = verdict(doc)
    assert v.code == 1 and v.pointer.startswith("/claims"), v.render()


def test_a_pair_too_close_is_rejected():
    doc = _lb_doc()
    w0 = doc["code"]["words"][0]
    flipped = w0[:-1] + ("1" if w0[-1] == "0" else "0")
    doc["code"]["words"][1] = flipped
    v = verdict(doc)
    assert v.code == 1 and v.pointer.startswith("/code/words/"), v.render()


def test_a_chain_step_of_gap_1_is_rejected():
    doc = _lb_doc()
    sched = doc["schedules"][0]
    sched["levels"] = [0, 1] + sched["levels"][1:]
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/schedules/0/levels/1", v.render()


def test_repeated_word_and_listed_family_tampering():
    doc = _lb_doc()
    doc["code"]["words"][3] = doc["code"]["words"][2]
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/code/words/3"
    lb = assemble(paley.paley(23).prefix(10), 3)
    listed = certificate(lb, listed=True)
    dropped = copy.deepcopy(listed)
    dropped["witness"]["inputs"].pop()
    dropped["claims"]["witness_inputs"] -= 1
    assert verdict(dropped).code == 1
    swapped = copy.deepcopy(listed)
    swapped["witness"]["inputs"][0] = swapped["witness"]["inputs"][0][::-1]
    assert verdict(swapped).code == 1


def test_malformed_and_limits():
    doc = _lb_doc()
    bad = copy.deepcopy(doc)
    bad["variant"] = "magic"
    assert verdict(bad).code == 2 and verdict(bad).pointer == "/variant"
    bad = copy.deepcopy(doc)
    bad["n"] = 2
    assert verdict(bad).code == 2
    bad = copy.deepcopy(doc)
    bad["code"]["words"][0] = bad["code"]["words"][0] + "0"
    assert verdict(bad).code == 2 and verdict(bad).pointer == "/code/words/0"

    v = verdict(doc, max_pairs=100)
    assert v.code == 3


# ----------------------------------------------------------------- linear codes


from kernelbounds.lowerbounds.codes.linear import golay_linear, reed_muller  # noqa: E402
from kernelbounds.lowerbounds.assemble import assemble_linear  # noqa: E402
from kernelbounds.lowerbounds.certify import linear_certificate  # noqa: E402
from kernelbounds.lowerbounds.witness import linear_witness_count  # noqa: E402


def test_reed_muller_and_golay_weight_distributions():
    assert reed_muller(1, 5).count_of_weight(16) == 62 and reed_muller(1, 5).min_distance == 16
    rm25 = reed_muller(2, 5)
    assert (rm25.min_distance, rm25.count_of_weight(8), rm25.count_of_weight(12), rm25.count_of_weight(16)) == (8, 620, 13888, 36518)
    assert sorted(golay_linear().words_of_weight(8)) == sorted(golay.octads().words)


@pytest.mark.parametrize("n", [3, 5])
def test_uniform_linear_bound_never_beats_the_per_entry_bound_on_the_same_words(n):
    lin = assemble_linear(golay_linear(), 12, n)
    per_entry = assemble(golay.dodecads(), n)
    assert lin.size == per_entry.code.size and lin.bound <= per_entry.bound


@pytest.mark.slow  # about 25-60 s; scripts/test-slow runs it
@given(st.integers(3, 5), st.sampled_from([(1, 4, 8), (2, 4, 8), (1, 3, 4)]), st.sampled_from(["position-independent", "position-dependent", "causal"]))
def test_linear_witness_count_equals_the_explicit_family(n, rmw, variant):
    """The count formula of rule chains-prefix-v1 against the family built pair by pair."""
    from kernelbounds.lowerbounds.assemble import LowerBound
    from kernelbounds.lowerbounds.witness import witness_family

    r, mu, w = rmw
    code = reed_muller(r, mu)
    lin = assemble_linear(code, w, n, variant)
    words = Code("rm", code.m, tuple(code.words_of_weight(w)))
    levels = lin.levels
    schedules = {g: levels[:-1] + (g,) for g in words.gaps()}  # the last link stretched to each gap
    explicit = LowerBound(code.m, n, variant, words, words.gaps(), schedules, {}, lin.rank)
    family = witness_family(explicit)
    assert len(family) == len(set(family)) == linear_witness_count(lin)


def test_linear_certificates_check_and_resist_tampering():
    doc = linear_certificate(assemble_linear(reed_muller(2, 5), 16, 5))
    assert verdict(doc).code == 0
    for field, delta in [("bound", 1), ("code_size", 1), ("min_distance", 2), ("witness_inputs", -1), ("min_product", 1)]:
        bad = copy.deepcopy(doc)
        bad["claims"][field] += delta
        v = verdict(bad)
        assert v.code == 1 and v.pointer == f"/claims/{field}", (field, v.render())
    bad = copy.deepcopy(doc)
    bad["code"]["linear"]["generator"][3] = bad["code"]["linear"]["generator"][2]
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/code/linear/generator"
    bad = copy.deepcopy(doc)
    bad["schedules"][0] = {"gap": 6, "levels": [0, 6]}  # d_min = 8 guarantees gaps >= 4 only
    assert verdict(bad).code == 1 and verdict(bad).pointer == "/schedules/0/gap"


@pytest.mark.parametrize("m, n, target, variant", [(24, 3, 8, "position-independent"), (24, 4, 8, "position-dependent"), (16, 5, 10, "position-dependent"), (24, 6, 20, "position-independent")])
def test_listed_size_is_the_listed_certificate_s_exact_byte_count(m, n, target, variant):
    from kernelbounds.certificate import canonical_json
    from kernelbounds.lowerbounds.certify import listed_size

    lb = smallest_witness(m, n, target, variant)
    assert listed_size(lb) == len(canonical_json(certificate(lb, listed=True)).encode())
