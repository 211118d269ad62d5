"""The shipped index's entries, checked when they are read (docs/index-format.md, "Reading").

The hub believes an entry of certificates/INDEX only after this module found it whole and
consistent: its name a plain file name of the certificate folder, every field of the type
the format gives it, its claim's m, n and variant agreeing with the entry's own, and its
``digest`` (the sha256 of the entry's other fields, written with them) matching.  The digest
makes any single edited field of an entry (a claim's value, a chain bound, a kernel class)
visible at read; it guards against corruption and hand edits, not against a forger who
recomputes it (that reviewer runs the checker on every file).  A cited file's header is
compared with its entry when its bytes are read (:func:`header_problem`).

Every function returns the problem as one line, or None; the index module turns a problem
into ``StaleIndex`` (exit 4).
"""

from __future__ import annotations

import json
import re

HEX64 = re.compile(r"[0-9a-f]{64}")
from ..vocabulary import KERNELS, VARIANTS, sha256
FIELDS = ("claim", "kind", "m", "n", "name", "sha256", "variant")  # the fields the digest covers


def digest(entry: dict) -> str:
    """The sha256 of the entry's fields other than ``digest`` (canonical JSON: sorted keys,
    no spaces, ASCII), written into the entry beside them."""
    body = {k: entry.get(k) for k in FIELDS}
    return sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True))


def _show(x) -> str:
    """A number of any size, shortened for a message (the checker's text.show)."""
    from ..checker.text import show

    return show(x)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(x, least: int = 0) -> bool:
    return isinstance(x, list) and all(_is_int(v) and v >= least for v in x)


def name_problem(name) -> str | None:
    """A plain file name of the folder: a non-empty string without a path separator, not
    '.' or '..', without control characters."""
    if not isinstance(name, str) or not name:
        return "an entry's name is not a non-empty string"
    if "/" in name or "\\" in name or name in (".", "..") or any(ord(c) < 32 or ord(c) == 127 for c in name):
        return f"the entry name {json.dumps(name)[:120]} is not a plain file name of the certificate folder"
    return None


def claim_problem(claim, m, n, variant) -> str | None:
    """The claim's shape, and its m, n, variant against the entry's."""
    if claim is None:
        return None
    if not isinstance(claim, dict):
        return "its claim is not an object or null"
    side = claim.get("side")
    if side == "family-minimum":
        family = claim.get("family")
        if not (_is_int(claim.get("n")) and isinstance(family, dict) and all(isinstance(family.get(k), str) for k in ("basis", "readout", "signs"))
                and _ints(claim.get("chain_bounds"), 1) and claim["chain_bounds"]):
            return "its family-minimum claim lacks n, family (basis, readout, signs) or chain_bounds, or has a wrong type"
        if claim["n"] != n:
            return f"its claim's n = {_show(claim['n'])} differs from the entry's n = {_show(n)}"
        return None
    if side not in ("lower", "upper"):
        return None if isinstance(side, str) else "its claim's side is not a string"
    for key in ("m", "n", "value"):
        if not _is_int(claim.get(key)) or claim[key] < 1:
            return f"its claim's {key} is not a positive whole number"
    variants, kernels = claim.get("variants"), claim.get("kernels")
    if not (isinstance(variants, list) and variants and all(v in VARIANTS for v in variants)):
        return "its claim's variants are not a non-empty list of variants"
    if not (isinstance(kernels, list) and all(k in KERNELS for k in kernels)):
        return "its claim's kernels are not a list of kernel classes"
    if claim["m"] != m or claim["n"] != n:
        return f"its claim is on r*({_show(claim['m'])}, {_show(claim['n'])}) but the entry is at m = {_show(m)}, n = {_show(n)}"
    if (variant or "position-independent") not in variants:
        return f"its claim's variants {variants} do not contain the file's variant {variant}"
    if claim.get("nonnegative_features") not in (None, True, False):
        return "its claim's nonnegative_features is not a boolean or null"
    support, family = claim.get("support"), claim.get("family")
    if support is not None and not _ints(support):
        return "its claim's support is not a list of whole numbers or null"
    if family is not None and not (isinstance(family, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in family.items())):
        return "its claim's family is not an object of strings or null"
    return None


def entry_problem(entry) -> str | None:
    """Why an index entry cannot be believed (one line), or None."""
    if not isinstance(entry, dict):
        return "an entry is not an object"
    problem = name_problem(entry.get("name"))
    if problem:
        return problem
    name = entry["name"]
    if not isinstance(entry.get("sha256"), str) or not HEX64.fullmatch(entry["sha256"]):
        return f"{name}: its sha256 is not 64 lowercase hexadecimal digits"
    if not isinstance(entry.get("kind"), str) or not entry["kind"]:
        return f"{name}: its kind is not a non-empty string"
    for key in ("m", "n"):
        if entry.get(key) is not None and (not _is_int(entry[key]) or entry[key] < 1):
            return f"{name}: its {key} is not a positive whole number or null"
    if entry.get("variant") is not None and entry["variant"] not in VARIANTS:
        return f"{name}: its variant is not a variant or null"
    problem = claim_problem(entry.get("claim"), entry.get("m"), entry.get("n"), entry.get("variant"))
    if problem:
        return f"{name}: {problem}"
    if entry.get("digest") != digest(entry):
        return f"{name}: the entry's digest does not match its fields (the entry was edited after it was written)"
    return None


def header_problem(entry: dict, doc) -> str | None:
    """A cited file's header (kind, m, n, variant) against its entry's."""
    if not isinstance(doc, dict):
        return f"{entry['name']}: the file is not a JSON object"
    for key in ("kind", "m", "n", "variant"):
        if doc.get(key) != entry.get(key):
            return f"{entry['name']}: the file's {key} {json.dumps(doc.get(key))[:40]} differs from its index entry's {json.dumps(entry.get(key))[:40]}"
    return None
