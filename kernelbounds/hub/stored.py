"""The hub's computed sources at m <= 64, n <= 8, stored with the checker's verdicts
(docs/index-format.md, "COMPUTED").

Three sources of ``kernelbounds.hub.answer`` are computed rather than committed: the code search
of THEORY L4-L6 (``lowerbounds.assemble.best``, seconds to a minute per m at large m), the
orthant family of L7 (r >= floor(m/2), a closed form) and the explicit nonnegative chain of
U4' (a closed form with an exact extreme-class check).  So that every cell with m <= 64,
n <= 8 answers from a lookup (from the repository and from a wheel alike), their results
are stored in the file ``COMPUTED`` beside the committed certificates, written by
``kernelbounds certificates --write`` and compared byte for byte by ``kernelbounds
certificates`` (the same regeneration, so the file is always the generators' output).

**Every stored number is a checker verdict.**  For each stored source the generator writes
its canonical certificate, the trusted checker (``kernelbounds.checker.check_bytes``)
checks exactly those bytes once, here, and the row stores the certificate's sha256 beside
the checker's re-derived claim; the hub prints the claim's value, never the generator's.
A code cell stores two certificates: the nonnegative one (value = the code bound) and,
when the bound exceeds 2, the one restated for the widest signed class the variant admits
(THEORY L8: value = bound - 1; its claim lists every class it covers).  The orthant row is
stored only where it can decide a side (floor(m/2) >= the code bound - 1).  ``bound -o``
rebuilds a certificate and refuses it unless its sha256 is the stored one;
``kernelbounds certificates --verify`` rebuilds and re-checks every stored verdict.

Per committed lower-bound file the code description is stored too (keyed by name and
sha256), so the hub never reads a committed certificate to describe its code.
"""

from __future__ import annotations

import json
from functools import lru_cache
from ..errors import KernelboundsError
from ..vocabulary import sha256
from .storedshape import FORMAT, MAX_M, NAME, NS, VARIANTS, VERSION, first_problem, has_orthant, stated_kernels, unreadable
from .storedshape import ORTHANT_MAX_M as ORTHANT_MAX_M  # the hub's answer reads it here


def code_detail(lb) -> str:
    """The hub's one-line description of a code bound (THEORY L4)."""
    from ..lowerbounds import assemble

    info = assemble.describe(lb)
    return f"code {info['code']}: N = {info['size']}, {info['form']} form, least chain product {lb.min_product}, Hadamard power k = {lb.k}"


class CertificateRejected(KernelboundsError, RuntimeError):
    """The checker did not accept a certificate the generator wrote for a stored source (a
    generator's bug: nothing is stored or printed from it)."""


def verdict(doc: dict, label: str) -> dict:
    """The checker's verdict on the canonical bytes of ``doc``: their sha256 and the claim
    the checker re-derived (CertificateRejected unless it accepts them)."""
    from ..certificate import canonical_json
    from ..checker import check_bytes

    data = canonical_json(doc).encode("ascii")
    v = check_bytes(data, label)
    if not v.ok:
        raise CertificateRejected(f"{label}: the checker did not accept the generator's certificate (exit {int(v.code)}): {v.pointer} {v.reason}")
    return {"sha256": sha256(data), "claim": v.claim}


def code_entry(m: int, n: int, variant: str) -> dict | None:
    """The code search's best bound at (m, n, variant), or None when no code fits, with the
    checker's verdicts on its nonnegative and signed certificates."""
    from ..lowerbounds import assemble

    lb = assemble.best(m, n, variant)
    if not lb.size:
        return None
    kernels = stated_kernels(variant, lb.bound)
    label = f"code search at m = {m}, n = {n} ({variant})"
    certificates = {k: verdict(assemble.any_certificate(lb, kernel=None if k == "nonnegative" else k), f"{label}, {k} kernel") for k in kernels}
    return {"bound": lb.bound, "detail": code_detail(lb), "summary": assemble.summary(lb), "certificates": certificates}


def orthant_entry(m: int, n: int, variant: str, code_bound: int = 0) -> dict | None:
    """THEORY L7 at (m, n, variant): bound floor(m/2) and the witness family's size, where
    it can decide a side (floor(m/2) >= code_bound - 1: the signed code side is one less),
    with the checker's verdict on its certificate."""
    if not has_orthant(m, code_bound):
        return None
    from ..lowerbounds import signrank

    o = signrank.orthant(m, n, variant)
    found = verdict(o.certificate(), f"orthant family at m = {m}, n = {n} ({variant})")
    return {"bound": o.bound, "witness_inputs": o.witness_count} | found


def chain_entry(m: int, n: int) -> dict:
    """THEORY U4': the explicit nonnegative chain's rank and support at (m, n), with the
    checker's verdict on its certificate."""
    from ..upperbounds import chain

    c = chain.explicit(m, n)
    found = verdict(c.certificate(), f"explicit chain at m = {m}, n = {n}")
    return {"rank": c.rank, "support": list(c.support)} | found


@lru_cache(maxsize=256)
def cell_entry(m: int, n: int, variant: str) -> dict:
    """One cell's lower sources, computed and checked now (beyond the stored grid)."""
    codes = code_entry(m, n, variant)
    return {"m": m, "n": n, "variant": variant, "codes": codes, "orthant": orthant_entry(m, n, variant, codes["bound"] if codes else 0)}


def _row(m: int) -> list[dict]:
    """Every stored cell at this m (one process: the code search's caches are per m)."""
    return [cell_entry.__wrapped__(m, n, variant) for n in NS for variant in VARIANTS]


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
    rows = pmap(_row, ms, jobs, "COMPUTED: code search (L4) and L7, each certificate checked", "m", scheduler=scheduler)
    chains = pmap(_chain_row, ms, jobs, "COMPUTED: chains (U4'), each certificate checked", "m", scheduler=scheduler)
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
    """The COMPUTED document, parsed once, with lookups; StaleIndex naming the JSON pointer
    unless it is whole and complete (``storedshape.py``)."""

    def __init__(self, doc: dict):
        from .index import StaleIndex

        problem = first_problem(doc)
        if problem:
            raise StaleIndex(f"{NAME} is corrupt: {problem}: run `kernelbounds certificates --write certificates`")
        self.cells = {(c["m"], c["n"], c["variant"]): c for c in doc["cells"]}
        self.chains = {(c["m"], c["n"]): c for c in doc["chains"]}
        self.code_files = doc["code_files"]

    def covers(self, m: int, n: int) -> bool:
        return 1 <= m <= MAX_M and n in NS


@lru_cache(maxsize=4)
def parse(data: bytes) -> Stored:
    """COMPUTED's bytes parsed and checked (StaleIndex naming it otherwise)."""
    from .index import StaleIndex

    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as exc:  # not JSON, or a number over Python's 4300 digits
        raise StaleIndex(f"{NAME} is corrupt: {unreadable(exc)}: run `kernelbounds certificates --write certificates`") from None
    return Stored(doc)
