"""The committed certificate set (certificates/), regenerated deterministically."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import constructions


@dataclass(frozen=True)
class Entry:
    filename: str
    build: Callable[[], dict]


def _construction(name: str, m: int, n: int) -> Entry:
    return Entry(f"construction-{name}-m{m:02d}-n{n}.json", lambda: constructions.certificate(constructions.CONSTRUCTIONS[name](m, n)))


def entries() -> list[Entry]:
    out = [_construction("rank1", m, 2) for m in range(1, 17)]
    for name in ("tensor", "softmax"):
        out += [_construction(name, m, n) for n in (3, 4) for m in range(1, 17)]
    return out
