import functools
import os

import pytest
from hypothesis import settings

# default and ci: the same fixed examples at every run (derandomize).  random: new examples at
# every run, drawn from the seed that `pytest --hypothesis-seed=N` gives (CI passes a new one
# each time and prints it; the summary line below repeats it): a failure is replayed by the
# same command with that seed.  slow: many random examples, for a long local run.
settings.register_profile("default", deadline=None, max_examples=60, derandomize=True)
settings.register_profile("ci", deadline=None, max_examples=60, derandomize=True)
settings.register_profile("random", deadline=None, max_examples=60, derandomize=False, print_blob=True)
settings.register_profile("slow", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

pytest_plugins = ["pytester"]

# The on-disk verdict cache (kernelbounds/hub/cache.py) stays off in the suite (and in its
# subprocesses): no test writes to the user's cache; the cache's own tests set a folder.
os.environ["KERNELBOUNDS_CACHE"] = "off"

# A property test must reach its assertions on nearly every example.  Every call of a
# hypothesis test body is counted; a call "reaches" when the body returns normally (an
# `assume` that fails, or an invalid draw, raises instead).  Early `return`s would count
# as reaching, so tests/test_property_guard.py forbids `return` in @given bodies.
MIN_REACH = 0.8
REACHED: dict[str, tuple[int, int]] = {}  # test id -> (examples that reached the end, calls)


class Reach:
    """Counts the calls of a test body and the calls that returned normally."""

    def __init__(self):
        self.calls = self.reached = 0

    def wrap(self, test):
        @functools.wraps(test)
        def counted(*args, **kwargs):
            self.calls += 1
            result = test(*args, **kwargs)
            self.reached += 1
            return result

        return counted


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    handle = getattr(getattr(item, "obj", None), "hypothesis", None)
    if handle is None or not hasattr(handle, "inner_test"):
        yield
        return
    counter, original = Reach(), handle.inner_test
    handle.inner_test = counter.wrap(original)
    outcome = yield
    handle.inner_test = original
    if counter.calls:  # carried by the report, so that under xdist the controller counts it too
        item.user_properties.append(("hypothesis-reach", (counter.reached, counter.calls)))
    if outcome.excinfo is None and counter.calls:
        share = counter.reached / counter.calls
        if share < MIN_REACH:
            outcome.force_exception(
                AssertionError(f"only {counter.reached} of {counter.calls} examples ({share:.0%}) reached the assertions (need {MIN_REACH:.0%})")
            )


def pytest_runtest_logreport(report):
    """Collects the counts in the process that prints the summary (this one, or the xdist controller)."""
    if report.when == "call":
        for name, value in report.user_properties:
            if name == "hypothesis-reach":
                REACHED[report.nodeid] = tuple(value)


def pytest_terminal_summary(terminalreporter):
    """One line: how many property tests ran and the least share of examples that reached
    their assertions (the guard fails any test below MIN_REACH); under a profile that draws
    random examples, one more with the seed and the command that replays the run."""
    profile = os.environ.get("HYPOTHESIS_PROFILE", "default")
    if REACHED and not settings.default.derandomize:
        seed = terminalreporter.config.getoption("hypothesis_seed", None)
        terminalreporter.write_line(
            f"hypothesis profile {profile}: random examples from seed {seed if seed is not None else '(none given: not replayable)'}; "
            f"replay with HYPOTHESIS_PROFILE={profile} python -m pytest --hypothesis-seed={seed if seed is not None else 'N'} ..."
        )
    if REACHED:
        name, (hit, calls) = min(REACHED.items(), key=lambda kv: kv[1][0] / kv[1][1])
        total_hit, total = sum(h for h, _ in REACHED.values()), sum(c for _, c in REACHED.values())
        terminalreporter.write_line(
            f"property tests: {len(REACHED)}, {total_hit} of {total} examples reached their assertions; "
            f"least {hit}/{calls} ({hit / calls:.0%}) in {name}"
        )
