"""The format-v2 spec oracle (lab/spec_oracle_v2.py): it confirms the committed
v2 certificates and refutes hand-made false ones, one per rule of
docs/certificate-format-v2.md (a claimed number, a g_j, a multiplier, a table entry, an
orbit size, ...)."""

import base64
import copy
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import committed_sample
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.spec_oracle_v2 import judge, readout_table

CERTS = Path(__file__).resolve().parents[2] / "certificates"
# decided, but in 2-8 s each: the m = 48 and m = 64 orbit forms (2^21 and 2^22 words of the
# span, by the numpy route) and the explicit heads m = 8, rank 37 and m = 9, ranks 12 and 9
SLOW = {f"lower-position-independent-m{m}-n{n}.json" for m in (48, 64) for n in range(3, 9)} | {"explicit-head-m08-n3-r37.json", "explicit-head-m09-n3-r12.json", "explicit-head-m09-n3-r7.json"}
SLOW |= {f"lower-{k}-m64-n3.json" for k in ("signed-position-independent", "signed-any-denominator-position-independent", "signed-any-denominator-causal")}
SLOW |= {"lower-signed-any-denominator-position-independent-m48-n3.json"} | {f"lower-signed-any-denominator-position-independent-m64-n{n}.json" for n in range(4, 9)}
# the direct sums with an RM(2,6) component (n = 3 from m = 80 on: 2^22 words of its span)
SLOW |= {f"lower-sum-{k}-m{m:03d}-n3.json" for m in (80, 88, 96, 128, 192, 256)
         for k in ("position-independent", "signed-any-denominator-position-independent", "signed-position-independent", "signed-any-denominator-causal")}
# the listed signed-kernel files at m = 24 restate v1 files whose 13-20 million input
# families the v1 oracle declines (as it declines their nonnegative originals)
UNDECIDED: set[str] = {f"lower-{k}-m24-n{n}.json" for k, n in (("signed-position-independent", 3), ("signed-position-dependent", 3),
                       ("signed-any-denominator-position-independent", 3), ("signed-any-denominator-causal", 3), ("signed-any-denominator-position-independent", 4))}
# the m = 10 and 11 explicit heads: 2^20 and 2^22 table cells of Fractions and a 1,024-side exact rank, over the
# oracle's bounds (MAX_TABLE_CELLS, MAX_RANK_SIDE); the checker decides it (rule E2, about 30 s)
UNDECIDED |= {"explicit-head-m10-n3-r10.json", "explicit-head-m11-n3-r12.json"}


def load(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


# kinds judged by other oracles or their own tests: orthant and crossing by
# lab/spec_oracle_signrank.py (tests/lab/test_spec_oracle_signrank.py), level-family-minimality
# by tests/upperbounds/test_minimality.py, rank-refutation by tests/checker/test_rank_refutation.py,
# rank-extension by tests/checker/test_rank_extension.py (its family's direct CNF solved on an instance)
OTHER_KINDS = {"orthant", "crossing", "level-family-minimality", "rank-refutation", "rank-extension"}


def v2_files() -> list[str]:
    return sorted(p.name for p in CERTS.glob("*.json") if (d := json.loads(p.read_text())).get("version") == 2 and d["kind"] not in OTHER_KINDS)


def test_every_committed_v2_kind_is_covered():
    kinds = {(load(f)["kind"], "symmetry" in load(f), "minimality" in load(f)) for f in v2_files()}
    assert kinds <= {("level-family", False, True), ("level-family", False, False), ("explicit-head", False, False),
                     ("rank-one-infeasible", False, False), ("lower-bound", True, False),
                     ("lower-bound", False, False),  # listed signed-kernel files (field kernel)
                     ("direct-sum", False, False), ("multi-block-level-family", False, False)}
    assert {k[0] for k in kinds} == {"level-family", "explicit-head", "rank-one-infeasible", "lower-bound", "direct-sum", "multi-block-level-family"}


def _m(name: str) -> int:
    return int(re.search(r"-m0*(\d+)-", name).group(1))


# above m = 128 the oracle takes 0.5-4 s a file (180 files: minutes in all): the default suite
# judges every committed v2 file up to m = 128 and the two largest level families (m = 256,
# n = 3, both signs); the slow suite judges the rest
LARGE = {f for f in v2_files() if _m(f) > 128} - SLOW - UNDECIDED - {"upper-any-m256-n3.json", "upper-nonnegative-m256-n3.json"}


@pytest.mark.parametrize("name", [f for f in v2_files() if f not in SLOW | UNDECIDED | LARGE])
def test_the_oracle_confirms_the_committed_v2_certificates(name):
    assert judge(load(name)) is True  # decided: an undecided (None) fails as a false would


# the slow suite re-judges a sample of these chosen by the commit (a different one at every
# commit; about a sixth of each set, some 40 s of the oracle), and every file in the release
# check (scripts/release-check, KERNELBOUNDS_RELEASE_CHECK=1: about 4 CPU-minutes)
@pytest.mark.slow
@pytest.mark.parametrize("name", committed_sample(LARGE, 30))
def test_the_oracle_confirms_the_committed_v2_certificates_above_m128(name):
    assert judge(load(name)) is True


@pytest.mark.slow
@pytest.mark.parametrize("name", committed_sample(SLOW, 8))
def test_the_oracle_confirms_the_slower_committed_certificates(name):
    assert judge(load(name)) is True


def test_the_oracle_judges_signed_files_by_their_nonnegative_restatement():
    doc = load("witness-signed-m24-n3-r7.json")
    assert judge(doc) is True
    assert judge({**doc, "claims": {**doc["claims"], "bound": 8}}) is False  # the K-ratio bound is not claimed
    assert judge({**doc, "kernel": "signed-any-denominator", "variant": "position-dependent"}) is False
    assert judge({**doc, "version": 1}) is False
    assert all(judge(load(name)) is None for name in UNDECIDED)


def test_the_oracle_declines_what_it_cannot_decide():
    lf = load("upper-any-m20-n3.json")
    assert judge({**lf, "m": 300}) is None  # C(303, 3) extreme level classes
    eh = load("explicit-head-m04-n3-r2.json")
    assert judge({**eh, "m": 10}) is None  # 2^20 table cells, refused before reading them


def changed(doc: dict, edit) -> dict:
    bad = copy.deepcopy(doc)
    edit(bad)
    return bad


def plus(x: str, d: str = "1/7") -> str:
    return str(Fraction(x) + Fraction(d))


def test_version_and_kind_are_checked_facts():
    doc = load("upper-any-m04-n3.json")
    assert judge({**doc, "version": 1}) is False  # a v2 kind in a v1 file
    assert judge({**doc, "version": True}) is False
    assert judge({**doc, "kind": "construction"}) is False
    assert judge({**doc, "format": "other"}) is False
    assert judge({**doc, "extra": 1}) is False  # unknown field
    lower = load("lower-position-independent-m24-n3.json")  # a v1 file: passed to the v1 oracle
    assert judge({**lower, "version": 2}) is False  # a v1-only file that declares 2
    orbit = load("lower-position-independent-m24-n5.json")
    assert judge({**orbit, "version": 1}) is False  # `symmetry` in a v1 file


# ------------------------------------------------------------------ level-family

LF_FREE = "upper-any-m04-n3.json"  # subset basis, free readout, signs any
LF_AFFINE = "upper-nonnegative-m07-n4.json"  # complement basis, affine readout, nonnegative


def first_row(doc):
    return doc["minimality"]["refuted"][0]["multipliers"]


LF_MUTATIONS = {
    "LF1 a g_j (the kernel is no longer positive)": (LF_AFFINE, lambda d: d["differences"].__setitem__(0, "0")),
    "LF2 nonnegative_features of signed g": (LF_FREE, lambda d: d["claims"].__setitem__("nonnegative_features", True)),
    "LF2 nonnegative_features as an integer": (LF_AFFINE, lambda d: d["claims"].__setitem__("nonnegative_features", 1)),
    "LF3 worst_error": (LF_AFFINE, lambda d: d["claims"].__setitem__("worst_error", plus(d["claims"]["worst_error"], "1/1000"))),
    "LF3 worst_error of the free readout": (LF_FREE, lambda d: d["claims"].__setitem__("worst_error", plus(d["claims"]["worst_error"], "-1/1000"))),
    "LF3 a g_j": (LF_AFFINE, lambda d: d["differences"].__setitem__(1, plus(d["differences"][1]))),
    "LF3 a table entry": (LF_FREE, lambda d: d["readout"]["table"][2].__setitem__(2, plus(d["readout"]["table"][2][2], "1"))),
    "LF3 a basis": (LF_FREE, lambda d: d.__setitem__("basis", "complement")),
    "LF3 n": (LF_AFFINE, lambda d: d.__setitem__("n", 5)),
    "LF4 eps out of (0, 1)": (LF_AFFINE, lambda d: d["readout"].__setitem__("eps", "1")),
    "LF4 value_dim": (LF_FREE, lambda d: d["readout"].__setitem__("value_dim", d["readout"]["value_dim"] - 1)),
    "LF4 a short table row": (LF_FREE, lambda d: d["readout"]["table"][3].pop()),
    "LF5 support": (LF_AFFINE, lambda d: d["claims"].__setitem__("support", [0, 4])),
    "LF5 feature_rank": (LF_AFFINE, lambda d: d["claims"].__setitem__("feature_rank", d["claims"]["feature_rank"] + 1)),
    "LF5 kernel_rank": (LF_FREE, lambda d: d["claims"].__setitem__("kernel_rank", d["claims"]["kernel_rank"] - 1)),
    "LF7 a multiplier": (LF_FREE, lambda d: first_row(d)[0].__setitem__("y", plus(first_row(d)[0]["y"], "1"))),
    "LF7 a weight row's d": (LF_FREE, lambda d: first_row(d)[-1].__setitem__("weight", 3)),
    "LF7 a class row's level": (LF_FREE, lambda d: first_row(d)[1]["class"].__setitem__(2, 2)),
    "LF7 a side": (LF_FREE, lambda d: first_row(d)[0].__setitem__("side", "upper")),
    "LF7 a lower side with the affine readout": (LF_AFFINE, lambda d: first_row(d)[0].__setitem__("side", "lower")),
    "LF7 a zero multiplier": (LF_FREE, lambda d: first_row(d)[0].__setitem__("y", "0")),
    "LF7 no multipliers": (LF_AFFINE, lambda d: d["minimality"]["refuted"][0].__setitem__("multipliers", [])),
    "LF7 coverage (a maximal cheaper support left out)": (LF_AFFINE, lambda d: d["minimality"]["refuted"].pop()),
    "LF7 a refuted support that is not cheaper": (LF_FREE, lambda d: d["minimality"]["refuted"][0].__setitem__("support", [0, 1, 4])),
    "LF7 signs nonnegative with signed g": (LF_FREE, lambda d: d["minimality"].__setitem__("signs", "nonnegative")),
    "LF7 a refuted support not increasing": (LF_AFFINE, lambda d: d["minimality"]["refuted"][0].__setitem__("support", [0, 5, 1])),
}


def test_a_level_family_without_minimality_is_judged_on_its_construction():
    doc = load(LF_AFFINE)
    del doc["minimality"]
    assert judge(doc) is True
    doc["claims"]["worst_error"] = "1/3"
    assert judge(doc) is False


def test_signs_nonnegative_accepts_a_combination_positive_on_g():
    """The `signs: nonnegative` rule asks >= 0 (not = 0) on g: a refutation that only
    holds for g >= 0 is accepted there and refuted under `signs: any`."""
    doc = load("upper-nonnegative-m04-n5.json")
    assert judge(doc) is True
    assert judge(changed(doc, lambda d: d["minimality"].__setitem__("signs", "any"))) is False


# ----------------------------------------------------------------- explicit-head

EH = "explicit-head-m04-n3-r2.json"
EH_POS = "explicit-rank1-m02-n3.json"


def negate_phi(d):
    d["head"]["phi"][0] = [str(-Fraction(x)) for x in d["head"]["phi"][0]]


EH_MUTATIONS = {
    "E1 a negative kernel entry": (EH, negate_phi),
    "E2 worst_error too low": (EH, lambda d: d["claims"].__setitem__("worst_error", plus(d["claims"]["worst_error"], "-1/10000"))),
    "E2 a readout entry": (EH, lambda d: d["head"]["readout"][5].__setitem__(6, plus(d["head"]["readout"][5][6], "1/3"))),
    "E2 a psi entry": (EH, lambda d: d["head"]["psi"][3].__setitem__(1, plus(d["head"]["psi"][3][1], "7"))),
    "E2 n": (EH, lambda d: d.__setitem__("n", 4)),
    "E3 worst_input": (EH, lambda d: d["claims"]["worst_input"].__setitem__("others", ["0000", "0000"])),
    "E3 worst_input of the wrong length": (EH, lambda d: d["claims"]["worst_input"]["others"].append("0000")),
    "E5 feature_rank": (EH, lambda d: d["claims"].__setitem__("feature_rank", 3)),
    "E5 value_dim": (EH, lambda d: d["claims"].__setitem__("value_dim", d["claims"]["value_dim"] - 1)),
    "E5 value_dim of a rank-one head": (EH_POS, lambda d: d["claims"].__setitem__("value_dim", d["claims"]["value_dim"] + 1)),
    "E5 nonnegative_features": (EH, lambda d: d["claims"].__setitem__("nonnegative_features", True)),
    "E5 nonnegative_features of a positive head": (EH_POS, lambda d: d["claims"].__setitem__("nonnegative_features", False)),
    "tables a ragged phi": (EH, lambda d: d["head"]["phi"][2].append("0")),
    "tables too few rows": (EH, lambda d: d["head"]["readout"].pop()),
    "positions": (EH, lambda d: d.__setitem__("positions", "last")),
}


def test_a_head_whose_worst_error_reaches_one_half_is_refuted():
    """U1's rank-one head at m = 2, n = 3 with the readout shifted to error exactly 1/2."""
    doc = load(EH_POS)
    doc["head"]["readout"] = [[plus(x, "1/2") for x in row] for row in doc["head"]["readout"]]
    doc["claims"]["worst_error"] = "1/2"
    assert judge(doc) is False


def packed_corpus() -> dict[str, dict]:
    corpus = Path(__file__).resolve().parents[1] / "corpus"
    manifest = json.loads((corpus / "MANIFEST.json").read_text())
    return {k: {**v, "doc": json.loads((corpus / k).read_text())} for k, v in manifest.items() if "explicit-head-packed" in k}


def test_the_oracle_agrees_with_the_checker_on_the_packed_readout_corpus():
    """The corpus's packed readouts (scripts/corpus.py; tests/checker/test_corpus.py pins the
    checker's exit and pointer on each): the m = 4 head packed as int16 and as int32 is
    confirmed, and so is a rank-one head at m = 1 on the extreme numerators -2^(b-1) and
    2^(b-1) - 1 (the same bytes big-endian are refuted); every malformed layout (encoding, denominator 0 / negative / a string, a
    character outside the alphabet, a line break, a character too many or too few, wrong
    padding, an extra or missing field, int16 data labelled int32 and back) and every
    tampered number (a numerator failing E2 or E3, the denominator) is refuted."""
    files = packed_corpus()
    assert {v["exit"] for v in files.values()} == {0, 1, 2} and len(files) >= 18
    for name, entry in files.items():
        assert judge(entry["doc"]) is (entry["exit"] == 0), name
        if entry["exit"] == 2:
            assert entry["pointer"].startswith("/head/readout/"), name


def test_the_packed_layout_is_read_as_the_same_table_as_the_lists():
    """The committed m = 4 head's rows of rationals, and the corpus's packings of them over
    the lcm of the denominators (int16) and over 4 times it (int32): one table F(q, z)."""
    rows = load(EH)["head"]["readout"]
    table = readout_table(rows, 16)
    packed = [v["doc"]["head"]["readout"] for k, v in packed_corpus().items() if k.startswith("correct/") and k.endswith("-m4-n3.json")]
    assert sorted(p["encoding"] for p in packed) == ["int16-le-base64", "int32-le-base64"]
    assert all(readout_table(p, 16) == table for p in packed)
    assert any(x < 0 for row in table for x in row)  # the signed reading is exercised


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_oracle_decodes_what_the_generator_packs(data):
    """For any 2^m x 2^m integer table within 16 or 32 bits and any denominator D >= 1, the
    oracle's own decoding of generalheads.pack(...) is the table over D, row-major."""
    from kernelbounds.upperbounds import generalheads

    size = 1 << data.draw(st.integers(1, 3), label="m")
    bits = data.draw(st.sampled_from([15, 31]), label="magnitude bits")
    nums = data.draw(st.lists(st.integers(-(2**bits), 2**bits - 1), min_size=size * size, max_size=size * size), label="numerators")
    d = data.draw(st.integers(1, 10**20), label="denominator")
    value = generalheads.pack(nums, d)
    assert readout_table(value, size) == [[Fraction(x, d) for x in nums[q * size : (q + 1) * size]] for q in range(size)]


BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@pytest.mark.parametrize("encoding", ["int16-le-base64", "int32-le-base64"])
def test_a_packed_readout_with_nonzero_pad_bits_is_malformed(encoding):
    """One base64 text per table (the spec): the same bytes with a pad bit set are malformed for both."""
    from kernelbounds.checker import Code, check_bytes

    doc = next(v["doc"] for k, v in packed_corpus().items() if k.endswith("-m4-n3.json") and v["doc"]["head"]["readout"]["encoding"] == encoding)
    text = doc["head"]["readout"]["numerators"]
    body = text.rstrip("=")
    bent = body[:-1] + BASE64_ALPHABET[BASE64_ALPHABET.index(body[-1]) + 1] + text[len(body):]  # the last pad bit set
    assert base64.b64decode(bent, validate=True) == base64.b64decode(text) and bent != text
    doc["head"]["readout"]["numerators"] = bent
    assert judge(doc) is False
    v = check_bytes(json.dumps(doc).encode())
    assert (v.code, v.pointer) == (Code.MALFORMED, "/head/readout/numerators"), v.render()


# ---------------------------------------------------------- rank-one-infeasible

R1 = "rank-one-infeasible-m04-n3.json"


def first_ineq(d):
    return d["inequalities"][0]


R1_MUTATIONS = {rule: (R1, edit) for rule, edit in {
    "F1 a duplicated (input, side)": lambda d: d["inequalities"].append(copy.deepcopy(d["inequalities"][0])),
    "F1 a reordered duplicate": lambda d: d["inequalities"].append({**d["inequalities"][1], "others": d["inequalities"][1]["others"][::-1]}),
    "F1 an input of the wrong length": lambda d: first_ineq(d)["others"].append("0000"),
    "F1 a multiplier of zero": lambda d: first_ineq(d).__setitem__("multiplier", 0),
    "F1 an empty list": lambda d: d.__setitem__("inequalities", []),
    "F2 a multiplier": lambda d: first_ineq(d).__setitem__("multiplier", 2),
    "F2 a side": lambda d: first_ineq(d).__setitem__("side", "upper"),
    "F2 a token": lambda d: first_ineq(d)["others"].__setitem__(0, "1011"),
    "F3 an entry dropped": lambda d: d["inequalities"].pop(),
    "claims lower_bound": lambda d: d["claims"].__setitem__("lower_bound", 3),
}.items()}


def test_f3_a_combination_positive_on_psi_is_refuted():
    """The lower and upper rows of one input cancel u and leave 2 sum psi, positive on psi:
    F2 holds, F3 fails."""
    pair = [{"query": "1010", "others": ["1010", "0101"], "side": s, "multiplier": 1} for s in ("lower", "upper")]
    doc = {**load(R1), "inequalities": pair}
    assert judge(doc) is False


# ------------------------------------------------------- lower-bound, orbit form


def hamming_orbit_doc() -> dict:
    """The 14 weight-4 words of RM(1,3) (coordinates = the points x of F_2^3, a word = an
    affine hyperplane) under translations and linear maps: one orbit. Two hyperplanes meet
    in 2 points or are complementary, so each row has 12 gaps of 2 and one of 4. With
    n = 3 and the one-link schedules P(2) = 1, P(4) = 3 (k = 1):
    S_1 = 14 (12 + 1/9), X = 196 / (14 + S_1) = 126/118 > 1, so bound = 2; each row has
    14 uniform inputs and 13 mixed ones: witness_inputs = 14 * 27 = 378 (hand-derived)."""
    tok = lambda f: "".join("1" if f(x) else "0" for x in range(8))  # noqa: E731
    generator = [tok(lambda x: True)] + [tok(lambda x, b=b: x >> b & 1) for b in range(3)]
    perms = [[x ^ 1 for x in range(8)], [((x << 1) | (x >> 2)) & 7 for x in range(8)],
             [x ^ ((x & 1) << 1) for x in range(8)]]
    rep = tok(lambda x: x & 1)
    return {"format": "kernelbounds-certificate", "version": 2, "kind": "lower-bound", "m": 8, "n": 3,
            "variant": "position-independent", "queries": "complement",
            "code": {"name": "RM(1,3)", "linear": {"generator": generator, "weight": 4}},
            "symmetry": {"permutations": perms},
            "schedules": [{"gap": 2, "levels": [0, 2]}, {"gap": 4, "levels": [0, 4]}],
            "witness": {"rule": "chains-v1"},
            "claims": {"bound": 2, "k": 1, "min_product": 1, "witness_inputs": 378, "code_size": 14,
                       "orbits": [{"representative": rep, "size": 14, "gaps": [{"gap": 2, "count": 12}, {"gap": 4, "count": 1}]}]}}


def test_the_hand_derived_orbit_certificate_is_true_and_checker_valid():
    from kernelbounds.checker import Code, check_bytes

    doc = hamming_orbit_doc()
    assert judge(doc) is True
    assert check_bytes(json.dumps(doc).encode()).code == Code.VALID
    # the same code listed word by word: the 14 weight-4 tokens that are affine hyperplanes
    hyperplanes = {"".join("1" if (bin(x & a).count("1") + c) % 2 else "0" for x in range(8)) for a in range(1, 8) for c in (0, 1)}
    listed = {**doc, "code": {"words": sorted(hyperplanes)}}
    assert judge(listed) is True
    assert judge({**listed, "code": {"words": sorted(hyperplanes)[:-1] + ["11110000"[::-1]]}}) is False


def test_the_position_dependent_and_two_link_family_counts():
    """Two-link schedule for gap 4 (levels 0, 2, 4; P = 1): each row gains one intermediate
    key and one prefix link; position-dependent maps double the links at n = 3:
    14 (14 + 1 + 2 (1 + 13)) = 602 (hand-derived), checked literally by the oracle; now
    S_1 = 14 * 13, X = 196 / 196 = 1 and the least r with C(r, 1) > 1 is 2."""
    doc = hamming_orbit_doc()
    doc["variant"] = "position-dependent"
    doc["schedules"][1]["levels"] = [0, 2, 4]
    doc["claims"].update(witness_inputs=602)
    assert judge(doc) is True
    assert judge({**doc, "claims": {**doc["claims"], "witness_inputs": 601}}) is False
    assert judge({**doc, "claims": {**doc["claims"], "bound": 1}}) is False


def split_orbit(d):
    o = d["claims"]["orbits"][0]
    o["size"] = 13
    d["claims"]["orbits"].append({**copy.deepcopy(o), "representative": "11000011", "size": 1})


OB = "lower-position-independent-m24-n5.json"
OB_MUTATIONS = {
    "O1 a permutation that is not an automorphism": ("hamming", lambda d: d["symmetry"]["permutations"].append([1, 0, 2, 3, 4, 5, 6, 7])),
    "O1 not a permutation": ("hamming", lambda d: d["symmetry"]["permutations"][0].__setitem__(0, 2)),
    "O1 a cyclic shift that is not an automorphism": (OB, lambda d: d["symmetry"]["permutations"].__setitem__(0, list(range(1, 24)) + [0])),
    "O2 an orbit split by hand": ("hamming", split_orbit),
    "O2 an orbit size": (OB, lambda d: d["claims"]["orbits"][0].__setitem__("size", 85)),
    "O2 a representative in an earlier orbit": (OB, lambda d: d["claims"]["orbits"][1].__setitem__("representative", d["claims"]["orbits"][0]["representative"])),
    "O2 an orbit left out": (OB, lambda d: d["claims"]["orbits"].pop()),
    "O3 a gap count": (OB, lambda d: d["claims"]["orbits"][2]["gaps"][0].__setitem__("count", d["claims"]["orbits"][2]["gaps"][0]["count"] + 1)),
    "O3 a gap value": ("hamming", lambda d: d["claims"]["orbits"][0]["gaps"][1].__setitem__("gap", 5)),
    "O3 an omitted gap": ("hamming", lambda d: d["claims"]["orbits"][0]["gaps"].pop()),
    "O4 a schedule link of 1": (OB, lambda d: d["schedules"][3].__setitem__("levels", [0, 4, 5])),
    "O4 a schedule for a gap that never occurs": ("hamming", lambda d: d["schedules"].append({"gap": 6, "levels": [0, 6]})),
    "O4 a missing schedule": ("hamming", lambda d: d["schedules"].pop()),
    "O5 bound": (OB, lambda d: d["claims"].__setitem__("bound", d["claims"]["bound"] + 1)),
    "O5 bound one lower": (OB, lambda d: d["claims"].__setitem__("bound", d["claims"]["bound"] - 1)),
    "O5 k": (OB, lambda d: d["claims"].__setitem__("k", 2)),
    "O5 min_product": (OB, lambda d: d["claims"].__setitem__("min_product", 2)),
    "O5 code_size": (OB, lambda d: d["claims"].__setitem__("code_size", 11787)),
    "O5 the code's weight": ("hamming", lambda d: d["code"]["linear"].__setitem__("weight", 3)),
    "O5 n": (OB, lambda d: d.__setitem__("n", 6)),
    "O6 witness_inputs": (OB, lambda d: d["claims"].__setitem__("witness_inputs", d["claims"]["witness_inputs"] - 1)),
    "O6 the variant": (OB, lambda d: d.__setitem__("variant", "position-dependent")),
    "witness listed inputs": ("hamming", lambda d: d["witness"].__setitem__("inputs", [])),
    "queries": ("hamming", lambda d: d.__setitem__("queries", "identity")),
}




@pytest.mark.parametrize("rule", sorted(r for r in OB_MUTATIONS if OB_MUTATIONS[r][0] != "hamming"))
def test_the_numpy_route_judges_the_orbit_form_like_the_python_route(rule, monkeypatch):
    """The m = 24 code (a span of 2^15 words) through ArrayCode instead of ListCode."""
    from lab import spec_oracle_v2

    name, edit = OB_MUTATIONS[rule]
    doc = load(name)
    monkeypatch.setattr(spec_oracle_v2, "NUMPY_SPAN", 0)
    assert judge(doc) is True
    assert judge(changed(doc, edit)) is False
    assert judge(hamming_orbit_doc()) is True


ALL_MUTATIONS = {f"{kind}: {rule}": entry for kind, table in
                 (("level-family", LF_MUTATIONS), ("explicit-head", EH_MUTATIONS),
                  ("rank-one-infeasible", R1_MUTATIONS), ("orbit form", OB_MUTATIONS))
                 for rule, entry in table.items()}


@pytest.mark.parametrize("rule", sorted(ALL_MUTATIONS))
def test_false_files_are_refuted(rule):
    """The file is true before the change and false after it."""
    name, edit = ALL_MUTATIONS[rule]
    doc = hamming_orbit_doc() if name == "hamming" else load(name)
    assert judge(doc) is True
    assert judge(changed(doc, edit)) is False


def test_the_oracle_agrees_with_the_checker_on_the_direct_sum_corpus():
    """The oracle refutes every incorrect direct-sum corpus file (a histogram one off, an
    orbit size, k too large, a component of gap 1, ...) and confirms the correct one."""
    corpus = Path(__file__).resolve().parents[1] / "corpus"
    manifest = json.loads((corpus / "MANIFEST.json").read_text())
    names = [k for k in manifest if "direct-sum" in k and manifest[k]["exit"] in (0, 1)]
    assert len(names) >= 6
    for name in names:
        assert judge(json.loads((corpus / name).read_text())) is (manifest[name]["exit"] == 0), name


def test_the_oracle_agrees_with_the_checker_on_the_multiblock_corpus():
    """The oracle (every class pair one by one, the literal head at m = 5) refutes every
    incorrect and malformed multi-block corpus file (a worst error, eps, a rank, a sign, a
    weight, a dropped term, the blocks, a degree, the order, a zero g, the version) and
    confirms the correct ones."""
    corpus = Path(__file__).resolve().parents[1] / "corpus"
    manifest = json.loads((corpus / "MANIFEST.json").read_text())
    names = [k for k in manifest if "multiblock" in k and manifest[k]["exit"] in (0, 1, 2)]
    assert len(names) >= 12
    for name in names:
        assert judge(json.loads((corpus / name).read_text())) is (manifest[name]["exit"] == 0), name


def test_the_oracle_judges_more_than_three_keys_by_dinkelbach():
    """n = 4 (blocks 2+2, a family the search found): the oracle's Dinkelbach route and the
    literal head (every input) agree with the claim, and a claim one millionth lower is refuted."""
    from kernelbounds.upperbounds import multiblock

    fam = multiblock.decide((2, 2), {(0, 0): Fraction(1), (0, 1): Fraction(3), (0, 2): Fraction(4), (2, 0): Fraction(7), (2, 2): Fraction(10000)}, 4)
    assert fam is not None
    doc = fam.certificate()
    assert judge(doc) is True
    doc["claims"]["worst_error"] = str(fam.worst_error - Fraction(1, 10**6))
    assert judge(doc) is False

