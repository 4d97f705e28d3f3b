"""Overhead of ``SecretaryExecutor`` against plain Parsl executors, measured in one run.

    python bench/parsl_overhead.py [--tasks 10000] [--workers 4]

The same number of no-op tasks goes through three DataFlowKernels in turn:

* Parsl's ``ThreadPoolExecutor`` (the baseline);
* Parsl's ``HighThroughputExecutor`` (one local worker pool over ZeroMQ);
* ``SecretaryExecutor`` over the demo's six sites (each a ThreadPoolEngine here, answering
  negotiations through the secretary functions) with the negotiation cache on, so one fan-out
  serves every task. It runs twice: with in-process thread channels (the executor's own cost:
  spec reading, cache hit, failover bookkeeping, ledger record) and with engine channels
  (adding, per task, ``ComputeSerializer`` packing into a messagepack ``Task``, engine
  execution and result unpacking, as a Globus Compute endpoint does).

The ratio column is each executor's wall time over the ThreadPoolExecutor's; the target for
``SecretaryExecutor`` is <= 1.25.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import parsl
from parsl.app.app import python_app
from parsl.config import Config
from parsl.executors import HighThroughputExecutor, ThreadPoolExecutor
from parsl.providers import LocalProvider
from rich.console import Console
from rich.table import Table

from secretary_executor.parsl import (
    SecretaryExecutor,
    ThreadChannel,
    demo_engine_fleet,
    secretary_app,
)


def _thread_channels(channels: dict[str, Any], workers: int) -> dict[str, ThreadChannel]:
    return {name: ThreadChannel(workers, name=name) for name in channels}


def noop() -> None:
    return None


def _run(config: Config, app: Callable[[], Any], tasks: int) -> float:
    with parsl.load(config):
        app().result()  # warm-up: workers started, first negotiation done
        start = time.perf_counter()
        futures = [app() for _ in range(tasks)]
        for f in futures:
            f.result()
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    console = Console()
    results: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="secretary-bench-") as tmp:
        root = Path(tmp)
        common = {"initialize_logging": False}

        config = Config(
            executors=[ThreadPoolExecutor(label="tpe", max_threads=args.workers)],
            run_dir=str(root / "tpe"),
            **common,
        )
        results.append(
            ("ThreadPoolExecutor", _run(config, python_app(noop, executors=["tpe"]), args.tasks))
        )

        htex = HighThroughputExecutor(
            label="htex",
            max_workers_per_node=args.workers,
            address="127.0.0.1",
            provider=LocalProvider(init_blocks=1, min_blocks=1, max_blocks=1),
        )
        config = Config(executors=[htex], run_dir=str(root / "htex"), **common)
        results.append(
            (
                "HighThroughputExecutor",
                _run(config, python_app(noop, executors=["htex"]), args.tasks),
            )
        )

        engines = demo_engine_fleet(root / "sites", workers=args.workers)
        negotiations = []
        for title, channels in (
            (
                "SecretaryExecutor, thread channels",
                _thread_channels(engines.channels, args.workers),
            ),
            ("SecretaryExecutor, engine channels", engines.channels),
        ):
            executor = SecretaryExecutor(
                engines.fleet,
                channels,
                ledger=root / f"ledger-{len(negotiations)}.db",
                cache_ttl_s=3600,
                shutdown_channels=False,
            )
            config = Config(executors=[executor], run_dir=str(root / "secretary"), **common)
            try:
                results.append((title, _run(config, secretary_app(noop), args.tasks)))
            finally:
                for channel in channels.values():
                    if isinstance(channel, ThreadChannel):
                        channel.shutdown()
            negotiations.append(len({p.request_id for p in executor.placements.values()}))
        engines.shutdown()

    base = results[0][1]
    table = Table(title=f"{args.tasks:,} no-op tasks, {args.workers} workers")
    for col in ("Executor", "Wall time (s)", "Tasks/s", "Ratio vs ThreadPool"):
        table.add_column(col, justify="right" if col != "Executor" else "left")
    for name, seconds in results:
        table.add_row(
            name, f"{seconds:.2f}", f"{args.tasks / seconds:,.0f}", f"{seconds / base:.2f}"
        )
    console.print(table)
    console.print(
        f"fleet fan-outs per SecretaryExecutor run: {negotiations}; target ratio <= 1.25 "
        "(thread channels: the executor's own overhead; engine channels add Globus Compute "
        "serialization and engine execution per task)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
