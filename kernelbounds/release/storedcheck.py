"""Re-check the stored verdicts of COMPUTED (`kernelbounds certificates --verify`).

First, cheaply and before any row is rebuilt (also under ``--sample``), COMPUTED must be
whole and complete (:func:`problems`): every row of the grid its format declares, each with
exactly its fields, the certificates and orthant rows the cell states (hub/storedshape.py),
and a code description for exactly the committed code files the checker accepts, each with
the file's sha256.  A missing, repeated or extra row is named by its JSON pointer.

Then every stored row (a code cell with its orthant row, a chain, or a committed code file's
description) is rebuilt: for a cell or a chain the generator writes the certificates again,
the checker checks them now, and the fresh row (bound, description, sha256 and claim of every
certificate) must equal the stored one field for field; for a code file its description (code
name, N, k, least chain product, Johnson bound, witness count, ...) is derived again from the
file's bytes, which the checker accepted.  An edited claim, bound, hash or description shows
as the first JSON pointer that differs.  The whole store takes about as long as building it;
``sample`` picks a deterministic subset (the regular run re-checks a few rows chosen by the
commit).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import sources
from ..hub import stored, storedshape
from .regeneration import sample as _sample


@dataclass(frozen=True)
class Rechecked:
    """One stored row rebuilt and re-checked: ``problem`` is None when it equals the stored row."""

    row: tuple
    problem: str | None

    @property
    def label(self) -> str:
        if self.row[0] == "code-file":
            return f"code file {self.row[1]}"
        if self.row[0] != "cell":
            return f"{self.row[0]} m = {self.row[1]}, n = {self.row[2]}"
        return f"cell m = {self.row[1]}, n = {self.row[2]} ({self.row[3]})"


def row_problem(doc: dict) -> str | None:
    """Why the stored rows cannot be rebuilt (a row's key out of the stored grid: m a whole
    number in 1..64, n in 3..8, a known variant), or None."""
    found = storedshape.grid_problems(doc)
    return f"{found[0][0]}: {found[0][1]}" if found else None


def problems(doc: dict, code_files: dict[str, str]) -> list[tuple[str, str]]:
    """(JSON pointer, reason) of every row missing, repeated, out of order or not whole
    (``storedshape.completeness``), and of every committed code file (``code_files``: name ->
    sha256 of each file the checker accepted as a lower bound) without its description, or
    a description of no such file."""
    out = storedshape.completeness(doc)
    stored_files = doc["code_files"]
    for name, digest in sorted(code_files.items()):
        kept = stored_files.get(name)
        if not isinstance(kept, dict):
            out.append((f"/code_files/{name}", "missing: the checker accepts this committed code file"))
        elif kept.get("sha256") != digest:
            out.append((f"/code_files/{name}/sha256", "differs from the committed file's sha256"))
    for name in sorted(set(stored_files) - set(code_files)):
        out.append((f"/code_files/{name}", "not a committed code file the checker accepts"))
    return out


def rows(st: stored.Stored) -> list[tuple]:
    """Every stored row: ("cell", m, n, variant), ("chain", m, n) and ("code-file", name),
    in a fixed order."""
    cells = [("cell", *key) for key in sorted(st.cells, key=lambda k: (k[0], k[1], stored.VARIANTS.index(k[2])))]
    features = [(source.ROW, *key) for source in sources.stored("features") for key in sorted(st.features[source.NAME])]
    return cells + features + [("code-file", name) for name in sorted(st.code_files)]


def _features_source(row: tuple):
    """The features source whose stored rows are named ``row[0]`` ("chain": the explicit chains)."""
    return next(s for s in sources.stored("features") if s.ROW == row[0])


def sample(all_rows: list[tuple], count: int, seed: str) -> list[tuple]:
    """``count`` rows chosen by ``seed`` (the same seed, the same rows)."""
    names = [repr(r) for r in all_rows]
    return [all_rows[i] for i in _sample(names, count, seed)]


def first_difference(stored_value, fresh, pointer: str = "") -> str | None:
    """The JSON pointer of the first place where two JSON values differ, or None."""
    if isinstance(stored_value, dict) and isinstance(fresh, dict):
        for key in sorted(set(stored_value) | set(fresh)):
            if key not in stored_value or key not in fresh:
                return f"{pointer}/{key}"
            found = first_difference(stored_value[key], fresh[key], f"{pointer}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(stored_value, list) and isinstance(fresh, list) and len(stored_value) == len(fresh):
        for i, (a, b) in enumerate(zip(stored_value, fresh, strict=True)):
            found = first_difference(a, b, f"{pointer}/{i}")
            if found is not None:
                return found
        return None
    same = stored_value == fresh and type(stored_value) is type(fresh)
    return None if same else (pointer or "/")


def recheck(job: tuple[tuple, dict, str | None]) -> Rechecked:
    """Rebuild one stored row (the generator writes its certificates, the checker checks
    them now; a code file's description from the file in ``folder``) and compare it with
    the stored row."""
    row, kept, folder = job
    try:
        if row[0] == "code-file":
            fresh = _code_file(Path(folder or "."), row[1])
        elif row[0] == "cell":
            fresh = sources.cell.__wrapped__(*row[1:])
        else:
            fresh = sources.features_row(_features_source(row).NAME, *row[1:])
    except (sources.CertificateRejected, ValueError) as exc:
        return Rechecked(row, str(exc))
    where = first_difference(kept, fresh)
    return Rechecked(row, None if where is None else f"the stored row differs from the rebuilt and re-checked one at {where}")


def _code_file(folder: Path, name: str) -> dict:
    """A committed code file's description derived again from its bytes (read through the
    checker's bounded reader); ValueError when it cannot be read."""
    from ..checker import Limits, read_input
    from ..checker.errors import Rejection

    try:
        data = read_input(str(folder / name), Limits())
    except Rejection as rej:
        raise ValueError(f"{name}: {rej.reason}") from None
    return stored._code_file((name, data))[1]


def recheck_all(st: stored.Stored, chosen: list[tuple], jobs: int | None = None, folder: str | Path | None = None) -> list[Rechecked]:
    """Re-check the chosen rows on ``jobs`` processes (a progress bar on a terminal); code
    files are read from ``folder``."""
    from ..progress import pmap

    def kept(row: tuple) -> dict:
        if row[0] == "code-file":
            return st.code_files[row[1]]
        return st.cells[row[1:]] if row[0] == "cell" else st.features[_features_source(row).NAME][row[1:]]

    ordered = sorted(chosen, key=lambda r: -r[1] if r[0] != "code-file" else -stored.MAX_M - 1)  # code files and large m first: they take longest
    where = None if folder is None else str(folder)
    return list(pmap(recheck, [(r, kept(r), where) for r in ordered], jobs, f"COMPUTED: rebuild and re-check {len(ordered)} stored rows", "row"))
