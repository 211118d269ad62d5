"""Adapters (kernelbounds.adapters): each per-token head built from a library's own module
gives the library's own forward pass on random inputs (float tolerance).  Each test runs
where its extra is installed (performer: kernelbounds[torch], fla: kernelbounds[fla],
fast_transformers: kernelbounds[fast-transformers]) and is skipped, naming the extra, where
its library is absent; scripts/test-slow installs [torch] and [fla]."""

import importlib.util

import numpy as np
import pytest

import kernelbounds as kb
from kernelbounds import adapters

pytestmark = pytest.mark.slow
torch = pytest.importorskip("torch", reason="torch is not installed (pip install 'kernelbounds[torch]')")

M, N, DIM = 4, 5, 6


def needs(module, extra):
    """Skip unless module is installed (found, not imported: an installed library that fails
    to import, e.g. fla without triton, fails the test instead of skipping it)."""
    if importlib.util.find_spec(module.split(".")[0]) is None or importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install 'kernelbounds[{extra}]')")


def bits_of(tokens, m=M, dtype=torch.float32):
    return torch.tensor([[(x >> i) & 1 for i in range(m)] for x in tokens], dtype=dtype)


def head_outputs(head, seq, positions):
    kh = head.kernel_head()
    return np.array([float(kh.output(tuple(seq), i)) for i in positions])


def parts(seed):
    torch.manual_seed(seed)
    return torch.nn.Linear(M, DIM), torch.nn.Linear(DIM, 1)


@pytest.mark.parametrize("residual", [False, True])
@pytest.mark.parametrize("generalized", [False, True])
def test_performer_head_is_the_library_forward_pass(residual, generalized):
    needs("performer_pytorch", "torch")
    from performer_pytorch import SelfAttention

    embed, readout = parts(0)
    attn = SelfAttention(dim=DIM, heads=1, dim_head=DIM, nb_features=16, generalized_attention=generalized).eval()
    head = kb.Head.from_torch(adapters.performer(attn, embed, readout, residual=residual), m=M)
    # the key maximum of the adapter is over all 2^m tokens; a sequence holding the token that
    # attains it has the same maximum inside Performer, so the outputs agree
    keys = attn.to_k(embed(bits_of(range(2**M))))
    proj = keys @ attn.fast_attention.projection_matrix.T * DIM**-0.25
    top = int(proj.max(dim=1).values.argmax())
    rng = np.random.default_rng(1)
    for _ in range(10):
        seq = [int(x) for x in rng.integers(0, 2**M, N - 1)] + [top]
        with torch.no_grad():
            x = embed(bits_of(seq))[None]
            y = readout(x + attn(x) if residual else attn(x))[0, :, 0].double().numpy()
        assert np.allclose(head_outputs(head, seq, range(N)), y, rtol=1e-4, atol=1e-5)


def test_performer_key_maximum_changes_outputs_only_through_eps():
    needs("performer_pytorch", "torch")
    from performer_pytorch import SelfAttention

    embed, readout = parts(2)
    attn = SelfAttention(dim=DIM, heads=1, dim_head=DIM, nb_features=16).eval()
    head = kb.Head.from_torch(adapters.performer(attn, embed, readout), m=M)
    rng = np.random.default_rng(3)
    seq = [int(x) for x in rng.integers(0, 2**M, N)]
    with torch.no_grad():
        x = embed(bits_of(seq))[None]
        y = readout(attn(x))[0, :, 0].double().numpy()
    assert np.allclose(head_outputs(head, seq, range(N)), y, rtol=1e-2, atol=1e-2)


def test_fast_transformers_elu_head_is_the_library_forward_pass():
    needs("fast_transformers", "fast-transformers")
    from fast_transformers.attention import AttentionLayer, LinearAttention

    embed, readout = parts(4)
    layer = AttentionLayer(LinearAttention(DIM), DIM, 1).eval()
    head = kb.Head.from_torch(adapters.fast_transformers(layer, embed, readout, residual=True), m=M)
    rng = np.random.default_rng(5)
    for _ in range(10):
        seq = [int(x) for x in rng.integers(0, 2**M, N)]
        with torch.no_grad():
            x = embed(bits_of(seq))[None]
            y = readout(x + layer(x, x, x, None, None, None))[0, :, 0].double().numpy()
        assert np.allclose(head_outputs(head, seq, range(N)), y, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("feature_map", ["elu", "hedgehog", "t2r", "dpfp"])
def test_fla_head_is_the_library_reference_at_the_last_position(feature_map):
    needs("fla.layers", "fla")
    from fla.layers import LinearAttention
    from fla.ops.linear_attn.naive import naive_recurrent_linear_attn

    embed, readout = parts(6)
    layer = LinearAttention(hidden_size=DIM, num_heads=1, feature_map=feature_map, output_norm="identity", do_feature_map_norm=True).eval()
    head = kb.Head.from_torch(adapters.fla(layer, embed, readout), m=M)
    rng = np.random.default_rng(7)
    for _ in range(10):
        seq = [int(x) for x in rng.integers(0, 2**M, N)]
        with torch.no_grad():
            x = embed(bits_of(seq))[None]
            q = layer.feature_map_q(layer.q_proj(x)[:, :, None, :])
            k = layer.feature_map_k(layer.k_proj(x)[:, :, None, :])
            v = layer.v_proj(x)[:, :, None, :]
            o, _ = naive_recurrent_linear_attn(q, k, v, normalize=True)
            y = readout(layer.o_proj(o[:, :, 0, :]))[0, -1, 0].double().item()
        # the head is bidirectional; the layer's last position attends to the whole input
        assert np.isclose(head_outputs(head, seq, [N - 1])[0], y, rtol=1e-4, atol=1e-5)


def test_adapters_refuse_what_they_cannot_evaluate():
    needs("fla.layers", "fla")
    from fla.layers import LinearAttention

    with pytest.raises(adapters.AdapterError, match="do_feature_map_norm"):
        adapters.fla(LinearAttention(hidden_size=DIM, num_heads=1, feature_map="t2r", output_norm="identity"))
    with pytest.raises(adapters.AdapterError, match="output_norm"):
        adapters.fla(LinearAttention(hidden_size=DIM, num_heads=1, feature_map="t2r", do_feature_map_norm=True))


def test_the_documented_performer_example_runs():
    # docs/api.md shows this script: a Performer head on the certified m = 24 family and on every input at m = 8
    needs("performer_pytorch", "torch")
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "docs/examples/performer_head.py"], cwd=root, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "m = 24 witness family: Evaluation(solves=False" in r.stdout and "every input at m = 8: Evaluation(solves=False" in r.stdout
