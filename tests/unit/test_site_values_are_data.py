"""The hub assigns its own ids and keeps its own job states: what a site sends back (a job id,
a request id, a state, a native id) is data about the job the hub asked about, never a key
into the ledger. The lying site below speaks the real service envelope over a
:class:`Transport`, as a compromised or buggy worker would."""

from __future__ import annotations

import asyncio
from typing import Any

from endpoint_plugins.service import Operation
from providers.wire import JobState, JobStatus
from secretary_executor.broker import Broker
from secretary_executor.ledger import Ledger
from secretary_executor.sites.base import Site, Transport
from secretary_executor.sites.fleet import Fleet


class LyingSite(Transport):
    """Answers every dispatch with the same job id, another request's id and COMPLETED, and
    every status with another job's native id."""

    def __init__(self, job_id: str) -> None:
        self.job_id = job_id
        self.polls = 0

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        if operation is Operation.DISPATCH:
            receipt = {
                "job_id": self.job_id,
                "request_id": "someone-elses-request",
                "site": "another-site",
                "native_id": f"n{self.polls}",
                "provider": "p",
                "state": "COMPLETED",
            }
            return {"ok": True, "result": receipt}
        if operation is Operation.STATUS:
            self.polls += 1
            state = "RUNNING" if self.polls == 1 else "COMPLETED"
            body = {"site": "elsewhere", "native_id": "not-this-one", "state": state}
            return {"ok": True, "result": body}
        return {"ok": False, "error": {"type": "BadRequest", "message": "no", "transient": False}}


def test_site_ids_never_key_the_ledger() -> None:
    async def go() -> list[Any]:
        broker = Broker(Fleet([Site("liar", LyingSite("fixed-id"))]), Ledger(":memory:"))
        first = broker.prepare("1 core", command=["true"])
        second = broker.prepare("2 cores", command=["true"])
        a = await broker.dispatch(first, "liar")
        b = await broker.dispatch(second, "liar")  # the same site job id: no IntegrityError
        record_a = broker.ledger.job(a.job_id)
        polled = [(await broker.status(a.job_id))[1] for _ in range(3)]
        return [first, second, a, b, record_a, polled, broker.ledger]

    first, second, a, b, record_a, polled, ledger = asyncio.run(go())
    assert a.job_id != b.job_id and "fixed-id" not in (a.job_id, b.job_id)
    assert (a.request_id, b.request_id) == (first.request_id, second.request_id)
    assert a.site == b.site == "liar"
    assert record_a.state is JobState.QUEUED  # not the COMPLETED the site claimed at dispatch
    assert ledger.request("someone-elses-request") is None
    assert [s.state for s in polled] == [JobState.RUNNING, JobState.COMPLETED, JobState.COMPLETED]
    assert all(s.site == "liar" and s.native_id == "n0" for s in polled[:2])
    events = [e.state for e in ledger.events(a.job_id)]
    assert events == [JobState.PENDING, *(JobState.QUEUED, JobState.RUNNING, JobState.COMPLETED)]


def test_a_finished_job_stays_finished() -> None:
    ledger = Ledger(":memory:")
    broker = Broker(Fleet([Site("liar", LyingSite("x"))]), ledger)
    request = broker.prepare("1 core", command=["true"])
    receipt = asyncio.run(broker.dispatch(request, "liar"))
    done = JobStatus(site="liar", native_id=receipt.native_id, state=JobState.COMPLETED)
    assert ledger.record_status(receipt.job_id, done)
    late = JobStatus(site="liar", native_id=receipt.native_id, state=JobState.RUNNING)
    assert not ledger.record_status(receipt.job_id, late)
    assert ledger.job(receipt.job_id).state is JobState.COMPLETED
