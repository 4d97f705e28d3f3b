"""A dispatch whose estimate is above the ceiling waits for a person's yes, at every door.

The sites are the built-in demo fleet (its cloud site estimates $13.60 for 10 nodes over two
hours); the CLI runs as a subprocess without a terminal, as a script would run it.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from providers.wire import Proposal, Verdict
from providers.wire.proposal import Metrics
from secretary_executor.cost_guard import DEFAULT_MAX_COST_USD, ENV, max_cost_usd, over_ceiling
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.server import Hub

ROOT = Path(__file__).resolve().parents[2]


def _proposal(cost: float | None) -> Proposal:
    metrics = Metrics(estimated_cost_usd=cost)
    return Proposal(site="s", verdict=Verdict.READY, metrics=metrics)


def test_the_ceiling_in_force(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert max_cost_usd() == DEFAULT_MAX_COST_USD
    assert max_cost_usd(5) == 5
    monkeypatch.setenv(ENV, "12.5")
    assert max_cost_usd() == 12.5 and max_cost_usd(0) == 0
    for bad in ("lots", "nan"):
        monkeypatch.setenv(ENV, bad)
        with pytest.raises(ConfigurationError):
            max_cost_usd()
    with pytest.raises(ConfigurationError, match=">= 0"):
        max_cost_usd(-1)


@pytest.mark.parametrize(
    ("cost", "ceiling", "held"),
    [
        (None, 0, False),
        (0.0, 0, False),
        (99.99, 100, False),
        (100.0, 100, False),
        (100.01, 100, True),
        (1920.0, 100, True),
    ],
)
def test_only_an_estimate_above_the_ceiling_is_held(cost, ceiling, held) -> None:
    problem = over_ceiling(_proposal(cost), ceiling)
    assert (problem is not None) is held
    if held:
        assert f"{cost:,.2f}" in problem and "--max-cost" in problem


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(ENV, None)
    return subprocess.run(
        [sys.executable, "-m", "secretary_executor.cli.resource_ask", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def test_the_cli_refuses_without_a_terminal_and_dispatches_with_yes() -> None:
    ask = ["negotiate", "10 nodes for 2 hours", "--algorithm", "min-cost", "--json"]
    refused = _cli(*ask, "--max-cost", "1", "--", "hostname")
    assert refused.returncode == 1
    assert "above the ceiling of $1.00" in refused.stderr
    assert json.loads(refused.stdout)["receipt"] is None
    allowed = _cli(*ask, "--max-cost", "1", "--yes", "--", "hostname")
    assert allowed.returncode == 0, allowed.stderr
    assert json.loads(allowed.stdout)["receipt"]["job_id"]
    roomy = _cli(*ask, "--max-cost", "1000", "--", "hostname")
    assert roomy.returncode == 0 and json.loads(roomy.stdout)["receipt"]


def test_the_hub_refuses_a_dispatch_above_the_agents_ceiling() -> None:
    async def go() -> tuple[Any, Any]:
        hub = Hub(HubConfig.model_validate({"fleet": "demo", "ledger": ":memory:"}))
        async with Client(hub.mcp) as c:
            r = await c.call_tool(
                "negotiate_job",
                {
                    "text": "10 nodes for 2 hours",
                    "command": ["hostname"],
                    "policy": {"algorithm": "min-cost"},
                },
            )
            rid = r.structured_content["request_id"]
            held = await c.call_tool("dispatch_job", {"request_id": rid, "max_cost_usd": 1})
            ok = await c.call_tool("dispatch_job", {"request_id": rid, "max_cost_usd": 1000})
        await hub.broker.close()
        return held, ok

    held, ok = asyncio.run(go())
    assert held.is_error and "not dispatched" in held.content[0].text
    assert "above the ceiling of $1.00" in held.content[0].text
    assert not ok.is_error and ok.structured_content["job_id"]
