"""Negotiation fan-out latency: over MCP on loopback versus in-process, in the same run.

For each size N, N simulated sites (copies of the demo fleet's state files under distinct
names) are served twice: in this process (``InProcessTransport``), and by one worker process
(``secretary serve worker --site-dir``) registered with a hub running in this process, whose
fleet reaches them with ``McpTransport``. Each negotiation asks all N sites with the same
fan-out policy; the table reports p50 and p95 per mode and the MCP / in-process ratio.

    .venv/bin/python bench/fanout.py                 # 10, 100, 500 sites
    .venv/bin/python bench/fanout.py --sizes 10,100  # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from endpoint_plugins.config import SiteConfig  # noqa: E402
from endpoint_plugins.secretary import Secretary  # noqa: E402
from providers.wire import Requirements  # noqa: E402
from secretary_executor.hub.config import HubConfig  # noqa: E402
from secretary_executor.hub.fanout import FanOut, FederatedFleet  # noqa: E402
from secretary_executor.hub.server import Hub  # noqa: E402
from secretary_executor.sites import InProcessTransport, Site  # noqa: E402
from secretary_executor.sites.fleet import demo_state_files  # noqa: E402

console = Console()
REQUIREMENTS = Requirements.model_validate({"compute": {"cores_per_node": 8}})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_sites(folder: Path, n: int) -> list[Path]:
    """N state files named sim-0000 ... cycling through the demo sites."""
    demos = [yaml.safe_load(p.read_text()) for p in demo_state_files()]
    paths = []
    for i in range(n):
        doc = dict(demos[i % len(demos)])
        doc["site"] = {**doc["site"], "name": f"sim-{i:04d}"}
        path = folder / f"sim-{i:04d}.yaml"
        path.write_text(yaml.safe_dump(doc))
        paths.append(path)
    return paths


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


async def timed(fleet: FederatedFleet, repeats: int) -> list[float]:
    await fleet.negotiate(REQUIREMENTS, request_id="warm-up")
    out = []
    for i in range(repeats):
        start = time.perf_counter()
        proposals = await fleet.negotiate(REQUIREMENTS, request_id=f"r{i}")
        out.append(time.perf_counter() - start)
        bad = [p.site for p in proposals if p.verdict.value == "UNREACHABLE"]
        if bad:
            raise SystemExit(f"{len(bad)} site(s) unreachable during the benchmark: {bad[:3]}")
    return out


async def measure(n: int, repeats: int, fanout: FanOut, folder: Path) -> dict[str, list[float]]:
    sites_dir = folder / f"sites-{n}"
    sites_dir.mkdir()
    paths = write_sites(sites_dir, n)
    local = FederatedFleet(
        [
            Site(
                p.stem,
                InProcessTransport(
                    Secretary(SiteConfig(name=p.stem, state_file=str(p))), threaded=False
                ),
            )
            for p in paths
        ],
        fanout=fanout,
    )
    results = {"in-process": await timed(local, repeats)}

    tokens, join = folder / f"tokens-{n}.txt", folder / f"join-{n}.txt"
    tokens.write_text(secrets.token_urlsafe(32))
    join.write_text(secrets.token_urlsafe(32))
    config = HubConfig(
        port=free_port(),
        token_file=str(tokens),
        join_token_file=str(join),
        heartbeat_s=5,
        site_timeout_s=60,
        fanout=fanout,
        ledger=":memory:",
    )
    hub = Hub(config)
    serving = asyncio.create_task(hub.serve_http())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
        [
            sys.executable,
            "-m",
            "secretary_executor.cli.secretary",
            "serve",
            "worker",
            "--site-dir",
            str(sites_dir),
            "--join",
            config.url,
            "--join-token-file",
            str(join),
            "--name",
            f"bench-{n}",
            "--port",
            str(free_port()),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while len(hub.fleet.sites) < n:
            if time.monotonic() > deadline or worker.poll() is not None:
                raise SystemExit(f"the worker did not register {n} sites in time")
            await asyncio.sleep(0.1)
        results["mcp"] = await timed(hub.fleet, repeats)
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=5)
        hub.request_stop()
        await asyncio.wait_for(serving, 30)
        await hub.broker.close()
        await local.close()
    return results


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,100,500")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--mode", choices=("concurrent", "serial", "batched"), default="concurrent")
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    logging.getLogger("mcp").setLevel(logging.ERROR)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    fanout = FanOut(mode=args.mode, concurrency=args.concurrency)
    table = Table(title=f"Negotiation fan-out ({args.mode}, concurrency {args.concurrency})")
    for col in (
        "sites",
        "in-process p50",
        "in-process p95",
        "MCP p50",
        "MCP p95",
        "MCP / in-process (p50)",
    ):
        table.add_column(col, justify="right")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            console.print(f"measuring {n} sites ...")
            r = await measure(n, args.repeats, fanout, Path(tmp))
            lp50, lp95 = percentiles(r["in-process"])
            mp50, mp95 = percentiles(r["mcp"])
            table.add_row(
                str(n),
                f"{lp50 * 1e3:.1f} ms",
                f"{lp95 * 1e3:.1f} ms",
                f"{mp50 * 1e3:.1f} ms",
                f"{mp95 * 1e3:.1f} ms",
                f"{mp50 / lp50:.1f}x",
            )
    console.print(table)


if __name__ == "__main__":
    asyncio.run(main())
