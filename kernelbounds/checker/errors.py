"""Verdict codes and rejections that name the field (an RFC 6901 JSON pointer)."""

from __future__ import annotations

VALID, INVALID, MALFORMED, LIMIT, INTERNAL = 0, 1, 2, 3, 4
CODE_NAMES = {VALID: "valid", INVALID: "invalid", MALFORMED: "malformed", LIMIT: "resource limit", INTERNAL: "internal error"}


class Rejection(Exception):
    """A certificate is not accepted: ``code`` says why, ``pointer`` says where."""

    code = INVALID

    def __init__(self, pointer: str, reason: str, derived: object = None):
        super().__init__(f"{pointer or '/'}: {reason}")
        self.pointer = pointer
        self.reason = reason
        self.derived = derived  # for a false claim: the exact value the checker derives (never printed whole)


class Invalid(Rejection):
    """Well-formed, but a claimed fact is false or cannot be verified."""

    code = INVALID


class Malformed(Rejection):
    """Not a v1 certificate: bad JSON, a missing field, a wrong type or an unknown value."""

    code = MALFORMED


class LimitExceeded(Rejection):
    """Checking would exceed a configured work or memory limit; nothing was checked."""

    code = LIMIT


def pointer_join(pointer: str, key: str | int) -> str:
    token = str(key).replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{token}"
