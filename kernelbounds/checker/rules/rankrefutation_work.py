"""The work estimate of rule `rank-refutation` (docs/soundness.md, "Work estimate"): building the CNF and replaying the proof in the worst case; the robustness layer's (checker/budget.py), not read to trust a verdict."""

from __future__ import annotations

from math import comb
from ..clausal import CLAUSE_UNITS, LINE_UNITS
from ..sizes import length, sized, small_int
from ..errors import LimitExceeded
from ..jsonread import Node
from ..limits import Limits
from .forced_work import family_work
from .rankrefutation import FIELDS, MAX_M, MAX_QUERIES


def cnf_sizes(k: int, r: int, pairs: int) -> tuple[int, int, int]:
    """Upper bounds on the CNF's (clauses, literals, sum of squared lengths), in closed form:
    one unit clause, 16 clauses of 6 literals per relation, 2 clauses of r + 1 literals per
    pair and (r+1)-subset."""
    if not 2 <= r <= k:
        return 0, 0, 0
    relations, cramer = 16 * comb(k, r - 2) * comb(k - r + 2, 4), 2 * pairs * comb(k, r + 1)
    return 1 + relations + cramer, 1 + 6 * relations + (r + 1) * cramer, 1 + 36 * relations + (r + 1) ** 2 * cramer


def cnf_work(k: int, r: int, pairs: int) -> int:
    """Building the CNF (build_cnf), by its measured cost: per relation clause 80 + 3 r^2
    units (six sorted r-tuples and their parities per relation, the clause, its frozenset:
    4-11 us measured at r = 2..6), per Cramer clause 40 + 4 (r + 1)^2 (r + 1 slices of an
    (r+1)-tuple), 40 per variable."""
    if not 2 <= r <= k:
        return 0
    relations, cramer = 16 * comb(k, r - 2) * comb(k - r + 2, 4), 2 * pairs * comb(k, r + 1)
    return relations * (80 + 3 * r * r) + cramer * (40 + 4 * (r + 1) ** 2) + 40 * comb(k, r)


def work(doc: Node, limits: Limits) -> int:
    """CNF construction (cnf_work) + the replay's worst case (replay_work or
    lrat_work) + the witness family."""
    doc.obj(FIELDS)
    m = doc["m"].int(1, limit=min(limits.max_m, MAX_M))
    n = doc["n"].int(3, limit=limits.max_n)
    k = length(sized(doc, "queries"))
    if k > MAX_QUERIES:
        raise LimitExceeded("/queries", f"{k} queries, over the limit {MAX_QUERIES}")
    r = small_int(sized(doc, "rank"), 2, 2, MAX_QUERIES)
    pairs = length(sized(doc, "pairs"))
    if pairs > limits.max_list:
        raise LimitExceeded("/pairs", f"{pairs} pairs, over max_list = {limits.max_list}")
    proof = sized(doc, "proof")
    steps = proof.get("steps") if isinstance(proof, dict) else None
    steps = steps if isinstance(steps, list) else []
    if len(steps) > limits.max_list:
        raise LimitExceeded("/proof/steps", f"{len(steps)} proof steps, over max_list = {limits.max_list}")
    sizes = cnf_sizes(k, r, pairs)
    variables = comb(k, r) if 2 <= r <= k else 0
    if sizes[0] > limits.max_list * 20 or variables > limits.max_list:
        raise LimitExceeded("/queries", f"the CNF would have {variables} variables and {sizes[0]} clauses, over the limits {limits.max_list} and {limits.max_list * 20}")
    words = [(len(s) + 1) // 2 if isinstance(s, str) else 0 for s in steps]
    if isinstance(proof, dict) and proof.get("format") == "lrat":
        replay = lrat_work(sizes, max(6, r + 1), words)
    else:
        replay = replay_work(sizes, [(isinstance(s, str) and s.startswith("d"), w) for s, w in zip(steps, words, strict=True)])
    return cnf_work(k, r, pairs) + replay + pairs * k * (8 * m + family_work(n))


def line_work(words: list[int]) -> int:
    """Parsing the proof lines (split_step, the integers, the linear tautology test): per
    line LINE_UNITS plus 4 per word, a line of c characters having at most (c + 1) / 2."""
    return LINE_UNITS * len(words) + 4 * sum(words)


def replay_work(clauses: tuple[int, int, int], step_sizes: list[tuple[bool, int]]) -> int:
    """Units of the DRAT replay in the worst case, for every proof shape:
    * each added lemma's RUP check: at most sum |C|^2 literal visits over the clauses alive
      then (bounded by all clauses and lemmas), + 1;
    * inserting the formula: CLAUSE_UNITS per clause and 4 per literal;
    * every line parsed (line_work), and inserted or deleted at 4 units per word: a deletion
      sorts its literals and takes the last live copy from a list that holds live clauses
      only (units never enter it), so L copies of a unit lemma followed by D deletions of it
      cost D short lines, not D x L;
    `clauses` = (count, literals, sum of squares) of the formula."""
    count, literals, squares = clauses
    squares += sum(s * s for d, s in step_sizes if not d)
    lemmas = sum(1 for d, _ in step_sizes if not d)
    words = [s for _, s in step_sizes]
    return lemmas * (squares + 1) + CLAUSE_UNITS * count + 4 * literals + line_work(words) + 4 * sum(words)


def lrat_work(clauses: tuple[int, int, int], longest_clause: int, line_words: list[int]) -> int:
    """Each hint visits one clause of at most max(longest formula clause, longest line)
    literals; a line of w words has at most w hints and literals.  `clauses` = (count,
    literals, sum of squares) of the formula."""
    longest = max([longest_clause, 1] + line_words)
    return 4 * clauses[1] + line_work(line_words) + sum(w * (longest + 2) for w in line_words)
