"""A user folder is read as it is at each call: the hub's caches are keyed by the folder's
listing (names, sizes, modification times) beside its path, so a certificate added,
rewritten or removed between two ``kb.bound`` calls in one process changes the next answer."""

from __future__ import annotations

import os

import kernelbounds as kb
from kernelbounds.certificate import canonical_json
from kernelbounds.upperbounds import generalheads, rankone


def test_a_certificate_added_after_the_first_call_is_seen_by_the_next(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELBOUNDS_CACHE", "off")
    # THEORY U5: a rank-one head solves every input at m = 2 (n = 9 is outside the shipped
    # rank-one grid, so without the file the best upper bound is U2's 2^m = 4)
    head = canonical_json(generalheads.certificate(rankone.rank_one_head(2, 9)))
    before = kb.bound(2, 9, certificates=str(tmp_path))
    assert (before.upper, before.sides["upper"]["certificate"]) == (2**2, None)

    (tmp_path / "head.json").write_text(head)
    added = kb.bound(2, 9, certificates=str(tmp_path))
    assert added.upper == 1 == added.lower and added.exact
    assert added.sides["upper"]["certificate"] == str(tmp_path / "head.json")

    os.unlink(tmp_path / "head.json")
    assert kb.bound(2, 9, certificates=str(tmp_path)).upper == 2**2  # removed: no longer cited
