"""progress.pmap_weighted: the parallel map behind `certificates --check`, heaviest first with
a bar by work done; its results do not depend on the weights, the order or the processes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from kernelbounds.progress import pmap_weighted


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-10**30, 10**30), st.integers(0, 10**12)), max_size=40))
def test_results_are_in_item_order_whatever_the_weights(pairs):
    items, weights = [x for x, _ in pairs], [w for _, w in pairs]
    assert pmap_weighted(abs, items, weights, jobs=1) == [abs(x) for x in items]


def test_processes_give_the_same_list():
    items = list(range(-30, 30))
    weights = [(7 * i) % 11 for i in range(len(items))]
    assert pmap_weighted(abs, items, weights, jobs=2) == [abs(x) for x in items]


def test_a_status_line_says_what_runs_with_a_moving_clock_and_is_erased(monkeypatch, capsys):
    import time

    from kernelbounds import progress

    monkeypatch.setattr(progress, "live", lambda: True)
    monkeypatch.setattr(progress.status, "TICK", 0.05)
    with progress.bar(None, "code search (THEORY L4) at m = 64, n = 9", "search"):
        time.sleep(0.4)
    err = capsys.readouterr().err
    drawn = [part for part in err.split("\r\x1b[K") if part]
    assert len(drawn) >= 3 and all(p.startswith("code search (THEORY L4) at m = 64, n = 9: running 0:0") for p in drawn) and err.endswith("\r\x1b[K")
    with progress.status("quick"):
        pass
    assert capsys.readouterr().err in ("", "\r\x1b[K")  # a step shorter than a tick draws nothing


def test_the_weighted_bar_reaches_every_item_and_all_the_work(monkeypatch, capsys):
    from kernelbounds import progress

    monkeypatch.setattr(progress, "live", lambda: True)
    assert pmap_weighted(abs, [-3, 4, -5], [10**9, 1, 7], jobs=1, desc="weighted") == [3, 4, 5]
    last = [f for f in capsys.readouterr().err.split("\r") if f.strip()][-1]  # the last frame before the bar is erased
    assert last.startswith("weighted: 100%") and "3/3 files" in last
