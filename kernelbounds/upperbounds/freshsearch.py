"""The front door of a fresh upper-bound search (THEORY §2 U4, U4'): which search answers.

``kernelbounds upper --search`` and the API call :func:`run`; the choice lives here, not in
the CLI.  Up to MAX_CLASSES level classes C(m+n, n), the U4 level families are solved (one
LP per support proposing, exact level classes deciding; ``levelfamily``); beyond it only the
complement-basis affine prefix search of U4' reaches (m, n) (``prefix``), so the request is
refused when it asks for another basis, readout, or exact minimality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

MAX_CLASSES = 20_000  # C(m+n, n) level classes: beyond this one LP per support is too slow


class Refused(ValueError):
    """The request cannot be searched (one line: why, and what would work)."""


@dataclass(frozen=True)
class Search:
    """A search's answer: ``method`` 'families' (U4: ``best`` and every family's ``results``)
    or 'prefix' (U4': ``found``, a construction); ``certificate`` the best head's document."""

    m: int
    n: int
    method: str
    certificate: dict
    found: object = None
    best: object = None
    results: list = field(default_factory=list)


def method(m: int, n: int, basis: str = "best", readout: str = "best", prove_minimal: bool = False) -> str:
    """'families' or 'prefix': which search answers this request (Refused when none does)."""
    if not 2 <= n <= 8:
        raise Refused(f"--search covers n = 2..8, not {n}")
    classes = comb(m + n, n)
    if classes <= MAX_CLASSES:
        return "families"
    if n >= 3 and basis in ("complement", "best") and readout in ("affine", "best") and not prove_minimal:
        return "prefix"
    raise Refused(f"m = {m}, n = {n} has {classes} level classes, over {MAX_CLASSES}: only the complement-basis affine prefix search (THEORY U4') reaches it; drop --basis subset / --readout free / --prove-minimal (minimality: the committed minimality-*.json files)")


def run(m: int, n: int, basis: str = "best", readout: str = "best", nonnegative: bool = False, prove_minimal: bool = False, progress: bool = True) -> Search | None:
    """Search now; None when no level family solves (m, n) (U2's 2^m remains).  A bar on a
    terminal while it runs (``progress``)."""
    from ..progress import bar

    how = method(m, n, basis, readout, prove_minimal)
    if how == "prefix":
        from . import prefix

        found = prefix.search(m, n, nonnegative=nonnegative, progress=progress)
        return Search(m, n, "prefix", found.certificate(), found=found)
    from . import levelfamily

    fams = levelfamily.families(basis, readout, nonnegative)
    with bar(len(fams), f"level families m={m} n={n}", "family") if progress else bar(0, "", "") as b:
        results = levelfamily.solve_families(fams, m, n, prove=prove_minimal)
        b.update(len(fams))
    best = levelfamily.best(results)
    if best is None:
        return None
    return Search(m, n, "families", levelfamily.certificate(best.found, best.refutations if best.proved else None), best=best, results=results)
