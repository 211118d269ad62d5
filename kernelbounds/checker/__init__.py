"""The trusted base: check certificate files (docs/certificate-format-v1.md).

This package imports nothing from the rest of kernelbounds.  ``check_file`` returns a
:class:`Verdict` whose ``code`` is the process exit code:
0 valid, 1 invalid claim, 2 malformed input, 3 resource limit, 4 internal error.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from .common import read_header
from .errors import CODE_NAMES, INTERNAL, LIMIT, MALFORMED, VALID, Code, LimitExceeded, Malformed, Rejection
from .jsonread import Node, parse_json
from .limits import Limits
from .rules import REGISTRY

__all__ = ["Code", "Verdict", "Limits", "check_bytes", "check_file", "REGISTRY"]


@dataclass
class Verdict:
    path: str
    code: Code
    kind: str = ""
    summary: str = ""
    routes: list[str] = field(default_factory=list)
    pointer: str = ""
    reason: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.code == VALID

    def render(self) -> str:
        if self.ok:
            lines = [f"VALID {self.path}: {self.summary}"]
            lines += [f"  - {r}" for r in self.routes]
            lines.append(f"  checked in {self.seconds:.2f} s")
            return "\n".join(lines)
        return f"{CODE_NAMES[self.code].upper()} {self.path}: at {self.pointer or '/'}: {self.reason}"


def check_bytes(data: bytes, path: str = "<bytes>", limits: Limits | None = None) -> Verdict:
    limits = limits or Limits()
    start = time.perf_counter()
    kind = ""
    try:
        if len(data) > limits.max_file_bytes:
            raise LimitExceeded("", f"file of {len(data)} bytes is over the limit {limits.max_file_bytes}")
        doc = Node(parse_json(data))
        kind = read_header(doc)
        if kind not in REGISTRY:
            raise Malformed("/kind", f"unknown certificate kind {kind!r}; known: {', '.join(sorted(REGISTRY))}")
        outcome = REGISTRY[kind](doc, limits)
        if doc["version"].int() != outcome.version:
            raise Malformed("/version", f"declares version {doc['version'].int()}, but the least version that has every kind and field used is {outcome.version}")
    except Rejection as rej:
        return Verdict(path, rej.code, kind, pointer=rej.pointer, reason=rej.reason, seconds=time.perf_counter() - start)
    except MemoryError:
        return Verdict(path, LIMIT, kind, reason="out of memory", seconds=time.perf_counter() - start)
    except Exception as exc:  # a checker bug: report it, never a traceback
        return Verdict(path, INTERNAL, kind, reason=f"{type(exc).__name__}: {exc}", seconds=time.perf_counter() - start)
    return Verdict(path, VALID, kind, outcome.summary, outcome.routes, seconds=time.perf_counter() - start)


def check_file(path: str, limits: Limits | None = None) -> Verdict:
    limits = limits or Limits()
    try:
        size = os.path.getsize(path)
        if size > limits.max_file_bytes:
            return Verdict(path, LIMIT, pointer="", reason=f"file of {size} bytes is over the limit {limits.max_file_bytes}")
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return Verdict(path, MALFORMED, reason=f"cannot read the file: {exc.strerror or exc}")
    return check_bytes(data, path, limits)


def worst_code(verdicts: list[Verdict]) -> int:
    """The exit code for several files: the most severe verdict."""
    return max((v.code for v in verdicts), default=VALID)  # Code is ordered by severity
