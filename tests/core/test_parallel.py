"""The parallel layer: pmap gives the same list whatever runs it: this process,
a process pool, a caller's concurrent.futures executor, or a Dask cluster (slow suite)."""

import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from kernelbounds import parallel
from kernelbounds.cli import main
from kernelbounds.upperbounds.levelfamily import families as lf_families, verdicts as lf_verdicts

# the least rank of the complement-basis affine families at n = 3 (U4), one LP search per item
JOBS = [(lf_families.LevelFamily("complement", "affine", nonneg), m, 3, False) for m in range(3, 8) for nonneg in (False, True)]


def _answers(results):
    return [(r.found.family, r.found.m, r.rank, r.found.support, r.found.g, r.found.eps) for r in results]


@pytest.fixture(scope="module")
def serial():
    return _answers(parallel.pmap(lf_verdicts._solve_job, JOBS, 1))


def test_serial_answers_are_the_least_ranks(serial):
    """The committed nonnegative level-family ranks at n = 3 (m = 4..7: 5, 6, 8, 15)."""
    ranks = {(fam.nonnegative, m): rank for fam, m, rank, *_ in serial}
    assert [ranks[(True, m)] for m in range(4, 8)] == [5, 6, 8, 15]


def test_a_process_pool_executor_gives_the_same_list(serial):
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert _answers(parallel.pmap(lf_verdicts._solve_job, JOBS, executor=pool)) == serial
        assert pool.submit(abs, -3).result() == 3  # pmap leaves the caller's executor running


def test_a_thread_pool_and_two_processes_give_the_same_list(serial):
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert _answers(parallel.pmap(lf_verdicts._solve_job, JOBS, executor=pool)) == serial
    assert _answers(parallel.pmap(lf_verdicts._solve_job, JOBS, 2)) == serial


def test_executor_and_scheduler_together_are_refused():
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError):
        parallel.pmap(abs, [1], executor=pool, scheduler="local")


def test_missing_dask_extra_is_one_clear_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails as without the extra
    with pytest.raises(parallel.SchedulerError, match=r"kernelbounds\[dask\]"):
        parallel.pmap(abs, [1, -2], scheduler="local")
    assert main(["certificates", str(tmp_path), "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert "kernelbounds[dask]" in err and "Traceback" not in err


@pytest.mark.slow  # starts a Dask LocalCluster (a few seconds); scripts/test-slow installs the extra
def test_a_dask_local_cluster_gives_the_same_list(serial):
    pytest.importorskip("dask.distributed")
    assert _answers(parallel.pmap(lf_verdicts._solve_job, JOBS, 2, scheduler=parallel.LOCAL)) == serial
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster, set_as_default=False) as client:
        assert _answers(parallel.pmap(lf_verdicts._solve_job, JOBS, scheduler=cluster.scheduler_address)) == serial
        assert _answers(parallel.pmap(lf_verdicts._solve_job, JOBS, executor=client.get_executor())) == serial


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_clear_line(monkeypatch):
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 2)
    with pytest.raises(parallel.SchedulerError, match="cannot reach"):
        parallel.pmap(abs, [1], scheduler="tcp://127.0.0.1:9")


def test_an_interrupted_pool_has_closed_its_pipes_when_stop_returns():
    """process_pool stops at once on KeyboardInterrupt and, before re-raising, waits for the
    pool's manager thread to close its pipes: the interpreter's exit hook, which wakes that
    thread through one of them, then finds it closed (no write racing the close, no EBADF
    traceback after 'interrupted')."""
    import time

    with pytest.raises(KeyboardInterrupt):
        with parallel.process_pool(2) as pool:
            futures = [pool.submit(time.sleep, 30) for _ in range(4)]
            manager, wakeup = pool._executor_manager_thread, pool._executor_manager_thread_wakeup
            time.sleep(0.5)  # the workers run
            raise KeyboardInterrupt
    assert not manager.is_alive() and wakeup._closed
    assert all(f.done() for f in futures)
