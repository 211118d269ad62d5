"""Re-check the stored verdicts of COMPUTED (`kernelbounds certificates --verify`).

Every stored row of ``stored`` (a code cell with its orthant row, or a chain) holds the
sha256 of the certificate the generator wrote for it and the claim the checker re-derived
from those bytes.  A reviewer who trusts nothing rebuilds each row here: the generator
writes the certificates again, the checker checks them now, and the fresh row (bound,
description, sha256 and claim of every certificate) must equal the stored one field for
field.  An edited claim, bound or hash shows as the first JSON pointer that differs.  The
whole store takes about as long as building it; ``sample`` picks a deterministic subset
(the regular run re-checks a few rows chosen by the commit).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hub import stored
from .regeneration import sample as _sample


@dataclass(frozen=True)
class Rechecked:
    """One stored row rebuilt and re-checked: ``problem`` is None when it equals the stored row."""

    row: tuple
    problem: str | None

    @property
    def label(self) -> str:
        if self.row[0] == "chain":
            return f"chain m = {self.row[1]}, n = {self.row[2]}"
        return f"cell m = {self.row[1]}, n = {self.row[2]} ({self.row[3]})"


def row_problem(st: stored.Stored) -> str | None:
    """Why the stored rows cannot be rebuilt (a key out of the stored grid: m a whole number
    in 1..64, n in 3..8, a known variant), or None."""
    def bad(m, n) -> bool:
        return not (type(m) is int and 1 <= m <= stored.MAX_M and type(n) is int and n in stored.NS)

    for m, n, variant in st.cells:
        if bad(m, n) or variant not in stored.VARIANTS:
            return f"a cell at m = {m!r}, n = {n!r}, variant {variant!r} is outside the stored grid"
    for m, n in st.chains:
        if bad(m, n):
            return f"a chain at m = {m!r}, n = {n!r} is outside the stored grid"
    return None


def rows(st: stored.Stored) -> list[tuple]:
    """Every stored row: ("cell", m, n, variant) and ("chain", m, n), in a fixed order."""
    cells = [("cell", *key) for key in sorted(st.cells, key=lambda k: (k[0], k[1], stored.VARIANTS.index(k[2])))]
    return cells + [("chain", *key) for key in sorted(st.chains)]


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


def recheck(job: tuple[tuple, dict]) -> Rechecked:
    """Rebuild one stored row (the generator writes its certificates, the checker checks
    them now) and compare it with the stored row."""
    row, kept = job
    try:
        fresh = stored.cell_entry.__wrapped__(*row[1:]) if row[0] == "cell" else {"m": row[1], "n": row[2]} | stored.chain_entry(*row[1:])
    except stored.CertificateRejected as exc:
        return Rechecked(row, str(exc))
    where = first_difference(kept, fresh)
    return Rechecked(row, None if where is None else f"the stored row differs from the rebuilt and re-checked one at {where}")


def recheck_all(st: stored.Stored, chosen: list[tuple], jobs: int | None = None) -> list[Rechecked]:
    """Re-check the chosen rows on ``jobs`` processes (a progress bar on a terminal)."""
    from ..progress import pmap

    def kept(row: tuple) -> dict:
        return st.cells[row[1:]] if row[0] == "cell" else st.chains[row[1:]]

    ordered = sorted(chosen, key=lambda r: -r[1])  # large m first: they take longest
    return list(pmap(recheck, [(r, kept(r)) for r in ordered], jobs, f"COMPUTED: rebuild and re-check {len(ordered)} stored rows", "row"))
