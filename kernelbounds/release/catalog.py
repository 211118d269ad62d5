"""The committed certificate set (certificates/): one entry per file, naming the generator
call that rebuilds it deterministically.  The entries are the registry's
(``kernelbounds.sources``: each source lists the files it writes); the
regenerate-check-compare workflow over them is :mod:`kernelbounds.release.workflow`."""

from __future__ import annotations

from ..sources import Entry


def entries() -> list[Entry]:
    """Every committed file, source by source."""
    from .. import sources

    return sources.entries()
