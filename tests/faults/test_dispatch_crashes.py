"""Kill the hub or the worker at each stage of a dispatch: no job runs twice or without a row.

Real processes on loopback: a hub (``secretary serve hub``) with its ledger on disk and a worker
serving this machine as site ``here``, whose jobs really run (each appends a line to a file: the
ground truth of what ran, written by nobody under test). A failpoint armed in one process's
environment (:mod:`providers.failpoints`) makes it die by SIGKILL at one stage of the first
dispatch. The process is started again, the client repeats ``dispatch_job`` with its
idempotency key, and the test counts what ran and what the ledger holds.
"""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from federation_harness import LocalCluster, wait_for

HEARTBEAT_S = 1.0
KEY = "crash-test-0001"


class Cluster(LocalCluster):
    """A hub and one worker serving this machine as site ``here``."""

    def __init__(self, folder: Path, site_timeout_s: float = 20) -> None:
        super().__init__(
            folder, {"w-here": "here"}, heartbeat_s=HEARTBEAT_S, site_timeout_s=site_timeout_s
        )

    def start_hub(self, failpoint: str | None = None) -> None:
        self.start("hub", failpoint)

    def start_worker(self, failpoint: str | None = None) -> None:
        self.start("w-here", failpoint)

    def wait_up(self) -> None:
        wait_for(self.up, "site 'here' to be UP", timeout_s=90)

    def wait_settled(self) -> None:
        """Until every job started here has ended, so no second copy can still appear."""
        wait_for(self.settled, "every job started here to finish", timeout_s=60)

    def ledger_jobs(self, request_id: str) -> list[tuple[str, str]]:
        with sqlite3.connect(f"file:{self.ledger}?mode=ro", uri=True) as db:
            return db.execute(
                "SELECT state, native_id FROM jobs WHERE request_id = ?", (request_id,)
            ).fetchall()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with Cluster(tmp_path) as c:
        yield c


def _negotiate(c: Cluster, marker: str) -> str:
    ok, result = c.call(
        "negotiate_job", {"text": "1 core for 5 minutes", "command": c.command(marker)}
    )
    assert ok, result
    return str(result["request_id"])


def _dispatch(c: Cluster, request_id: str) -> tuple[bool, Any]:
    return c.call(
        "dispatch_job", {"request_id": request_id, "site": "here", "idempotency_key": KEY}
    )


def _retry(c: Cluster, request_id: str, until: float) -> tuple[bool, Any]:
    """Repeat the dispatch until it is settled one way or the other."""
    while True:
        ok, result = _dispatch(c, request_id)
        if ok or "will never run" in str(result) or time.monotonic() > until:
            return ok, result
        time.sleep(0.5)


HUB_STAGES = ["hub.dispatch.written", "hub.dispatch.replied"]
SITE_STAGES = ["site.dispatch.claimed", "site.dispatch.submitted", "site.dispatch.remembered"]


@pytest.mark.parametrize("stage", HUB_STAGES + SITE_STAGES)
def test_kill_9_at_each_stage_of_a_dispatch(cluster: Cluster, stage: str) -> None:
    c = cluster
    c.start_hub(stage if stage in HUB_STAGES else None)
    c.start_worker(stage if stage in SITE_STAGES else None)
    c.wait_up()
    request_id = _negotiate(c, "job-1")

    ok, first = _dispatch(c, request_id)
    assert not ok, f"the process armed at {stage} should have died: {first}"
    victim = "hub" if stage in HUB_STAGES else "w-here"
    assert c.procs.procs[victim].wait(timeout=30) == -9
    if victim == "hub":
        c.start_hub()
    else:
        c.start_worker()
    c.wait_up()

    ok, result = _retry(c, request_id, time.monotonic() + 60)
    if stage == "site.dispatch.claimed":
        # The site died after claiming the key, before the job was started: the restarted
        # site finds no job carrying the key, so the dispatch fails and can never run.
        assert not ok and "will never run" in result, result
        expected_runs = 0
        assert c.ledger_jobs(request_id) == [("FAILED", "")]
    else:
        assert ok, result
        expected_runs = 1
        again_ok, again = _dispatch(c, request_id)  # one more repeat: still the same job
        assert again_ok and again["job_id"] == result["job_id"]
        [(state, native_id)] = c.ledger_jobs(request_id)
        assert native_id == result["native_id"] and state != "PENDING"

    wait_for(lambda: len(c.ran()) >= expected_runs, "the job to run", timeout_s=60)
    c.wait_settled()  # a second copy, had one been started, has ended too
    assert c.ran() == ["job-1"] * expected_runs


def test_a_reply_that_comes_after_the_timeout_is_settled_by_a_repeat(tmp_path: Path) -> None:
    """The worker is frozen (SIGSTOP) while the hub sends it a dispatch: the hub gives up after
    its site timeout and keeps the job PENDING. Thawed, the worker submits the job; the client's
    repeat with the same key gets that job's receipt, and the job runs once."""
    c = Cluster(tmp_path, site_timeout_s=2)
    try:
        c.start_hub()
        c.start_worker()
        c.wait_up()
        request_id = _negotiate(c, "late-1")
        worker = c.procs.procs["w-here"]
        worker.send_signal(signal.SIGSTOP)
        try:
            ok, first = _dispatch(c, request_id)
            assert not ok and "stays PENDING" in first, first
            assert [state for state, _ in c.ledger_jobs(request_id)] == ["PENDING"]
        finally:
            worker.send_signal(signal.SIGCONT)
        wait_for(lambda: c.ran() == ["late-1"], "the late dispatch to run", timeout_s=60)
        ok, receipt = _retry(c, request_id, time.monotonic() + 60)
        assert ok, receipt
        [(state, native_id)] = c.ledger_jobs(request_id)
        assert native_id == receipt["native_id"] and state != "PENDING"
        c.wait_settled()
        assert c.ran() == ["late-1"]
    finally:
        c.procs.stop_all()


def test_a_hub_frozen_mid_dispatch_finishes_it_once(tmp_path: Path) -> None:
    """The hub is frozen (SIGSTOP) just after a client sends ``dispatch_job`` and thawed 3 s
    later. Whether the hub had read the call or not, the client's repeat with the same key ends
    with one job, which runs once."""
    c = Cluster(tmp_path)
    try:
        c.start_hub()
        c.start_worker()
        c.wait_up()
        request_id = _negotiate(c, "frozen-hub")
        hub = c.procs.procs["hub"]
        first: list[tuple[bool, Any]] = []
        caller = threading.Thread(target=lambda: first.append(_dispatch(c, request_id)))
        caller.start()
        time.sleep(0.05)  # the fault's moment: just after the call left (by design a race)
        hub.send_signal(signal.SIGSTOP)
        time.sleep(3.0)  # the fault's length: the hub stays frozen this long
        hub.send_signal(signal.SIGCONT)
        caller.join(60)
        ok, receipt = _retry(c, request_id, time.monotonic() + 60)
        assert ok, receipt
        if first and first[0][0]:
            assert first[0][1]["job_id"] == receipt["job_id"]
        wait_for(lambda: c.ran() == ["frozen-hub"], "the job to run", timeout_s=60)
        c.wait_settled()
        assert c.ran() == ["frozen-hub"]
        assert len(c.ledger_jobs(request_id)) == 1
    finally:
        c.procs.stop_all()
