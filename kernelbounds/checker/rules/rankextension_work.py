"""The work estimate of rule `rank-extension` (docs/soundness.md, "Work estimate"): the search for the base, bounded before it starts, the composite family and the base's own estimate; the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from ..bases import Bases
from ..search import Plan
from ..sizes import length, sized
from ..errors import LimitExceeded, Malformed
from ..jsonread import Node
from ..limits import Limits
from ..text import show
from . import rankrefutation_work
from .forced_work import family_work
from .rankextension import FIELDS, MAX_EDGES, MAX_M, base_document, base_ref


SEARCH_ENTRY = 100  # units per folder entry listed while looking for the base (listdir, join, stat: about 4 us)


SEARCH_FILE = 500  # units per candidate file opened (open, fstat, read, a hash)


SEARCH_BYTES = 4  # bytes read and hashed per unit (measured 3-5 ns per byte warm, 20 ns cold)


def search_work(plan: Plan) -> int:
    """An upper bound on looking for the base through every candidate of the plan."""
    return plan.listed * SEARCH_ENTRY + len(plan.files) * SEARCH_FILE + plan.bytes // SEARCH_BYTES


def work(doc: Node, limits: Limits, bases: Bases) -> int:
    """The base search (every candidate, bounded before it starts: search_work) + the family
    (base pairs x 2^j pairs, each over k + j queries) + parsing the base + the base's own
    work estimate."""
    doc.obj(FIELDS)
    m = doc["m"].int(1, limit=min(limits.max_m, MAX_M))
    n = doc["n"].int(3, limit=limits.max_n)
    edges = sized(doc, "edges")
    j = length(edges)
    if j > MAX_EDGES:
        raise LimitExceeded("/edges", f"{j} edges, over the limit {MAX_EDGES}")
    digest, name = base_ref(doc)
    plan = bases.plan(name)
    search = search_work(plan)
    if search > limits.work_budget:
        raise LimitExceeded("/base/sha256", f"looking for the base would read up to {plan.bytes} bytes of {len(plan.files)} candidate files ({show(search)} units), over the budget work_budget = {limits.work_budget}; nothing was read (name the base with --base PATH)")
    found = bases.find(digest, name)
    if found is None:
        return search  # check() rejects the missing base at /base/sha256
    base = base_document(bases, found, "/base/sha256")
    if base is None:
        return search + len(found.data)
    pairs, k = length(sized(base, "pairs")), length(sized(base, "queries"))
    extended = pairs << j
    if extended > limits.max_list:
        raise LimitExceeded("/edges", f"{pairs} base pairs x 2^{j} placements = {extended} pairs, over max_list = {limits.max_list}")
    own = extended * (k + j) * (8 * m + family_work(n)) + len(found.data)
    try:
        inner = rankrefutation_work.work(base, limits)
    except LimitExceeded as exc:
        raise LimitExceeded("/base/sha256", f"the base's work estimate: {exc.reason}") from None
    except Malformed:
        inner = 0  # check() rejects the base with its own reason
    return search + own + inner
