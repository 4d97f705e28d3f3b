"""Negotiation fan-out latency: over MCP on loopback versus in-process, in the same run.

For each size N, N simulated sites (copies of the demo fleet's state files under distinct
names) are served twice: in this process (``InProcessTransport``), and by one worker process
(``secretary serve worker --site-dir``) registered with a hub running in this process, whose
fleet reaches them with ``McpTransport`` (process management:
:mod:`secretary_executor.simulation.mcp_fleet`, shared with ``secretary sim negotiate
--transport mcp``). Each negotiation asks all N sites with the same
fan-out policy; the table reports p50 and p95 per mode and the MCP / in-process ratio.

    .venv/bin/python bench/fanout.py                 # 10, 100, 500 sites
    .venv/bin/python bench/fanout.py --sizes 10,100  # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
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
from secretary_executor.hub.fanout import FanOut, FederatedFleet  # noqa: E402
from secretary_executor.simulation.mcp_fleet import LoopbackFederation, write_shares  # noqa: E402
from secretary_executor.sites import InProcessTransport, Site  # noqa: E402
from secretary_executor.sites.fleet import demo_state_files  # noqa: E402

console = Console()
REQUIREMENTS = Requirements.model_validate({"compute": {"cores_per_node": 8}})


def write_sites(folder: Path, n: int) -> Path:
    """N state files named sim-0000 ... cycling through the demo sites, in one worker's folder."""
    demos = [yaml.safe_load(p.read_text()) for p in demo_state_files()]
    documents = []
    for i in range(n):
        doc = dict(demos[i % len(demos)])
        doc["site"] = {**doc["site"], "name": f"sim-{i:04d}"}
        documents.append((f"sim-{i:04d}", yaml.safe_dump(doc)))
    return write_shares(documents, folder, 1)[0]


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
    sites_dir = write_sites(folder / f"sites-{n}", n)
    paths = sorted(sites_dir.glob("*.yaml"))
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
    try:
        results = {"in-process": await timed(local, repeats)}
    finally:
        await local.close()
    async with LoopbackFederation(
        [sites_dir], workdir=folder / f"logs-{n}", fanout=fanout, prefix=f"bench-{n}"
    ) as federation:
        results["mcp"] = await timed(federation.fleet, repeats)
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
