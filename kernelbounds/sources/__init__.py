"""The registry of sources: one module per THEORY source, behind one protocol (the
generator's counterpart of the checker's registry of rules, ``checker/rules``).

A source is whatever proves a side of r*(m, n): a family of committed certificates (the
catalog's entries), a row computed and stored in COMPUTED with the checker's verdict, or
both.  Every module of :data:`REGISTRY` satisfies :class:`Source`; the hub
(``kernelbounds.hub``) and the release room (``kernelbounds.release``) ask the registry and
never call a generator by name.  Adding a source is one module here and one line in
:data:`REGISTRY` (docs/adding-a-source.md walks through one).

A *stored* source (``STORED`` is ``"cell"`` or ``"features"``) also has a row in COMPUTED
at every cell of the stored grid (m = 1..64, n = 3..8): ``"cell"`` rows sit in each
(m, n, variant) cell under the source's ``NAME``, ``"features"`` rows (the upper side, one
per (m, n)) in a list ``NAME`` beside the cells.  Its row holds the checker's verdicts on
the certificates it writes (``verdict``); ``statements`` turns a row into what the hub
shows, and the hub checks the verdict before it answers.
"""

from __future__ import annotations

from functools import lru_cache

from .protocol import CertificateRejected, Entry, Source, Statement, verdict  # noqa: F401 (the registry's vocabulary)
from . import codes, constructions, chains, crossing, directsums, explicitheads, extensions, kernelranks, levelfamilies
from . import multiblocks, orthant, rankone, refutations, transcripts

# Order matters twice: a computed side listed earlier wins a tie; the first source of a
# kind names the committed files of that kind.
REGISTRY: dict[str, Source] = {
    "constructions": constructions,
    "orthant": orthant,
    "codes": codes,
    "kernel-ranks": kernelranks,
    "transcripts": transcripts,
    "level-families": levelfamilies,
    "explicit-heads": explicitheads,
    "multi-blocks": multiblocks,
    "rank-one": rankone,
    "crossing": crossing,
    "refutations": refutations,
    "extensions": extensions,
    "direct-sums": directsums,
    "chains": chains,
}


def get(name: str) -> Source:
    return REGISTRY[name]


def by_kind(kind: str) -> Source | None:
    """The first registered source whose files carry this kind (None for an unknown kind)."""
    return next((s for s in REGISTRY.values() if s.KIND == kind), None)


def stored(axis: str) -> list[Source]:
    """The stored sources of one axis ("cell" or "features"), in registry order."""
    return [s for s in REGISTRY.values() if s.STORED == axis]


def computed(side: str) -> list[Source]:
    """The sources that state ``side`` at query time (a stored row or a closed form), in
    registry order (the order that wins ties)."""
    return [s for s in REGISTRY.values() if s.SIDE == side and s.COMPUTED]


def entries() -> list[Entry]:
    """Every committed file, source by source (the catalog)."""
    return [e for s in REGISTRY.values() for e in s.entries()]




@lru_cache(maxsize=256)
def cell(m: int, n: int, variant: str) -> dict:
    """One cell's stored rows, computed and checked now: ``{"m", "n", "variant"}`` and each
    cell source's row under its name (a source's ``row`` may ask for another's through its
    lookup: the orthant row reads the code bound)."""
    out: dict = {"m": m, "n": n, "variant": variant}

    def lookup(name: str, m_: int, n_: int, variant_: str) -> dict | None:
        if (m_, n_, variant_) != (m, n, variant):
            return cell(m_, n_, variant_)[name]
        if name not in out:
            out[name] = REGISTRY[name].row(m, n, variant, lookup)
        return out[name]

    for source in stored("cell"):
        lookup(source.NAME, m, n, variant)
    return out


def features_row(name: str, m: int, n: int) -> dict:
    """The stored (m, n) row of the features source ``name``, computed and checked now."""
    return {"m": m, "n": n} | REGISTRY[name].row(m, n, "position-independent", lambda *key: None)
