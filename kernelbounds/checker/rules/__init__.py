"""The registry of certificate kinds: kind -> rule module.

Each rule module satisfies :class:`Rule`: ``check(doc, limits) -> Outcome`` and
``work(doc, limits) -> int``, both required (the protocol is described in
kernelbounds/checker/__init__.py and docs/soundness.md, "Work estimate"; mypy checks
every module of the registry against it).  A new kind adds its module here.
"""

from __future__ import annotations

from typing import Protocol

from ..bases import Bases
from ..common import Outcome
from ..jsonread import Node
from ..limits import Limits
from . import construction, crossing, directsum, explicit, levelfamily, levelminimality, lowerbound, orthant, rank, rankextension, rankone, rankrefutation, transcript



class Rule(Protocol):
    """A certificate kind's rule: the work estimate first, then the check."""

    def work(self, doc: Node, limits: Limits) -> int:
        """An upper bound on the elementary operations ``check`` performs (limits.py units)."""
        ...

    def check(self, doc: Node, limits: Limits) -> Outcome:
        """The verification: an Outcome, or a Rejection naming the field."""
        ...


class NamingRule(Protocol):
    """The rule of a kind whose certificates name other files by sha256: it alone is handed
    the service that finds them (``bases.Bases``, fresh for each check)."""

    def work(self, doc: Node, limits: Limits, bases: Bases) -> int:
        ...

    def check(self, doc: Node, limits: Limits, bases: Bases) -> Outcome:
        ...


REGISTRY: dict[str, Rule] = {
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
    "rank-refutation": rankrefutation,
    "transcript": transcript,
}


NAMING: dict[str, NamingRule] = {
    "rank-extension": rankextension,
}
