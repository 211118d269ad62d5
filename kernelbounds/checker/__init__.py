"""The trusted base: check certificate files (docs/certificate-format-v1.md, -v2.md).

This package imports nothing from the rest of kernelbounds.  ``check_file`` returns a
:class:`Verdict` whose ``code`` is the process exit code:
0 valid, 1 invalid claim, 2 malformed input, 3 resource limit, 4 internal error.

**The rule protocol.**  ``rules.REGISTRY`` maps a certificate kind to its rule module, whose
``check(doc: Node, limits: Limits) -> Outcome`` is the verification itself; a kind whose
certificates name other files by sha256 is in ``rules.NAMING`` and is handed, for each
check, the service its module makes (``service``: rank-extension's ``bases.Bases``).

What decides a verdict is this module's ``judge`` and the rule (the soundness reading of
docs/soundness.md, "What a reviewer reads").  Around it the robustness layer
(``budget.py``) bounds the resources and decides nothing: the reading limits before the
text is parsed, the kind's work estimate (``budget.ESTIMATES``: an upper bound on the
check's elementary operations in the units of ``cost.py``, from the document's sizes before
any work; over ``limits.work_budget`` is exit 3 at the pointer ``""``), and the runtime guard
(``guard.py``), which runs every check, of every kind, in a child process whose CPU time and
memory the kernel limits (``limits.time_limit``, ``limits.memory_limit``), so a wrong
estimate costs at most the budget and gives exit 3, never a runaway.
"""

from __future__ import annotations

from .budget import json_memory, read_input
from .dispatch import check_bytes, decide, document, judge, service_for
from .entry import check_file, estimate, work_estimate
from .errors import INTERNAL, INVALID, LIMIT, MALFORMED, VALID, Code
from .limits import Limits
from .rules import REGISTRY
from .verdict import Verdict, bounded

__all__ = ["Code", "VALID", "INVALID", "MALFORMED", "LIMIT", "INTERNAL", "Verdict", "Limits", "bounded", "check_bytes", "check_file", "decide", "document", "estimate", "json_memory", "judge", "read_input", "service_for",
           "work_estimate", "REGISTRY"]
