"""COMPUTED whole and complete, checked before any of it is believed (docs/index-format.md,
"COMPUTED", "Completeness").

The format (``kernelbounds-computed`` version 2) declares its grid: a cell for every
m = 1..MAX_M, n in NS and variant (in that order), a chain for every (m, n), each with
exactly its fields: the key and one row per stored source of the registry.  Each row's own
shape is its source's (``shape`` in ``kernelbounds/sources``: a code cell holds exactly the
certificates the code search states, THEORY L8; an orthant row is there exactly where it can
decide a side, THEORY L7; every bound lies in 1..2^m, THEORY U2, and every witness count in
0..2^(mn)), so no stored number is unbounded; this module knows the grid, not the rows.

These checks read each row once and rebuild nothing (a few milliseconds for the whole file):
the hub runs them when it reads COMPUTED (a problem is StaleIndex naming the JSON pointer),
and ``kernelbounds certificates --verify`` runs them before any row is rebuilt, also under
``--sample`` (release/storedcheck.py).  Whether the stored values are the generators' and
the checker's is the rebuild's question, not this module's.
"""

from __future__ import annotations

from functools import partial

from ..sources.orthant import MAX_M as ORTHANT_MAX_M, has_orthant  # noqa: F401 (re-exported)
from ..sources.rowshape import Problem, fields, show as _show

FORMAT = "kernelbounds-computed"
VERSION = 2
NAME = "COMPUTED"
MAX_M = 64
NS = range(3, 9)  # lower bounds beyond the trivial r >= 1 need n >= 3
from ..vocabulary import VARIANTS  # noqa: E402 (the grid's variants, in the file's order)

BASE_CELL = {"m", "n", "variant"}  # and a row per cell source of the registry
CODE_FILE = {"sha256", "summary"}


def _stored(axis: str) -> list:
    from .. import sources

    return sources.stored(axis)


def cell_fields() -> set[str]:
    """A cell's fields: its key and one row per cell source of the registry."""
    return BASE_CELL | {s.NAME for s in _stored("cell")}


def cell_keys() -> list[tuple[int, int, str]]:
    """Every cell the format declares, in the file's order."""
    return [(m, n, v) for m in range(1, MAX_M + 1) for n in NS for v in VARIANTS]


def chain_keys() -> list[tuple[int, int]]:
    """Every chain the format declares, in the file's order."""
    return [(m, n) for m in range(1, MAX_M + 1) for n in NS]


def unreadable(exc: Exception) -> str:
    """Why COMPUTED's bytes are not JSON, in one short line (a number longer than Python's
    4300-digit limit for reading one is named as such)."""
    text = str(exc)
    if "integer string conversion" in text:
        return "not JSON this reader accepts: a number of more than 4300 digits"
    return f"not JSON ({text[:200]})"


def document_problem(doc) -> str | None:
    """Why ``doc`` is not a COMPUTED document at all (its top level), or None."""
    if not isinstance(doc, dict):
        return f"not a JSON object but a JSON {type(doc).__name__}"
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        return f"not a {FORMAT} version {VERSION} document"
    for name, kind in [("cells", list), ("code_files", dict)] + [(s.NAME, list) for s in _stored("features")]:
        if not isinstance(doc.get(name), kind):
            return f"/{name} is not a JSON {'array' if kind is list else 'object'}"
    return None


def _key(row, names: tuple[str, ...]):
    """The row's grid key (its m, n and, for a cell, variant) if of the right types, else None."""
    if not isinstance(row, dict):
        return None
    key = tuple(row.get(k) for k in names)
    return key if all(type(x) is int for x in key[:2]) and all(isinstance(x, str) for x in key[2:]) else None


def grid_problems(doc: dict) -> list[Problem]:
    """Rows (objects) whose m, n or variant lie outside the declared grid."""
    out = []
    for part, names, declared in [("cells", ("m", "n", "variant"), set(cell_keys()))] + [(s.NAME, ("m", "n"), set(chain_keys())) for s in _stored("features")]:
        for i, row in enumerate(doc[part]):
            if isinstance(row, dict) and _key(row, names) not in declared:
                shown = ", ".join(f"{k} = {_show(row.get(k))}" for k in names)
                out.append((f"/{part}/{i}", f"a {part[:-1]} at {shown} is outside the stored grid (m = 1..{MAX_M}, n = {NS.start}..{NS.stop - 1}, "
                            f"variants {', '.join(VARIANTS)})"))
    return out


def _cell(c: dict, where: str) -> list[Problem]:
    """A cell with exactly its fields, each row as its source shapes it (``shape``)."""
    out = fields(c, cell_fields(), where)
    if out:
        return out
    for s in _stored("cell"):
        out += s.shape(c[s.NAME], f"{where}/{s.NAME}", c["m"], c["n"], c["variant"], c)
    return out


def _rows(doc: dict, part: str, names: tuple[str, ...], declared: list[tuple], one) -> list[Problem]:
    """Every declared row present once, in order, each whole; rows outside the grid are
    :func:`grid_problems`'."""
    at = {key: i for i, key in enumerate(declared)}
    out: list[Problem] = []
    seen: set[tuple] = set()
    last = -1
    for i, row in enumerate(doc[part]):
        where = f"/{part}/{i}"
        key = _key(row, names)
        if not isinstance(row, dict):
            out.append((where, "not a JSON object"))
            continue
        if key not in at:
            continue
        if key in seen:
            out.append((where, f"a second {part[:-1]} at {_label(names, key)}"))
            continue
        seen.add(key)
        if at[key] < last:
            out.append((where, f"out of order: the {part[:-1]} at {_label(names, key)} comes after a later one"))
        last = max(last, at[key])
        out += one(row, where)
    missing = [key for key in declared if key not in seen]
    return out + [(f"/{part}/{at[key]}", f"missing: no {part[:-1]} at {_label(names, key)}") for key in missing]


def _features_row(source, row: dict, where: str) -> list[Problem]:
    return source.shape(row, where, row["m"], row["n"], "position-independent", {})


def _label(names: tuple[str, ...], key: tuple) -> str:
    return ", ".join(f"{k} = {v}" for k, v in zip(names, key, strict=True))


def completeness(doc: dict) -> list[Problem]:
    """Every problem of a COMPUTED document that passed :func:`document_problem`: declared
    rows missing, repeated or out of order, rows and code-file entries without exactly the
    format's fields, a code cell without exactly the certificates it states, an orthant row
    where L7 decides nothing or none where it does, a number outside its range (each with its
    JSON pointer; rows outside the grid are :func:`grid_problems`')."""
    out = _rows(doc, "cells", ("m", "n", "variant"), cell_keys(), _cell)
    for s in _stored("features"):
        out += _rows(doc, s.NAME, ("m", "n"), chain_keys(), partial(_features_row, s))
    for name, entry in sorted(doc["code_files"].items()):
        where = f"/code_files/{name}"  # escaped where it is printed
        found = fields(entry, CODE_FILE, where)
        if not found and not (isinstance(entry["sha256"], str) and isinstance(entry["summary"], dict)):
            found.append((where, "its sha256 is not a string or its summary not an object"))
        out += found
    return out


def first_problem(doc) -> str | None:
    """The first reason COMPUTED cannot be believed, with its JSON pointer, or None."""
    problem = document_problem(doc)
    if problem:
        return problem
    found = grid_problems(doc) or completeness(doc)
    if not found:
        return None
    pointer, reason = found[0]
    more = f" (and {len(found) - 1} more problems)" if len(found) > 1 else ""
    return f"at {pointer}: {reason}{more}"
