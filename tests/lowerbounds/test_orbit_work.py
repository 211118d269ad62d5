"""The generator's own copy of the orbit route's work estimate equals the checker's (the
generator imports nothing of the checker's internals; the two are compared here)."""

import json
from pathlib import Path

import pytest

from kernelbounds.checker.jsonread import Node
from kernelbounds.checker.limits import Limits
from kernelbounds.checker.rules.orbits_work import work_orbits
from kernelbounds.lowerbounds import assemble

ROOT = Path(__file__).resolve().parents[2]
ORBIT_FILES = sorted(p for p in (ROOT / "certificates").glob("lower-*.json") if '"symmetry"' in p.read_text())


def test_there_are_committed_orbit_files():
    assert len(ORBIT_FILES) >= 3


@pytest.mark.parametrize("path", ORBIT_FILES[:12], ids=lambda p: p.name)
def test_generator_orbit_work_equals_the_checkers(path):
    doc = json.loads(path.read_text())
    form = assemble.from_certificate(doc)
    assert form.certificate() == doc  # the form rebuilds exactly this file
    assert form.work() == work_orbits(Node(doc), Limits())
