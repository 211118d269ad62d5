"""The work estimate of rule `direct-sum` (docs/soundness.md, "Work estimate"); the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from math import comb
from ..sizes import sized, small_int
from ..jsonread import Node
from ..limits import Limits, require
from ..cost import op
from .chains import MAX_K
from .chains_work import l3_work, schedule_sizes
from .orbits_work import work_orbits
from .directsum import COMPONENT_FIELDS, FIELDS, MAX_COMPONENTS, MAX_COPIES, MAX_TUPLES, OPTIONAL


def tuple_sizes(doc: Node) -> tuple[int, int]:
    """(orbit multisets, sum over copies of the most gap entries of an orbit) from the
    claimed orbit lists, read tolerantly: a component with K orbits and t copies has
    C(K + t - 1, t) multisets of orbits (its copies are interchangeable)."""
    tuples, entries = 1, 0
    for item in tolerant_components(doc):
        c: dict = item if isinstance(item, dict) else {}
        copies = small_int(c.get("copies"), 1, 1, MAX_COPIES)
        raw = c.get("claims")
        claims: dict = raw if isinstance(raw, dict) else {}
        found = claims.get("orbits")
        listed: list = found if isinstance(found, list) else []
        tuples *= comb(max(len(listed), 1) + copies - 1, copies)
        most = max((len(o["gaps"]) for o in listed if isinstance(o, dict) and isinstance(o.get("gaps"), list)), default=1)
        entries += copies * (most + 1)
    return tuples, entries


def work(doc: Node, limits: Limits) -> int:
    """Closed form, from the sizes before any work: each component's orbit-form work
    (orbits_work.work_orbits: enumeration, tables, closure, one row of N popcounts per orbit),
    then per multiset of orbits (rule DS2) the convolutions (at most m + 1 nonzero counts
    of at most 2 log2 N bits times each copy's gap entries), the row's gap set and its
    closed-form row count, and L3 over the distinct chain products."""
    doc.obj(FIELDS, OPTIONAL)
    m = doc["m"].int(1, limit=limits.max_m)
    n = doc["n"].int(3, limit=limits.max_n)
    k = small_int(sized(doc["claims"], "k"), MAX_K, 1, MAX_K)
    components = doc["components"].list(MAX_COMPONENTS)
    total, n_bits = 0, 1
    for c in components:
        c.obj(COMPONENT_FIELDS)
        c["claims"].obj({"code_size", "orbits"})
        total += work_orbits(c, limits)
        size = small_int(sized(c["claims"], "code_size"), 2, 0)
        n_bits += size.bit_length() * small_int(sized(c, "copies"), 1, 1, MAX_COPIES)
    require(total <= limits.max_orbit_work, "/components", "the components' orbit-form work", total, limits.max_orbit_work)
    tuples, entries = tuple_sizes(doc)
    require(tuples <= MAX_TUPLES, "/components", "the number of multisets of orbits (prod over components of C(orbits + copies - 1, copies))", tuples, MAX_TUPLES)
    sched = schedule_sizes(doc, n, m)
    longest = max((links for links, _, _ in sched), default=1)
    per_tuple = (m + 1) * entries * (2 * op(2 * n_bits) + 3) + (m + 1) * (longest + 4) * 4 + (m + 1) * 8
    return total + tuples * per_tuple + l3_work(2**n_bits, k, [b for _, _, b in sched]) + (m + 1) * (2 * k * n_bits + 64)


def tolerant_components(doc: Node) -> list:
    items = sized(doc, "components")
    return items[:MAX_COMPONENTS] if isinstance(items, list) else []
