"""The hub's computed sources at m <= 64, n <= 8, stored (docs/index-format.md, "COMPUTED").

Three sources of ``kernelbounds.hub.answer`` are computed rather than committed: the code search
of THEORY L4-L6 (``lowerbounds.assemble.best``, seconds to a minute per m at large m), the
orthant family of L7 (r >= floor(m/2), a closed form) and the explicit nonnegative chain of
U4' (a closed form with an exact extreme-class check).  So that every cell with m <= 64,
n <= 8 answers from a lookup (from the repository and from a wheel alike), their results
are stored in the file ``COMPUTED`` beside the committed certificates, written by
``kernelbounds certificates --write`` and compared byte for byte by ``kernelbounds
certificates`` (the same regeneration, so the file is always the generators' output).

Per cell the code entry records the bound, the description the hub prints (the code's
side of ``bound --json``) and the sha256 of the canonical certificate the generator writes
for it (``bound -o`` rebuilds that certificate and verifies the hash before writing it).
Per committed lower-bound file the code description is stored too (keyed by name and
sha256), so the hub never reads a committed certificate to describe its code.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

FORMAT = "kernelbounds-computed"
VERSION = 1
NAME = "COMPUTED"
MAX_M = 64
NS = range(3, 9)  # lower bounds beyond the trivial r >= 1 need n >= 3
VARIANTS = ("position-independent", "position-dependent", "causal")
ORTHANT_MAX_M = 41  # signrank's certificates list the pairs up to here; above, L4's codes are far better


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def code_detail(lb) -> str:
    """The hub's one-line description of a code bound (THEORY L4)."""
    from ..lowerbounds import assemble

    info = assemble.describe(lb)
    return f"code {info['code']}: N = {info['size']}, {info['form']} form, least chain product {lb.min_product}, Hadamard power k = {lb.k}"


def code_entry(m: int, n: int, variant: str) -> dict | None:
    """The code search's best bound at (m, n, variant), or None when no code fits."""
    from ..certificate import canonical_json
    from ..lowerbounds import assemble

    lb = assemble.best(m, n, variant)
    if not lb.size:
        return None
    text = canonical_json(assemble.any_certificate(lb))
    return {"bound": lb.bound, "detail": code_detail(lb), "summary": assemble.summary(lb), "sha256": sha256(text.encode("ascii"))}


def orthant_entry(m: int, n: int, variant: str) -> dict | None:
    """THEORY L7 at (m, n, variant): bound floor(m/2) and the witness family's size."""
    if not 4 <= m <= ORTHANT_MAX_M:
        return None
    from ..lowerbounds import signrank

    o = signrank.orthant(m, n, variant)
    return {"bound": o.bound, "witness_inputs": o.witness_count}


def chain_entry(m: int, n: int) -> dict:
    """THEORY U4': the explicit nonnegative chain's rank and support at (m, n)."""
    from ..upperbounds import chain

    c = chain.explicit(m, n)
    return {"rank": c.rank, "support": list(c.support)}


def _row(m: int) -> list[dict]:
    """Every stored cell at this m (one process: the code search's caches are per m)."""
    out = []
    for n in NS:
        for variant in VARIANTS:
            out.append({"m": m, "n": n, "variant": variant, "codes": code_entry(m, n, variant), "orthant": orthant_entry(m, n, variant)})
    return out


def _chain_row(m: int) -> list[dict]:
    return [{"m": m, "n": n} | chain_entry(m, n) for n in NS]


def _code_file(item: tuple[str, bytes]) -> tuple[str, dict]:
    from ..lowerbounds import assemble

    name, data = item
    return name, {"sha256": sha256(data), "summary": assemble.summary(assemble.from_certificate(json.loads(data)))}


def build(code_files: dict[str, bytes], jobs: int | None = None, scheduler: str | None = None) -> dict:
    """The COMPUTED document: every cell m = 1..64, n = 3..8, each variant, and the code
    description of each committed lower-bound file in ``code_files`` (name -> bytes)."""
    from ..progress import pmap

    ms = list(range(MAX_M, 0, -1))  # large m first: they take longest
    rows = pmap(_row, ms, jobs, "COMPUTED: code search (L4) and L7", "m", scheduler=scheduler)
    chains = pmap(_chain_row, ms, jobs, "COMPUTED: chains (U4')", "m", scheduler=scheduler)
    files = pmap(_code_file, sorted(code_files.items()), jobs, "COMPUTED: committed codes", "file", scheduler=scheduler)
    cells = sorted((c for row in rows for c in row), key=lambda c: (c["m"], c["n"], VARIANTS.index(c["variant"])))
    return {
        "format": FORMAT,
        "version": VERSION,
        "cells": cells,
        "chains": sorted((c for row in chains for c in row), key=lambda c: (c["m"], c["n"])),
        "code_files": dict(files),
    }


def text(doc: dict) -> str:
    from ..certificate import canonical_json

    return canonical_json(doc)


class Stored:
    """The COMPUTED document, parsed once, with lookups."""

    def __init__(self, doc: dict):
        if doc.get("format") != FORMAT or doc.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} document")
        self.cells = {(c["m"], c["n"], c["variant"]): c for c in doc["cells"]}
        self.chains = {(c["m"], c["n"]): c for c in doc["chains"]}
        self.code_files = doc["code_files"]

    def covers(self, m: int, n: int) -> bool:
        return 1 <= m <= MAX_M and n in NS


@lru_cache(maxsize=4)
def parse(data: bytes) -> Stored:
    return Stored(json.loads(data))
