"""Checked claims on r*(m, n): the shipped index and user folders (docs/index-format.md).

The hub (``kernelbounds.hub.answer``) takes every claim on r* that a certificate proves from
here, and only as the trusted checker re-derived it (``checker.Verdict.claim``), never by
reading the claim a certificate states:

* **the shipped set**: the committed certificates ship inside the package, beside the file
  ``INDEX`` that ``kernelbounds certificates`` writes after checking every file: per
  accepted file its name, sha256, kind, m, n, variant and the checker's claim.  One code
  path reads both (``importlib.resources``), from the repository (where
  kernelbounds/certificates is the committed folder certificates/) and from a wheel.  A
  missing or unreadable index, or a listed file whose bytes no longer have the listed
  sha256, raises :class:`StaleIndex`: the hub never falls back to computed sources silently.
* **a user folder** (``KERNELBOUNDS_CERTIFICATES``, or ``--certificates DIR``): every
  ``*.json`` file is checked by the checker before its claim is used; verdicts are cached
  in memory by sha256; a rejected file is named in a one-line warning on stderr and ignored.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

FORMAT = "kernelbounds-index"
VERSION = 1
INDEX = "INDEX"
ENV = "KERNELBOUNDS_CERTIFICATES"


class StaleIndex(RuntimeError):
    """The shipped index is missing or malformed, or a listed file's bytes changed."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def shipped():
    """The shipped certificate folder (a Traversable: a directory in the repository and in
    an installed wheel)."""
    return resources.files("kernelbounds") / "certificates"


# ---------------------------------------------------------------- writing the index


def entry(name: str, data: bytes, verdict) -> dict:
    """The index entry of one file the checker accepted (``verdict.ok``)."""
    doc = json.loads(data)
    return {"name": name, "sha256": sha256(data), "kind": verdict.kind, "m": doc.get("m"), "n": doc.get("n"), "variant": doc.get("variant"), "claim": verdict.claim}


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
    """The shipped index's entries: {name: entry}."""
    return {e["name"]: e for e in index_meta()["certificates"]}


@lru_cache(maxsize=1)
def index_meta() -> dict:
    """The shipped index, parsed and its shape checked."""
    try:
        data = (shipped() / INDEX).read_bytes()
    except OSError as exc:
        raise StaleIndex(f"the shipped certificate index kernelbounds/certificates/{INDEX} is missing ({exc.strerror or exc}): run `kernelbounds certificates --write certificates`") from None
    try:
        doc = json.loads(data)
        if doc.get("format") != FORMAT or doc.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} document")
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
    try:
        data = (shipped() / name).read_bytes()
    except OSError as exc:
        raise StaleIndex(f"{name} is listed in the shipped index but cannot be read ({exc.strerror or exc})") from None
    if sha256(data) != e["sha256"]:
        raise StaleIndex(f"{name}: its sha256 differs from the shipped index (the file changed after it was checked): run `kernelbounds certificates`")
    return data


def read(k) -> bytes:
    """The bytes of the file behind a claim, verified against the hash recorded when it
    was checked (shipped: the index; user folder: the checked bytes)."""
    if getattr(k, "folder", None) is None:
        return read_shipped(k.filename)
    data = (Path(k.folder) / k.filename).read_bytes()
    if sha256(data) != k.sha256:
        raise StaleIndex(f"{k.cited} changed after it was checked")
    return data


def verify(k) -> None:
    """Raise StaleIndex unless the file behind the claim still has its checked bytes."""
    read(k)


# ---------------------------------------------------------------- user folders

_VERDICTS: dict[str, object] = {}  # sha256 -> Verdict (the check is a pure function of the bytes)
_WARNED: set[tuple[str, str]] = set()


def _verdict(data: bytes, path: str):
    key = sha256(data)
    if key not in _VERDICTS:
        from ..checker import check_bytes

        _VERDICTS[key] = check_bytes(data, path)
    return _VERDICTS[key]


def _warn(path: str, why: str) -> None:
    """One warning line, escaped by the checker's one routine (a name with ESC, a kind
    with a newline or an environment value cannot forge a second line)."""
    from ..checker.text import escape

    if (path, why) not in _WARNED:
        _WARNED.add((path, why))
        print(escape(f"kernelbounds: warning: ignoring {path}: {why}"), file=sys.stderr)


def folder_claims(folder: str) -> tuple:
    """The claims of every *.json file in a user folder that the checker accepts, in name
    order; each rejected or unreadable file is named in a one-line warning and ignored."""
    from ..checker.errors import CODE_NAMES

    root = Path(folder)
    if not root.is_dir():
        _warn(folder, "not a folder")
        return ()
    out = []
    progress = _progress(sorted(root.glob("*.json")))
    for path in progress:
        try:
            data = path.read_bytes()
        except OSError as exc:
            _warn(str(path), f"cannot read it ({exc.strerror or exc})")
            continue
        v = _verdict(data, str(path))
        if not v.ok:
            _warn(str(path), f"the checker rejects it ({CODE_NAMES[v.code]} at {v.pointer or '/'}: {v.reason[:200]})")
            continue
        try:
            k = _known(path.name, sha256(data), v.kind, json.loads(data).get("variant"), v.claim, str(root))
        except (ValueError, KeyError, TypeError, AttributeError):
            k = None
        if k is not None:
            out.append(k)
    return tuple(out)


def _progress(paths: list[Path]):
    from ..progress import track

    return track(paths, len(paths), "checking user certificates", "file") if len(paths) > 3 else paths


def folder(explicit: str | None = None) -> str | None:
    """The user folder in force: the explicit one, else $KERNELBOUNDS_CERTIFICATES, else None."""
    import os

    return explicit or os.environ.get(ENV) or None
