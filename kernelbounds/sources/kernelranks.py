"""Kernel ranks of named kernels (THEORY §2: kernel rank = feature rank for the level
kernels; kind ``rank``, ``kernelrank``): tensor, softmax, inner and disjoint at m = 8, and
tensor at m = 12.  They bound no side of r* (no cell)."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "kernel-ranks", "rank", ""
THEORY, METHOD = "§2", "kernel rank"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated


def _file(name: str, m: int) -> Entry:
    from .. import kernelrank

    return Entry(f"rank-{name}-m{m:02d}.json", lambda: kernelrank.certificate(kernelrank.named_kernel(name, m), m, name))


def entries() -> list[Entry]:
    return [_file(name, 8) for name in ("tensor", "softmax", "inner", "disjoint")] + [_file("tensor", 12)]


covers, build = files_cover(entries)
