"""The registry of certificate kinds: kind -> rule module.

Each rule module of ``REGISTRY`` satisfies :class:`Rule`: ``check(doc, limits) -> Outcome``
(mypy checks every module of the registry against it).  A kind whose certificates name
other files by sha256 is in ``NAMING`` instead (:class:`NamingRule`): its module also makes
the service that gives it those files (``service``), which the dispatcher builds for each
check of that kind from generic inputs (the robustness layer's search for files named by
sha256, the parser and the checker itself) and hands to that rule alone.  A new kind adds its
module here and its work estimate to ``budget.ESTIMATES`` (docs/soundness.md, "Work
estimate").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..common import Outcome
from ..jsonread import Node
from ..limits import Limits
from . import construction, crossing, directsum, explicit, levelfamily, levelminimality, lowerbound, multiblock, orthant, rank, rankextension, rankone, rankrefutation, transcript

if TYPE_CHECKING:
    from ..search import Search
    from ..verdict import Verdict


class Rule(Protocol):
    """A certificate kind's rule."""

    def check(self, doc: Node, limits: Limits) -> Outcome:
        """The verification: an Outcome, or a Rejection naming the field."""
        ...


class NamingRule(Protocol):
    """The rule of a kind whose certificates name other files by sha256."""

    def service(self, search: Search, limits: Limits, parse: Callable[[bytes, Limits], Node], judge: Callable[[Node, str], Verdict]) -> Any:
        """The service that gives the rule the named files of one check (its own, e.g. bases.Bases)."""
        ...

    def check(self, doc: Node, limits: Limits, files: Any) -> Outcome:
        """The verification, with the service ``files``."""
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
    "multi-block-level-family": multiblock,
    "orthant": orthant,
    "rank": rank,
    "rank-refutation": rankrefutation,
    "transcript": transcript,
}

NAMING: dict[str, NamingRule] = {
    "rank-extension": rankextension,
}
