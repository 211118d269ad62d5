"""The per-entry lower bound through automorphism orbits (THEORY §3 L3 "Rows in one
orbit", L4; docs/certificate-format-v2.md): the orbit route against the full pairwise
route, the checker's rejections, the closed-form witness count, million-word rows."""

from __future__ import annotations

import copy
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.lowerbounds import assemble
from kernelbounds import bits as bits_module
from kernelbounds.lowerbounds import orbitform
from kernelbounds.lowerbounds import witness as witness_module
from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, check_bytes
from kernelbounds.checker.rules import chains, orbits_work
from kernelbounds.checker.rules.lowerbound import Family
from kernelbounds.lowerbounds.codes import Code
from kernelbounds.lowerbounds.codes.library import linear_candidates
from kernelbounds.lowerbounds.codes.linear import reed_muller, shortened_on_flat
from kernelbounds.lowerbounds.symmetry import apply, orbits, row_histogram

VARIANTS = ["position-independent", "position-dependent", "causal"]


def verdict(doc, limits=None):
    return check_bytes(canonical_json(doc).encode(), limits=limits)


def doubled(word: int, h: int) -> int:
    """Bit i of an h-bit word becomes bits 2i and 2i+1: every gap doubles (so >= 2)."""
    return sum(3 << (2 * i) for i in range(h) if (word >> i) & 1)


def rotate(word: int, h: int, s: int) -> int:
    return ((word << s) | (word >> (h - s))) & ((1 << h) - 1)


def reflect(word: int, h: int) -> int:
    return sum(1 << ((h - i) % h) for i in range(h) if (word >> i) & 1)


@st.composite
def symmetric_codes(draw):
    """A random doubled code closed under the cyclic shift (and maybe the reflection) of
    its h base coordinates, with those permutations as automorphisms; N <= 3000."""
    h = draw(st.integers(4, 10))
    w = draw(st.integers(1, h - 1))
    base = draw(st.lists(st.sets(st.integers(0, h - 1), min_size=w, max_size=w), min_size=1, max_size=4))
    with_reflection = draw(st.booleans())
    words = set()
    for support in base:
        x = sum(1 << i for i in support)
        for s in range(h):
            y = rotate(x, h, s) if s else x
            words.add(y)
            if with_reflection:
                words.add(reflect(y, h))
    m = 2 * h
    perms = [tuple((i + 2) % m for i in range(m))]
    if with_reflection:
        perms.append(tuple(2 * ((h - i // 2) % h) + i % 2 for i in range(m)))
    code = Code("cyclic", m, tuple(sorted(doubled(x, h) for x in words)))
    return code, perms


@settings(max_examples=40, deadline=None)
@given(symmetric_codes(), st.integers(3, 6), st.sampled_from(VARIANTS))
def test_orbit_route_equals_the_pairwise_route_on_random_symmetric_codes(code_perms, n, variant):
    code, perms = code_perms
    pairwise = assemble.assemble(code, n, variant)
    orbit = orbitform.assemble_listed_orbits(code, perms, n, variant)
    assert orbit.gaps == pairwise.gaps  # sum over orbits |O| x row histogram = all ordered pairs
    assert orbit.products == pairwise.products and orbit.rank == pairwise.rank
    assert orbit.witness_count() == pairwise.witness_count()
    a, b = verdict(orbit.certificate()), verdict(pairwise.certificate())
    assert a.code == 0 and b.code == 0, (a.render(), b.render())
    assert f"r >= {pairwise.bound} " in a.summary and f"r >= {pairwise.bound} " in b.summary


def _library_weight_classes():
    """Every library weight class with automorphisms and N <= 3000 (unpadded codes once)."""
    out, seen = [], set()
    for m in (16, 20, 24, 28, 30, 31, 32):
        for code, w in linear_candidates(m):
            base = code.unpadded
            if base.automorphisms and 2 <= base.count_of_weight(w) <= 3000 and (base.name, w) not in seen:
                seen.add((base.name, w))
                out.append((base.m, base, w))
    return out


@pytest.mark.parametrize("m,code,w", _library_weight_classes(), ids=lambda x: getattr(x, "name", str(x)))
def test_orbit_route_equals_the_pairwise_route_on_library_codes(m, code, w):
    words = Code(code.name, code.m, tuple(code.words_of_weight(w)))
    for n in (3, 5):
        orbit = orbitform.assemble_linear_orbits(code, w, n)
        if orbit is None:  # some pair has gap 1: neither route gives a bound
            assert min(words.gaps()) < 2
            with pytest.raises(ValueError):
                assemble.assemble(words, n)
            continue
        pairwise = assemble.assemble(words, n)
        assert orbit.gaps == pairwise.gaps and orbit.products == pairwise.products
        assert orbit.bound == pairwise.bound and orbit.witness_count() == pairwise.witness_count()


def test_affine_group_has_the_three_orbits_of_theory_on_rm26_weight_32():
    code = reed_muller(2, 6)
    found = orbits(code.words_of_weight_array(32), code.automorphisms)
    assert sorted(found.sizes) == [126, 78120, 1749888]  # THEORY L3 "Rows in one orbit"


def test_permuted_code_words_stay_code_words():
    """Each generator of the flat stabiliser maps the shortened RM code onto itself."""
    code = shortened_on_flat(2, 6, 3)
    words = code.words_of_weight_array(24)
    for p in code.automorphisms:
        assert np.array_equal(np.sort(apply(p, words)), words)


# ------------------------------------------------------------------ the checker's rejections


@pytest.fixture(scope="module")
def rm5_doc():
    """RM(2,5) weight 16 at m = 32: three orbits (62, 8680, 27776)."""
    code = reed_muller(2, 5)
    return orbitform.assemble_linear_orbits(code, 16, 3).certificate()


def test_orbit_certificate_is_valid_and_version_2(rm5_doc):
    v = verdict(rm5_doc)
    assert v.code == 0, v.render()
    bad = copy.deepcopy(rm5_doc)
    bad["version"] = 1
    v = verdict(bad)
    assert v.code == 2 and v.pointer == "/symmetry"


def test_a_permutation_that_is_not_an_automorphism_is_rejected(rm5_doc):
    bad = copy.deepcopy(rm5_doc)
    perm = list(range(32))
    perm[0], perm[1], perm[2] = 1, 2, 0  # a 3-cycle of points: not affine
    bad["symmetry"]["permutations"].insert(1, perm)
    v = verdict(bad)
    assert v.code == 1 and v.pointer == "/symmetry/permutations/1", v.render()
    bad["symmetry"]["permutations"][1] = [0] * 32
    v = verdict(bad)
    assert v.code == 1 and v.pointer == "/symmetry/permutations/1"


def test_an_orbit_split_or_merged_by_hand_is_rejected(rm5_doc):
    orbits_claim = rm5_doc["claims"]["orbits"]
    split = copy.deepcopy(rm5_doc)  # one orbit listed twice, from a second representative
    big = orbits_claim[2]
    other = next(w for w in reed_muller(2, 5).words_of_weight(16) if bits_module.to_str(w, 32) != big["representative"])
    code = reed_muller(2, 5)
    found = orbits(code.words_of_weight_array(16), code.automorphisms)
    same_orbit = [int(x) for x, lab in zip(code.words_of_weight_array(16), found.labels, strict=True) if lab == 2]
    second = bits_module.to_str(same_orbit[1], 32)
    split["claims"]["orbits"].append(dict(big, representative=second, size=1))
    v = verdict(split)
    assert v.code == 1 and v.pointer == "/claims/orbits/3/representative", v.render()
    merged = copy.deepcopy(rm5_doc)  # two orbits merged into one claim
    merged["claims"]["orbits"][1]["size"] += merged["claims"]["orbits"][0]["size"]
    del merged["claims"]["orbits"][0]
    v = verdict(merged)
    assert v.code == 1 and v.pointer == "/claims/orbits/0/size", v.render()
    missing = copy.deepcopy(rm5_doc)
    del missing["claims"]["orbits"][0]
    v = verdict(missing)
    assert v.code == 1 and v.pointer == "/claims/orbits", v.render()
    assert other


def test_a_changed_histogram_count_or_gap_is_rejected(rm5_doc):
    bad = copy.deepcopy(rm5_doc)
    bad["claims"]["orbits"][1]["gaps"][2]["count"] += 1
    v = verdict(bad)
    assert v.code == 1 and v.pointer == "/claims/orbits/1/gaps/2/count", v.render()
    bad = copy.deepcopy(rm5_doc)
    bad["claims"]["orbits"][0]["gaps"].insert(0, {"gap": 3, "count": 0})
    v = verdict(bad)
    assert v.code == 1 and v.pointer == "/claims/orbits/0/gaps/0/gap", v.render()
    bad = copy.deepcopy(rm5_doc)
    del bad["claims"]["orbits"][0]["gaps"][-1]
    v = verdict(bad)
    assert v.code == 1 and v.pointer == "/claims/orbits/0/gaps", v.render()


def test_a_schedule_for_a_gap_that_never_occurs_is_rejected(rm5_doc):
    bad = copy.deepcopy(rm5_doc)
    bad["schedules"].append({"gap": 5, "levels": [0, 5]})  # RM(2,5) weight-16 gaps are even
    v = verdict(bad)
    assert v.code == 1 and v.pointer == f"/schedules/{len(bad['schedules']) - 1}/gap", v.render()
    bad = copy.deepcopy(rm5_doc)
    del bad["schedules"][0]
    v = verdict(bad)
    assert v.code == 1 and v.pointer == "/schedules", v.render()


@pytest.mark.parametrize("field", ["bound", "min_product", "witness_inputs", "code_size"])
def test_a_claim_one_too_high_is_rejected(rm5_doc, field):
    bad = copy.deepcopy(rm5_doc)
    bad["claims"][field] += 1
    v = verdict(bad)
    assert v.code == 1 and v.pointer == f"/claims/{field}", v.render()


def test_listed_orbit_certificates_reject_a_non_automorphism():
    code = Code("dodecagon", 12, tuple(sorted(doubled(x, 6) for x in (0b000111, 0b001110, 0b011100, 0b111000, 0b110001, 0b100011))))
    doc = orbitform.assemble_listed_orbits(code, [tuple((i + 2) % 12 for i in range(12))], 3).certificate()
    assert verdict(doc).code == 0
    doc["symmetry"]["permutations"].append([1, 0] + list(range(2, 12)))  # swaps the two copies of bit 0: still fine
    assert verdict(doc).code == 0
    doc["symmetry"]["permutations"].append([2, 1, 0] + list(range(3, 12)))
    v = verdict(doc)
    assert v.code == 1 and v.pointer == "/symmetry/permutations/2", v.render()


def test_orbit_work_over_the_limit_is_refused_before_any_work(rm5_doc):
    need = orbits_work.work_orbits(lowerbound_node(rm5_doc), Limits())
    v = verdict(rm5_doc, Limits().with_overrides(max_orbit_work=need - 1))
    assert v.code == 3 and v.pointer == "/symmetry"
    assert verdict(rm5_doc, Limits().with_overrides(max_orbit_work=need)).code == 0


def lowerbound_node(doc):
    from kernelbounds.checker.jsonread import Node

    return Node(doc)


# ------------------------------------------------------------------ witness counts: two routes


@settings(max_examples=30, deadline=None)
@given(symmetric_codes(), st.integers(3, 7), st.sampled_from(VARIANTS))
def test_closed_form_witness_count_equals_the_enumerated_rows(code_perms, n, variant):
    """chains.constant_weight_row_count against Family.row_count (which enumerates every
    row's keys and links) and the explicit family, on constant-weight codes."""
    code, _ = code_perms
    lb = assemble.assemble(code, n, variant)
    words, m = list(code.words), code.m
    schedules = {g: (levels, 0) for g, levels in lb.schedules.items()}
    family = Family(words, m, n, variant, schedules)
    per_link = chains.placements(variant, n)
    full = (1 << m) - 1
    total_closed = total_enum = 0
    for i, c in enumerate(words):
        gaps = [((full ^ c) & d).bit_count() for d in words]
        row = [g for j, g in enumerate(gaps) if j != i]
        total_closed += chains.constant_weight_row_count(len(words), row, schedules, per_link)
        total_enum += family.row_count(i, gaps)
    assert total_closed == total_enum == lb.witness_count()
    if len(words) <= 40:
        assert len(set(witness_module.witness_family(lb))) == total_closed


# ------------------------------------------------------------------ reading certificates back


def test_from_certificate_rebuilds_every_form():
    docs = [
        assemble.assemble(Code("blocks", 9, (7, 56, 448)), 3, "causal").certificate(),
        assemble.assemble_linear(reed_muller(2, 4), 8, 4).certificate(),
        orbitform.assemble_linear_orbits(reed_muller(2, 5), 12, 4, "position-dependent").certificate(),
    ]
    for doc in docs:
        assert assemble.from_certificate(doc).certificate() == doc


# ------------------------------------------------------------------ million-word rows


def test_one_row_of_a_million_word_code_by_plain_python_popcounts():
    """The 1,828,134 weight-32 words of RM(2,6): one representative's row by a plain
    Gray-code enumeration and int.bit_count, against the numpy bincount route."""
    code = reed_muller(2, 6)
    rows, words, word = code.rows, [], 0
    for i in range(1, 2 ** len(rows)):
        word ^= rows[(i & -i).bit_length() - 1]
        if word.bit_count() == 32:
            words.append(word)
    assert len(words) == 1828134
    rep = words[12345]
    q = ((1 << 64) - 1) ^ rep
    plain = Counter((q & c).bit_count() for c in words)
    plain[0] -= 1
    plain = {g: c for g, c in plain.items() if c}
    assert plain == row_histogram(rep, code.words_of_weight_array(32), 64)
    assert sum(plain.values()) == len(words) - 1


@pytest.mark.slow
def test_the_m64_orbit_certificate_checks_within_the_default_limits():
    lb = assemble.best(64, 3)
    assert lb.form.startswith("per-entry (orbits)") and lb.bound >= 10 * 135
    v = verdict(lb.certificate())  # the default limits; its time is a scripts/bench row
    assert v.code == 0, v.render()


# ------------------------------------------------------------------ the command line and the table


@pytest.mark.parametrize("m", [2, 3])
def test_bound_answers_the_trivial_bound_where_no_code_fits(m, capsys, tmp_path):
    import json

    from kernelbounds.cli import main

    assert main(["bound", "--m", str(m), "--n", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lower"] == 1 and out["lower_method"] == "trivial" and out["code"] is None
    assert main(["bound", "--m", str(m), "--n", "3", "-o", str(tmp_path / "x.json")]) == 2
    assert not (tmp_path / "x.json").exists()


def test_bound_json_names_the_orbit_form(capsys):
    import json

    from kernelbounds.cli import main

    assert main(["bound", "--m", "32", "--n", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["form"] == "per-entry (orbits)" and out["orbits"] == 3 and out["code_size"] == 36518 and out["lower"] == 58


def test_table_lower_column_is_nondecreasing_in_m():
    from kernelbounds.reports import report

    rows = report.table(range(11, 15), range(3, 9, 5), jobs=1)
    for n in (3, 8):
        lows = [r.lower for r in rows if r.n == n]
        assert lows == sorted(lows)


@pytest.mark.parametrize("m", [70, 140])
def test_padded_orbit_certificates_beyond_64_bits_check(m):
    """Padding keeps every gap and orbit (the lookup tables switch to 8 bits above m = 128)."""
    small = orbitform.assemble_linear_orbits(reed_muller(2, 4), 6, 3)
    lb = orbitform.assemble_linear_orbits(reed_muller(2, 4).padded(m), 6, 3)
    assert (lb.bound, lb.gaps, lb.witness_count()) == (small.bound, small.gaps, small.witness_count())
    v = verdict(lb.certificate())
    assert v.code == 0 and f"r >= {small.bound} " in v.summary
