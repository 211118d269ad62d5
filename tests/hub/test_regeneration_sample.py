"""The regeneration sample CI runs (kernelbounds.release.regeneration, `certificates --sample N --seed`):
deterministic for a seed, nested in N, another sample for another seed, byte comparison."""

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.release import regeneration
from kernelbounds.release import catalog

ROOT = Path(__file__).resolve().parents[2]
NAMES = [e.filename for e in catalog.entries()]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, len(NAMES) + 3), st.text(max_size=40))
def test_a_sample_is_deterministic_distinct_sorted_and_nested(count, seed):
    chosen = regeneration.sample(NAMES, count, seed)
    assert chosen == regeneration.sample(NAMES, count, seed) == sorted(set(chosen))
    assert len(chosen) == min(count, len(NAMES)) and all(0 <= i < len(NAMES) for i in chosen)
    assert set(chosen) <= set(regeneration.sample(NAMES, count + 1, seed))


def test_every_commit_samples_other_files():
    samples = {tuple(regeneration.sample(NAMES, 8, f"{i:040x}")) for i in range(20)}
    assert len(samples) == 20 and len(set().union(*samples)) > 100


def test_a_sampled_file_that_differs_is_reported(tmp_path, monkeypatch):
    few = [e for e in catalog.entries() if e.filename in ("construction-tensor-m02-n3.json", "construction-tensor-m03-n3.json")]
    monkeypatch.setattr(catalog, "entries", lambda: few)
    for e in few:
        (tmp_path / e.filename).write_bytes((ROOT / "certificates" / e.filename).read_bytes())
    assert regeneration.compare_sample(tmp_path, 2, "seed", jobs=1).ok
    (tmp_path / few[1].filename).write_text("{}")
    result = regeneration.compare_sample(tmp_path, 5, "seed", jobs=1)
    assert [(r.filename, r.same, r.verdict.ok) for r in result.rows] == [(few[0].filename, True, True), (few[1].filename, False, True)] and result.problems == 1
