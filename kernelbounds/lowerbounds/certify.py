"""Lower-bound certificate documents and the kernel classes they state a bound for (THEORY
§3 L3, L4, L8; docs/certificate-format-v2.md): the v1 documents of the pairwise (listed
words) and uniform (linear code) forms, the field `kernel` of a signed class, and the
bound each form states per class (L3 for nonnegative kernels, L3 - 1 for signed ones).
The forms (LowerBound, LinearLowerBound) are those of :mod:`.assemble`, which imports this
module.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import InvalidArgument, KernelboundsError
from ..bits import to_str
from ..certificate import canonical_json, header
from .rankbound import RankBound
from .witness import linear_witness_count, witness_count, witness_family

if TYPE_CHECKING:  # for annotations only: assemble imports this module
    from .assemble import LinearLowerBound, LowerBound

from ..vocabulary import KERNELS  # THEORY §1, L8


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


class _Ranked:
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


class _PerEntry(_Ranked):
    """Per-entry forms (THEORY L3): the least chain product over their `products`."""

    products: dict[int, int]

    @property
    def min_product(self) -> int:
        return min(self.products)


def certificate(lb: LowerBound, listed: bool = False) -> dict:
    """The v1 lower-bound certificate (v2 with the field `kernel` for a signed kernel: the
    bound stated for another class is ``sources.codes.restate``); `listed` writes the
    witness family explicitly."""
    m = lb.m
    count = witness_count(lb)
    doc = header("lower-bound")
    witness: dict = {"rule": "chains-v1"}
    if listed:
        witness["inputs"] = [[to_str(x, m) for x in inp] for inp in witness_family(lb)]
    doc.update(
        m=m,
        n=lb.n,
        variant=lb.variant,
        code={"name": lb.code.name, "words": [to_str(w, m) for w in lb.code.words]},
        queries="complement",
        schedules=[{"gap": g, "levels": list(levels)} for g, levels in sorted(lb.schedules.items())],
        witness=witness,
        claims={"bound": lb.bound, "k": lb.rank.k, "min_product": lb.min_product, "witness_inputs": count},
    )
    return kernel_fields(doc, lb.kernel)


def listed_size(lb: LowerBound) -> int:
    """The exact byte count of ``canonical_json(certificate(lb, True))``, without
    listing the family: the unlisted document plus, for K inputs of n tokens of m bits,
    the key line `  "inputs": [` and its separator (18 bytes) and K (n (m + 8) + 10) (one
    token a line at indent 4: `    "0101",`; each input's brackets at indent 3)."""
    k, n, m = witness_count(lb), lb.n, lb.m
    return len(canonical_json(certificate(lb, False))) + 18 + k * (n * (m + 8) + 10)


class ListedTooLarge(KernelboundsError, ValueError):
    """A certificate whose listed witness family is over the checker's limits, refused
    before the family is built."""


def listed_refusal(lb: LowerBound) -> str | None:
    """Why the certificate listing lb's witness family is refused before it is built (one
    line), or None: the checker reads at most max_list listed items and max_file_bytes
    bytes, and the file's exact size is known in advance (listed_size)."""
    from ..checker import Limits

    limits = Limits()
    inputs, size = witness_count(lb), listed_size(lb)
    if inputs > limits.max_list or size > limits.max_file_bytes:
        return (f"the witness family has {inputs} inputs of length {lb.n} (a {size}-byte file), over the checker's limits "
                f"of {limits.max_list} listed items and {limits.max_file_bytes} bytes: `kernelbounds bound -o` writes the compact form")
    return None


def linear_certificate(lb: LinearLowerBound) -> dict:
    doc = header("lower-bound")
    doc.update(
        m=lb.m,
        n=lb.n,
        variant=lb.variant,
        code={"name": lb.code.name, "linear": {"generator": [to_str(r, lb.m) for r in lb.code.rows], "weight": lb.weight}},
        queries="complement",
        schedules=[{"gap": lb.gap, "levels": list(lb.levels)}],
        witness={"rule": "chains-prefix-v1"},
        claims={
            "bound": lb.bound,
            "k": lb.rank.k,
            "min_product": lb.min_product,
            "witness_inputs": linear_witness_count(lb),
            "code_size": lb.size,
            "min_distance": lb.min_distance,
        },
    )
    return kernel_fields(doc, lb.kernel)
