"""Verdict codes and rejections that name the field (an RFC 6901 JSON pointer)."""

from __future__ import annotations

from enum import IntEnum


class Code(IntEnum):
    """A verdict, which is also the process exit code."""

    VALID = 0
    INVALID = 1  # well-formed, but a claimed fact is false or cannot be verified
    MALFORMED = 2  # not a certificate this checker reads
    LIMIT = 3  # checking would exceed a work or memory limit; nothing was decided
    INTERNAL = 4  # a checker bug (reported, never a traceback)


VALID, INVALID, MALFORMED, LIMIT, INTERNAL = Code
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
