"""Transcript bounds for multi-head, multi-layer sketch models (THEORY §4; kind
``transcript``, ``lowerbounds.transcript``).  They bound no side of r* (no cell)."""

from __future__ import annotations

from .protocol import Entry, files_cover, no_description, no_row, none_stated, plain_label

NAME, KIND, SIDE = "transcripts", "transcript", ""
THEORY, METHOD = "§4", "transcript bound"
STORED, COMPUTED = "", False
label, describe, row, statements = plain_label(METHOD, THEORY), no_description, no_row, none_stated


def _file(q: int, s: int) -> Entry:
    from ..lowerbounds import transcript

    return Entry(f"transcript-q{q}-s{s}.json", lambda: transcript.certificate(q, s))


def entries() -> list[Entry]:
    return [_file(3, 4), _file(8, 1)]


covers, build = files_cover(entries)
