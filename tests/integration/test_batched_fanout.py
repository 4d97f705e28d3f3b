"""The hub asks the sites of one worker in ONE ``ask_secretaries`` call, over real MCP.

An in-process hub and one real ``secretary serve worker`` process on loopback
(:class:`~secretary_executor.simulation.mcp_fleet.LoopbackFederation`). The worker serves three
simulated sites and one real site whose Slurm client hangs (a ``sinfo`` on PATH that waits for
a file the test writes at the end), so that site's negotiation blocks in its own thread. The
worker logs one line per negotiate call it answers (``--verbose``); the tests count them there.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from providers.wire import Proposal, Requirements, Verdict
from secretary_executor.simulation.mcp_fleet import LoopbackFederation, write_shares
from secretary_executor.sites.fleet import demo_state_files

SIMULATED = ["sim-a", "sim-b", "sim-c"]
SITE_TIMEOUT_S = 3.0
REQUIREMENTS = Requirements.model_validate({"compute": {"cores_per_node": 8}})


@pytest.fixture
def worker_sites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    demos = [yaml.safe_load(p.read_text()) for p in demo_state_files()]
    documents = []
    for i, name in enumerate(SIMULATED):
        doc = dict(demos[i % len(demos)])
        doc["site"] = {**doc["site"], "name": name}
        documents.append((name, yaml.safe_dump(doc)))
    documents.append(("hung", "name: hung\nkind: local\nproviders: {enabled: [slurm]}\n"))
    folder = write_shares(documents, tmp_path / "sites", 1)[0]
    release = tmp_path / "release"
    bindir = tmp_path / "bin"
    bindir.mkdir()
    sinfo = bindir / "sinfo"
    # Waits for the test to end (at most 60 s; the provider's own command timeout is shorter).
    sinfo.write_text(
        f'#!/bin/sh\ni=0\nwhile [ ! -e "{release}" ] && [ $i -lt 600 ]; do sleep 0.1; '
        "i=$((i+1)); done\nexit 1\n"
    )
    sinfo.chmod(sinfo.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    try:
        yield folder
    finally:
        release.touch()


def comparable(p: Proposal) -> Any:
    """The proposal without its timings (how long it, or one of its tool calls, took)."""
    return _untimed(p.model_dump(mode="json", exclude={"created_at"}))


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k != "elapsed_s"}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def calls_logged(log: Path) -> tuple[list[str], int]:
    lines = log.read_text(errors="replace").splitlines()
    batches = [line for line in lines if "ask_secretaries: answered" in line]
    singles = sum("ask_secretary: site" in line for line in lines)
    return batches, singles


def test_one_call_for_all_sites_of_a_worker_and_a_hung_site_is_unreachable(
    worker_sites: Path, tmp_path: Path
) -> None:
    async def go() -> tuple[list[Proposal], list[Proposal], Path]:
        async with LoopbackFederation(
            [worker_sites],
            workdir=tmp_path / "logs",
            site_timeout_s=SITE_TIMEOUT_S,
            prefix="batch",
            verbose=True,
        ) as fed:
            batched = await fed.fleet.negotiate(REQUIREMENTS, request_id="batched")
            log = fed.workers[0].log_path
            # The per-site path, one ask_secretary call per site, for comparison.
            per_site = [
                await site.negotiate(REQUIREMENTS, request_id="batched") for site in fed.fleet.sites
            ]
            return batched, per_site, log

    batched, per_site, log = asyncio.run(go())
    by_site = {p.site: p for p in batched}
    assert set(by_site) == {*SIMULATED, "hung"}
    assert by_site["hung"].verdict is Verdict.UNREACHABLE
    assert (
        by_site["hung"].reason
        == f"site 'hung' did not answer negotiate within {SITE_TIMEOUT_S:g} s"
    )
    for name in SIMULATED:
        assert by_site[name].verdict is not Verdict.UNREACHABLE, by_site[name].reason
    batches, singles = calls_logged(log)
    assert batches == [batches[0]] and "answered 4 site(s)" in batches[0], batches
    assert singles == 4  # only the per-site comparison's calls
    expected = {p.site: comparable(p) for p in per_site}
    assert {p.site: comparable(p) for p in batched} == expected
