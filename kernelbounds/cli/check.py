"""`kernelbounds check`: the independent checker on certificate files.

The same front end as ``python -m kernelbounds.checker`` (kernelbounds/checker/__main__.py):
same options, output lines and exit codes.
"""

from __future__ import annotations

from ..checker.__main__ import add_arguments
from ..checker.__main__ import run as run_checker


def register(sub) -> None:
    p = sub.add_parser("check", help="check certificate files with the independent checker")
    add_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    return run_checker(args, prog="kernelbounds check")
