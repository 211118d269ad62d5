"""Small constant-weight codes found by OR-Tools CP-SAT, stored.

One boolean per weight-w word of {0,1}^m, `x_u + x_v <= 1` for every pair meeting in
more than `lam` points, maximise the number of chosen words (:func:`search`).  The solver
runs on one worker with a fixed seed and a deterministic time budget; its results for every
(m, w, lam) the code library asks for (m <= 10, C(m, w) <= MAX_VERTICES) are stored in
``kernelbounds/data/cpsat-codes.json`` (:func:`write_data`), and the library reads them
(:func:`max_code`): the answer needs no OR-Tools (the optional extra ``search``) and does not
move with its version.  `Code.note` says whether optimality was proven.
"""

from __future__ import annotations

import json
from functools import lru_cache
from math import comb
from pathlib import Path

from ...errors import InvalidArgument
from ...bits import tokens_of_weight
from . import Code

MAX_VERTICES = 300
DETERMINISTIC_SECONDS = 2.0
MAX_M = 10  # the library asks up to here
DATA = Path(__file__).resolve().parents[2] / "data" / "cpsat-codes.json"
FORMAT, VERSION = "kernelbounds-cpsat-codes", 1


def keys() -> list[tuple[int, int, int]]:
    """Every (m, w, lam) the library asks for: m <= MAX_M, 2 <= w <= m // 2 + 1,
    0 <= lam <= w - 2, C(m, w) <= MAX_VERTICES."""
    return [(m, w, lam) for m in range(1, MAX_M + 1) for w in range(2, m // 2 + 2) for lam in range(w - 1) if comb(m, w) <= MAX_VERTICES]


def max_code(m: int, w: int, lam: int) -> Code:
    """The stored CP-SAT code for (m, w, lam) (InvalidArgument for a key not stored)."""
    found = _stored().get((m, w, lam))
    if found is None:
        raise InvalidArgument(f"no stored CP-SAT code for m = {m}, w = {w}, lam = {lam} (the stored keys: packing.keys())")
    words, note = found
    return Code(f"cpsat-w{w}-l{lam}", m, words, note)


@lru_cache(maxsize=1)
def _stored() -> dict[tuple[int, int, int], tuple[tuple[int, ...], str]]:
    doc = json.loads(DATA.read_text())
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise InvalidArgument(f"{DATA} is not a {FORMAT} version {VERSION} file")
    return {(c["m"], c["w"], c["lam"]): (tuple(c["words"]), c["note"]) for c in doc["codes"]}


def search(m: int, w: int, lam: int, budget: float = DETERMINISTIC_SECONDS) -> Code:
    """The CP-SAT search itself (needs OR-Tools: ``pip install 'kernelbounds[search]'``)."""
    from ortools.sat.python import cp_model  # 0.2 s to import (with pandas): only when a search runs

    if comb(m, w) > MAX_VERTICES:
        raise InvalidArgument(f"C({m},{w}) = {comb(m, w)} vertices is over the limit {MAX_VERTICES}")

    words = list(tokens_of_weight(m, w))
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{i}") for i in range(len(words))]
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            if (words[i] & words[j]).bit_count() > lam:
                model.AddBoolOr([x[i].Not(), x[j].Not()])
    model.AddHint(x[0], 1)
    model.Add(x[0] == 1)  # symmetry: some optimal code contains the first word
    model.Maximize(sum(x))
    solver = cp_model.CpSolver()
    solver.parameters.num_search_workers = 1
    solver.parameters.random_seed = 1
    solver.parameters.max_deterministic_time = budget
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT found no code for m={m}, w={w}, lam={lam}")
    chosen = tuple(words[i] for i in range(len(words)) if solver.Value(x[i]))
    proof = "optimal" if status == cp_model.OPTIMAL else "best found (optimality not proven)"
    return Code(f"cpsat-w{w}-l{lam}", m, chosen, f"CP-SAT search, weight {w}, intersections <= {lam}: {proof}")


def document(codes: list[tuple[tuple[int, int, int], Code]]) -> dict:
    """The stored file's JSON for the searched codes, key by key."""
    rows = [{"m": m, "w": w, "lam": lam, "words": list(c.words), "note": c.note} for (m, w, lam), c in codes]
    return {"format": FORMAT, "version": VERSION, "budget": DETERMINISTIC_SECONDS, "codes": rows}


def write_data(path: Path = DATA) -> Path:
    """Run :func:`search` for every key and store the codes (a few seconds; OR-Tools)."""
    from ...certificate import canonical_json, write_atomic

    write_atomic(path, canonical_json(document([(k, search(*k)) for k in keys()])))
    _stored.cache_clear()
    return path
