"""How long the dashboard's pages take to load their data for a 1,000-site fleet, on loopback.

A synthetic ledger (``--sites`` sites, each answering ``--requests`` requests with four checks
and their evidence, plus ``--jobs`` jobs with their state changes) is served by the dashboard
app under uvicorn on 127.0.0.1, with a live-hub source that reports every site UP with a
heartbeat and a description, as ``secretary serve hub`` does. A page load is what the page's
script does on opening: the page shell, then the change stamp, then the view's JSON (and its
SVG charts). The baseline, measured in the same run, is the stamp alone: one authenticated
HTTP round trip on loopback. Each figure is the median (and p95) of ``--rounds`` loads.

With Chromium installed (scripts/browser-up.sh), it also times the fleet page in a real
headless browser: from navigation until the table holds a row per site.

    .venv/bin/python bench/dashboard.py                  # 1,000 sites
    .venv/bin/python bench/dashboard.py --sites 5000 --rounds 10
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx2
import uvicorn
from rich.console import Console
from rich.table import Table
from starlette.applications import Starlette
from starlette.routing import Mount

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from endpoint_plugins.secretary import SiteDescription  # noqa: E402
from providers.state import Prices  # noqa: E402
from providers.wire import (  # noqa: E402
    Check,
    CheckStatus,
    DispatchReceipt,
    Evidence,
    JobRequest,
    JobState,
    JobStatus,
    Metrics,
    Proposal,
    Verdict,
)
from providers.wire.common import Category  # noqa: E402
from secretary_executor.dashboard import DashboardSource, dashboard_app  # noqa: E402
from secretary_executor.dashboard.sources import LiveSite  # noqa: E402
from secretary_executor.ledger import Ledger  # noqa: E402

console = Console()
TARGET_S = 1.0
TOKEN = "bench-token-" + "x" * 24
VERDICTS = [Verdict.READY] * 4 + [Verdict.BUSY] * 3 + [Verdict.INCOMPATIBLE, Verdict.UNREACHABLE]


class SyntheticHub(DashboardSource):
    """A live source with every site UP, a heartbeat and a description (no real workers)."""

    live = True

    def __init__(self, ledger: Ledger, names: list[str]) -> None:
        super().__init__("bench-hub", ledger)
        self._sites = [LiveSite(n, True, f"worker-{i // 50}", 1.5) for i, n in enumerate(names)]
        self._described = {
            n: SiteDescription(
                name=n,
                kind="hpc",
                description=f"Synthetic cluster {n}: {64 + i % 512} nodes, InfiniBand, Lustre.",
                prices=Prices(cpu_node_hour=1.0 + i % 7, gpu_node_hour=4.0 + i % 5),
            )
            for i, n in enumerate(names)
        }

    def sites(self) -> list[LiveSite]:
        return self._sites

    def descriptions(self) -> Mapping[str, SiteDescription]:
        return self._described


def proposal(rng: random.Random, request_id: str, site: str) -> Proposal:
    total = rng.randrange(16, 4096)
    checks = tuple(
        Check(
            requirement=req,
            category=cat,
            status=rng.choice(list(CheckStatus)),
            detail=f"{req} judged at {site}",
            evidence=(
                Evidence(
                    provider="slurm",
                    tool="list_partitions",
                    arguments={},
                    result=[{"name": "cpu", "total_nodes": total, "free_nodes": total // 3}],
                ),
            ),
        )
        for req, cat in (
            ("compute: 64 cores in total, walltime 2 h", Category.WORKLOAD),
            ("software: lammps >= 2023", Category.SOFTWARE),
            ("network: infiniband", Category.NETWORK),
            ("storage: lustre scratch 1 TB", Category.STORAGE),
        )
    )
    return Proposal(
        request_id=request_id,
        site=site,
        verdict=rng.choice(VERDICTS),
        checks=checks,
        metrics=Metrics(
            partition="cpu",
            total_nodes=total,
            free_nodes=rng.randrange(total),
            queue_depth=rng.randrange(500),
            estimated_start_s=rng.uniform(0, 7200),
            price_per_node_hour=round(rng.uniform(0.2, 6), 2),
            estimated_cost_usd=round(rng.uniform(1, 200), 2),
        ),
    )


def synthetic_ledger(path: Path, sites: int, requests: int, jobs: int) -> tuple[Ledger, list[str]]:
    rng = random.Random(7)
    ledger = Ledger(path)
    names = [f"site-{i:05d}" for i in range(sites)]
    request_ids = []
    for r in range(requests):
        request = JobRequest(text=f"lammps >= 2023 on 64 cores for 2 hours, infiniband ({r})")
        ledger.record_request(request)
        ledger.record_proposals(
            request.request_id, [proposal(rng, request.request_id, n) for n in names]
        )
        ledger.record_selection(
            request.request_id, "min-cost", names[r], {"ranked": names[r : r + 10], "notes": []}
        )
        request_ids.append(request.request_id)
    start = datetime.now(UTC) - timedelta(hours=6)
    for j in range(jobs):
        site, rid = names[j % sites], request_ids[j % requests]
        job_id = f"job-{j:05d}"
        ledger.record_dispatch(
            DispatchReceipt(
                job_id=job_id, request_id=rid, site=site, native_id=str(j), submitted_at=start
            )
        )
        for state in (JobState.RUNNING, rng.choice([JobState.COMPLETED, JobState.FAILED])):
            ledger.record_status(job_id, JobStatus(site=site, native_id=str(j), state=state))
    return ledger, request_ids


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The dashboard under uvicorn in a thread, as ``secretary dashboard`` serves it."""

    def __init__(self, source: DashboardSource) -> None:
        async def authorize(token: str) -> bool:
            return token == TOKEN

        app = Starlette(
            routes=[Mount("/dashboard", app=dashboard_app(source, authorize=authorize))]
        )
        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the dashboard did not start in 30 s")
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}/dashboard"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def load(client: httpx2.Client, page: str, data: list[str]) -> tuple[float, int]:
    """Seconds and bytes for one page load: the shell, the stamp, then the view's data."""
    start = time.perf_counter()
    size = len(client.get(page).content)
    for path in ["api/stamp", *data]:
        r = client.get(path)
        r.raise_for_status()
        size += len(r.content)
    return time.perf_counter() - start, size


WAIT_FOR_ROWS = """
const [want, done] = arguments;
const count = () => document.querySelectorAll('#fleet-table tbody tr').length;
const shown = () => !document.getElementById('main').hidden && count() >= want;
if (shown()) { done(count()); return; }
new MutationObserver((_, observer) => {
  if (shown()) { observer.disconnect(); requestAnimationFrame(() => done(count())); }
}).observe(document.body, {subtree: true, childList: true, attributes: true});
"""
"""Resolves once the fleet table holds ``want`` rows and is shown, after the next frame."""


def browser_fleet_s(url: str, sites: int, rounds: int) -> list[float] | None:
    """Navigation to a row per site in headless Chromium, or None without Chromium."""
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_script_timeout(60)
    try:
        driver.get(f"{url}/fleet")
        driver.execute_script(
            "sessionStorage.setItem('secretary-dashboard-token', arguments[0])", TOKEN
        )
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            driver.get(f"{url}/fleet")
            # One wait in the page (no polling from here, which would share its thread).
            rows = driver.execute_async_script(WAIT_FOR_ROWS, sites)
            times.append(time.perf_counter() - start)
            assert rows >= sites, rows
        return times
    finally:
        driver.quit()


def row(table: Table, what: str, times: list[float], size: int, base: float) -> None:
    median = statistics.median(times)
    p95 = sorted(times)[max(0, round(0.95 * len(times)) - 1)]
    ok = "yes" if median < TARGET_S else "NO"
    table.add_row(
        what,
        f"{median * 1000:.0f} ms",
        f"{p95 * 1000:.0f} ms",
        f"{median / base:.0f}",
        f"{size / 1024:.0f} KiB" if size else "",
        ok,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sites", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        ledger, request_ids = synthetic_ledger(
            Path(folder) / "ledger.sqlite3", args.sites, args.requests, args.jobs
        )
        console.print(
            f"synthetic ledger: {args.sites} sites x {args.requests} requests "
            f"({args.sites * args.requests} proposals), {args.jobs} jobs, "
            f"built in {time.perf_counter() - t0:.1f} s"
        )
        source = SyntheticHub(ledger, [f"site-{i:05d}" for i in range(args.sites)])
        views = {
            "fleet": ("fleet", ["api/fleet"]),
            "requests (list + one request's grid)": (
                "requests",
                ["api/requests", f"api/requests/{request_ids[-1]}"],
            ),
            "jobs (list + timeline + one job)": (
                "jobs",
                ["api/jobs", "api/charts/timeline.svg", "api/jobs/job-00000"],
            ),
            "cost (table + 2 charts)": (
                "cost",
                ["api/cost", "api/charts/cost-site.svg", "api/charts/cost-day.svg"],
            ),
        }
        table = Table(
            title=f"Dashboard page loads, {args.sites} sites, loopback (median of rounds)"
        )
        for col in ("page", "median", "p95", "x baseline", "bytes", f"< {TARGET_S:g} s"):
            table.add_column(col, justify="right")
        with (
            Server(source) as url,
            httpx2.Client(
                base_url=url + "/", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60
            ) as client,
        ):
            base_times = []
            for _ in range(args.rounds):
                start = time.perf_counter()
                client.get("api/stamp").raise_for_status()
                base_times.append(time.perf_counter() - start)
            base = statistics.median(base_times)
            table.add_row("baseline: the stamp alone", f"{base * 1000:.1f} ms", "", "1", "", "")
            fleet_median = 0.0
            for name, (page, data) in views.items():
                load(client, page, data)  # warm: first-use imports and SQLite's page cache
                runs = [load(client, page, data) for _ in range(args.rounds)]
                times = [t for t, _ in runs]
                row(table, name, times, runs[0][1], base)
                if page == "fleet":
                    fleet_median = statistics.median(times)
            browser = None if args.no_browser else browser_fleet_s(url, args.sites, args.rounds)
            if browser is not None:
                row(table, "fleet in headless Chromium, to the last row", browser, 0, base)
        console.print(table)
        ledger.close()
    return 0 if fleet_median < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
