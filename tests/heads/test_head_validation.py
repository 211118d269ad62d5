"""One validation of a head's tables (heads/tables.validate_head) behind every way a head
is built: the constructor, from_arrays, from_torch, load / load_head, evaluate and the
adapters; every refusal is one HeadError (or AdapterError) line naming the argument."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

import kernelbounds as kb
from kernelbounds.heads.tables import HeadError, TableHead, validate_head

F1, F0 = Fraction(1), Fraction(0)
T, M = 4, 2


def arrays(r_q=2, r_k=2, dv=1, w_cols=1, rows=T):
    return np.ones((rows, r_q)), np.ones((rows, r_k)), np.ones((rows, dv)), (np.ones((rows, w_cols)), np.zeros(rows))


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and len(text) < 300
    return text


# ------------------------------------------------------------------ from_arrays


@pytest.mark.parametrize("kw,named", [
    ({"r_k": 3}, "phi_k"), ({"r_q": 3}, "phi_k"), ({"w_cols": 2}, "readout w"), ({"dv": 2}, "readout w"),
])
def test_from_arrays_refuses_mismatched_widths(kw, named):
    """phi_Q of width 2 with phi_K of width 3, or a readout with one column too many, was
    accepted and evaluate died with a raw FLINT ValueError."""
    with pytest.raises(HeadError) as info:
        kb.Head.from_arrays(*arrays(**kw))
    assert one_line(info.value).startswith(named)


def test_from_arrays_names_the_argument_with_too_few_rows():
    fq, fk, vv, ro = arrays()
    with pytest.raises(HeadError, match="^phi_k: 3 rows, but phi_q has 4"):
        kb.Head.from_arrays(fq, fk[:3], vv, ro)
    with pytest.raises(HeadError, match="^readout: expected a pair"):
        kb.Head.from_arrays(fq, fk, vv, np.ones((T, 1)))
    with pytest.raises(HeadError, match="^tokens: 3 rows"):
        kb.Head.from_arrays(fq, fk, vv, ro, tokens=[0, 1, 2], m=2)


@pytest.mark.parametrize("tokens,m,named", [
    (["01", "1", "11", "10"], None, "tokens: strings of 1 and 2"), ([0, 1, 2, 2], 2, "tokens: 01 is listed twice"),
    ([0, 1, "10", 3], 2, "tokens: mixes"), ([0, 1, 2, 3], None, "m: give m="), ([0, 1, 2, 4], 2, "tokens: 4 does not fit"),
    (["0a", "01", "10", "11"], None, "tokens: '0a'"), ([0, 1, 2.0, 3], 2, "tokens: '2.0' (float)"), ([0, 1, 2, 3], 0, "m = 0"),
    ([0, 1, True, 3], 2, "tokens: 'True' (bool)"),
])
def test_from_arrays_refuses_bad_tokens(tokens, m, named):
    with pytest.raises(HeadError) as info:
        kb.Head.from_arrays(*arrays(), tokens=tokens, m=m)
    assert one_line(info.value).startswith(named)


def test_string_tokens_are_not_called_int_tokens():
    with pytest.raises(HeadError) as info:
        kb.Head.from_arrays(*arrays(), tokens=["01", "1", "11", "10"])
    assert "int" not in str(info.value)


# ------------------------------------------------------------------ the constructor and evaluate


def test_constructor_refuses_mismatched_tables():
    with pytest.raises(HeadError, match="^phi_k: width 2"):
        TableHead(2, {0: (F1,)}, {0: (F1, F1)}, {0: (F1,)}, {0: ((F1,), F0)})
    partial = TableHead(2, {0: (F1,)}, {0: (F1,)}, {1: (F1,)}, {0: ((F1,), F0)})  # tables may still be filled in
    with pytest.raises(HeadError, match="^values: must define exactly the tokens"):
        partial.validate()
    with pytest.raises(HeadError, match="^readout w: width 2 at token 00, but values has width 1"):
        TableHead(2, {0: (F1,)}, {0: (F1,)}, {0: (F1,)}, {0: ((F1, F1), F0)})
    with pytest.raises(HeadError, match="^phi_q: entry '0.5' \\(float\\)"):
        TableHead(2, {0: (0.5,)}, {0: (F1,)}, {0: (F1,)}, {0: ((F1,), F0)})
    with pytest.raises(HeadError, match="^tokens: 4 is not a token of m = 2"):
        TableHead(2, {4: (F1,)}, {4: (F1,)}, {4: (F1,)}, {4: ((F1,), F0)})
    with pytest.raises(HeadError, match="^m = 4097"):
        TableHead(4097, {}, {}, {}, {})


def test_evaluate_refuses_a_head_filled_in_after_construction():
    """The fill-in pattern (TableHead(m, {}, {}, {}, {}) then assignments) is checked when
    the head is used: a one-line HeadError, not a FLINT error."""
    head = TableHead(M, {}, {}, {}, {})
    for x in range(2**M):
        head.phi_q[x], head.phi_k[x], head.value[x], head.readout[x] = (F1, F1), (F1, F1, F1), (F1,), ((F1,), F0)
    for call in (lambda: kb.evaluate(head, kb.Family.all(M, 3)), lambda: kb.load_head(head)):
        with pytest.raises(HeadError, match="^phi_k: width 3 at token 00, but phi_q has width 2"):
            call()


@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(0, 3), st.integers(0, 3))
def test_validation_accepts_exactly_consistent_widths(r, dv, m, dr, ddv):
    """from_arrays accepts a head iff phi_K's width is phi_Q's and w's is the values'; an
    accepted head evaluates (its kernel and readout are well defined on every input)."""
    rows = 2**m
    build = lambda: kb.Head.from_arrays(np.ones((rows, r)), np.ones((rows, r + dr)), np.ones((rows, dv)), (np.ones((rows, dv + ddv)), np.zeros(rows)))  # noqa: E731
    if dr == 0 and ddv == 0:
        head = build()
        assert head.rank == r and kb.evaluate(head, kb.Family.all(m, 2)).inputs > 0
    else:
        with pytest.raises(HeadError):
            build()


# ------------------------------------------------------------------ load_head: the same routine


def test_load_head_and_from_arrays_agree():
    head = kb.Head.from_arrays(*arrays())
    again = kb.load_head(head.to_json())
    assert again.phi_q == head.phi_q and again.readout == head.readout
    doc = head.to_json()
    doc["tokens"]["00"]["phi_k"].append("1")
    with pytest.raises(HeadError):
        kb.load_head(doc)
    doc = head.to_json()
    doc["caveat"] = ["not", "a", "string"]
    with pytest.raises(HeadError, match="^/caveat"):
        kb.load_head(doc)


def test_caveat_round_trips_through_the_head_file():
    head = kb.Head.from_arrays(*arrays())
    head.caveat = "differs from the library by eps"
    doc = json.loads(json.dumps(head.to_json()))
    assert kb.load_head(doc).caveat == head.caveat
    assert "caveat" not in kb.Head.from_arrays(*arrays()).to_json()


# ------------------------------------------------------------------ from_torch


torch_cases = pytest.mark.skipif(__import__("importlib").util.find_spec("torch") is None, reason="torch is not installed")


def _module(r_q=2, r_k=2, dv=1, w_cols=1, out=None):
    import torch

    class Module(torch.nn.Module):
        def forward(self, bits):
            n = len(bits)
            return out(bits) if out else (torch.ones(n, r_q), torch.ones(n, r_k), torch.ones(n, dv))

        def readout(self, bits):
            n = len(bits)
            return torch.ones(n, w_cols), torch.zeros(n)

    return Module()


@torch_cases
@pytest.mark.parametrize("kw,named", [({"r_k": 3}, "phi_k: width 3"), ({"w_cols": 2}, "readout w: width 2")])
def test_from_torch_refuses_mismatched_widths(kw, named):
    with pytest.raises(HeadError) as info:
        kb.Head.from_torch(_module(**kw), m=3)
    assert one_line(info.value).startswith(named)


@torch_cases
def test_from_torch_names_the_problem_in_one_line():
    import torch

    cases = [
        (lambda: kb.Head.from_torch(_module(), m=300), "m = 300: the default tokens are all 2^300"),
        (lambda: kb.Head.from_torch(_module(), m=0), "m = 0"),
        (lambda: kb.Head.from_torch(_module(), tokens=["01", "1"]), "tokens: strings of 1 and 2"),
        (lambda: kb.Head.from_torch(torch.nn.Linear(3, 2), m=3), "module: a Linear is not a from_torch module"),
        (lambda: kb.Head.from_torch(_module(out=lambda b: torch.ones(len(b), 2)), m=3), "module: module(bits) must return (phi_q, phi_k, values), got Tensor"),
        (lambda: kb.Head.from_torch(_module(out=lambda b: (b, b)), m=3), "module: module(bits) must return (phi_q, phi_k, values), got 2 items"),
        (lambda: kb.Head.from_torch(_module(out=lambda b: b @ torch.ones(5, 2)), m=3), "module: module(bits) on the (8, 3) bit tensor raised RuntimeError"),
        (lambda: kb.Head.from_torch(_module(out=lambda b: (b, b, b[:3])), m=3), "values: 3 rows, but phi_q has 8"),
        (lambda: kb.Head.from_torch(_module(out=lambda b: (b / 0, b, b)), m=3), "module: returned a NaN"),
    ]
    for call, start in cases:
        with pytest.raises(HeadError) as info:
            call()
        assert one_line(info.value).startswith(start), str(info.value)
    assert kb.Head.from_torch(_module(), tokens=["010", "110"]).tokens == [2, 3]


@torch_cases
def test_adapters_refuse_a_layer_of_another_library():
    """adapters.fla given a Performer layer raised AttributeError."""
    import torch

    from kernelbounds import adapters

    for adapter in (adapters.fla, adapters.performer, adapters.fast_transformers):
        with pytest.raises(adapters.AdapterError) as info:
            adapter(torch.nn.Linear(3, 3))
        assert one_line(info.value)
        assert "layer:" in str(info.value) or "install" in str(info.value)


@torch_cases
def test_adapter_readout_is_checked():
    pytest.importorskip("performer_pytorch")
    import torch
    from performer_pytorch import SelfAttention

    from kernelbounds import adapters

    attn = SelfAttention(dim=6, heads=1, dim_head=6, nb_features=16).eval()
    with pytest.raises(adapters.AdapterError, match="^readout: expected a torch.nn.Linear\\(hidden, 1\\), got \\(2, 6\\)"):
        adapters.performer(attn, torch.nn.Linear(4, 6), torch.nn.Linear(6, 2))
    with pytest.raises(adapters.AdapterError, match="^layer: adapters.fla takes|^fla imports triton"):
        adapters.fla(attn)


def test_validate_head_is_the_one_routine():
    """The constructor, load and from_arrays all refuse through validate_head."""
    with pytest.raises(HeadError):
        validate_head(2, {0: (F1,)}, {0: (F1,)}, {0: (F1,)}, {0: ((F1, F1), F0)})
    validate_head(2, {}, {}, {}, {})
    with pytest.raises(HeadError, match="defines no tokens"):
        validate_head(2, {}, {}, {}, {}, need_tokens=True)
