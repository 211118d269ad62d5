"""Per-token heads from the linear-attention libraries people train with (optional extra
``pip install kernelbounds[torch]``; each library is imported only by its adapter).

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
"""

from __future__ import annotations


class AdapterError(ValueError):
    """A library module the adapter cannot turn into a per-token single head."""


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


def head_module(embed, project_q, project_k, project_v, feature_q, feature_k, out, readout, residual: bool):
    """The from_torch protocol module of one normalised linear-attention head (module
    docstring): project_* and feature_* are callables on (T, d) tensors, out and readout
    torch.nn.Linear (or None: the identity / the hidden size must be 1)."""
    torch = _torch()

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

    return Head()


# ------------------------------------------------------------------ performer-pytorch


def performer(attention, embed=None, readout=None, residual: bool = False):
    """A per-token head from a performer-pytorch ``SelfAttention(dim, heads=1, ...)``
    (FAVOR+ or generalized random features; the key maximum made per-token: module docstring)."""
    torch = _torch()
    from performer_pytorch.performer_pytorch import generalized_kernel, softmax_kernel

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

    return head_module(embed, attention.to_q, attention.to_k, attention.to_v, feature(True), feature(False), attention.to_out, readout, residual)


# ------------------------------------------------------------------ pytorch-fast-transformers


def fast_transformers(layer, embed=None, readout=None, residual: bool = False):
    """A per-token head from a pytorch-fast-transformers ``AttentionLayer`` with
    ``LinearAttention`` inside (elu(x) + 1 feature map by default), one head."""
    from fast_transformers.attention.linear_attention import LinearAttention

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

    return head_module(embed, layer.query_projection, layer.key_projection, layer.value_projection, fq, fk, layer.out_projection, readout, residual)


# ------------------------------------------------------------------ flash-linear-attention


def fla(layer, embed=None, readout=None, residual: bool = False):
    """A per-token head from a flash-linear-attention ``LinearAttention`` layer (one
    head, identity output norm, normalised; the causal layer at its last position)."""
    torch = _torch()

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
                       features(layer.feature_map_k, layer.norm_k), layer.o_proj, readout, residual)
