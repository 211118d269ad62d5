"""The hostile-input campaign of lab/hostile_inputs.py, one test per case (slow: each case
runs the CLI as a subprocess, a few seconds each; the signal cases run the long commands).

Every case asserts its documented exit code and message shape (docs/cli.md, "Signals",
"Output files"; docs/index-format.md, "User folders", "COMPUTED"; docs/soundness.md, "The
verdict cache").  A case marked xfail is a defect found by the campaign (the reason says
which); it is strict (except a race, which a run may miss), so fixing the product turns it into an XPASS failure to remove the mark.
"""

import pytest

from lab.hostile_inputs import CASES, run_case

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name, marks=[pytest.mark.xfail(reason=c.xfail, strict=c.strict)] if c.xfail else [])
                                  for c in CASES])
def test_hostile_input(case):
    outcome = run_case(case)
    assert outcome.ok, f"{outcome.cmd}\nexpected: {outcome.expected}\nactual:   {outcome.actual}"
