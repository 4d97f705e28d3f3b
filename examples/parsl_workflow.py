"""A Parsl workflow whose tasks are placed by the sites' secretaries.

Run it with no arguments::

    python examples/parsl_workflow.py [--tasks 100] [--workdir DIR]

The demo fleet's six simulated sites each sit behind a real Globus Compute endpoint engine in
this process (ThreadPoolEngine; ``cloud-k8s`` uses a ProcessPoolEngine), which runs both the
site's secretary functions and the tasks sent to it. About 100 tasks with mixed CPU, GPU and
software needs (some depending on others) are submitted; a table shows where each kind ran and
the winning proposal's reason, then a summary.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

import parsl
from parsl.config import Config
from rich.console import Console
from rich.table import Table

from secretary_executor.parsl import SecretaryExecutor, demo_engine_fleet, secretary_app


@secretary_app
def prepare(i: int) -> int:
    """One core, no software: any site will do."""
    return i * 3


@secretary_app(request="python >= 3.10 on 4 cores", policy="min-cost")
def analyse(x: int) -> int:
    """Python on four cores, cheapest site."""
    return x + 1


@secretary_app(request="pytorch >= 2.0 on 8 GPUs per node")
def train(x: int) -> str:
    """A full GPU node with PyTorch."""
    return f"model-{x}"


@secretary_app(request="lammps >= 2023 on 2 nodes")
def simulate(x: int) -> int:
    """An HPC code on two nodes."""
    return x * x


@secretary_app(request="1 core, 900 GB memory")
def big_memory(*parts: int) -> int:
    """A reduction that needs a fat node; depends on many tasks."""
    return sum(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=100, help="about how many tasks (>= 10)")
    parser.add_argument("--workdir", help="where engines and the ledger live (default: a temp dir)")
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory(prefix="secretary-demo-") as tmp:
        root = Path(args.workdir or tmp)
        engines = demo_engine_fleet(root / "sites", engines={"cloud-k8s": "process"})
        executor = SecretaryExecutor(engines.fleet, engines.channels, ledger=root / "ledger.db")
        config = Config(executors=[executor], run_dir=str(root / "runinfo"))
        n = max(10, args.tasks) // 4
        start = time.perf_counter()
        try:
            with parsl.load(config):
                prepared = [prepare(i) for i in range(n)]
                analysed = [analyse(p) for p in prepared]  # each depends on one prepare
                trained = [train(i) for i in range(n)]
                simulated = [simulate(i) for i in range(n - 1)]  # 4n tasks in all
                total = big_memory(*analysed)  # depends on every analyse
                results = [f.result() for f in prepared + analysed + trained + simulated]
                results.append(total.result())
        finally:
            engines.shutdown()
        elapsed = time.perf_counter() - start
    _report(console, executor, len(results), elapsed)
    return 0


def _report(console: Console, executor: SecretaryExecutor, count: int, elapsed: float) -> None:
    placements = sorted(executor.placements.values(), key=lambda p: p.task_id)
    table = Table(title="Where the tasks ran, and why")
    for col in ("Function", "Tasks", "Site", "Verdict", "Cached", "Reason"):
        table.add_column(col, overflow="fold")
    groups: dict[tuple[str, str | None], list] = {}
    for p in placements:
        groups.setdefault((p.function, p.site), []).append(p)
    for (function, site), items in groups.items():
        first = items[0]
        cached = sum(p.cached for p in items)
        table.add_row(
            function,
            str(len(items)),
            site or "-",
            first.verdict or "-",
            f"{cached}/{len(items)}",
            first.reason,
        )
    console.print(table)
    sites = Counter(p.site for p in placements)
    attempts = sum(len(p.attempts) for p in placements)
    negotiations = len({p.request_id for p in placements})
    summary = Table(title="Summary", show_header=False)
    summary.add_row("tasks completed", str(count))
    summary.add_row("negotiations (fleet fan-outs)", str(negotiations))
    summary.add_row("dispatch attempts", str(attempts))
    summary.add_row("sites used", ", ".join(f"{s} ({n})" for s, n in sites.most_common()))
    summary.add_row("wall time", f"{elapsed:.2f} s")
    console.print(summary)


if __name__ == "__main__":
    raise SystemExit(main())
