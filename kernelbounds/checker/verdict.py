"""The verdict on one file: its exit code, the field (JSON pointer) and the reason, and
the line the front ends print for it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import CODE_NAMES, VALID, Code
from .text import escape, show

MAX_REASON_CHARS = 4000


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
    work: int = 0  # the work estimate (0 if the file was refused before it)
    derived: object = None  # a false claim's exact derived value (for tools; see errors.Rejection)
    claim: dict | None = None  # a valid file's claim on r*(m, n) as the rule re-derived it (common.Outcome)

    @property
    def ok(self) -> bool:
        return self.code == VALID

    def line(self) -> str:
        """The verdict on exactly one line; every file-derived string escaped and bounded
        (the summary, the pointer and the reason each at most MAX_REASON_CHARS, whatever
        a rule put in them: so for every kind, present and future)."""
        if self.ok:
            return f"VALID {escape(self.path)}: {escape(bounded(self.summary))}"
        return f"{CODE_NAMES[self.code].upper()} {escape(self.path)}: at {escape(bounded(self.pointer or '/'))}: {escape(bounded(self.reason))}"

    def render(self, verbose: bool = True) -> str:
        """The verdict line, and (verbose, valid files) one indented line per route."""
        lines = [self.line()]
        if verbose and self.ok:
            lines += [f"  - {escape(bounded(r))}" for r in self.routes]
            lines.append(f"  checked in {self.seconds:.2f} s (work estimate {show(self.work)} units)")
        return "\n".join(lines)


def bounded(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """text cut to `limit` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
