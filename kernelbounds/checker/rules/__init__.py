"""The registry of certificate kinds: kind -> rule (each rule is one module)."""

from __future__ import annotations

from collections.abc import Callable

from ..jsonread import Node
from ..limits import Limits
from ..common import Outcome
from . import construction, explicit, lowerbound, rank, rankone, transcript

Rule = Callable[[Node, Limits], Outcome]

REGISTRY: dict[str, Rule] = {
    "construction": construction.check,
    "explicit-head": explicit.check,
    "rank-one-infeasible": rankone.check,
    "lower-bound": lowerbound.check,
    "rank": rank.check,
    "transcript": transcript.check,
}
