"""A dispatch is written to the ledger before it is sent, and sending it again never runs it twice.

The sites are real Secretaries over a demo site's state (its simulated Slurm accepts jobs), with
the real service envelope and key memory. What fails is the wire between hub and site: a
transport that loses the reply after the site answered, or the request before the site saw
it, which is what a killed hub, a dropped connection or a timeout look like to each side.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from counting_site import CountingSecretary

from endpoint_plugins.dispatch_keys import DispatchMemory
from endpoint_plugins.errors import DispatchUnsettledError as SiteUnsettled
from endpoint_plugins.secretary import DispatchPlan, Secretary
from endpoint_plugins.service import Operation, handle
from providers.wire import JobRequest, JobState
from secretary_executor.broker import Broker
from secretary_executor.errors import (
    ConfigurationError,
    DispatchError,
    DispatchUnsettledError,
    DispatchWithdrawnError,
)
from secretary_executor.ledger import Ledger
from secretary_executor.sites.base import Site, Transport
from secretary_executor.sites.fleet import Fleet
from secretary_executor.sites.inprocess import InProcessTransport

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "secretary_executor/fleets/demo/hpc-campus.yaml"


class FlakyWire(Transport):
    """Carries envelopes to a real site; ``lose`` says what the next dispatches lose.

    "reply": the site acts, the hub never hears. "request": the site never hears.
    """

    def __init__(self, secretary: Secretary) -> None:
        self.inner = InProcessTransport(secretary, threaded=False)
        self.lose: list[str] = []
        self.seen_by_site: list[dict[str, Any]] = []
        self.before_send: list[Any] = []

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        if operation is Operation.DISPATCH:
            for check in self.before_send:
                check(payload)
            fault = self.lose.pop(0) if self.lose else None
            if fault == "request":
                raise ConnectionResetError("connection reset before the request was sent")
            self.seen_by_site.append(payload)
            envelope = await self.inner.call(operation, payload)
            if fault == "reply":
                raise ConnectionResetError("connection reset while reading the reply")
            return envelope
        return await self.inner.call(operation, payload)


def _setup(
    tmp_path: Path, ledger: Ledger | None = None
) -> tuple[Broker, CountingSecretary, FlakyWire]:
    secretary = CountingSecretary("campus", tmp_path / "campus-keys.sqlite3")
    wire = FlakyWire(secretary)
    broker = Broker(Fleet([Site("campus", wire, timeout_s=10)]), ledger or Ledger(":memory:"))
    return broker, secretary, wire


def _request(broker: Broker) -> JobRequest:
    return broker.prepare("4 cores for an hour", command=["hostname"])


def test_the_row_exists_before_the_site_is_asked(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    broker, secretary, wire = _setup(tmp_path, Ledger(path))
    request = _request(broker)
    seen: list[tuple[str, str]] = []

    def look(payload: dict[str, Any]) -> None:  # another process reading the ledger file
        with sqlite3.connect(path) as db:
            seen.extend(db.execute("SELECT request_id, state FROM jobs").fetchall())

    wire.before_send.append(look)
    receipt = asyncio.run(broker.dispatch(request, "campus"))
    assert seen == [(request.request_id, "PENDING")]
    assert broker.ledger.job(receipt.job_id).state is JobState.QUEUED
    assert secretary.submitted == [receipt.native_id]


def test_a_lost_reply_stays_pending_and_status_settles_it_without_a_second_job(
    tmp_path: Path,
) -> None:
    broker, secretary, wire = _setup(tmp_path)
    request = _request(broker)
    wire.lose.append("reply")
    with pytest.raises(DispatchUnsettledError, match="stays PENDING"):
        asyncio.run(broker.dispatch(request, "campus"))
    [job] = broker.ledger.jobs()
    assert job.state is JobState.PENDING and job.native_id == ""
    assert len(secretary.submitted) == 1  # it did run there

    record, status = asyncio.run(broker.status(job.job_id))
    assert record.native_id == secretary.submitted[0]
    assert record.state is not JobState.PENDING
    assert len(secretary.submitted) == 1


def test_a_repeat_with_the_same_key_returns_the_first_job(tmp_path: Path) -> None:
    broker, secretary, wire = _setup(tmp_path)
    request = _request(broker)
    wire.lose.append("reply")
    with pytest.raises(DispatchUnsettledError):
        asyncio.run(broker.dispatch(request, "campus", key="client-retry-0001"))
    again = asyncio.run(broker.dispatch(request, "campus", key="client-retry-0001"))
    third = asyncio.run(broker.dispatch(request, "campus", key="client-retry-0001"))
    assert again == third
    assert again.native_id == secretary.submitted[0]
    assert len(secretary.submitted) == 1
    assert len(broker.ledger.jobs()) == 1


def test_different_dispatches_are_different_jobs(tmp_path: Path) -> None:
    broker, secretary, _ = _setup(tmp_path)
    request = _request(broker)
    first = asyncio.run(broker.dispatch(request, "campus"))
    second = asyncio.run(broker.dispatch(request, "campus"))
    assert first.job_id != second.job_id
    assert len(secretary.submitted) == 2


def test_a_hub_restart_settles_what_it_left_pending(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    broker, secretary, wire = _setup(tmp_path, Ledger(path))
    request = _request(broker)
    wire.lose.extend(["reply", "reply"])
    for _ in range(2):
        with pytest.raises(DispatchUnsettledError):
            asyncio.run(broker.dispatch(request, "campus"))
    broker.ledger.close()

    # A new hub process: new ledger handle, new Secretary object over the same key file.
    restarted, secretary2, _ = _setup(tmp_path, Ledger(path))
    settled = asyncio.run(restarted.settle_pending())
    assert sorted(r.native_id for r in settled) == sorted(secretary.submitted)
    assert all(r.state is JobState.QUEUED for r in settled)
    assert secretary2.submitted == []
    assert restarted.ledger.pending() == []


def test_a_dispatch_that_never_arrived_is_withdrawn_and_cannot_run_late(tmp_path: Path) -> None:
    broker, secretary, wire = _setup(tmp_path)
    request = _request(broker)
    wire.lose.append("request")
    with pytest.raises(DispatchUnsettledError):
        asyncio.run(broker.dispatch(request, "campus"))
    [job] = broker.ledger.jobs()
    record, status = asyncio.run(broker.status(job.job_id))
    assert record.state is JobState.FAILED
    assert "never received" in broker.ledger.events(job.job_id)[-1].message
    # The original request, delayed in the network, arrives after all: it must not run.
    plan = DispatchPlan(idempotency_key=f"job:{job.job_id}")
    late = handle(
        secretary,
        "dispatch",
        {"request": request.model_dump(mode="json"), "plan": plan.model_dump(mode="json")},
    )
    assert late["ok"] is False and late["error"]["type"] == "DispatchWithdrawnError"
    assert secretary.submitted == []
    # The person dispatches again: a new job, which runs.
    receipt = asyncio.run(broker.dispatch(request, "campus"))
    assert secretary.submitted == [receipt.native_id]


def test_a_withdrawn_key_is_refused_when_reused(tmp_path: Path) -> None:
    broker, _, wire = _setup(tmp_path)
    request = _request(broker)
    wire.lose.append("request")
    with pytest.raises(DispatchUnsettledError):
        asyncio.run(broker.dispatch(request, "campus", key="agent-key-77"))
    asyncio.run(broker.settle_pending())
    with pytest.raises(DispatchWithdrawnError, match="use a new key"):
        asyncio.run(broker.dispatch(request, "campus", key="agent-key-77"))


def test_a_refused_dispatch_leaves_no_job_and_frees_its_key(tmp_path: Path) -> None:
    broker, secretary, _ = _setup(tmp_path)
    nothing = broker.prepare("4 cores")  # no command: the site refuses outright
    with pytest.raises(DispatchError, match="nothing to run"):
        asyncio.run(broker.dispatch(nothing, "campus", key="fix-and-retry"))
    assert broker.ledger.jobs() == []
    fixed = nothing.model_copy(update={"command": ("hostname",)})
    receipt = asyncio.run(broker.dispatch(fixed, "campus", key="fix-and-retry"))
    assert secretary.submitted == [receipt.native_id]


def test_cancel_of_a_pending_job_settles_it_first(tmp_path: Path) -> None:
    broker, secretary, wire = _setup(tmp_path)
    wire.lose.append("reply")
    with pytest.raises(DispatchUnsettledError):
        asyncio.run(broker.dispatch(_request(broker), "campus"))
    [job] = broker.ledger.jobs()
    status = asyncio.run(broker.cancel(job.job_id))
    assert status.native_id == secretary.submitted[0]
    assert status.state is JobState.CANCELLED


@pytest.mark.parametrize(
    "key", ["short", "has space here", "semi;colon;key", "x" * 129, "nl\nkey123"]
)
def test_a_malformed_key_is_refused_before_anything_is_written(tmp_path: Path, key: str) -> None:
    broker, secretary, _ = _setup(tmp_path)
    with pytest.raises(ConfigurationError, match="bad dispatch key"):
        asyncio.run(broker.dispatch(_request(broker), "campus", key=key))
    assert broker.ledger.jobs() == [] and secretary.submitted == []


def test_a_site_submits_one_job_for_a_key_sent_by_many_threads(tmp_path: Path) -> None:
    secretary = CountingSecretary("campus", tmp_path / "keys.sqlite3")
    request = JobRequest(text="", command=("hostname",))
    plan = DispatchPlan(idempotency_key="same-key-everywhere")
    answers: list[dict[str, Any]] = []
    start = threading.Barrier(8)

    def send() -> None:
        start.wait()
        payload = {"request": request.model_dump(mode="json"), "plan": plan.model_dump(mode="json")}
        answers.append(handle(secretary, "dispatch", payload))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(secretary.submitted) == 1
    for answer in answers:  # the first receipt, or "still being submitted: ask again"
        if answer["ok"]:
            assert answer["result"]["native_id"] == secretary.submitted[0]
        else:
            assert answer["error"]["type"] == "DispatchUnsettledError"
            assert answer["error"]["transient"] is True


def test_a_claim_left_by_a_dead_process_is_reported_unknown_not_resubmitted(
    tmp_path: Path,
) -> None:
    keys = tmp_path / "keys.sqlite3"
    with DispatchMemory(keys) as memory:
        assert memory.claim("crashed-mid-submit", "secretary-r1") is None
    with sqlite3.connect(keys) as db:  # the claimant was a process that has since died
        dead = max(int(p) for p in os.listdir("/proc") if p.isdigit()) + 10_000
        db.execute("UPDATE dispatches SET pid = ?", (dead,))
    with DispatchMemory(keys) as memory, pytest.raises(SiteUnsettled) as info:
        memory.claim("crashed-mid-submit", "secretary-r1")
    assert "secretary-r1" in info.value.message and not info.value.transient


def test_a_negotiation_survives_a_hub_restart(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    broker, _, _ = _setup(tmp_path, Ledger(path))
    result = asyncio.run(broker.negotiate(_request(broker)))
    broker.ledger.close()
    restarted, secretary, _ = _setup(tmp_path, Ledger(path))
    recalled = restarted.recall(result.request.request_id)
    assert recalled is not None
    assert [p.verdict for p in recalled.proposals] == [p.verdict for p in result.proposals]
    proposal = recalled.proposal("campus")
    receipt = asyncio.run(restarted.dispatch(recalled.request, "campus", proposal))
    assert secretary.submitted == [receipt.native_id]
    assert restarted.recall("no-such-request") is None
