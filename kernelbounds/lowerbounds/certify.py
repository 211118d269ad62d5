"""Lower-bound certificate documents and the kernel classes they state a bound for (THEORY
§3 L3, L4, L8; docs/certificate-format-v2.md): the v1 documents of the pairwise (listed
words) and uniform (linear code) forms, the field `kernel` of a signed class, and the
bound each form states per class (L3 for nonnegative kernels, L3 - 1 for signed ones).
The forms are those of :mod:`.assemble` (their bases in :mod:`.forms`).
"""

from __future__ import annotations

from ..errors import KernelboundsError
from ..bits import to_str
from ..certificate import canonical_json, header
from .forms import PerEntry, Ranked, kernel_fields
from .witness import linear_witness_count, witness_count, witness_family


def certificate(lb: PerEntry, listed: bool = False) -> dict:
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


def listed_size(lb: PerEntry) -> int:
    """The exact byte count of ``canonical_json(certificate(lb, True))``, without
    listing the family: the unlisted document plus, for K inputs of n tokens of m bits,
    the key line `  "inputs": [` and its separator (18 bytes) and K (n (m + 8) + 10) (one
    token a line at indent 4: `    "0101",`; each input's brackets at indent 3)."""
    k, n, m = witness_count(lb), lb.n, lb.m
    return len(canonical_json(certificate(lb, False))) + 18 + k * (n * (m + 8) + 10)


class ListedTooLarge(KernelboundsError, ValueError):
    """A certificate whose listed witness family is over the checker's limits, refused
    before the family is built."""


def listed_refusal(lb: PerEntry) -> str | None:
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


def linear_certificate(lb: Ranked) -> dict:
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
