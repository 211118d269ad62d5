"""Per-token heads from the linear-attention libraries people train with (optional extra
``pip install 'kernelbounds[torch]'`` for performer, ``'kernelbounds[fla]'`` for fla; each
library is imported only by its adapter).

Every adapter wraps a single-head layer of the library, together with the user's token
embedding (bits -> hidden vector, default the bits themselves) and scalar readout
(hidden -> 1, e.g. ``torch.nn.Linear(d, 1)``; required unless the hidden size is 1), into a
module that satisfies the protocol of :meth:`kernelbounds.Head.from_torch`:

* phi_Q(x) = feature_q(W_Q e(x)), phi_K(z) = feature_k(W_K e(z)) with the library's own
  feature-map code, v(z) = W_V e(z) (THEORY §1: a(x, z) = <phi_Q(x), phi_K(z)>);
* the readout of query token q is affine in the attention average o: the library's output
  projection (W_O, b_O), then the user's readout (w, b), plus w . e(q) when ``residual``
  (y = readout(e(q) + out(o))): L_q(o) = <W_O^T w, o> + w . b_O + b (+ w . e(q)).

``head = kb.Head.from_torch(adapter, m=m)`` then evaluates the library's computation in
the module's dtype and converts it exactly.  What each adapter evaluates:

* :func:`performer` (performer-pytorch ``SelfAttention``, FAVOR+ positive random
  features): the library subtracts from every key's projected features the maximum over
  **all keys of the sequence** (and adds eps = 1e-4 after exp), so inside Performer a
  key's features depend on the other tokens.  The adapter calls the library's
  ``softmax_kernel`` once on the whole token set the head is built on (all 2^m tokens by
  default), so the maximum is one constant, taken over every token: the features are
  per-token.  On a sequence that contains the token attaining that maximum the head's
  output is the library's (the tests check this); on other sequences the two differ only
  through eps (the exp part of every key's features is rescaled by one common factor,
  eps is not).  ``generalized_attention=True`` (ReLU random features) is per-token as it is.
* :func:`fast_transformers` (pytorch-fast-transformers ``AttentionLayer`` around
  ``LinearAttention``: elu(x) + 1, the "linear transformers" of Katharopoulos et al.;
  extra ``kernelbounds[fast-transformers]``, which compiles C++/CUDA at install: its test
  is skipped where the library is absent, and it did not build within 30 minutes on the
  project's machine, so this adapter is untested there; the same elu+1 map is tested
  through :func:`fla`).
* :func:`fla` (flash-linear-attention ``LinearAttention`` with feature_map 'elu' (elu(x) + 1,
  the library's CPU path), 'hedgehog', 't2r' or 'dpfp' (tested; 'relu' and
  'elementwise_product' are adapted too, the latter a signed kernel)):
  one head, ``output_norm='identity'`` (an RMS norm of o is not affine),
  ``do_feature_map_norm=True`` (the layer is otherwise unnormalised, outside THEORY §1).
  The layer is causal: the head is the layer at the last position (THEORY §1, causal
  final query), so every position of every input of the head is every last position of
  the layer.  The library's forward pass needs Triton (GPU); the tests compare with the
  library's own pure-PyTorch reference ``naive_recurrent_linear_attn(normalize=True)``.

**Where the adapted head differs from the library's forward pass** (``CAVEATS``; the head
built by ``Head.from_torch`` carries the text as ``head.caveat``, and ``evaluate`` puts it
in its result and its ``--json`` as ``caveat``):

* performer, FAVOR+ (softmax kernel): the library takes the key maximum per sequence and
  adds eps = 1e-4 after exp, so eps does not cancel against the head's one maximum over
  every token.  Measured at m = 8 on random layers: the outputs differ on 95% of inputs,
  by up to 0.31, and the Min-IP verdict (|y - t| < 1/2) differs at 14,190 of 786,432
  scored positions (1.8%).  Only sequences holding the token that attains the maximum
  agree (to float32 rounding).  ``generalized_attention=True``: per-token in both; they
  differ by float32 rounding only (tests: within 1e-4 relative).
* fla: the library divides by z + 1e-10 (z the normaliser sum_j <q, k_j>; 1e-5 in some
  releases) and computes in float32, the head divides by z exactly: the tests find the
  outputs equal within 1e-4 relative (1e-5 absolute) on random inputs.
* fast_transformers: the library divides by z + 1e-6 (``eps``), the head by z: outputs
  differ by a relative 1e-6 / z at most, plus float32 rounding (untested here).

Wrong input: a layer of another library or shape is refused with one line
(:class:`AdapterError`), and a library that cannot be imported says what to install (for
flash-linear-attention on a CPU machine: ``pip install triton``, which the CPU build of
PyTorch does not bring; the ``[fla]`` extra installs it on Linux x86-64, where it
imports without a GPU and the fla tests pass on the CPU).  The tables the module
produces are validated by ``Head.from_torch`` (:func:`kernelbounds.heads.tables.validate_head`).
"""

from __future__ import annotations
from .errors import KernelboundsError



class AdapterError(KernelboundsError, ValueError):
    """A library module the adapter cannot turn into a per-token single head."""


PERFORMER_SOFTMAX = (
    "performer FAVOR+: the library takes the key maximum per sequence and adds eps = 1e-4 after exp; this head takes one "
    "maximum over all its tokens, so eps does not cancel: at m = 8 outputs differed on 95% of inputs (by up to 0.31) and the "
    "verdict at 14,190 of 786,432 positions; only sequences holding the maximising token agree"
)
PERFORMER_GENERALIZED = "performer generalized (ReLU) features: per-token in the library too; differs from its float32 forward pass by rounding only (tests: 1e-4 relative)"
FLA = "flash-linear-attention divides by z + 1e-10 in float32, this head by z exactly: outputs agree within 1e-4 relative (tests, against the library's naive_recurrent_linear_attn)"
FAST_TRANSFORMERS = "pytorch-fast-transformers divides by z + 1e-6 in float32, this head by z exactly: a relative difference of at most 1e-6 / z plus rounding (untested)"
CAVEATS = {"performer": PERFORMER_SOFTMAX, "performer-generalized": PERFORMER_GENERALIZED, "fla": FLA, "fast_transformers": FAST_TRANSFORMERS}

_INSTALL = {
    "performer_pytorch": "pip install 'kernelbounds[torch]' (or pip install performer-pytorch)",
    "fla": "pip install 'kernelbounds[fla]' (or pip install flash-linear-attention)",
    "fast_transformers": "pip install 'kernelbounds[fast-transformers]' (compiles C++/CUDA at install)",
}


def _library(name: str, attr: str):
    """``name.attr`` imported, or an AdapterError saying exactly what to install."""
    import importlib

    try:
        return getattr(importlib.import_module(name), attr)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        root = name.split(".")[0]
        if missing == root:
            raise AdapterError(f"{root} is not installed: {_INSTALL.get(root, 'pip install ' + root)}") from None
        if missing == "triton":
            raise AdapterError(f"{root} imports triton, which the CPU build of PyTorch does not bring: pip install triton (or pip install 'kernelbounds[fla]' on Linux x86-64)") from None
        raise AdapterError(f"{root} needs the module {missing!r}: pip install {missing}") from None
    except ImportError as exc:
        raise AdapterError(f"{name} cannot be imported: {str(exc).splitlines()[0][:200]}") from None


def _expect(layer, cls, adapter: str, what: str) -> None:
    """One line when the adapter is given a layer of another kind (not an AttributeError)."""
    if not isinstance(layer, cls):
        raise AdapterError(f"layer: adapters.{adapter} takes {what}, got {type(layer).__module__}.{type(layer).__name__}")


def _torch():
    try:
        import torch
    except ImportError:  # pragma: no cover - the extra is missing
        raise AdapterError("the adapters need PyTorch: pip install kernelbounds[torch]") from None
    return torch


def _linear(layer, torch):
    """(W, b) of a torch.nn.Linear (b = 0 when it has no bias)."""
    w = layer.weight
    b = layer.bias if layer.bias is not None else torch.zeros(w.shape[0], dtype=w.dtype)
    return w, b


def head_module(embed, project_q, project_k, project_v, feature_q, feature_k, out, readout, residual: bool, caveat: str = ""):
    """The from_torch protocol module of one normalised linear-attention head (module
    docstring): project_* and feature_* are callables on (T, d) tensors, out and readout
    torch.nn.Linear (or None: the identity / the hidden size must be 1); ``caveat`` says
    where the head differs from the library's forward pass (``module.caveat``)."""
    torch = _torch()
    if embed is not None and not callable(embed):
        raise AdapterError(f"embed: expected a module mapping the (T, m) bits to hidden vectors, got {type(embed).__name__}")
    if readout is not None and (not isinstance(readout, torch.nn.Linear) or readout.weight.shape[0] != 1):
        shape = tuple(readout.weight.shape) if isinstance(readout, torch.nn.Linear) else type(readout).__name__
        raise AdapterError(f"readout: expected a torch.nn.Linear(hidden, 1), got {shape}")

    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.parts = torch.nn.ModuleList([p for p in (embed, out, readout) if isinstance(p, torch.nn.Module)])
            self.parts.extend(p for p in (project_q, project_k, project_v, feature_q, feature_k) if isinstance(p, torch.nn.Module))

        def hidden(self, bits):
            return bits if embed is None else embed(bits)

        def forward(self, bits):
            x = self.hidden(bits)
            return feature_q(project_q(x)), feature_k(project_k(x)), project_v(x)

        def readout(self, bits):
            x = self.hidden(bits)
            if readout is None:
                if x.shape[1] != 1:
                    raise AdapterError(f"give readout= (hidden size {x.shape[1]} -> 1), e.g. the model's final torch.nn.Linear")
                w, b = torch.ones(1, 1, dtype=x.dtype), torch.zeros(1, dtype=x.dtype)
            else:
                w, b = _linear(readout, torch)
            wo, bo = _linear(out, torch) if out is not None else (torch.eye(w.shape[1], dtype=w.dtype), torch.zeros(w.shape[1], dtype=w.dtype))
            row = (w[0] @ wo).expand(len(bits), -1)
            bias = (w[0] @ bo + b[0]).expand(len(bits))
            if residual:
                bias = bias + x @ w[0]
            return row, bias

    module = Head()
    module.caveat = caveat
    return module


# ------------------------------------------------------------------ performer-pytorch


def performer(attention, embed=None, readout=None, residual: bool = False):
    """A per-token head from a performer-pytorch ``SelfAttention(dim, heads=1, ...)``
    (FAVOR+ or generalized random features; the key maximum made per-token: module docstring).

    Differs from the library's forward pass (``CAVEATS["performer"]``, carried by the head):
    FAVOR+ takes the key maximum per sequence and adds eps = 1e-4 after exp; the head takes
    one maximum over all its tokens, so eps does not cancel.  At m = 8 on random layers the
    outputs differed on 95% of inputs, by up to 0.31, and the Min-IP verdict at 14,190 of
    786,432 positions; only sequences holding the maximising token agree (float32 rounding).
    Generalized (ReLU) features are per-token in both: rounding only (1e-4 relative)."""
    _torch()
    _expect(attention, _library("performer_pytorch", "SelfAttention"), "performer", "a performer_pytorch SelfAttention")
    generalized_kernel = _library("performer_pytorch.performer_pytorch", "generalized_kernel")
    softmax_kernel = _library("performer_pytorch.performer_pytorch", "softmax_kernel")

    if attention.heads != 1 or attention.global_heads != 1:
        raise AdapterError(f"one global head is evaluated; this layer has heads={attention.heads}, local heads={attention.heads - attention.global_heads}")
    fast = attention.fast_attention
    if fast.causal or fast.no_projection:
        raise AdapterError("causal or no_projection Performer layers are not adapted (their features are not per-token)")

    def feature(is_query):
        def apply(x):
            data = x[None, None]  # (batch 1, head 1, tokens, d): the library's layout
            if fast.generalized_attention:
                out = generalized_kernel(data, kernel_fn=fast.kernel_fn, projection_matrix=fast.projection_matrix)
            else:
                out = softmax_kernel(data, projection_matrix=fast.projection_matrix, is_query=is_query)
            return out[0, 0]

        return apply

    caveat = CAVEATS["performer-generalized" if fast.generalized_attention else "performer"]
    return head_module(embed, attention.to_q, attention.to_k, attention.to_v, feature(True), feature(False), attention.to_out, readout, residual, caveat)


# ------------------------------------------------------------------ pytorch-fast-transformers


def fast_transformers(layer, embed=None, readout=None, residual: bool = False):
    """A per-token head from a pytorch-fast-transformers ``AttentionLayer`` with
    ``LinearAttention`` inside (elu(x) + 1 feature map by default), one head.

    Differs from the library's forward pass (``CAVEATS["fast_transformers"]``): the library
    divides by z + 1e-6, the head by z exactly: at most 1e-6 / z relative, plus float32
    rounding (untested here: the library did not build)."""
    _torch()
    _expect(layer, _library("fast_transformers.attention.attention_layer", "AttentionLayer"), "fast_transformers", "a fast_transformers AttentionLayer")
    LinearAttention = _library("fast_transformers.attention.linear_attention", "LinearAttention")

    inner = layer.inner_attention
    if not isinstance(inner, LinearAttention):
        raise AdapterError(f"the inner attention is {type(inner).__name__}, not LinearAttention")
    if layer.n_heads != 1:
        raise AdapterError(f"one head is evaluated; this layer has n_heads={layer.n_heads}")
    fmap = inner.feature_map

    def fq(x):
        return fmap.forward_queries(x[None, :, None, :])[0, :, 0, :]

    def fk(x):
        return fmap.forward_keys(x[None, :, None, :])[0, :, 0, :]

    return head_module(embed, layer.query_projection, layer.key_projection, layer.value_projection, fq, fk, layer.out_projection, readout, residual, FAST_TRANSFORMERS)


# ------------------------------------------------------------------ flash-linear-attention


def fla(layer, embed=None, readout=None, residual: bool = False):
    """A per-token head from a flash-linear-attention ``LinearAttention`` layer (one
    head, identity output norm, normalised; the causal layer at its last position).

    Differs from the library's forward pass (``CAVEATS["fla"]``): the library divides by
    z + 1e-10 (1e-5 in some releases) in float32, the head by z exactly; the tests find
    them equal within 1e-4 relative, 1e-5 absolute.  ``import fla.layers`` needs Triton
    (``pip install triton``; the ``[fla]`` extra brings it on Linux x86-64)."""
    torch = _torch()
    _expect(layer, _library("fla.layers", "LinearAttention"), "fla", "a flash-linear-attention fla.layers.LinearAttention")

    if layer.num_heads != 1 or getattr(layer, "num_kv_groups", 1) != 1:
        raise AdapterError(f"one head is evaluated; this layer has num_heads={layer.num_heads}")
    if not isinstance(layer.norm, torch.nn.Identity):
        raise AdapterError("output_norm='identity' is needed: an RMS norm of the attention output is not an affine readout")
    if not layer.do_feature_map_norm:
        raise AdapterError("do_feature_map_norm=True is needed: without it the layer does not divide by sum_j K_j (not a normalised head, THEORY §1)")

    def features(fmap, norm):
        def apply(x):
            f = fmap(x[:, None, :])[:, 0, :]  # (tokens, head 1, d): the library's layout
            return f / (f.sum(-1, True) + 1e-4) if norm else f

        return apply

    return head_module(embed, layer.q_proj, layer.k_proj, layer.v_proj, features(layer.feature_map_q, layer.norm_q),
                       features(layer.feature_map_k, layer.norm_k), layer.o_proj, readout, residual, FLA)
