"""The registry of certificate kinds: kind -> rule module.

Each rule module exposes ``check(doc, limits) -> Outcome`` and
``work(doc, limits) -> int`` (the protocol is in kernelbounds/checker/__init__.py and
docs/soundness.md, "Work estimate").  A new kind adds its module here.
"""

from __future__ import annotations

from types import ModuleType

from . import construction, crossing, directsum, explicit, levelfamily, levelminimality, lowerbound, orthant, rank, rankextension, rankone, rankrefutation, transcript

REGISTRY: dict[str, ModuleType] = {
    "construction": construction,
    "crossing": crossing,
    "direct-sum": directsum,
    "explicit-head": explicit,
    "rank-one-infeasible": rankone,
    "level-family": levelfamily,
    "level-family-minimality": levelminimality,
    "lower-bound": lowerbound,
    "orthant": orthant,
    "rank": rank,
    "rank-extension": rankextension,
    "rank-refutation": rankrefutation,
    "transcript": transcript,
}


def missing_protocol() -> list[str]:
    # An entry may still be a bare check function (the registry's earlier form); the core
    # then calls it without an estimate, and this list (asserted empty by a test) names it.
    """Kinds whose module lacks ``check`` or ``work`` (a test asserts there are none)."""
    return sorted(k for k, mod in REGISTRY.items() if not (callable(getattr(mod, "check", None)) and callable(getattr(mod, "work", None))))
