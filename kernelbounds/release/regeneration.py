"""A deterministic sample of the committed set, regenerated and compared byte for byte.

Regenerating every committed certificate (`kernelbounds certificates`, scripts/regenerate
--all) takes 30 to 60 minutes on 2 cores, more than CI can add to its hour.  CI therefore
regenerates a sample (`kernelbounds certificates --sample N --seed TEXT`, scripts/regenerate
--sample N with the commit's hash as the seed): the N entries of the catalog whose
sha256(seed, file name) are least.  The same seed always gives the same sample, another
seed (every commit) another one, so over many commits every entry is regenerated; a
release runs the whole (scripts/regenerate --all).  INDEX and COMPUTED are built from the
whole set and are compared only by the whole run.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def sample(filenames: list[str], count: int, seed: str) -> list[int]:
    """The positions of the ``count`` file names whose sha256(seed NUL name) is least, in
    their catalog order (all of them if count >= len(filenames))."""
    def rank(i: int) -> bytes:
        return hashlib.sha256(f"{seed}\0{filenames[i]}".encode("utf-8", "surrogatepass")).digest()

    return sorted(sorted(range(len(filenames)), key=rank)[: max(0, count)])


def compare_sample(target: str | Path, count: int, seed: str, jobs: int | None = None):
    """Regenerate the sampled entries, check each with the checker and compare it with the
    committed file in target: a ``workflow.Comparison`` of those rows (no stale files,
    INDEX and COMPUTED not compared)."""
    from . import catalog, workflow
    from ..progress import pmap

    target = Path(target)
    chosen = sample([e.filename for e in catalog.entries()], count, seed)
    rows = []
    for filename, text, verdict, m, n in pmap(workflow._regenerate, chosen, jobs, f"certificates: regenerate a sample of {len(chosen)}", "file"):
        committed = target / filename
        same = committed.is_file() and committed.read_bytes() == text.encode("ascii")
        rows.append(workflow.Regenerated(filename, verdict, same, m, n))
    return workflow.Comparison(rows, [])
