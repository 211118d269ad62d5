"""The hub's computed sources at m <= 64, n <= 8, stored with the checker's verdicts
(docs/index-format.md, "COMPUTED").

The stored sources of the registry (``kernelbounds.sources``: ``STORED`` "cell" or
"features") are computed rather than committed: today the code search of THEORY L4-L6
(seconds to a minute per m at large m), the orthant family of L7 (r >= floor(m/2), a closed
form) and the explicit nonnegative chain of U4' (a closed form with an exact extreme-class
check).  So that every cell with m <= 64,
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
from ..sources import CertificateRejected  # noqa: F401 (raised while a row is built)
from ..vocabulary import sha256
from .storedshape import FORMAT, MAX_M, NAME, NS, VARIANTS, VERSION, first_problem, unreadable  # noqa: F401 (re-exported)


def _row(m: int) -> list[dict]:
    """Every stored cell at this m (one process: the code search's caches are per m)."""
    from .. import sources

    return [sources.cell.__wrapped__(m, n, variant) for n in NS for variant in VARIANTS]


def _features_row(m: int) -> dict[str, list[dict]]:
    """Every stored (m, n) row of each features source at this m."""
    from .. import sources

    return {s.NAME: [sources.features_row(s.NAME, m, n) for n in NS] for s in sources.stored("features")}


def _code_file(item: tuple[str, bytes]) -> tuple[str, dict]:
    from ..sources import codes

    name, data = item
    return name, {"sha256": sha256(data), "summary": codes.file_summary(data)}


def build(code_files: dict[str, bytes], jobs: int | None = None, scheduler: str | None = None) -> dict:
    """The COMPUTED document: every cell m = 1..64, n = 3..8, each variant, with the row of
    every stored source, and the code description of each committed lower-bound file in
    ``code_files`` (name -> bytes)."""
    from .. import sources
    from ..progress import pmap

    ms = list(range(MAX_M, 0, -1))  # large m first: they take longest
    names = ", ".join(s.NAME for s in sources.stored("cell"))
    rows = pmap(_row, ms, jobs, f"COMPUTED: {names}, each certificate checked", "m", scheduler=scheduler)
    features = pmap(_features_row, ms, jobs, "COMPUTED: " + ", ".join(s.NAME for s in sources.stored("features")) + ", each certificate checked", "m", scheduler=scheduler)
    files = pmap(_code_file, sorted(code_files.items()), jobs, "COMPUTED: committed codes", "file", scheduler=scheduler)
    cells = sorted((c for row in rows for c in row), key=lambda c: (c["m"], c["n"], VARIANTS.index(c["variant"])))
    doc = {"format": FORMAT, "version": VERSION, "cells": cells, "code_files": dict(files)}
    for s in sources.stored("features"):
        doc[s.NAME] = sorted((c for row in features for c in row[s.NAME]), key=lambda c: (c["m"], c["n"]))
    return doc


def text(doc: dict) -> str:
    from ..certificate import canonical_json

    return canonical_json(doc)


class Stored:
    """The COMPUTED document, parsed once, with lookups (``cells`` by (m, n, variant) and,
    per features source, ``features[name]`` by (m, n)); StaleIndex naming the JSON pointer
    unless it is whole and complete (``storedshape.py``)."""

    def __init__(self, doc: dict):
        from .. import sources
        from .index import StaleIndex

        problem = first_problem(doc)
        if problem:
            raise StaleIndex(f"{NAME} is corrupt: {problem}: run `kernelbounds certificates --write certificates`")
        self.cells = {(c["m"], c["n"], c["variant"]): c for c in doc["cells"]}
        self.features = {s.NAME: {(c["m"], c["n"]): c for c in doc[s.NAME]} for s in sources.stored("features")}
        self.code_files = doc["code_files"]

    @property
    def chains(self) -> dict:
        """The explicit chains' rows by (m, n) (the features source ``chains``)."""
        return self.features["chains"]

    def covers(self, m: int, n: int) -> bool:
        return 1 <= m <= MAX_M and n in NS

    def row(self, name: str, m: int, n: int, variant: str) -> dict | None:
        """The stored row of source ``name`` at a covered cell (a features row ignores the variant)."""
        return self.features[name][(m, n)] if name in self.features else self.cells[(m, n, variant)][name]


@lru_cache(maxsize=4)
def parse(data: bytes) -> Stored:
    """COMPUTED's bytes parsed and checked (StaleIndex naming it otherwise)."""
    from .index import StaleIndex

    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as exc:  # not JSON, or a number over Python's 4300 digits
        raise StaleIndex(f"{NAME} is corrupt: {unreadable(exc)}: run `kernelbounds certificates --write certificates`") from None
    return Stored(doc)
