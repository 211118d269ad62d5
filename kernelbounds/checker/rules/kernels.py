"""The kernel class a lower-bound file speaks about (format v2, field `kernel`; THEORY §3 L8).

  nonnegative             a(x, z) >= 0 and every scored denominator > 0 (THEORY §1; the
                          default when the field is absent, so v1 files keep their meaning);
  signed                  a of any sign, every scored denominator > 0 (L8 (a));
  signed-any-denominator  a of any sign, the output defined when the denominator != 0
                          (L8 (b): position-independent heads and the causal final query only).

Chain rules (lower-bound, all three code forms).  L1 in its D-ratio form never uses a >= 0:
with D_i(z) = K(q_i, q_i) + (n-1) K(q_i, z) a chain gives D_i(c_i) > P_ij D_i(c_j) > 0 for
positive denominators (L8 (a)), and |D_i(c_j)| < |D_i(c_i)| / P_ij for denominators of either
sign (L8 (b): every link d >= 2 forces |D(b)| < |D(a)| / ((n-2)(d-1))).  So the matrix
M_ij = D_i(c_j) / D_i(c_i) has M_ii = 1 and |M_ij| < 1/P_ij, and L3 (Schur's inequality and
Hadamard powers, valid for signed entries) bounds rank M from below by the same number as
for nonnegative kernels.  But M = diag(1/D_i(c_i)) [s 1^T + (n-1) K] with s_i = K(q_i, q_i),
so rank M <= r + 1, not r: the rule states **r >= (L3 bound) - 1** for both signed classes.
(The K-ratio form K(a) > rho K(b), which gives r >= L3 for nonnegative kernels, needs
K(q, q) >= 0 and is not available.)

Which classes a re-derived bound holds for (the `kernels` of a rule's claim): every
nonnegative-kernel head is a signed head with positive denominators, and every such head is
a head whose denominators are nonzero, so a signed file's bound holds for
["nonnegative", "signed"] and a signed-any-denominator file's for all three.
"""

from __future__ import annotations

from ..common import require_version
from ..errors import Invalid
from ..jsonread import Node

KERNELS = ("nonnegative", "signed", "signed-any-denominator")
COVERED = {
    "nonnegative": ["nonnegative"],
    "signed": ["nonnegative", "signed"],
    "signed-any-denominator": ["nonnegative", "signed", "signed-any-denominator"],
}
WHY_NOT = {
    "crossing": "the crossing argument (THEORY U6) factors a rank-2 kernel through R^2_{>=0}, which needs K >= 0 (Cohen-Rothblum); it holds for kernel 'nonnegative' only",
    "orthant": "the orthant argument (THEORY L7) uses signs forced from positive denominators; with denominators of either sign no sign of K(q,a) - K(q,b) is forced (THEORY L8 (b)): kernel 'nonnegative' or 'signed' only",
}


def read_kernel(doc: Node, variant: str, allowed: tuple[str, ...] = KERNELS, kind: str = "lower-bound") -> str:
    """The file's kernel class ("nonnegative" when absent); a present field needs version 2.

    Refused (invalid at /kernel): a class the kind's argument does not cover (`allowed`),
    and signed-any-denominator with the position-dependent variant (THEORY L8 (b): the
    placement sum of L5 is a convex combination only when every denominator is positive)."""
    if not doc.has("kernel"):
        return "nonnegative"
    node = doc["kernel"]
    require_version(doc, node, 2, "the field kernel")
    kernel = node.str(KERNELS)
    if kernel not in allowed:
        raise Invalid(node.pointer, f"kernel {kernel!r} is not covered by the kind {kind}: {WHY_NOT.get(kind, 'not allowed')}")
    if kernel == "signed-any-denominator" and variant == "position-dependent":
        raise Invalid(node.pointer, "kernel 'signed-any-denominator' with the position-dependent variant: with denominators of either sign the placement sum of L5 "
                      "is no longer a convex combination, so L1 does not transfer (THEORY L8 (b)); use kernel 'signed' (positive denominators) or another variant")
    return kernel


def chain_bound(l3: int, kernel: str) -> int:
    """The feature-rank bound from L3's bound on rank M: M's rank is <= r for nonnegative
    kernels (K-ratio form, L4), <= r + 1 for signed kernels (D-ratio form, L8)."""
    return l3 if kernel == "nonnegative" else l3 - 1


def scope(variant: str, kernel: str, base: str) -> str:
    """The head class of a VALID line: the variant's scope with the kernel class put in."""
    if kernel == "nonnegative":
        return base
    when = "whose denominators are > 0" if kernel == "signed" else "whose output is defined (denominator != 0)"
    return base.replace("a nonnegative kernel for every pair of positions", f"a kernel of any sign for every pair of positions, {when},").replace(
        "a nonnegative kernel", f"a kernel of any sign {when}")


def signed_route(l3: int, kernel: str) -> list[str]:
    """The route line stating L8's step from rank M to r."""
    if kernel == "nonnegative":
        return []
    form = "0 < M_ij < 1/P_ij (positive denominators, L8 (a))" if kernel == "signed" else "|M_ij| < 1/P_ij (nonzero denominators, L8 (b))"
    return [f"kernel {kernel}: M_ij = D_i(c_j)/D_i(c_i), D_i(z) = K(q_i,q_i) + (n-1)K(q_i,z), M_ii = 1, {form}; rank M <= r + 1, so r >= {l3} - 1 = {l3 - 1}"]
