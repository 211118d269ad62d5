"""An adapted head says where it differs from the library's forward pass: the adapter's
caveat (kernelbounds.adapters.CAVEATS) rides on Head.caveat, the head file, evaluate's
result and `kernelbounds evaluate` (its line and its --json field `caveat`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kernelbounds as kb
from kernelbounds import adapters

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH", "")) if p))


def test_every_adapter_states_its_difference_with_numbers():
    for name, text in adapters.CAVEATS.items():
        assert any(ch.isdigit() for ch in text), name
    assert "14,190 of 786,432" in adapters.CAVEATS["performer"] and "0.31" in adapters.CAVEATS["performer"]
    doc = adapters.__doc__
    for number in ("14,190 of 786,432", "0.31", "1e-10", "1e-6"):
        assert number in doc


def _head(caveat: str = ""):
    head = kb.Head.from_arrays(np.ones((4, 1)), np.ones((4, 1)), np.arange(4.0)[:, None], (np.ones((4, 1)), np.zeros(4)))
    head.caveat = caveat
    return head


def test_evaluate_carries_the_caveat():
    plain = kb.evaluate(_head(), kb.Family.all(2, 3))
    marked = kb.evaluate(_head(adapters.CAVEATS["fla"]), kb.Family.all(2, 3))
    assert plain.caveat == "" and plain.to_json()["caveat"] == ""
    assert marked.caveat == adapters.CAVEATS["fla"] and marked.to_json()["caveat"] == adapters.CAVEATS["fla"]
    assert marked.worst_error == plain.worst_error and marked.failures == plain.failures


def test_cli_prints_the_caveat_and_puts_it_in_json(tmp_path):
    path = tmp_path / "head.json"
    path.write_text(json.dumps(_head(adapters.CAVEATS["performer"]).to_json()))
    base = [sys.executable, "-m", "kernelbounds", "evaluate", "--head", str(path), "--all", "--m", "2", "--n", "3"]
    text = subprocess.run(base, capture_output=True, text=True, env=ENV, timeout=120)
    assert f"caveat: {adapters.CAVEATS['performer']}" in text.stdout
    out = subprocess.run([*base, "--json"], capture_output=True, text=True, env=ENV, timeout=120)
    assert json.loads(out.stdout)["caveat"] == adapters.CAVEATS["performer"]


def test_performer_head_carries_the_caveat():
    pytest.importorskip("torch")
    pytest.importorskip("performer_pytorch")
    import torch
    from performer_pytorch import SelfAttention

    torch.manual_seed(0)
    for generalized, key in ((False, "performer"), (True, "performer-generalized")):
        attn = SelfAttention(dim=6, heads=1, dim_head=6, nb_features=16, generalized_attention=generalized).eval()
        head = kb.Head.from_torch(adapters.performer(attn, torch.nn.Linear(2, 6), torch.nn.Linear(6, 1)), m=2)
        assert head.caveat == adapters.CAVEATS[key]
        assert kb.evaluate(head, kb.Family.all(2, 3)).caveat == adapters.CAVEATS[key]


def test_missing_triton_says_what_to_install(tmp_path):
    """`import fla.layers` without triton: the adapter names the package to install."""
    (tmp_path / "fakelib").mkdir()
    (tmp_path / "fakelib" / "__init__.py").write_text("import triton\nclass Layer: pass\n")
    script = textwrap.dedent("""
        import sys
        sys.modules["triton"] = None  # as on a CPU-only torch: the module is absent
        from kernelbounds import adapters
        try:
            adapters._library("fakelib", "Layer")
        except adapters.AdapterError as exc:
            print(exc)
        try:
            adapters._library("no_such_library_here", "Layer")
        except adapters.AdapterError as exc:
            print(exc)
    """)
    env = dict(ENV, PYTHONPATH=os.pathsep.join((str(tmp_path), ENV["PYTHONPATH"])))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60).stdout.splitlines()
    assert out[0].startswith("fakelib imports triton") and "pip install triton" in out[0]
    assert out[1] == "no_such_library_here is not installed: pip install no_such_library_here"
