"""Probe cost and the negotiation cache, measured on this machine.

Two questions, answered in one run so the figures share a machine state:

1. How long does probing every discovered provider take, cold (fresh instances)? Target: < 2 s.
   Measured both one after another (baseline) and as a Secretary does it (in parallel).
2. How much does a negotiation save by reusing cached facts? The baseline is the same
   negotiation with every provider's cache invalidated first (what the prototype did on every
   request); the ratio cold/warm is reported.

Run: ``.venv/bin/python bench/probe.py [--rounds 20]``
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.secretary import Secretary
from providers.base import probe_many
from providers.registry import discover


def probe_all(*, parallel: bool) -> tuple[float, list[tuple[str, bool, float]]]:
    instances = [cls() for _, cls in sorted(discover().classes.items())]
    start = time.perf_counter()
    if parallel:
        reports = probe_many(instances)
    else:
        reports = [p.probe() for p in instances]
    wall = time.perf_counter() - start
    return wall, [(r.provider, r.available, r.elapsed_s) for r in reports]


def negotiation_times(rounds: int, *, cold: bool) -> list[float]:
    secretary = Secretary(SiteConfig(name="here"))
    requirements = parse_requirements("python >= 3.8 on 1 node with 2 cores and 4 GB of memory")
    secretary.negotiate(requirements)  # first probe outside the measurement
    times = []
    for _ in range(rounds):
        if cold:
            for provider in secretary.providers:
                provider.invalidate()
        start = time.perf_counter()
        secretary.negotiate(requirements)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    console = Console()

    serial, _ = probe_all(parallel=False)
    total, rows = probe_all(parallel=True)
    table = Table(
        title=f"Cold probe of all {len(rows)} providers: {total:.3f} s wall in parallel, "
        f"{serial:.3f} s one after another (target < 2 s)"
    )
    table.add_column("Provider")
    table.add_column("Active")
    table.add_column("Probe (s)", justify="right")
    for name, active, elapsed in rows:
        table.add_row(name, "yes" if active else "no", f"{elapsed:.4f}")
    console.print(table)

    cold = negotiation_times(args.rounds, cold=True)
    warm = negotiation_times(args.rounds, cold=False)
    summary = Table(title=f"Negotiation on this machine, {args.rounds} rounds each")
    for col in ("Mode", "median (ms)", "p95 (ms)"):
        summary.add_column(col, justify="right")
    for label, data in (("re-probe every time (baseline)", cold), ("cached facts", warm)):
        p95 = sorted(data)[max(0, int(0.95 * len(data)) - 1)]
        summary.add_row(label, f"{statistics.median(data) * 1e3:.2f}", f"{p95 * 1e3:.2f}")
    console.print(summary)
    ratio = statistics.median(cold) / statistics.median(warm)
    console.print(f"cached negotiation is [bold]{ratio:.1f}x[/] faster than re-probing")


if __name__ == "__main__":
    main()
