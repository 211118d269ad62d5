"""The bound a family file certifies, as the checker re-derives it (never the file's own claim).

``kernelbounds evaluate --family F`` compares a head's rank with the lower bound F proves.
That bound is the checker's verdict on F (``Verdict.claim``, docs/index-format.md): a file
whose stated claim the checker rejects (a raised bound, a broken chain) is an error with the
checker's reason and exit code (1 invalid, 2 malformed, 3 resource limit), never a
"contradiction" of the theory.  The verdict is cached like a user folder's
(``hub/cache.py``: keyed by the bytes' sha256, the checker's code and its limits).
"""

from __future__ import annotations

from ..vocabulary import sha256

from .inputs import FamilyError


class FamilyRejected(FamilyError):
    """The checker rejects the family's certificate; ``code`` is its exit code."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


def checked_claim(doc: dict) -> dict | None:
    """The checker's claim on r*(m, n) for a family certificate (its canonical bytes), or
    None when the verdict claims nothing on r*; FamilyRejected when the checker rejects it."""
    from ..certificate import canonical_json
    from ..checker import Limits
    from ..hub.folders import rejection, verdict_record

    try:
        data = canonical_json(doc).encode("ascii")
    except (TypeError, ValueError) as exc:
        raise FamilyRejected(2, f"the family's certificate cannot be written as JSON ({exc})") from None
    record = verdict_record(data, sha256(data), "<family>", Limits())
    if record["code"] != 0:
        raise FamilyRejected(record["code"], rejection(record))
    return record["claim"]


def checked_bound(doc: dict) -> tuple[int | None, tuple[str, ...]]:
    """The lower bound the checker derives for the family certificate and the kernel
    classes it holds for ((None, ()) when its verdict bounds no r* from below)."""
    claim = checked_claim(doc)
    if not isinstance(claim, dict) or claim.get("side") != "lower":
        return None, ()
    return claim["value"], tuple(claim.get("kernels", ()))
