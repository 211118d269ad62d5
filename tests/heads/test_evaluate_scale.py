"""Evaluating heads at scale: streamed families, the float pass with its error bound
(decisions must equal the exact route's), family-file validation."""

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.lowerbounds import assemble
from kernelbounds.lowerbounds import certify
from kernelbounds.lowerbounds import witness as witness_module
from kernelbounds.bits import inner
from kernelbounds.lowerbounds.codes.library import candidates
from kernelbounds.heads.evaluate import evaluate, evaluate_family
from kernelbounds.heads.inputs import FamilyError, load_family
from kernelbounds.heads.tables import HeadError, TableHead, load

ROOT = Path(__file__).resolve().parents[2]
WITNESS = ROOT / "certificates" / "witness-m24-n3-r8.json"


def small_certificate(variant, n=4):
    code = next(c for c in candidates(12, thorough=False) if c.name == "paley7+4")
    return certify.certificate(assemble.assemble(code, n, variant))


@pytest.mark.parametrize("variant", assemble.VARIANTS)
def test_streamed_chain_family_is_the_listed_witness_family(variant):
    doc = small_certificate(variant)
    fam = load_family(doc)
    lb = assemble.assemble(next(c for c in candidates(12, thorough=False) if c.name == "paley7+4"), 4, variant)
    listed = witness_module.witness_family(lb)
    assert fam.inputs() == listed and fam.size == len(listed) == doc["claims"]["witness_inputs"]
    assert fam.tokens() == sorted({x for inp in listed for x in inp})


# Entries chosen so that many errors are exactly 1/2 (the float pass must hand them to
# the exact route) and others are far from it.
entries = st.sampled_from([Fraction(0), Fraction(1), Fraction(2), Fraction(1, 3), Fraction(1, 2), Fraction(3, 7), Fraction(0.1)])
shifts = st.sampled_from([Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(-2, 3), Fraction(0.4)])


@st.composite
def boundary_heads(draw, m=3, r=2):
    """Heads with value v(z) = |z| + shift(z) and readout y -> y - (|q| - level-ish) ..."""
    head = TableHead(m, {}, {}, {}, {})
    for x in range(2**m):
        head.phi_q[x] = tuple(draw(entries) for _ in range(r))
        head.phi_k[x] = tuple(draw(entries) for _ in range(r))
        head.value[x] = tuple(Fraction((x >> i) & 1) for i in range(m)) + (draw(shifts),)
        head.readout[x] = (tuple(Fraction((x >> i) & 1) for i in range(m)) + (Fraction(1),), draw(shifts))
    return head


@settings(max_examples=25, deadline=None)
@given(boundary_heads(), st.sampled_from([None, 0, -1]), st.booleans())
def test_float_pass_decides_every_position_as_the_exact_route(head, scored, causal):
    family = [(a, b, c) for a in range(8) for b in range(8) for c in range(8)]
    exact = evaluate(head, family, scored, causal=causal, exact=True)
    fast = evaluate(head, family, scored, causal=causal, exact=False)
    assert fast.method == "float+exact" and exact.method == "exact"
    assert fast.failures == exact.failures and fast.first_failure == exact.first_failure
    assert fast.negative_weights == exact.negative_weights and fast.kernel_rank == exact.kernel_rank
    if exact.worst_error is None:
        assert fast.worst_error is None
    else:
        assert fast.worst_error <= exact.worst_error <= fast.worst_error_bound


def test_errors_of_exactly_one_half_are_failures_on_both_routes():
    # rank 1, K = 1: y = mean of F; F(q, z) = <q, z> + 1/2 gives error exactly 1/2 everywhere
    m = 2
    head = TableHead(m, {}, {}, {}, {})
    for x in range(4):
        head.phi_q[x] = head.phi_k[x] = (Fraction(1),)
        head.value[x] = tuple(Fraction((x >> i) & 1) for i in range(m))
        head.readout[x] = (tuple(Fraction((x >> i) & 1) for i in range(m)), Fraction(1, 2))
    family = [(q, z, z) for q in range(4) for z in range(4)]  # uniform inputs: y = <q,z> + 1/2 ... mean with q's own term
    for exact in (True, False):
        result = evaluate(head, family, 0, exact=exact)
        direct = sum(1 for inp in family if abs(head.kernel_head().output(inp, 0) - min(inner(inp[0], z) for z in inp)) >= Fraction(1, 2))
        assert result.failures == direct


@settings(max_examples=30, deadline=None)
@given(boundary_heads(m=3, r=3))
def test_kernel_rank_by_gram_matrices_equals_the_full_matrix_rank(head):
    import flint

    tokens = list(range(8))
    entry = lambda x, z: sum((a * b for a, b in zip(head.phi_q[x], head.phi_k[z], strict=True)), Fraction(0))  # noqa: E731
    full = flint.fmpq_mat([[flint.fmpq(entry(x, z).numerator, entry(x, z).denominator) for z in tokens] for x in tokens]).rank()
    from kernelbounds.heads.evaluate import kernel_rank

    assert kernel_rank(head, tokens) == full


@pytest.mark.parametrize(
    "doc,where",
    [
        ([["000", "111"]], "/: a family file is a JSON object"),
        ({"inputs": [["01", "10"]], "scored": "frist"}, "/scored"),
        ({"inputs": [["01", "10"], ["01"]]}, "/inputs/1"),
        ({"inputs": [["01", "1x"]]}, "/inputs/0/1"),
        ({"inputs": []}, "/inputs"),
    ],
)
def test_bad_family_files_name_the_field(doc, where):
    with pytest.raises(FamilyError, match=where):
        load_family(doc)


def test_scored_all_scores_every_position():
    fam = load_family({"inputs": [["01", "10", "11"]], "scored": "all"})
    assert fam.positions() == [1, 2, 3]  # counted from 1, as x_1 .. x_n (THEORY §1)
    head = TableHead(2, {}, {}, {}, {})
    for x in range(4):
        head.phi_q[x] = head.phi_k[x] = (Fraction(1),)
        head.value[x], head.readout[x] = (Fraction(0),), ((Fraction(0),), Fraction(0))
    assert evaluate_family(head, fam).positions == 3


def test_huge_decimal_exponent_is_refused_at_once():
    doc = {"format": "kernelbounds-head", "version": 1, "m": 1, "tokens": {"1": {"phi_q": ["1e-999999999"], "phi_k": [1], "value": [1], "readout": {"w": [1], "b": 0}}}}
    with pytest.raises(HeadError, match="exponent"):  # refused from the text, before 10^999999999 is built
        load(json.dumps(doc))


def test_family_size_is_counted_before_expansion():
    doc = json.loads((ROOT / "certificates" / "lower-position-independent-m24-n3.json").read_text())
    fam = load_family(doc)
    assert fam.size == doc["claims"]["witness_inputs"] == 13_279_280
    with pytest.raises(FamilyError, match="over the limit"):
        load_family(doc, max_inputs=10**6)


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "kernelbounds", *args], capture_output=True, text=True, input=stdin)


def test_cli_lists_tokens_and_reads_the_family_from_stdin():
    r = run_cli("evaluate", "--family", "-", "--list-tokens", stdin=WITNESS.read_text())
    tokens = r.stdout.split()
    doc = json.loads(WITNESS.read_text())
    expected = sorted({t for inp in doc["witness"]["inputs"] for t in inp})
    assert r.returncode == 0 and sorted(tokens) == expected


def test_cli_json_evaluation_of_a_head_from_stdin(tmp_path):
    doc = json.loads(WITNESS.read_text())
    tokens = sorted({t for inp in doc["witness"]["inputs"] for t in inp})
    head = {"format": "kernelbounds-head", "version": 1, "m": 24, "tokens": {t: {"phi_q": [1], "phi_k": [1], "value": [0], "readout": {"w": [0], "b": 0}} for t in tokens}}
    r = run_cli("evaluate", "--head", "-", "--family", str(WITNESS), "--json", stdin=json.dumps(head))
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["failures"] > 0 and out["kernel_rank"] == 1 and out["certified_bound"] == 8
    assert out["first_failure"]["input"][0] in tokens and out["contradiction"] is False


@pytest.mark.parametrize("variant", ["position-independent", "causal"])
def test_vectorised_rows_equal_the_generic_rows(variant):
    from kernelbounds.heads.inputs import _chain_rows_numpy, _chain_rows_python

    code = next(c for c in candidates(12, thorough=False) if c.name == "paley7+4")
    lb = assemble.assemble(code, 3, variant)
    for fast, slow in zip(_chain_rows_numpy(lb), _chain_rows_python(lb), strict=True):
        assert fast[0] == slow[0] and [list(map(int, v)) for v in fast[1:]] == [list(v) for v in slow[1:]]
