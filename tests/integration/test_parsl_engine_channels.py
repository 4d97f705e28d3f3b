"""Engine channels complete the executor's future straight from the engine's result callback.

An engine channel's task can still fail over (the engine may report "not started"), so Parsl
waits on a future of the executor's. The outcome reaches it through
``ExecutionChannel.submit_then`` with no future of the runner's in between; these tests check
that nothing is lost on the way: values and the task's own exception reach the AppFuture,
every claim is given back, each attempt is recorded, and a future its holder cancelled still
gives its claim back. Sites are the demo's, each behind a real thread engine here; a one-core
'soonest' task ranks cloud-k8s first, edge-jetson second.
"""

from __future__ import annotations

import logging
from pathlib import Path

import parsl
import pytest
from conftest import Holding, wait_until
from parsl.config import Config

from secretary_executor.ledger import Ledger
from secretary_executor.parsl import SecretaryExecutor, ThreadChannel, demo_engine_fleet
from secretary_executor.parsl import secretary_app as app
from secretary_executor.sites.engine import EngineRunner

FIRST, SECOND = "cloud-k8s", "edge-jetson"
SITES = ("cloud-gpu", "cloud-k8s", "edge-jetson", "hpc-campus", "hpc-frontier-like", "hpc-legacy")


class Boom(Exception):
    """The task's own error."""


@app(request="1 core", policy="soonest")
def triple(x: int) -> int:
    return 3 * x


@app(request="1 core", policy="soonest")
def explode(x: int) -> None:
    raise Boom(f"task {x} failed")


def gated(path: str) -> int:
    """Returns once ``path`` exists (engine tasks are serialized, so no in-memory gate)."""
    import os
    import time

    deadline = time.monotonic() + 60
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)
    return 7


@pytest.fixture
def engines(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_TASK_UUID", "")  # thread engines set it per task, in this process
    fleet = demo_engine_fleet(tmp_path / "sites")
    yield fleet
    fleet.shutdown()


def _config(ex: SecretaryExecutor, tmp_path: Path) -> Config:
    return Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)


def test_values_reach_the_appfuture_with_no_runner_future(engines, tmp_path, monkeypatch):
    made: list[str] = []
    submit = EngineRunner.submit

    def counted(self, fn, *args, **kwargs):
        made.append(getattr(fn, "__name__", ""))
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(EngineRunner, "submit", counted)
    ex = SecretaryExecutor(engines.fleet, engines.channels, ledger=tmp_path / "ledger.db")
    with parsl.load(_config(ex, tmp_path)):
        futures = [triple(i) for i in range(40)]  # one negotiates, the rest hit the cache
        assert [f.result(timeout=120) for f in futures] == [3 * i for i in range(40)]
    assert "triple" not in made  # the runner's future API served only the secretaries
    assert ex.in_flight == {}
    placements = list(ex.placements.values())
    assert len(placements) == 40
    assert {p.site for p in placements} == {FIRST}
    assert all([(a.site, a.ok) for a in p.attempts] == [(FIRST, True)] for p in placements)
    rows = Ledger(tmp_path / "ledger.db").attempts(placements[0].request_id)
    assert len(rows) == 40 and all(ok for _, ok, _ in rows)


def test_a_tasks_exception_reaches_the_appfuture_and_gives_the_claim_back(engines, tmp_path):
    ex = SecretaryExecutor(engines.fleet, engines.channels, ledger=tmp_path / "ledger.db")
    with parsl.load(_config(ex, tmp_path)):
        for i in range(3):  # the first negotiates, the others hit the cache
            with pytest.raises(Boom, match=f"task {i} failed"):
                explode(i).result(timeout=120)
        assert ex.in_flight == {}
        assert triple(2).result(timeout=120) == 6  # the site still takes work
    failed = [p for p in ex.placements.values() if p.function == "explode"]
    assert len(failed) == 3
    for p in failed:
        assert p.site == FIRST  # a task that ran and raised is never sent elsewhere
        assert [(a.site, a.ok) for a in p.attempts] == [(FIRST, False)]
        assert p.attempts[0].message.startswith("failed: ")
    assert ex.in_flight == {}


def test_a_cancelled_future_still_gives_its_claim_back_and_is_recorded(engines, tmp_path, caplog):
    caplog.set_level(logging.ERROR, logger="concurrent.futures")
    ex = SecretaryExecutor(engines.fleet, engines.channels, ledger=tmp_path / "ledger.db")
    ex.run_dir = str(tmp_path / "runinfo")
    ex.start()
    try:
        assert ex.submit(triple.func, None, 1).result(timeout=120) == 3  # negotiates
        gate = tmp_path / "gate"
        held = ex.submit(gated, None, str(gate))  # from the cache; runs until the gate opens
        assert ex.in_flight == {FIRST: 1}
        assert held.cancel()  # the holder gives up; the engine still runs it
        gate.touch()
        wait_until(lambda: ex.in_flight == {}, timeout_s=60, what="the claim given back")
        task_id = held.parsl_executor_task_id
        placement = wait_until(lambda: ex.placements.get(task_id), timeout_s=60, what="placed")
        assert [(a.site, a.ok) for a in placement.attempts] == [(FIRST, True)]
        assert held.cancelled()
        assert ex.submit(triple.func, None, 5).result(timeout=120) == 15
    finally:
        ex.shutdown()
    # The outcome met a future that had already ended: no callback failed over it.
    assert not [r for r in caplog.records if r.name == "concurrent.futures"]


class Unsure(ThreadChannel):
    """Threads here, but declared without final futures: outcomes go through ``submit_then``."""

    final_futures = False


def test_a_cancelled_attempt_at_a_channel_without_final_futures_fails_over(tmp_path):
    channels = {site: ThreadChannel(2, name=site) for site in SITES}
    channels[FIRST] = Unsure(1, name=FIRST)
    ex = SecretaryExecutor("demo", channels, ledger=tmp_path / "ledger.db")
    ex.run_dir = str(tmp_path / "runinfo")
    ex.start()
    try:
        hold = Holding()
        assert ex.submit(lambda: 1, None).result(timeout=60) == 1  # negotiates
        busy = ex.submit(hold, None)  # holds FIRST's only thread
        assert hold.started.wait(60)
        queued = ex.submit(lambda: 2, None)
        assert ex.in_flight == {FIRST: 2}
        channels[FIRST].shutdown(wait=False, cancel_futures=True)  # queued never started
        assert queued.result(timeout=60) == 2  # ...so it ran at the next site
        hold.release.set()
        assert busy.result(timeout=60) is True
        wait_until(lambda: ex.in_flight == {}, timeout_s=60, what="every claim given back")
        moved = ex.placements[queued.parsl_executor_task_id]
        assert [(a.site, a.ok) for a in moved.attempts] == [(FIRST, False), (SECOND, True)]
        assert "not started" in moved.attempts[0].message
        assert "cancelled" in moved.attempts[0].message
    finally:
        ex.shutdown()
