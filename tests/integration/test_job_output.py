"""A job's output, read back from wherever it ran: the local machine, Slurm, or (honestly
absent) a simulated site; through the Broker, the ``resource-ask logs`` command and the hub's
``job_output`` tool. The jobs really run and print; nothing of the path is faked."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import need_service
from mcp import Client

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from providers.state import load_state, providers_from_state
from providers.wire import JobState
from providers.workload.slurm import SlurmProvider
from secretary_executor.broker import Broker
from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.server import Hub
from secretary_executor.ledger import Ledger
from secretary_executor.sites.base import Site
from secretary_executor.sites.fleet import Fleet, demo_state_files
from secretary_executor.sites.inprocess import InProcessTransport

ROOT = Path(__file__).resolve().parents[2]
PRINTS = [
    sys.executable,
    "-c",
    "import sys; print('out: ' + 'x' * 300); print('err: half done', file=sys.stderr)",
]


def _broker(*secretaries: Secretary) -> Broker:
    sites = [Site(s.name, InProcessTransport(s), timeout_s=60) for s in secretaries]
    return Broker(Fleet(sites), Ledger(":memory:"))


def _run(broker: Broker, site: str, final: JobState = JobState.COMPLETED) -> str:
    async def go() -> str:
        request = broker.prepare("1 core for 5 minutes", command=PRINTS)
        receipt = await broker.dispatch(request, site)
        status = await broker.wait(receipt.job_id, timeout_s=120)
        assert status.state is final, status
        return receipt.job_id

    return asyncio.run(go())


def test_output_of_a_job_on_this_machine() -> None:
    here = SiteConfig(name="here", kind="local", providers={"enabled": ["local", "cpu", "memory"]})
    broker = _broker(Secretary(here))
    job = _run(broker, "here")
    whole = asyncio.run(broker.output(job))
    assert whole.available and not whole.truncated
    assert whole.stdout.strip() == "out: " + "x" * 300
    assert whole.stderr.strip() == "err: half done"
    tail = asyncio.run(broker.output(job, max_bytes=20))
    assert tail.truncated and tail.stdout == "x" * 19 + "\n"


def test_output_of_a_slurm_job() -> None:
    need_service(SlurmProvider().available, "no Slurm cluster here (run scripts/hpc/slurm-up.sh)")
    cluster = SiteConfig(name="cluster", providers={"enabled": ["slurm", "cpu", "memory"]})
    broker = _broker(Secretary(cluster))
    job = _run(broker, "cluster")
    output = asyncio.run(broker.output(job))
    assert output.available and "out: xxx" in output.stdout and "half done" in output.stderr


def test_a_simulated_site_says_no_command_ran() -> None:
    state = load_state(demo_state_files()[0])
    sim = Secretary(SiteConfig(name="sim"), providers=providers_from_state(state))
    broker = _broker(sim)
    job = _run(broker, "sim", JobState.SIMULATED)  # never COMPLETED: nothing ran
    output = asyncio.run(broker.output(job))
    assert not output.available and "no command was run" in output.note


def test_resource_ask_logs_prints_what_the_job_printed(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "secretary_executor.cli.resource_ask", *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            stdin=subprocess.DEVNULL,
        )

    done = cli("dispatch", "local", "1 core for 5 minutes", "--wait", "--json", "--", *PRINTS)
    assert done.returncode == 0, done.stderr
    job = json.loads(done.stdout)["receipt"]["job_id"]
    logs = cli("logs", job)
    assert logs.returncode == 0, logs.stderr
    assert ("out: " + "x" * 300) in logs.stdout.splitlines()  # verbatim, never re-wrapped
    assert "err: half done" in logs.stdout.splitlines()
    assert cli("logs", job, "--bytes", "0").returncode == 2
    assert cli("logs", "no-such-job").returncode == 2


def test_the_hub_job_output_tool() -> None:
    async def go() -> Any:
        hub = Hub(HubConfig.model_validate({"fleet": "demo", "ledger": ":memory:"}))
        async with Client(hub.mcp) as c:
            r = await c.call_tool(
                "negotiate_job",
                {"text": "1 core for 5 minutes", "command": PRINTS, "sites": ["local"]},
            )
            rid = r.structured_content["request_id"]
            r = await c.call_tool("dispatch_job", {"request_id": rid, "site": "local"})
            job = r.structured_content["job_id"]
            await hub.broker.wait(job, timeout_s=120)
            out = await c.call_tool("job_output", {"job_id": job, "max_bytes": 100})
            res = await c.read_resource(f"jobs://{job}/output")
        await hub.broker.close()
        return out, res

    out, res = asyncio.run(go())
    assert not out.is_error, out.content[0].text
    assert out.structured_content["available"] and "half done" in out.structured_content["stderr"]
    assert "half done" in json.loads(res.contents[0].text)["stderr"]


@pytest.mark.parametrize("max_bytes", [0, 2_000_000])
def test_a_bad_size_is_refused(max_bytes: int) -> None:
    here = SiteConfig(name="here", kind="local", providers={"enabled": ["local", "cpu", "memory"]})
    secretary = Secretary(here)
    from endpoint_plugins.service import handle

    envelope = handle(
        secretary, "output", {"native_id": "local-000000000000", "max_bytes": max_bytes}
    )
    assert envelope["ok"] is False and envelope["error"]["type"] == "BadRequest"
