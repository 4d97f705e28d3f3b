"""A fan-out tells each site's proposal as it arrives, in every mode, DOWN sites first.

The fleet is the demo fleet's simulated sites, in process; the loopback HTTP path with
worker processes and the official client's progress callback is in
tests/integration/test_mcp_progress.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from mcp import Client

from providers.wire import Proposal, Requirements, Verdict
from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.fanout import FanOut, FederatedFleet
from secretary_executor.hub.server import Hub
from secretary_executor.sites.fleet import load_fleet

DOWN = "hpc-legacy"
REQUIREMENTS = Requirements.model_validate({"compute": {"cores_per_node": 4}})


@pytest.mark.parametrize("mode", ["concurrent", "serial", "batched"])
def test_each_site_is_told_once_and_down_sites_first(mode: str) -> None:
    async def go() -> tuple[list[list[Proposal]], list[Proposal]]:
        sites = load_fleet("demo").sites
        fleet = FederatedFleet(
            sites, fanout=FanOut(mode=mode, batch_size=2), is_down=lambda n: n == DOWN
        )
        told: list[list[Proposal]] = []

        async def on_answer(proposals: Sequence[Proposal]) -> None:
            told.append(list(proposals))

        try:
            result = await fleet.negotiate(REQUIREMENTS, request_id="r1", on_answer=on_answer)
        finally:
            await fleet.close()
        return told, result

    told, result = asyncio.run(go())
    assert [p.site for p in told[0]] == [DOWN] and told[0][0].verdict is Verdict.UNREACHABLE
    flat = {p.site: p for group in told for p in group}
    assert sum(len(g) for g in told) == len(flat) == len(result)
    assert flat == {p.site: p for p in result}


def test_negotiate_job_reports_progress_in_process() -> None:
    """The in-process client (no HTTP) gets the same reports: one per site, up to the total."""
    sites = ["cloud-gpu", "hpc-campus", "edge-jetson"]

    async def go() -> tuple[Any, list[tuple[float, float | None, str | None]]]:
        hub = Hub(
            HubConfig.model_validate(
                {"fleet": "demo", "ledger": ":memory:", "fanout": {"mode": "serial"}}
            )
        )
        reports: list[tuple[float, float | None, str | None]] = []

        async def on_progress(done: float, total: float | None, message: str | None) -> None:
            reports.append((done, total, message))

        try:
            async with Client(hub.mcp) as c:
                r = await c.call_tool(
                    "negotiate_job",
                    {"text": "2 cores", "sites": sites},
                    progress_callback=on_progress,
                )
        finally:
            await hub.broker.close()
        return r, reports

    result, reports = asyncio.run(go())
    assert not result.is_error, result.content[0].text
    assert [(d, t) for d, t, _ in reports] == [(1, 3), (2, 3), (3, 3)]
    for i, (site, (_, _, message)) in enumerate(zip(sites, reports, strict=True), start=1):
        assert message is not None and message.startswith(f"{i}/3 sites answered ({site} ")
