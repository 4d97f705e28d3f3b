"""Selection cost per decision over N proposals, against a baseline measured in the same run.

A decision is one ``selector.rank(proposals, None, policy)`` call over N proposals (READY,
BUSY and other verdicts, metrics with gaps and NaNs, as sites send them), measured three ways
for the ordering selectors:

* ``from a list``: a fresh list each time, so the decision also reads every proposal's fields
  out of its pydantic model;
* ``on a ProposalSet``: the proposals were read into plain rows once, when they arrived
  (``ProposalSet(proposals)``, timed on its own as ``arrival``), and this is the set's first
  ranking by the algorithm: building the flat keys from the rows and sorting them;
* ``again``: a later ranking of the same set by the same algorithm (the kept one, copied);

and, as ``broker``, the broker's own decision: ``select_with_fallback`` on a fresh list (the
policy's algorithm alone), which also names the ranked sites in its outcome.

The baseline is sorting N floats with ``sorted``, so the ratio column says how many plain sorts
one decision costs and stays comparable across machines. Each figure is the fastest of
``--rounds`` rounds of ``--repeats`` decisions (as ``timeit`` advises: on a shared machine the
slower rounds measure the other work, not this code). The clock is this thread's CPU time
(``--clock cpu``, the default): on a machine whose cores are oversubscribed, wall time mostly
measures how long the process waited for a core; ``--clock wall`` measures wall time.

    .venv/bin/python bench/selection.py                  # 100 proposals
    .venv/bin/python bench/selection.py --sizes 10,100,1000

(Not ``bench/select.py``: a script's folder comes first on the import path, so a file named
``select.py`` there would stand in for the standard library's ``select`` module in every
benchmark in this folder.)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from providers.wire import Metrics, Policy, Proposal, Verdict  # noqa: E402
from secretary_executor.select import (  # noqa: E402
    SELECTORS,
    ProposalSet,
    Selector,
    get_selector,
    select_with_fallback,
)
from secretary_executor.select.base import SortingSelector  # noqa: E402

T = TypeVar("T")
console = Console()
TARGET_US = 50.0
VERDICTS = [Verdict.READY] * 4 + [Verdict.BUSY] * 3 + [Verdict.INCOMPATIBLE, Verdict.UNREACHABLE]


def maybe(rng: random.Random, value: float) -> float | None:
    roll = rng.random()
    return None if roll < 0.1 else float("nan") if roll < 0.13 else value


def proposals(n: int, seed: int) -> list[Proposal]:
    """N proposals as a fleet sends them: mixed verdicts, some metrics unknown or NaN."""
    rng = random.Random(seed)
    return [
        Proposal(
            site=f"site-{rng.randrange(10 * n):05d}",
            verdict=rng.choice(VERDICTS),
            metrics=Metrics(
                free_nodes=rng.choice([None, rng.randrange(64)]),
                queue_depth=rng.choice([None, rng.randrange(50)]),
                estimated_start_s=maybe(rng, rng.choice([0.0, rng.uniform(0, 3600)])),
                estimated_cost_usd=maybe(rng, round(rng.uniform(0, 20), 2)),
            ),
        )
        for _ in range(n)
    ]


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def per_call_us(fn: Callable[[T], object], inputs: list[T], repeats: int, rounds: int) -> float:
    """The fastest round's mean time of ``fn(input)``, cycling through ``inputs``."""
    samples = []
    cycle = [inputs[i % len(inputs)] for i in range(repeats)]
    for _ in range(rounds):
        start = clock()
        for item in cycle:
            fn(item)
        samples.append((clock() - start) / repeats * 1e6)
    return min(samples)


def decide_kept(selector: Selector) -> Callable[[ProposalSet], object]:
    """A later ranking of a set the selector has already ranked."""
    policy = Policy(algorithm=selector.name)

    def decide(kept: ProposalSet) -> object:
        return selector.rank(kept, None, policy)

    return decide


def first_rankings_us(
    selector: Selector, sets: list[list[Proposal]], repeats: int, rounds: int
) -> float:
    """The fastest round's mean time of a set's first ranking, sets built before the clock."""
    samples = []
    policy = Policy(algorithm=selector.name)
    for _ in range(rounds):
        fresh = [ProposalSet(sets[i % len(sets)]) for i in range(repeats)]
        start = clock()
        for kept in fresh:
            selector.rank(kept, None, policy)
        samples.append((clock() - start) / repeats * 1e6)
    return min(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100")
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    timing = (args.repeats, args.rounds)
    names = [n for n in SELECTORS if n != "agentic"]  # agentic asks a model: not a sort
    table = Table(title=f"Selection cost per decision (fastest of rounds, {args.clock} time)")
    for col in ("proposals", "algorithm", "per decision", "x baseline", f"<= {TARGET_US:g} µs"):
        table.add_column(col, justify="right")

    def row(n: int, what: str, us: float, base: float, target: bool = True) -> None:
        ok = ("yes" if us <= TARGET_US else "NO") if target else ""
        table.add_row(str(n), what, f"{us:.1f} µs", f"{us / base:.1f}", ok)

    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("measuring", total=len(sizes) * (len(names) + 2))
        for n in sizes:
            sets = [proposals(n, seed) for seed in range(16)]
            rngs = [random.Random(seed) for seed in range(16)]
            floats = [[rng.random() for _ in range(n)] for rng in rngs]
            base = per_call_us(sorted, floats, args.repeats, args.rounds)
            progress.advance(task)
            table.add_row(str(n), "baseline: sorted(N floats)", f"{base:.1f} µs", "1.0", "")
            arrival = per_call_us(ProposalSet, sets, args.repeats, args.rounds)
            progress.advance(task)
            row(n, "arrival: ProposalSet(N), once per set", arrival, base, target=False)
            for name in names:
                selector = get_selector(name)
                policy = Policy(algorithm=name, seed=7)

                def decide(
                    ps: list[Proposal], s: Selector = selector, p: Policy = policy
                ) -> object:
                    return s.rank(list(ps), None, p)

                row(n, f"{name}, from a list", per_call_us(decide, sets, *timing), base)
                if isinstance(selector, SortingSelector):
                    first = first_rankings_us(selector, sets, *timing)
                    row(n, f"{name}, on a ProposalSet", first, base)
                    kept = [ProposalSet(ps) for ps in sets]
                    row(
                        n, f"{name}, again", per_call_us(decide_kept(selector), kept, *timing), base
                    )

                    def broker(ps: list[Proposal], p: Policy = policy) -> object:
                        return select_with_fallback(list(ps), None, p)

                    row(n, f"{name}, broker", per_call_us(broker, sets, *timing), base)
                progress.advance(task)
    console.print(table)


if __name__ == "__main__":
    main()
