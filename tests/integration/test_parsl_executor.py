"""``SecretaryExecutor`` in a real Parsl DataFlowKernel, over sites served by real endpoint engines.

Nothing is faked: each site is a Globus Compute engine running here (ThreadPoolEngine,
ProcessPoolEngine, GlobusComputeEngine once) that runs both the site's secretary functions and
the user's tasks, with the real ``ComputeSerializer`` and messagepack ``Task``/``Result``. Only
the hosted Globus web service is absent, which these sites do not use.

Parsl's own file logging is off (``initialize_logging=False``): its unregister callback removes
the ``parsl.log`` handler without closing it, which ``filterwarnings = error`` would report as
an unclosed file at an arbitrary later point.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import threading
import time
from concurrent.futures import CancelledError
from pathlib import Path

import parsl
import pytest
from parsl.app.app import python_app
from parsl.config import Config
from parsl.executors import ThreadPoolExecutor

from secretary_executor.errors import SelectionError
from secretary_executor.ledger import Ledger
from secretary_executor.parsl import (
    Attempt,
    SecretaryExecutor,
    ThreadChannel,
    demo_engine_fleet,
    secretary_app,
    secretary_bash_app,
)

ONE_CORE_SITE = "cloud-k8s"
"""Where the demo fleet's 'soonest' policy puts one-core tasks (checked in the tests)."""


@secretary_app
def add(a: int, b: int) -> int:
    return a + b


@secretary_app(request="pytorch >= 2.0 on 8 GPUs per node")
def on_gpu(x: int) -> tuple[str, int]:
    return ("gpu", x)


@secretary_app(request="10000 GPUs per node")
def impossible() -> None:
    return None


@secretary_app(requirements={"compute": {"cores_per_node": 1}}, policy="first-ready")
def where(x: int, parsl_resource_specification=None) -> int:  # declares the kwarg: gotcha 2
    return x * 2


@secretary_bash_app
def echo(text: str) -> str:
    return f"echo {text}"


@python_app(executors=["plain"])
def plain(x: int) -> int:
    return x + 100


@pytest.fixture
def engines(tmp_path, monkeypatch):
    # Thread-engine tasks run in this process and the engine sets GC_TASK_UUID for each one;
    # monkeypatch puts the variable back afterwards.
    monkeypatch.setenv("GC_TASK_UUID", "")
    fleet = demo_engine_fleet(tmp_path / "sites", engines={ONE_CORE_SITE: "process"})
    yield fleet
    fleet.shutdown()


def _executor(engines, tmp_path: Path, **kw) -> SecretaryExecutor:
    return SecretaryExecutor(engines.fleet, engines.channels, ledger=tmp_path / "ledger.db", **kw)


def test_dependent_tasks_run_on_thread_and_process_engines(engines, tmp_path):
    ex = _executor(engines, tmp_path)
    with parsl.load(
        Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
    ):
        chain = add(1, 2)
        for i in range(5):
            chain = add(chain, i)  # each depends on the previous one
        wide = [add(i, add(i, 1)) for i in range(10)]
        gpu = on_gpu(7)
        doubled = where(21)
        assert chain.result(timeout=120) == 3 + sum(range(5))
        assert [f.result(timeout=120) for f in wide] == [2 * i + 1 for i in range(10)]
        assert gpu.result(timeout=120) == ("gpu", 7)
        assert doubled.result(timeout=120) == 42
    placements = list(ex.placements.values())
    assert len(placements) == 6 + 20 + 2
    adds = [p for p in placements if p.function == "add"]
    assert {p.site for p in adds} == {ONE_CORE_SITE}  # the ProcessPoolEngine site
    assert all(p.verdict == "READY" and p.reason for p in adds)
    assert sum(not p.cached for p in adds) >= 1 and sum(p.cached for p in adds) >= 1
    gpu_site = next(p.site for p in placements if p.function == "on_gpu")
    assert gpu_site == "cloud-gpu"  # the only site with 8 GPUs per node
    ledger = Ledger(tmp_path / "ledger.db")
    request_id = adds[0].request_id
    assert {p.site for p in ledger.proposals(request_id)} == set(engines.channels)
    assert ledger.request(request_id) is not None
    assert len(ledger.attempts(request_id)) == len(
        [p for p in placements if p.request_id == request_id]
    )


def test_failover_when_the_chosen_sites_engine_dies(engines, tmp_path):
    ex = _executor(engines, tmp_path)
    with parsl.load(
        Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
    ):
        assert add(1, 1).result(timeout=120) == 2  # negotiates; the outcome is cached
        first = next(iter(ex.placements.values()))
        assert first.site == ONE_CORE_SITE
        engines.sites[ONE_CORE_SITE].runner.engine.shutdown()  # the engine dies under us
        assert add(2, 3).result(timeout=120) == 5
    second = ex.placements[max(ex.placements)]
    assert [a.site for a in second.attempts][0] == ONE_CORE_SITE
    assert [a.ok for a in second.attempts] == [False, True]
    assert "not started" in second.attempts[0].message
    assert second.site != ONE_CORE_SITE
    rows = Ledger(tmp_path / "ledger.db").attempts(second.request_id)
    mine = [r for r in rows if f"#{second.task_id} " in r[2]]
    assert [(site, ok) for site, ok, _ in mine] == [(ONE_CORE_SITE, False), (second.site, True)]


def test_a_task_no_site_can_run_fails_with_the_reasons(engines, tmp_path):
    ex = _executor(engines, tmp_path)
    with parsl.load(
        Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
    ):
        with pytest.raises(SelectionError, match="no site can run this request"):
            impossible().result(timeout=120)


def test_beside_another_executor_and_a_bash_app(engines, tmp_path):
    ex = _executor(engines, tmp_path)
    config = Config(
        executors=[ex, ThreadPoolExecutor(label="plain", max_threads=2)],
        run_dir=str(tmp_path / "runinfo"),
        initialize_logging=False,
    )
    with parsl.load(config):
        assert plain(1).result(timeout=60) == 101
        assert add(plain(1), 1).result(timeout=120) == 102
        assert echo("hello").result(timeout=120) == 0


def test_monitoring_on(engines, tmp_path):
    from parsl.monitoring import MonitoringHub

    ex = _executor(engines, tmp_path)
    db = tmp_path / "monitoring.db"
    config = Config(
        executors=[ex],
        run_dir=str(tmp_path / "runinfo"),
        initialize_logging=False,
        monitoring=MonitoringHub(
            logging_endpoint=f"sqlite:///{db}", resource_monitoring_interval=0
        ),
    )
    with parsl.load(config):
        assert [add(i, i).result(timeout=120) for i in range(3)] == [0, 2, 4]
    deadline = time.monotonic() + 30
    count = 0
    while time.monotonic() < deadline:  # the database writer runs in its own process
        if db.exists():
            with sqlite3.connect(db) as conn:
                count = conn.execute("SELECT COUNT(*) FROM task").fetchone()[0]
            if count >= 3:
                break
        time.sleep(0.2)
    assert count >= 3


@pytest.mark.slow
@pytest.mark.globus
def test_globus_compute_engine_site(tmp_path, monkeypatch):
    bindir = str(Path(sys.executable).parent)
    monkeypatch.setenv("PATH", bindir + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("GC_TASK_UUID", "")
    # The engine's workers are separate processes started by the endpoint command; they find
    # this module (the apps' functions are pickled by reference) through PYTHONPATH.
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    assert shutil.which("globus-compute-endpoint")
    fleet = demo_engine_fleet(tmp_path / "sites", engines={ONE_CORE_SITE: "globus"}, timeout_s=120)
    try:
        ex = _executor(fleet, tmp_path)
        with parsl.load(
            Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
        ):
            assert add(add(1, 2), 3).result(timeout=300) == 6
        assert {p.site for p in ex.placements.values()} == {ONE_CORE_SITE}
    finally:
        fleet.shutdown()


# -- thread channels: the executor's fast path ----------------------------------------------


def _thread_executor(engines, tmp_path: Path, *, workers: int = 2) -> SecretaryExecutor:
    channels = {site: ThreadChannel(workers, name=site) for site in engines.channels}
    return SecretaryExecutor(engines.fleet, channels, ledger=tmp_path / "ledger.db")


def test_cached_tasks_on_thread_channels_are_placed_and_recorded(engines, tmp_path):
    ex = _thread_executor(engines, tmp_path)
    with parsl.load(
        Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
    ):
        assert add(0, 0).result(timeout=120) == 0  # negotiates
        futures = [add(i, 1) for i in range(200)]  # all from the cache
        assert [f.result(timeout=120) for f in futures] == [i + 1 for i in range(200)]
    placements = list(ex.placements.values())
    assert len(placements) == 201
    assert {p.site for p in placements} == {ONE_CORE_SITE}
    assert sum(p.cached for p in placements) == 200
    assert all(
        p.attempts == (Attempt(site=ONE_CORE_SITE, ok=True, message="ran"),) for p in placements
    )
    assert all(p.verdict == "READY" and p.reason for p in placements)
    rows = Ledger(tmp_path / "ledger.db").attempts(placements[0].request_id)
    assert len(rows) == 201 and all(ok for _, ok, _ in rows)  # every row written by shutdown
    assert {int(m.split("#")[1].split()[0]) for _, _, m in rows} == set(ex.placements)


def test_a_refused_cached_task_fails_over_to_the_next_site(engines, tmp_path):
    ex = _thread_executor(engines, tmp_path)
    with parsl.load(
        Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
    ):
        assert add(1, 1).result(timeout=120) == 2  # negotiates; the outcome is cached
        ex.channels[ONE_CORE_SITE].shutdown()  # the first-ranked site stops taking work
        assert add(2, 3).result(timeout=120) == 5
        assert add(4, 4).result(timeout=120) == 8  # renegotiated: the cache forgot the site
    first, second, third = (ex.placements[i] for i in sorted(ex.placements))
    assert second.cached and [(a.site, a.ok) for a in second.attempts][0] == (ONE_CORE_SITE, False)
    assert "not started" in second.attempts[0].message and second.attempts[1].ok
    assert second.site not in (None, ONE_CORE_SITE)
    assert not third.cached and third.request_id != first.request_id
    rows = Ledger(tmp_path / "ledger.db").attempts(second.request_id)
    mine = [(site, ok) for site, ok, message in rows if f"#{second.task_id} " in message]
    assert mine == [(ONE_CORE_SITE, False), (second.site, True)]


def test_cancelled_thread_channel_tasks_end_cancelled_and_are_recorded(engines, tmp_path):
    ex = _thread_executor(engines, tmp_path, workers=1)
    ex.run_dir = str(tmp_path / "runinfo")
    ex.start()
    try:
        started, release = threading.Event(), threading.Event()

        def hold() -> bool:
            started.set()
            return release.wait(60)

        assert ex.submit(lambda: 1, None).result(timeout=120) == 1  # negotiates
        busy = ex.submit(hold, None)  # holds the site's only worker
        assert started.wait(60)
        queued = ex.submit(lambda: 2, None)
        ex.channels[ONE_CORE_SITE].shutdown(wait=False, cancel_futures=True)
        release.set()
        assert busy.result(timeout=60) is True
        with pytest.raises(CancelledError):
            queued.result(timeout=60)
        assert queued.parsl_executor_task_id == 3
        placement = ex.placements[3]
        assert placement.site is None
        assert placement.attempts[0].ok is False and "cancelled" in placement.attempts[0].message
    finally:
        ex.shutdown()
