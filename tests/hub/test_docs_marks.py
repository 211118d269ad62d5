"""The docs table marks: m lists (A, A..B, A..B:S) and the log2 columns of the upper sides."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelbounds.reports import report


@given(st.lists(st.tuples(st.integers(1, 300), st.integers(0, 40), st.integers(1, 9)), min_size=1, max_size=5))
def test_an_m_list_is_the_union_of_its_parts(parts):
    text = ",".join(f"{a}..{a + w}:{s}" if s > 1 else (f"{a}..{a + w}" if w else str(a)) for a, w, s in parts)
    want = sorted({m for a, w, s in parts for m in range(a, a + w + 1, s)})
    assert report.m_list(text) == want


def test_the_grid_above_64_and_the_old_ranges_parse():
    assert report.m_list("65,72..256:8") == [65] + list(range(72, 257, 8))
    assert report.m_list("2..64") == list(range(2, 65))
    for bad in ("0..3", "5..4", "3..9:0", "x"):
        with pytest.raises(ValueError):
            report.m_list(bad)


def test_a_log2_mark_adds_both_sides_in_bits_and_the_ceiling_at_n_3():
    """log2 of each side and of the row's L3/L4 ceiling (THEORY "The ceiling of L3/L4 (sharp
    form)"), n/a where there is none; the exact ceiling in its own column."""
    text = "<!-- kernelbounds table --m 65,72..256:8 --n 3..8 --kernels --log2 -->\nold\n<!-- end of generated table -->"
    match = report.DOCS_MARK.search(text)
    assert match and report._spec(match.group(2))[0][:2] == [65, 72]
    row = report.Row(128, 3, 5, 2**74 + 3, 3 * 2**87, False, "codes", "level family", "explicit chain", 128, 128, 128, 3, 3, 3, None, None, None, 14924693)
    table = report.markdown([row], log2=True)
    head, rule, line = table.splitlines()
    cols = [c.strip() for c in head.strip("|").split("|")]
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert len(cols) == len(cells) == len(rule.strip("|").split("|"))
    assert float(cells[cols.index("log2 upper (any)")]) == round(math.log2(2**74 + 3), 1) == 74.0
    assert float(cells[cols.index("log2 upper (nonnegative)")]) == round(math.log2(3 * 2**87), 1) == 88.6
    assert float(cells[cols.index("log2 lower")]) == round(math.log2(5), 1) == 2.3
    assert float(cells[cols.index("log2 L3/L4 ceiling")]) == round(math.log2(14924693), 1) == 23.8
    assert cells[cols.index("L3/L4 ceiling")] == "14924693"
    other = report.markdown([report.Row(128, 2, 1, 1, 1, True, "trivial", "U1 rank one", "U1 rank one", None, 128, 128, None, 2, 2, None, None, None, None)], log2=True)
    assert [c.strip() for c in other.splitlines()[2].strip("|").split("|")][cols.index("log2 L3/L4 ceiling")] == "n/a"
    assert "log2" not in report.markdown([row])
