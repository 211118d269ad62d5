"""The lower-bound forms' shared vocabulary (THEORY §3 L3, L4, L8): the kernel classes a
form can state its bound for, and the bases of the forms (:class:`Ranked`: an L3 rank
bound; :class:`PerEntry`: per-entry forms with their chain products).  The forms themselves
are :mod:`.assemble`'s, :mod:`.orbitform`'s and :mod:`.directsum`'s; :mod:`.certify` and
:mod:`.witness` write their certificates and witness families from these bases, so no
module here imports another in a circle.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import InvalidArgument
from ..vocabulary import KERNELS  # THEORY §1, L8
from .rankbound import RankBound


def check_kernel(kernel: str, variant: str) -> None:
    """ValueError for an unknown kernel class, or signed-any-denominator with the
    position-dependent variant (THEORY L8 (b): not covered)."""
    if kernel not in KERNELS:
        raise InvalidArgument(f"unknown kernel {kernel!r}; expected one of {', '.join(KERNELS)}")
    if kernel == "signed-any-denominator" and variant == "position-dependent":
        raise InvalidArgument("kernel signed-any-denominator is not covered for the position-dependent variant (THEORY L8 (b): with denominators of "
                         "either sign the placement sum is no longer a convex combination); use kernel signed or another variant")


def kernel_fields(doc: dict, kernel: str) -> dict:
    """Add the v2 field `kernel` (and version 2) unless the kernel is nonnegative, so the
    nonnegative files stay byte-identical (docs/certificate-format-v2.md, "Signed kernels")."""
    if kernel != "nonnegative":
        doc["version"] = 2
        doc["kernel"] = kernel
    return doc


class Ranked:
    """bound and k of an L3 rank bound (THEORY L3), for forms that carry `rank: RankBound`
    and `kernel`: the L3 bound on rank M is a bound on r for nonnegative kernels (L4), and
    on r + 1 for signed kernels (L8: M = D-ratios, rank M <= r + 1), hence L3 - 1."""

    rank: RankBound
    kernel: str

    @property
    def bound(self) -> int:
        return self.rank.bound - (self.kernel != "nonnegative")

    def with_kernel(self, kernel: str):
        """The same bound stated for another kernel class (same code, chains and k)."""
        check_kernel(kernel, self.variant)
        return replace(self, kernel=kernel)

    @property
    def k(self) -> int:
        return self.rank.k


class PerEntry(Ranked):
    """Per-entry forms (THEORY L3): the least chain product over their `products`."""

    products: dict[int, int]

    @property
    def min_product(self) -> int:
        return min(self.products)
