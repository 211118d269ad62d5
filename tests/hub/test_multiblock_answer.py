"""The hub's upper side at n = 3 uses the committed multi-block level families (THEORY U8)
where they beat every other upper side, and each cited file checks VALID as shipped."""

import pytest

from kernelbounds.checker import check_file
from kernelbounds.hub import answer, index
from kernelbounds.upperbounds import multiblock


@pytest.mark.parametrize("m, at_most", [(12, 75), (16, 435), (20, 3137)])
def test_the_upper_side_cites_a_checked_multiblock_family(m, at_most):
    side = answer.upper(m, 3)
    assert side.value <= at_most and side.theory == "U8" and side.certificate == multiblock.filename(m, 3, False)
    v = check_file(str(index.shipped() / side.certificate))
    assert v.ok and v.claim["value"] == side.value


def test_every_committed_multiblock_family_beats_the_other_upper_sides():
    """Stored only where it helps: below every level family and explicit head of its column."""
    for m, n, nonnegative in multiblock.cells():
        others = [s for s in answer._upper_candidates(answer.committed(), m, n) if s.theory != "U8" and (s.nonnegative_features or not nonnegative)]
        assert multiblock.stored(m, n, nonnegative).rank < min(s.value for s in others), (m, n, nonnegative)
