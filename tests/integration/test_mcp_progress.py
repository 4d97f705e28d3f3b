"""``negotiate_job`` reports progress as site answers arrive, to a client that asks for it.

A real hub serves streamable HTTP on loopback with bearer auth, and two real ``secretary serve
worker`` processes serve the six simulated sites of the demo fleet, three each
(:class:`~secretary_executor.simulation.mcp_fleet.LoopbackFederation`). The client is the
official ``mcp`` client, whose ``progress_callback`` sends a progress token with the call.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx2
import yaml
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from secretary_executor.hub.fanout import FanOut
from secretary_executor.simulation.mcp_fleet import LoopbackFederation, write_shares
from secretary_executor.sites.fleet import demo_state_files

Report = tuple[float, float | None, str | None]


def _demo_sites(folder: Path) -> tuple[list[Path], list[str]]:
    documents = []
    for path in demo_state_files():
        name = yaml.safe_load(path.read_text())["site"]["name"]
        documents.append((name, path.read_text()))
    return write_shares(documents, folder, 2), sorted(n for n, _ in documents)


async def _negotiate(fed: LoopbackFederation, progress: bool) -> tuple[Any, list[Report]]:
    assert fed.hub is not None and fed.hub.config.token_file is not None
    token = Path(fed.hub.config.token_file).read_text().strip()
    reports: list[Report] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        reports.append((done, total, message))

    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(fed.hub.config.url, http_client=http)) as c,
    ):
        result = await c.call_tool(
            "negotiate_job",
            {"text": "4 cores for 1 hour"},
            progress_callback=on_progress if progress else None,
        )
    return result, reports


def test_progress_rises_to_the_number_of_sites(tmp_path: Path) -> None:
    dirs, names = _demo_sites(tmp_path / "sites")

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with LoopbackFederation(dirs, workdir=tmp_path / "logs", prefix="prog") as fed:
            assert fed.hub is not None
            # Concurrent (the default): each worker answers its three sites in one call.
            out["grouped"] = await _negotiate(fed, progress=True)
            # Serial: one call per site, so one report per site.
            fed.hub.fleet.fanout = FanOut(mode="serial")
            out["serial"] = await _negotiate(fed, progress=True)
            out["silent"] = await _negotiate(fed, progress=False)
        return out

    out = asyncio.run(go())
    total = len(names)
    for mode in ("grouped", "serial"):
        result, reports = out[mode]
        assert not result.is_error, result.content[0].text
        sites = sorted(p["site"] for p in result.structured_content["proposals"])
        assert sites == names
        assert reports, f"{mode}: no progress was reported"
        done = [r[0] for r in reports]
        assert done == sorted(set(done)), f"{mode}: progress did not only grow: {done}"
        assert done[-1] == total and all(r[1] == total for r in reports), reports
        # Every site is named once, with its verdict, in the reports' messages.
        said = " ".join(r[2] or "" for r in reports)
        for p in result.structured_content["proposals"]:
            assert said.count(f"{p['site']} {p['verdict']}") == 1, (p["site"], said)
    assert [r[0] for r in out["serial"][1]] == list(range(1, total + 1))
    assert len(out["grouped"][1]) < total  # a worker's group arrives as one report
    silent, reports = out["silent"]
    assert not silent.is_error and not reports
