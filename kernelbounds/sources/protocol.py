"""The protocol every source module satisfies, and the pieces they share (the registry is
``kernelbounds.sources``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..errors import KernelboundsError


@dataclass(frozen=True)
class Entry:
    """One committed file: its name and the generator call that rebuilds it
    deterministically (``companions``: files written beside it when it is checked, such as
    a base it names by sha256)."""

    filename: str
    build: Callable[[], dict]
    companions: tuple[Entry, ...] = ()
    cell: tuple[int, int, str, str] | None = None  # (m, n, variant, kernel) of the bound it states, if one


@dataclass(frozen=True)
class Statement:
    """What a computed source says at one cell, before the hub checks it: ``value`` is the
    generator's number, ``found`` the stored checker verdict behind it (``{"sha256",
    "claim"}``; None for a closed form that needs none, U1 and U2), whose claim must be a
    ``side`` bound at ``at`` = (m, n, variant) with that value; ``build`` rebuilds the
    certificate (its canonical bytes must have the verdict's sha256); it must pickle (a
    module-level function or a ``functools.partial`` of one, never a lambda), since a
    table's rows are computed in worker processes.  ``fallback``: shown
    only after the closure from other m (U2)."""

    value: int
    method: str
    theory: str
    from_m: int
    detail: str = ""
    rebuild: str | None = None
    nonnegative_features: bool | None = None
    code: dict | None = None
    found: dict | None = None
    at: tuple[int, int, str] | None = None
    where: str = ""
    build: Callable[[], dict] | None = None
    fallback: bool = False


class CertificateRejected(KernelboundsError, RuntimeError):
    """The checker did not accept a certificate the generator wrote for a stored source (a
    generator's bug: nothing is stored or printed from it)."""


def verdict(doc: dict, label: str) -> dict:
    """The checker's verdict on the canonical bytes of ``doc``: their sha256 and the claim
    the checker re-derived (CertificateRejected unless it accepts them)."""
    from ..certificate import canonical_json
    from ..checker import check_bytes
    from ..vocabulary import sha256

    data = canonical_json(doc).encode("ascii")
    v = check_bytes(data, label)
    if not v.ok:
        raise CertificateRejected(f"{label}: the checker did not accept the generator's certificate (exit {int(v.code)}): {v.pointer} {v.reason}")
    return {"sha256": sha256(data), "claim": v.claim}


# A row lookup the hub hands to ``statements``: (source name, m, n, variant) -> the stored
# row (or the row computed and checked now, beyond the stored grid).
Lookup = Callable[[str, int, int, str], "dict | None"]


class Source(Protocol):
    """A THEORY source.  Required of every module in :data:`REGISTRY`."""

    NAME: str  # the registry's key (and a stored source's field in COMPUTED)
    KIND: str  # the certificate kind its files carry (the checker's rule name)
    THEORY: str  # the THEORY section
    METHOD: str  # the method a side proved by one of its files shows
    SIDE: str  # "lower" or "upper" (or "" for files that bound no side of r*)
    STORED: str  # "" (committed files only), "cell" or "features" (a row in COMPUTED)
    COMPUTED: bool  # whether ``statements`` states a side at query time (else its files' claims are the index's)

    def entries(self) -> list[Entry]:
        """The committed files it writes (the catalog's entries)."""
        ...

    def covers(self, m: int, n: int, variant: str, kernel: str) -> bool:
        """Whether it can state a bound on r*(m, n) for the variant and kernel class."""
        ...

    def build(self, m: int, n: int, variant: str, kernel: str) -> dict:
        """The certificate document at a covered cell: the one generator call."""
        ...

    def describe(self, doc: dict) -> dict | None:
        """The code fields a side built from one of its checked certificates shows, or None."""
        ...

    def label(self, kernel: str) -> tuple[str, str]:
        """(method, THEORY section) of a side proved by one of its files for the kernel class."""
        ...

    def row(self, m: int, n: int, variant: str, lookup: Lookup) -> dict | None:
        """A stored source's row (with the checker's verdicts): None where it says nothing."""
        ...

    def statements(self, m: int, n: int, variant: str, kernel: str, lookup: Lookup) -> list[Statement]:
        """What it says at (m, n) for the variant and kernel class (the hub keeps the
        greatest checked lower value, or the least upper one)."""
        ...

    def shape(self, row: object, where: str, m: int, n: int, variant: str, cell: dict) -> list[tuple[str, str]]:
        """(Stored sources only.) Its row as read from COMPUTED at `where` (JSON pointer): the
        problems (pointer, reason) of its fields and ranges, and of its presence (``cell``,
        the whole stored cell, for a row that depends on another's); ``rowshape.verdict_row``
        when the row is a plain verdict."""
        ...


# ----------------------------------------------------------------- defaults a module may take


def none_stated(m: int, n: int, variant: str, kernel: str, lookup: Lookup) -> list[Statement]:
    """``statements`` of a source with committed files only (the hub reads their claims from the index)."""
    return []


def no_row(m: int, n: int, variant: str, lookup: Lookup) -> dict | None:
    """``row`` of a source with nothing in COMPUTED."""
    return None


def no_description(doc: dict) -> dict | None:
    """``describe`` of a source whose sides show no code fields."""
    return None


def files_cover(source_entries: Callable[[], list[Entry]]) -> tuple[Callable, Callable]:
    """``covers`` and ``build`` of a source whose certificates are its committed files: a
    cell is covered when one of its files states a bound at (m, n, variant) for the kernel
    class (``Entry.cell``), and ``build`` is that file's generator call."""

    def at(m: int, n: int, variant: str, kernel: str) -> Entry | None:
        return next((e for e in source_entries() if e.cell == (m, n, variant, kernel)), None)

    def covers(m: int, n: int, variant: str, kernel: str) -> bool:
        return at(m, n, variant, kernel) is not None

    def build(m: int, n: int, variant: str, kernel: str) -> dict:
        from ..errors import InvalidArgument

        found = at(m, n, variant, kernel)
        if found is None:
            raise InvalidArgument(f"no certificate of this source at m = {m}, n = {n} ({variant}, {kernel} kernel)")
        return found.build()

    return covers, build


def plain_label(method: str, theory: str) -> Callable[[str], tuple[str, str]]:
    """``label`` of a source whose sides show the same method for every kernel class."""
    return lambda kernel: (method, theory)
