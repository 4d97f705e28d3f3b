"""Benchmark: the full negotiation protocol (200 workers x 100 prompts by default).

Runs ``secretary sim negotiate``'s code path, checks the acceptance targets, and reports the
cost per case as a ratio against a baseline measured in the same run: the same Secretary
answering the same parsed requirements directly, without the service envelope, the transport
or the fleet fan-out (so the ratio is the overhead of the real hub path).

    .venv/bin/python bench/sim_negotiate.py [--workers 200] [--prompts 100] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from endpoint_plugins.parsing import parse_requirements
from secretary_executor.simulation.catalogue import build_catalogue
from secretary_executor.simulation.experiments import negotiate_experiment
from secretary_executor.simulation.generator import generate_fleet
from secretary_executor.simulation.negotiate import NegotiationSettings, simulated_site
from secretary_executor.simulation.prompts import generate_prompts

TARGETS = {"accuracy": 0.995, "balanced_accuracy": 0.99, "false_ready": 0, "elapsed_s": 60.0}
BASELINE_PROMPTS = 10


def direct_baseline(settings: NegotiationSettings) -> float:
    """Seconds per case when each Secretary is called directly (no envelope, no fleet)."""
    workers = generate_fleet(settings.workers, settings.seed)
    cat = build_catalogue(w.state for w in workers)
    prompts = generate_prompts(cat, min(BASELINE_PROMPTS, settings.prompts), settings.seed)
    secretaries = [simulated_site(w).transport.secretary for w in workers]  # type: ignore[attr-defined]
    start = time.perf_counter()
    for p in prompts:
        req = parse_requirements(p.text)
        for s in secretaries:
            s.negotiate(req)
    return (time.perf_counter() - start) / (len(prompts) * len(secretaries))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=200)
    parser.add_argument("--prompts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    settings = NegotiationSettings(workers=args.workers, prompts=args.prompts, seed=args.seed)
    out = args.out or Path(tempfile.mkdtemp(prefix="sim-negotiate-"))

    cpu0, wall0 = time.process_time(), time.perf_counter()
    summary = negotiate_experiment(settings, out)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    per_case = summary["elapsed_s"] / summary["overall"]["secretary"]["cases"]
    baseline = direct_baseline(settings)

    s = summary["overall"]["secretary"]
    got = {
        "accuracy": s["accuracy"],
        "balanced_accuracy": s["balanced_accuracy"],
        "false_ready": s["false_ready"],
        "elapsed_s": wall,
    }
    ok = {
        "accuracy": got["accuracy"] >= TARGETS["accuracy"],
        "balanced_accuracy": got["balanced_accuracy"] >= TARGETS["balanced_accuracy"],
        "false_ready": got["false_ready"] == TARGETS["false_ready"],
        "elapsed_s": got["elapsed_s"] < TARGETS["elapsed_s"],
    }
    console = Console()
    table = Table(title=f"sim negotiate: {s['cases']:,} cases -> {out}")
    for col in ("figure", "value", "target", "met"):
        table.add_column(col)
    for key, target in TARGETS.items():
        value = got[key]
        shown = f"{value:.4%}" if key.endswith("accuracy") else f"{value:,.2f}"
        table.add_row(key, shown, str(target), "yes" if ok[key] else "[red]NO[/]")
    table.add_row("cpu_s", f"{cpu:.2f}", "", "")
    table.add_row("per case, hub path (ms)", f"{1000 * per_case:.3f}", "", "")
    table.add_row("per case, direct Secretary (ms)", f"{1000 * baseline:.3f}", "", "")
    table.add_row("ratio hub path / direct", f"{per_case / baseline:.2f}", "", "")
    console.print(table)
    print(
        json.dumps(
            {"wall_s": wall, "cpu_s": cpu, "ratio_vs_direct": per_case / baseline, **got}, indent=2
        )
    )
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
