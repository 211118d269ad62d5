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
