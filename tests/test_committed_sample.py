"""The slow suite's sample of an expensive set (tests/helpers.py, committed_sample): chosen
by the commit as `scripts/regenerate --sample` chooses, another one at every commit, so that
the commits of a week re-judge every file; the whole set in the release check."""

import subprocess
from pathlib import Path

from helpers import committed_sample

NAMES = [f"file-{i:03d}.json" for i in range(178)]


def test_a_seed_chooses_the_same_sample_and_another_seed_another(monkeypatch):
    monkeypatch.delenv("KERNELBOUNDS_RELEASE_CHECK", raising=False)
    monkeypatch.setenv("KERNELBOUNDS_SAMPLE_SEED", "a")
    first = committed_sample(reversed(NAMES), 30)
    assert len(first) == len(set(first)) == 30 and set(first) <= set(NAMES)
    assert committed_sample(NAMES, 30) == first  # the order of the names does not matter
    monkeypatch.setenv("KERNELBOUNDS_SAMPLE_SEED", "b")
    assert committed_sample(NAMES, 30) != first


def test_a_hundred_commits_reach_every_file(monkeypatch):
    monkeypatch.delenv("KERNELBOUNDS_RELEASE_CHECK", raising=False)
    seen = set()
    for seed in range(100):
        monkeypatch.setenv("KERNELBOUNDS_SAMPLE_SEED", f"{seed:040x}")
        seen |= set(committed_sample(NAMES, 30))
    assert seen == set(NAMES)


def test_without_a_seed_the_commit_chooses(monkeypatch):
    monkeypatch.delenv("KERNELBOUNDS_RELEASE_CHECK", raising=False)
    monkeypatch.delenv("KERNELBOUNDS_SAMPLE_SEED", raising=False)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True).stdout.strip() or "no-commit"
    chosen = committed_sample(NAMES, 30)
    monkeypatch.setenv("KERNELBOUNDS_SAMPLE_SEED", head)
    assert committed_sample(NAMES, 30) == chosen


def test_the_release_check_takes_every_file(monkeypatch):
    monkeypatch.setenv("KERNELBOUNDS_RELEASE_CHECK", "1")
    assert committed_sample(reversed(NAMES), 30) == NAMES
