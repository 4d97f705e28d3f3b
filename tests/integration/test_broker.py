"""The hub's flow in-process: fan-out with timeouts, selection, dispatch with failover."""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

import pytest

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from endpoint_plugins.service import Operation, error_envelope
from providers.wire import JobState, Verdict
from secretary_executor.broker import Broker
from secretary_executor.errors import DispatchError
from secretary_executor.ledger import Ledger
from secretary_executor.sites import Fleet, InProcessTransport, Site, Transport
from secretary_executor.sites.fleet import demo_fleet, demo_state_files


class HangingTransport(Transport):
    """A site that never answers (a hung worker)."""

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


class RefusingTransport(InProcessTransport):
    """A real site whose workload manager fails every submission (transiently)."""

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        if operation is Operation.DISPATCH:
            return error_envelope("SiteDispatchError", "sbatch: socket timed out", transient=True)
        return await super().call(operation, payload)


def _state_site(name: str, stem: str, transport_cls: type[InProcessTransport] = InProcessTransport):
    path = next(p for p in demo_state_files() if p.stem == stem)
    secretary = Secretary(SiteConfig(name=name, state_file=str(path)))
    return Site(name, transport_cls(secretary, threaded=False))


def test_hung_site_becomes_unreachable_without_holding_up_the_others(tmp_path):
    fleet = Fleet(
        [
            _state_site("cloud", "cloud-k8s"),
            Site("hung", HangingTransport(), timeout_s=0.5),
            _state_site("edge", "edge-jetson"),
        ]
    )
    broker = Broker(fleet, Ledger(tmp_path / "l.db"))
    request = broker.prepare("python >= 3.8 on 1 node")
    start = time.monotonic()
    result = asyncio.run(broker.negotiate(request))
    assert time.monotonic() - start < 5
    verdicts = {p.site: p.verdict for p in result.proposals}
    assert verdicts["hung"] is Verdict.UNREACHABLE
    assert verdicts["cloud"] is Verdict.READY and verdicts["edge"] is Verdict.READY
    assert "did not answer" in result.proposal("hung").reason
    assert [p.site for p in broker.ledger.proposals(request.request_id)] == [
        "cloud",
        "hung",
        "edge",
    ]


def test_failover_to_the_next_ranked_site(tmp_path):
    fleet = Fleet(
        [
            _state_site("cheap-but-broken", "edge-jetson", RefusingTransport),
            _state_site("cloud", "cloud-k8s"),
        ]
    )
    broker = Broker(fleet, Ledger(tmp_path / "l.db"))
    request = broker.prepare("python >= 3.8 on 1 node", command=["true"])
    result, outcome, receipt = asyncio.run(broker.submit(request, algorithm="min-cost"))
    assert outcome.chosen is not None and outcome.chosen.site == "cheap-but-broken"
    assert receipt.site == "cloud"
    attempts = broker.ledger.attempts(request.request_id)
    assert [(s, ok) for s, ok, _ in attempts] == [("cheap-but-broken", False), ("cloud", True)]
    assert "socket timed out" in attempts[0][2]


def test_every_site_refusing_is_an_error(tmp_path):
    fleet = Fleet([_state_site("a", "edge-jetson", RefusingTransport)])
    broker = Broker(fleet, Ledger(tmp_path / "l.db"))
    request = broker.prepare("python >= 3.8 on 1 node", command=["true"])
    with pytest.raises(DispatchError, match="every ranked site refused"):
        asyncio.run(broker.submit(request))


def test_local_job_runs_and_is_followed_to_the_end(tmp_path):
    broker = Broker(demo_fleet(), Ledger(tmp_path / "l.db"))

    async def flow():
        request = broker.prepare(
            "python >= 3.8 on 1 node", command=[sys.executable, "-c", "print(6 * 7)"]
        )
        result = await broker.negotiate(request)
        local = result.proposal("local")
        assert local is not None and local.verdict is Verdict.READY
        receipt = await broker.dispatch(result.request, "local", local)
        status = await broker.wait(receipt.job_id, timeout_s=60)
        return receipt, status

    receipt, status = asyncio.run(flow())
    assert status.state is JobState.COMPLETED and status.exit_code == 0
    # A new broker over the same ledger (a restart) still knows the job.
    again = Broker(demo_fleet(), Ledger(tmp_path / "l.db"))
    record, _ = asyncio.run(again.status(receipt.job_id))
    assert record.state is JobState.COMPLETED


def test_cancel_a_running_local_job(tmp_path):
    broker = Broker(demo_fleet(), Ledger(tmp_path / "l.db"))

    async def flow():
        request = broker.prepare(
            "1 node", command=[sys.executable, "-c", "import time; time.sleep(60)"]
        )
        receipt = await broker.dispatch(request, "local")
        cancelled = await broker.cancel(receipt.job_id)
        return receipt, cancelled

    receipt, cancelled = asyncio.run(flow())
    assert cancelled.state is JobState.CANCELLED
    assert broker.ledger.job(receipt.job_id).state is JobState.CANCELLED
