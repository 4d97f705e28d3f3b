"""Dispatch under faults: does any job run twice, or run without a ledger row, or lose its row?

A hub (``secretary serve hub``, ledger on disk) and two workers, each serving this machine as a
site (``here-a``, ``here-b``), run as real processes on loopback. Clients negotiate and dispatch
N jobs through the hub's MCP tools, each job with its own idempotency key, repeating a dispatch
until it is settled. Meanwhile a fault injector, at random moments:

* kills the hub or a worker with SIGKILL and starts it again;
* freezes a worker with SIGSTOP for 1-4 s (longer than the hub's site timeout: its replies
  arrive late) and thaws it;
* restarts the hub or a worker with a failpoint armed (:mod:`providers.failpoints`), so that it
  dies at one exact stage of its next dispatch.

Each job appends its name to a file when it runs: that file, written by the jobs themselves, is
the ground truth. At the end (faults stopped, every job finished) the benchmark compares it with
the hub's ledger and the receipts the clients got:

* **ran without a row**: a job that ran, with no ledger row for its request (target 0);
* **ran twice**: a job that ran more than once (target 0);
* **lost rows**: a receipt a client holds that the ledger lacks, or an accepted row whose job
  never ran (target 0);
* **abandoned keys**: dispatches whose site died after claiming the key, before the job was
  started: the restarted site finds no job carrying the key and abandons it, the hub records
  it FAILED, and the client dispatches again with a new key (as a person would);
* **unsettled**: dispatches nobody could settle (the site could not tell whether the job was
  submitted) or that were still unsettled at the deadline: the ledger keeps them PENDING
  (reported, not hidden).

    .venv/bin/python bench/chaos.py                    # 200 jobs
    .venv/bin/python bench/chaos.py --jobs 40 --seed 7 # quicker
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the process harness the crash tests use

from federation_harness import LocalCluster, wait_for  # noqa: E402

HUB_POINTS = ("hub.dispatch.written", "hub.dispatch.replied")
SITE_POINTS = ("site.dispatch.claimed", "site.dispatch.submitted", "site.dispatch.remembered")
WORKERS = {"w-a": "here-a", "w-b": "here-b"}


@dataclass
class Outcome:
    marker: str
    request_id: str = ""
    receipt: dict[str, Any] | None = None
    unsettled: str = ""
    dispatch_calls: int = 0
    abandoned_keys: int = 0


@dataclass
class Faults:
    counts: Counter[str] = field(default_factory=Counter)


class Cluster(LocalCluster):
    """The hub and the two workers; the fault injector and the clients share it."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, WORKERS, heartbeat_s=1, site_timeout_s=2)
        self.lock = threading.Lock()

    def revive(self) -> None:
        """Start again, unarmed, every process that has died (an armed one that fired)."""
        for name in ("hub", *WORKERS):
            proc = self.procs.procs.get(name)
            if proc is not None and proc.poll() is not None:
                self.start(name)


def inject(cluster: Cluster, rng: random.Random, stop: threading.Event, faults: Faults) -> None:
    """Random faults until ``stop``; every dead process is started again."""
    kinds = ["kill-hub", "kill-worker", "freeze-worker", "arm-hub", "arm-worker"]
    while not stop.wait(rng.uniform(0.5, 2.5)):
        kind = rng.choice(kinds)
        worker = rng.choice(list(WORKERS))
        procs = cluster.procs.procs
        with cluster.lock:
            cluster.revive()
            if kind == "kill-hub":
                procs["hub"].send_signal(signal.SIGKILL)
                procs["hub"].wait(10)
                cluster.start("hub")
            elif kind == "kill-worker":
                procs[worker].send_signal(signal.SIGKILL)
                procs[worker].wait(10)
                cluster.start(worker)
            elif kind == "freeze-worker":
                procs[worker].send_signal(signal.SIGSTOP)
                time.sleep(rng.uniform(1.0, 4.0))
                procs[worker].send_signal(signal.SIGCONT)
            elif kind == "arm-hub":
                procs["hub"].terminate()
                procs["hub"].wait(10)
                cluster.start("hub", rng.choice(HUB_POINTS))
            else:
                procs[worker].terminate()
                procs[worker].wait(10)
                cluster.start(worker, rng.choice(SITE_POINTS))
        faults.counts[kind] += 1
    with cluster.lock:
        cluster.revive()


def run_job(cluster: Cluster, i: int, deadline: float) -> Outcome:
    """Negotiate and dispatch job ``i``, repeating with its key until settled."""
    out = Outcome(marker=f"job-{i:04d}")
    command = cluster.command(out.marker)
    key = f"chaos-{i:04d}"
    while time.monotonic() < deadline:
        if not out.request_id:
            ok, res = cluster.call(
                "negotiate_job", {"text": "1 core for 5 minutes", "command": command}
            )
            if not ok:
                time.sleep(0.3)
                continue
            out.request_id = res["request_id"]
        ok, res = cluster.call(
            "dispatch_job", {"request_id": out.request_id, "idempotency_key": key}
        )
        out.dispatch_calls += 1
        if ok:
            out.receipt = res
            return out
        if "interrupted" in res:
            out.unsettled = res
            return out
        if "will never run" in res or "withdrawn" in res:
            # The site abandoned the key (the job was never started): a new key, a new job.
            out.abandoned_keys += 1
            key = f"chaos-{i:04d}-{out.abandoned_keys}"
            continue
        if "no site can run" in res or "unknown request" in res:
            out.request_id = ""  # ask again: the sites were down when it was negotiated
        time.sleep(0.3)
    out.unsettled = "gave up: not settled before the deadline"
    return out


def tally(cluster: Cluster, outcomes: list[Outcome]) -> dict[str, Any]:
    """Compare what ran (the jobs' own file) with the ledger and the clients' receipts."""
    runs = Counter(cluster.runs.read_text().split() if cluster.runs.exists() else [])
    with sqlite3.connect(f"file:{cluster.ledger}?mode=ro", uri=True) as db:
        markers = {
            rid: json.loads(body)["command"][-1]
            for rid, body in db.execute("SELECT request_id, body FROM requests")
        }
        rows = db.execute("SELECT job_id, request_id, state, native_id FROM jobs").fetchall()
    rows_of: Counter[str] = Counter()
    accepted_of: Counter[str] = Counter()
    job_ids = set()
    for job_id, rid, _state, native_id in rows:
        marker = markers.get(rid, "")
        rows_of[marker] += 1
        accepted_of[marker] += bool(native_id)
        job_ids.add(job_id)
    lost = sum(1 for o in outcomes if o.receipt and o.receipt["job_id"] not in job_ids)
    lost += sum(1 for m, n in accepted_of.items() if n and not runs[m])
    return {
        "jobs": len(outcomes),
        "dispatch_calls": sum(o.dispatch_calls for o in outcomes),
        "with_receipt": sum(1 for o in outcomes if o.receipt),
        "unsettled": sum(1 for o in outcomes if o.unsettled),
        "abandoned_keys": sum(o.abandoned_keys for o in outcomes),
        "ran": sum(1 for m in runs if runs[m]),
        "ran_without_row": sum(1 for m in runs if runs[m] and not rows_of[m]),
        "ran_twice": sum(1 for m in runs if runs[m] > 1),
        "lost_rows": lost,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    console = Console(stderr=args.json)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="secretary-chaos-") as tmp:
        cluster = Cluster(Path(tmp))
        try:
            figures = _run(cluster, args, rng, console)
        finally:
            cluster.procs.stop_all()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    table = Table(title=f"Dispatch under faults ({args.jobs} jobs, seed {args.seed})")
    for name in ("measure", "count", "target"):
        table.add_column(name, justify="right" if name != "measure" else "left")
    targets = {"ran_without_row": "0", "ran_twice": "0", "lost_rows": "0"}
    for name, value in figures.items():
        if name != "faults":
            table.add_row(name.replace("_", " "), str(value), targets.get(name, ""))
    for kind, n in sorted(figures["faults"].items()):
        table.add_row(f"fault: {kind}", str(n), "")
    console.print(table)
    bad = figures["ran_without_row"] + figures["ran_twice"] + figures["lost_rows"]
    return 1 if bad else 0


def _run(
    cluster: Cluster, args: argparse.Namespace, rng: random.Random, console: Console
) -> dict[str, Any]:
    cluster.start("hub")
    for name in WORKERS:
        cluster.start(name)
    wait_for(cluster.up, "both workers to register", timeout_s=90)
    stop, faults = threading.Event(), Faults()
    injector = threading.Thread(target=inject, args=(cluster, rng, stop, faults), daemon=True)
    injector.start()
    start = time.monotonic()
    deadline = start + 120 + 3 * args.jobs
    outcomes: list[Outcome] = []
    with (
        Progress(console=console, transient=True) as progress,
        ThreadPoolExecutor(args.clients) as pool,
    ):
        task = progress.add_task("dispatching under faults", total=args.jobs)
        futures = [pool.submit(run_job, cluster, i, deadline) for i in range(args.jobs)]
        for future in futures:
            outcomes.append(future.result())
            progress.advance(task)
    stop.set()
    injector.join(60)
    elapsed = time.monotonic() - start
    expected = sum(1 for o in outcomes if o.receipt)
    try:  # every accepted job runs within seconds; unsettled ones may or may not have run
        wait_for(
            lambda: len(set(cluster.runs.read_text().split())) >= expected,
            "the accepted jobs to run",
            timeout_s=60,
        )
    except AssertionError:
        pass  # the tally reports the missing runs as lost rows
    try:  # a duplicate, had one been started, has ended (and written its line) too
        wait_for(cluster.settled, "every job started on this machine to end", timeout_s=60)
    except AssertionError:
        pass  # a job that never ends is reported by the tally like any other
    figures = tally(cluster, outcomes)
    figures["elapsed_s"] = round(elapsed, 1)
    figures["faults"] = dict(faults.counts)
    return figures


if __name__ == "__main__":
    raise SystemExit(main())
