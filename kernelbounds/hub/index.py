"""Checked claims on r*(m, n): the shipped index and user folders (docs/index-format.md).

The hub (``kernelbounds.hub.answer``) takes every claim on r* that a certificate proves from
here, and only as the trusted checker re-derived it (``checker.Verdict.claim``), never by
reading the claim a certificate states:

* **the shipped set**: the committed certificates ship inside the package, beside the file
  ``INDEX`` that ``kernelbounds certificates`` writes after checking every file: per
  accepted file its name, sha256, kind, m, n, variant and the checker's claim.  One code
  path reads both (``importlib.resources``), from the repository (where
  kernelbounds/certificates is the committed folder certificates/) and from a wheel.  A
  missing or unreadable index, an entry that is not whole and consistent
  (``entrycheck.py``), or a listed file whose bytes no longer have the listed sha256 or
  whose header differs from its entry, raises :class:`StaleIndex`: the hub never falls back
  to computed sources silently.
* **a user folder** (``KERNELBOUNDS_CERTIFICATES``, or ``--certificates DIR``): every
  ``*.json`` file is read through the checker's bounded reader and checked by the checker
  before its claim is used (``folders.py``; shipped copies are not checked again, verdicts
  are cached on disk, ``cache.py``); a rejected file is named in a one-line warning on
  stderr and ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from ..errors import InvalidArgument, StaleIndex, UserFileChanged  # noqa: F401 (re-exported)
from ..vocabulary import sha256, shipped  # noqa: F401 (re-exported)


FORMAT = "kernelbounds-index"
VERSION = 1
INDEX = "INDEX"
ENV = "KERNELBOUNDS_CERTIFICATES"


REGENERATE = "run `kernelbounds certificates --write certificates`"


# ---------------------------------------------------------------- writing the index


def entry(name: str, data: bytes, verdict) -> dict:
    """The index entry of one file the checker accepted (``verdict.ok``)."""
    from .entrycheck import digest

    doc = json.loads(data)
    e = {"name": name, "sha256": sha256(data), "kind": verdict.kind, "m": doc.get("m"), "n": doc.get("n"), "variant": doc.get("variant"), "claim": verdict.claim}
    return e | {"digest": digest(e)}


def document(entries: list[dict], computed_sha256: str) -> dict:
    """The index: the accepted files by name, and the sha256 of the stored computed
    sources (COMPUTED, kernelbounds.hub.stored) written beside them."""
    return {"format": FORMAT, "version": VERSION, "certificates": sorted(entries, key=lambda e: e["name"]), "computed": {"name": "COMPUTED", "sha256": computed_sha256}}


def text(doc: dict) -> str:
    from ..certificate import canonical_json

    return canonical_json(doc)


# ---------------------------------------------------------------- claims


@dataclass(frozen=True)
class Known:
    """One checked claim on r* (``side`` 'lower' or 'upper') at (m, n), from the file
    ``filename`` (in the shipped set, or in the user folder ``folder``)."""

    filename: str
    kind: str
    side: str
    m: int
    n: int
    value: int
    variants: tuple[str, ...]
    nonnegative_features: bool | None
    support: tuple[int, ...] | None = None  # level families: the restriction closure
    variant: str = "position-independent"  # the variant of the file itself
    family: tuple[tuple[str, str], ...] | None = None  # level families: (("basis", b), ("readout", r))
    kernels: tuple[str, ...] = ()
    sha256: str = ""
    folder: str | None = None  # None: the shipped set

    @property
    def cited(self) -> str:
        """The name a Side cites: the shipped file's name, or the user file's path."""
        return self.filename if self.folder is None else str(Path(self.folder) / self.filename)


@dataclass(frozen=True)
class FamilyMinimum:
    """A level-family-minimality claim (THEORY U4' "Minimality"): every support of the
    family (complement basis, affine readout, ``signs``) that solves length n has feature
    rank >= chain_bounds[m - 1] at m."""

    filename: str
    n: int
    signs: str
    chain_bounds: tuple[int, ...]
    sha256: str = ""


def _known(name: str, sha: str, kind: str, variant, claim: dict, folder: str | None) -> Known | FamilyMinimum | None:
    if claim is None:
        return None
    if claim.get("side") == "family-minimum":
        return FamilyMinimum(name, claim["n"], claim["family"]["signs"], tuple(claim["chain_bounds"]), sha)
    if claim.get("side") not in ("lower", "upper"):
        return None  # a side this version does not use
    support = claim.get("support")
    family = claim.get("family")
    return Known(name, kind, claim["side"], claim["m"], claim["n"], claim["value"], tuple(claim["variants"]), claim.get("nonnegative_features"),
                 None if support is None else tuple(support), variant or "position-independent",
                 None if family is None else tuple(sorted(family.items())), tuple(claim.get("kernels", ())), sha, folder)


@lru_cache(maxsize=1)
def entries() -> dict:
    """The shipped index's entries: {name: entry}, each checked whole and consistent
    (``entrycheck.py``: a plain file name, typed fields, its claim's m, n and variant
    those of the entry, its digest matching); any problem is StaleIndex."""
    from .entrycheck import entry_problem

    meta = index_meta()
    listed = meta.get("certificates") if isinstance(meta, dict) else None
    if not isinstance(listed, list):
        raise StaleIndex(f"the shipped certificate index is malformed (no list of certificates): {REGENERATE}")
    out: dict = {}
    for e in listed:
        problem = entry_problem(e)
        if problem is None and e["name"] in out:
            problem = f"{e['name']} is listed twice"
        if problem:
            raise StaleIndex(f"the shipped certificate index is inconsistent: {problem}: {REGENERATE}")
        out[e["name"]] = e
    return out


def shipped_bytes(name: str) -> bytes:
    """The bytes of the shipped file ``name`` (INDEX, COMPUTED or a certificate) through the
    checker's bounded reader (regular files only, opened non-blocking, at most
    max_file_bytes): a FIFO, device or oversized file there is StaleIndex at once, naming it."""
    from .folders import read_bounded

    try:
        return read_bounded(str(shipped() / name))
    except ValueError as exc:
        raise StaleIndex(f"the shipped file kernelbounds/certificates/{name} is missing or unreadable ({exc}): {REGENERATE}") from None


@lru_cache(maxsize=1)
def index_meta() -> dict:
    """The shipped index, parsed and its shape checked."""
    data = shipped_bytes(INDEX)
    try:
        doc = json.loads(data)
        if doc.get("format") != FORMAT or doc.get("version") != VERSION:
            raise InvalidArgument(f"not a {FORMAT} version {VERSION} document")
        for e in doc["certificates"]:
            e["name"], e["sha256"], e["kind"]
        return doc
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise StaleIndex(f"the shipped certificate index is malformed ({exc}): run `kernelbounds certificates --write certificates`") from None


@lru_cache(maxsize=1)
def shipped_claims() -> tuple:
    """Every claim of the shipped index (Known and FamilyMinimum), in name order."""
    out = []
    for name, e in sorted(entries().items()):
        k = _known(name, e["sha256"], e["kind"], e.get("variant"), e.get("claim"), None)
        if k is not None:
            out.append(k)
    return tuple(out)


@lru_cache(maxsize=None)
def read_shipped(name: str) -> bytes:
    """A shipped file's bytes, after checking them against the index's sha256."""
    e = entries().get(name)
    if e is None:
        raise StaleIndex(f"{name} is not in the shipped certificate index")
    data = shipped_bytes(name)
    if sha256(data) != e["sha256"]:
        raise StaleIndex(f"{name}: its sha256 differs from the shipped index (the file changed after it was checked): run `kernelbounds certificates`")
    from .entrycheck import header_problem

    try:
        problem = header_problem(e, json.loads(data))
    except ValueError:
        problem = f"{name} is not JSON"
    if problem:
        raise StaleIndex(f"the shipped certificate index is inconsistent: {problem}: {REGENERATE}")
    return data


def read(k) -> bytes:
    """The bytes of the file behind a claim, verified against the hash recorded when it
    was checked (shipped: the index, else StaleIndex; user folder: the checked bytes, else
    UserFileChanged, the input's fault)."""
    if getattr(k, "folder", None) is None:
        return read_shipped(k.filename)
    from .folders import read_bounded

    try:
        data = read_bounded(str(Path(k.folder) / k.filename))
    except ValueError as exc:
        raise UserFileChanged(f"{k.cited} cannot be read again ({exc})") from None
    if sha256(data) != k.sha256:
        raise UserFileChanged(f"{k.cited} changed after it was checked")
    return data


def base_of(k) -> tuple[str | None, bytes]:
    """(hinted name, bytes) of the file the certificate behind a claim names by sha256 (a
    rank extension's base, THEORY U7+), found by the checker's own resolver
    (``checker.budget.search``, the search the rank-extension rule is handed: in the claim's folder, the user's or the shipped set, the
    hinted name, then every ``*.json`` file, then the shipped file of the hinted name; only
    bytes with exactly the named sha256 count), so they are the bytes the checker accepted
    with the claim.  ValueError when the certificate names no base; StaleIndex when a
    shipped base is gone, ValueError when a user folder's is (removed after the check)."""
    from ..checker import Limits
    from ..checker.budget import search

    doc = json.loads(read(k))
    named = doc.get("base") if isinstance(doc, dict) else None
    if not isinstance(named, dict) or not isinstance(named.get("sha256"), str):
        raise InvalidArgument(f"{k.cited} names no base certificate (it is a {k.kind} certificate, not a rank extension)")
    digest, name = named["sha256"], named.get("name") if isinstance(named.get("name"), str) else None
    where = Path(k.folder) if k.folder is not None else Path(str(shipped()))
    found = search(str(where / k.filename), (), Limits()).find(digest, name)
    if found is None:
        missing = f"the base of {k.cited} (sha256 {digest[:16]}...) is no longer in {'its folder' if k.folder else 'the shipped set'} nor shipped"
        if k.folder is None:
            raise StaleIndex(f"{missing}: {REGENERATE}")
        raise InvalidArgument(missing)
    return name, found[1]


def verify(k) -> None:
    """Raise StaleIndex unless the file behind the claim still has its checked bytes."""
    read(k)


# ---------------------------------------------------------------- user folders

def folder_claims(folder: str) -> tuple:
    """The claims (Known and FamilyMinimum) of every *.json file of a user folder that the
    checker accepts, in name order, read safely and checked once (``folders.py``)."""
    from . import folders

    return folders.claims(folder, {e["sha256"] for e in entries().values()}, _known)


def folder(explicit: str | None = None) -> str | None:
    """The user folder in force: the explicit one, else $KERNELBOUNDS_CERTIFICATES, else None."""
    import os

    return explicit or os.environ.get(ENV) or None
