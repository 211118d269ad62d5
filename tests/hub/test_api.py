"""The public API (docs/api.md, doctested here), kernelbounds.testing and its pytest plugin."""

import doctest
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kernelbounds as kb
from kernelbounds import testing
from kernelbounds.bits import inner

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("target", ["docs/api.md", "README.md"])
def test_documentation_examples_run(target, at_root):
    failures, _ = doctest.testfile(str(ROOT / target), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_module_doctests(at_root):
    import kernelbounds.api

    for module in (kb, kernelbounds.api):
        assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_reprs_are_short_and_to_json_is_json(at_root):
    b = kb.bound(24, 3)
    results = [b, kb.construct("tensor", 3, 3), kb.rank("tensor", 4), kb.transcript(2, 2), kb.check(kb.construct("rank1", 2, 2).to_certificate()), kb.upper(4, 3)]
    head = kb.Head.from_arrays(np.ones((8, 1)), np.ones((8, 1)), np.zeros((8, 1)), (np.zeros((8, 1)), np.zeros(8)))
    results += [head, kb.evaluate(head, {"inputs": [["000", "111", "101"]]})]
    for r in results:
        assert len(repr(r)) < 400, repr(r)
        if hasattr(r, "to_json"):
            json.dumps(r.to_json())


def test_the_bound_json_is_the_cli_json(at_root, capsys):
    from kernelbounds.cli import main

    assert main(["bound", "--m", "24", "--n", "3", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = kb.bound(24, 3).to_json()
    assert {k: v for k, v in cli.items() if k in api} == json.loads(json.dumps(api))


def test_results_are_frozen():
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        kb.transcript(1, 1).bits = 0


def test_certificates_from_the_api_check_valid():
    for cert in (kb.construct("softmax", 3, 3).to_certificate(), kb.rank("inner", 4).to_certificate(), kb.transcript(2, 1).to_certificate()):
        assert kb.check(cert).ok
        assert kb.check(json.dumps(cert).encode()).ok


@given(testing.tokens(12))
def test_token_strings_read_bit_zero_first(x):
    s = kb.Token.to_str(x, 12)
    assert kb.Token.from_str(s) == x and s[0] == str(x & 1) and s == format(x, "012b")[::-1]


def test_head_from_arrays_is_u1_and_solves_length_two():
    m = 3
    bits = np.array([[(x >> i) & 1 for i in range(m)] for x in range(2**m)])
    head = kb.Head.from_arrays(np.ones((8, 1)), np.ones((8, 1)), bits, (2 * bits, -bits.sum(axis=1)))  # U1 (THEORY §2)
    testing.assert_solves(head, {"inputs": [[kb.Token.to_str(a, m), kb.Token.to_str(b, m)] for a in range(8) for b in range(8)], "scored": "all"})


def test_head_from_torch_when_torch_is_installed():
    torch = pytest.importorskip("torch")

    class Module(torch.nn.Module):
        def forward(self, bits):
            return torch.ones(len(bits), 1), torch.ones(len(bits), 1), bits

        def readout(self, bits):
            return 2 * bits, -bits.sum(dim=1)

    head = kb.Head.from_torch(Module(), ["000", "110", "011"])
    assert head.readout[3] == ((2, 2, 0), -2) and head.rank == 1


def test_from_torch_follows_the_module_dtype_and_never_guesses_m():
    torch = pytest.importorskip("torch")
    from kernelbounds.heads.tables import HeadError

    class Float32(torch.nn.Module):  # a default (float32) module: a float64 input would fail inside torch
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 2)

        def forward(self, bits):
            f = self.lin(bits).exp()
            return f, f, bits

        def readout(self, bits):
            return bits, torch.zeros(len(bits))

    module = Float32()
    head = kb.Head.from_torch(module, m=3)  # tokens default to all 2^m
    with torch.no_grad():
        expected = module.lin(torch.tensor([[1.0, 0.0, 1.0]])).exp()[0]
    assert head.m == 3 and head.tokens == list(range(8))
    assert head.phi_q[5] == tuple(Fraction(float(x)) for x in expected)  # the float32 values, exactly
    with pytest.raises(HeadError, match="give m="):
        kb.Head.from_torch(module, [0, 1, 2])  # int tokens do not say m (2 has no top bit at m = 3)
    assert kb.Head.from_torch(module, [0, 1, 2], m=3).m == 3


# ------------------------------------------------------------------ kernelbounds.testing


@settings(max_examples=10, deadline=None)
@given(testing.certificates())
def test_every_drawn_certificate_is_valid(cert):
    testing.assert_valid(cert)


@settings(max_examples=10, deadline=None)
@given(testing.witness_families(m=8, n=3), st.data())
def test_heads_of_rank_below_a_certified_bound_fail_its_witness_family(cert, data):
    # THEORY L4: every nonnegative head solving the family has kernel rank >= the bound
    bound = cert["claims"]["bound"]
    tokens = kb.family_tokens(cert)
    head = data.draw(testing.nonnegative_heads(8, max(1, bound - 1), token_list=tokens))
    result = kb.evaluate(head, cert)
    assert result.negative_weights == 0
    assert bound <= 1 or result.kernel_rank >= bound or result.failures > 0


@given(testing.inputs(4, 3))
def test_inputs_strategy_has_the_requested_shape(inp):
    assert len(inp) == 3 and all(0 <= x < 16 for x in inp) and min(inner(inp[0], z) for z in inp) <= inp[0].bit_count()


def test_assertion_helpers_fail_with_a_message():
    head = kb.Head.from_arrays(np.ones((4, 1)), np.ones((4, 1)), np.zeros((4, 1)), (np.zeros((4, 1)), np.full(4, 5.0)))
    with pytest.raises(AssertionError, match="fails 1 scored"):
        testing.assert_solves(head, {"inputs": [["00", "11"]]})
    with pytest.raises(AssertionError, match="rejected"):
        testing.assert_valid({"format": "kernelbounds-certificate", "version": 1, "kind": "nope"})


def test_plugin_fixtures(kb_certificate_names, kb_certificate, kb_certificate_path, kb_witness_family):
    assert "witness-m24-n3-r8.json" in kb_certificate_names
    assert kb_witness_family["claims"]["bound"] == 8
    path = kb_certificate_path("rank-tensor-m08.json")
    assert path.read_bytes() == (ROOT / "certificates" / "rank-tensor-m08.json").read_bytes()
    testing.assert_valid(path)


def test_the_readme_example_test_file_passes(tmp_path):
    import re
    import subprocess
    import sys

    text = (ROOT / "README.md").read_text()
    block = re.search(r"A complete test file:\n\n```python\n(.*?)```", text, re.S).group(1)
    assert len(block.strip().splitlines()) <= 12
    (tmp_path / "test_user.py").write_text(block)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_user.py")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_api_is_loaded_lazily_so_the_checker_stays_alone():
    import subprocess
    import sys

    code = "import sys, kernelbounds.checker; assert not {'kernelbounds.api', 'numpy', 'kernelbounds.heads.inputs'} & set(sys.modules), sorted(sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def test_api_functions_are_functions_not_modules():
    """No API name is shadowed by a library module (the callable-module hack is gone)."""
    import types

    import kernelbounds.kernelrank as rank_module

    for name in ("rank", "evaluate", "transcript", "bound", "upper"):
        assert not isinstance(getattr(kb, name), types.ModuleType), name
    assert kb.rank("inner", 3).rank == rank_module.formula_rank(rank_module.named_kernel("inner", 3), 3)
    assert kb.transcript(1, 1).bits == 1


