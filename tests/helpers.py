"""Helpers shared by the tests (imported as `from helpers import ...`)."""

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, Verdict, check_bytes


def verdict(doc, **limits) -> Verdict:
    """The checker's verdict on a certificate dict (canonical bytes), with limit overrides."""
    return check_bytes(canonical_json(doc).encode(), limits=Limits().with_overrides(**limits))
