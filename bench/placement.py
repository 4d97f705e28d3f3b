"""Placement benchmark: does ``SecretaryExecutor`` place 1,000 mixed tasks like a scheduler?

    python bench/placement.py [--tasks 1000] [--simulated 12] [--seed 0]
                              [--hour-s 1.0] [--policy min-cost] [--modes claims,wait,none]

The fleet is heterogeneous: the demo's six simulated sites plus ``--simulated`` generated
workers of the paper's Table 2 archetypes (HPC, cloud, standalone), every secretary answering
here. Tasks come in eight kinds, from one core for ten minutes to four nodes with four GPUs
each for two hours, shuffled with ``--seed``; each is a real Parsl task through a real
DataFlowKernel. One task of each kind, of no duration, runs first, so the negotiations are
cached before the clock starts (the bound has no fan-out in it either).

Each site runs its tasks through a :class:`SimulatedSite` channel that behaves like the site's
scheduler at the free capacity its proposal reported: a task starts when its claim (the same
nodes, cores, GPUs and memory the executor counts, from :mod:`secretary_executor.parsl.claims`)
fits beside the tasks running there, else it queues (first fit); a site that reported no free
node (BUSY) starts tasks after its estimated wait. A task then "runs" for its walltime, one
simulated hour lasting ``--hour-s`` real seconds, on one clock thread (no thread per task).

The same tasks go through the executor in each mode, in the same run:

* ``claims``: the defaults (claims on, ``placement="pack"``, ``when_full="queue"``);
* ``wait``: claims with ``when_full="wait"`` (tasks held in the executor until room is given
  back);
* ``none``: ``claims=False``: every cache hit goes to the first-ranked site, as before claims.

Reported per mode: the makespan against a lower bound, max(total work / total free capacity,
longest task), per resource (cores, GPUs) over every partition that could take some kind of
task; and per site the peak of what the executor had sent there and not yet seen finish, as a
share of the site's free capacity. An *overcommit* is a task sent to a site that had no room
for it while another site able to run it had room: the goal is none, and a makespan within
1.3x of the bound. The exit status is 1 when the ``claims`` mode misses either.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import itertools
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from providers.wire import Policy, Proposal, Requirements, Verdict
from secretary_executor.broker import Broker
from secretary_executor.ledger import Ledger
from secretary_executor.parsl.channels import ExecutionChannel
from secretary_executor.parsl.claims import (
    UNLIMITED,
    Claim,
    claim_of,
    free_capacity,
    node_shape,
)
from secretary_executor.simulation.generator import generate_fleet
from secretary_executor.simulation.negotiate import simulated_site
from secretary_executor.sites import Fleet
from secretary_executor.sites.fleet import FleetFile, FleetSite, demo_state_files, fleet_from_file

TARGET = 1.3
MODES = {
    "claims": {"claims": True},
    "wait": {"claims": True, "when_full": "wait"},
    "none": {"claims": False},
}


@dataclass(frozen=True)
class Kind:
    """One kind of task: its requirements, simulated walltime (s) and share of the mix."""

    name: str
    compute: dict[str, Any]
    walltime_s: int
    weight: int

    def requirements(self) -> Requirements:
        return Requirements.model_validate(
            {"compute": {**self.compute, "walltime_s": self.walltime_s}}
        )


KINDS = (
    Kind("1 core, 10 min", {"total_cores": 1}, 600, 300),
    Kind("4 cores, 30 min", {"cores_per_node": 4}, 1800, 200),
    Kind("16 cores, 1 h", {"cores_per_node": 16}, 3600, 120),
    Kind("1 GPU, 30 min", {"total_gpus": 1}, 1800, 120),
    Kind("1 node, 1 h", {"nodes": 1}, 3600, 120),
    Kind("2 nodes, 1 h", {"nodes": 2}, 3600, 60),
    Kind("8 nodes, 2 h", {"nodes": 8}, 7200, 50),
    Kind("4 nodes x 4 GPUs, 2 h", {"nodes": 4, "gpus_per_node": 4}, 7200, 30),
)


def work(kind: int, seconds: float) -> int:
    """The task: nothing to compute (the site's clock plays its walltime); returns its kind."""
    return kind


# -- the simulated sites --------------------------------------------------------------------


@dataclass
class Slot:
    """What a kind of task takes at one site, from that site's proposal for it."""

    partition: str
    claim: Claim
    capacity: Claim
    start_s: float
    """Simulated seconds before a BUSY partition starts anything."""


@dataclass
class Partition:
    """A partition's free capacity, what runs there and what is queued."""

    capacity: Claim
    running: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    sent: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Sent by the executor and not finished (running or queued)."""
    queue: list[tuple[Callable[[], None], Claim]] = field(default_factory=list)

    def fits(self, used: list[int], claim: Claim) -> bool:
        return all(c < 0 or u + n <= c for c, u, n in zip(self.capacity, used, claim, strict=True))

    def share(self, used: list[int]) -> float:
        """The largest share of a stated capacity in use (inf where none is free)."""
        share = 0.0
        for cap, u in zip(self.capacity, used, strict=True):
            if cap > 0:
                share = max(share, u / cap)
            elif cap == 0 and u:
                share = float("inf")
        return share


class Clock:
    """One thread that ends simulated tasks at their time, in order."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._count = itertools.count()
        self._cv = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="sim-clock", daemon=True)
        self._thread.start()

    def at(self, when: float, action: Callable[[], None]) -> None:
        with self._cv:
            heapq.heappush(self._heap, (when, next(self._count), action))
            self._cv.notify()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._stopped and (not self._heap or self._heap[0][0] > time.monotonic()):
                    timeout = self._heap[0][0] - time.monotonic() if self._heap else None
                    self._cv.wait(timeout)
                if self._stopped:
                    return
                _, _, action = heapq.heappop(self._heap)
            action()

    def stop(self) -> None:
        with self._cv:
            self._stopped = True
            self._cv.notify()
        self._thread.join(10)


class World:
    """Every simulated site's partitions, under one lock, and what the run observed."""

    def __init__(self, slots: dict[str, dict[int, Slot]], hour_s: float) -> None:
        self.slots = slots
        self.scale = hour_s / 3600
        self.lock = threading.RLock()
        self.clock = Clock()
        self.partitions: dict[tuple[str, str], Partition] = {}
        for site, by_kind in slots.items():
            for slot in by_kind.values():
                self.partitions.setdefault((site, slot.partition), Partition(slot.capacity))
        self.peak: dict[str, float] = {}
        self.sent_tasks: dict[str, int] = {}
        self.overcommits = 0
        self.t0 = time.monotonic()
        self.done = 0

    def reset(self) -> None:
        """Forget what was observed so far (the warm-up)."""
        with self.lock:
            self.peak.clear()
            self.sent_tasks.clear()
            self.overcommits = 0
            self.done = 0

    def submit(self, site: str, kind: int, seconds: float, run: Callable[[], Any]) -> Future[Any]:
        slot = self.slots[site][kind]
        part = self.partitions[(site, slot.partition)]
        future: Future[Any] = Future()
        with self.lock:
            if not part.fits(part.sent, slot.claim) and self._room_elsewhere(site, kind):
                self.overcommits += 1
            _add(part.sent, slot.claim)
            self.sent_tasks[site] = self.sent_tasks.get(site, 0) + 1
            share = part.share(part.sent)
            if share > self.peak.get(site, 0.0):
                self.peak[site] = share

            def start() -> None:
                _add(part.running, slot.claim)
                self.clock.at(time.monotonic() + seconds * self.scale, finish)

            def finish() -> None:
                # Under the lock: the executor gives its claim back inside set_result, and the
                # next submission must see this site's accounting with the task gone too.
                with self.lock:
                    _sub(part.running, slot.claim)
                    _sub(part.sent, slot.claim)
                    self.done += 1
                    future.set_result(run())
                    self._start_queued(part)

            ready_at = self.t0 + slot.start_s * self.scale
            if slot.capacity[0] == 0:  # BUSY: the queue ahead drains after its estimated wait
                self.clock.at(max(ready_at, time.monotonic()), start)
            elif part.fits(part.running, slot.claim) and not part.queue:
                start()
            else:
                part.queue.append((start, slot.claim))
        return future

    def _start_queued(self, part: Partition) -> None:
        waiting, part.queue = part.queue, []
        for start, claim in waiting:  # first fit, in arrival order
            if part.fits(part.running, claim):
                start()
            else:
                part.queue.append((start, claim))

    def _room_elsewhere(self, site: str, kind: int) -> bool:
        for other, by_kind in self.slots.items():
            slot = by_kind.get(kind)
            if other == site or slot is None or slot.capacity[0] == 0:
                continue
            part = self.partitions[(other, slot.partition)]
            if part.fits(part.sent, slot.claim):
                return True
        return False


class SimulatedSite(ExecutionChannel):
    """A channel that hands its tasks to the simulated site's scheduler (final futures)."""

    final_futures = True

    def __init__(self, world: World, site: str) -> None:
        self.world = world
        self.name = site

    def submit_task(self, fn, args, kwargs, resource_specification) -> Future[Any]:
        kind, seconds = args
        return self.world.submit(self.name, kind, seconds, lambda: fn(*args, **kwargs))


def _add(used: list[int], claim: Claim) -> None:
    for i in range(4):
        used[i] += claim[i]


def _sub(used: list[int], claim: Claim) -> None:
    for i in range(4):
        used[i] -= claim[i]


# -- the fleet, the tasks, the bound --------------------------------------------------------


def build_fleet(simulated: int, seed: int) -> Fleet:
    """The demo's simulated sites plus ``simulated`` generated archetype workers."""
    entries = tuple(FleetSite(name=p.stem, state_file=str(p)) for p in demo_state_files())
    demo = fleet_from_file(FleetFile(sites=entries), Path.cwd())
    workers = generate_fleet(simulated, seed)
    sites = list(demo.sites) + [simulated_site(w) for w in workers]
    return Fleet(sites, concurrency=max(1, len(sites)))


async def survey(fleet: Fleet, policy: str, ledger: Path) -> dict[str, dict[int, Slot]]:
    """Each site's proposal for each kind: where it would run, what it claims, what is free."""
    broker = Broker(fleet, Ledger(ledger))
    slots: dict[str, dict[int, Slot]] = {}
    for index, kind in enumerate(KINDS):
        request = broker.prepare(
            "", requirements=kind.requirements(), policy=Policy(algorithm=policy)
        )
        result = await broker.negotiate(request)
        for proposal in result.proposals:
            if proposal.verdict not in (Verdict.READY, Verdict.BUSY):
                continue
            slots.setdefault(proposal.site, {})[index] = _slot(proposal, kind)
    return slots


def _slot(proposal: Proposal, kind: Kind) -> Slot:
    shape = node_shape(proposal)
    return Slot(
        partition=proposal.metrics.partition or "",
        claim=claim_of(kind.requirements(), shape),
        capacity=free_capacity(proposal, shape),
        start_s=proposal.metrics.estimated_start_s or 0.0,
    )


def lower_bound(slots: dict[str, dict[int, Slot]], tasks: list[int], hour_s: float) -> float:
    """max(total work / total free capacity, longest task), in real seconds.

    Work and capacity are counted in whole nodes, cores and GPUs, each task at the site where
    it claims least, each partition once. The work/capacity term is taken for every kind's set
    of partitions: the tasks that can run only there, over those partitions' free capacity
    (all the tasks over all partitions is one of these sets when some kind runs everywhere).
    A task of four whole GPU nodes cannot use a one-GPU edge device, so counting every GPU of
    the fleet for it would give a bound no schedule can approach.
    """
    scale = hour_s / 3600
    pools: dict[int, set[tuple[str, str]]] = {}
    capacity: dict[tuple[str, str], Claim] = {}
    for site, by_kind in slots.items():
        for k, slot in by_kind.items():
            if slot.capacity[0] == 0:
                continue  # a BUSY partition adds no free capacity
            capacity[(site, slot.partition)] = slot.capacity
            pools.setdefault(k, set()).add((site, slot.partition))
    bound = max(KINDS[k].walltime_s for k in tasks) * scale
    groups = list(pools.values()) + [set(capacity)]
    for group in groups:
        for dim in (0, 1, 2):  # nodes, cores, GPUs
            total = sum(capacity[p][dim] for p in group)
            if any(capacity[p][dim] < 0 for p in group) or total <= 0:
                continue
            needed = 0.0
            for k in tasks:
                if not pools.get(k, group) <= group:
                    continue
                claims = [by_kind[k].claim[dim] for by_kind in slots.values() if k in by_kind]
                needed += min(claims) * KINDS[k].walltime_s * scale
            bound = max(bound, needed / total)
    return bound


def mixed_tasks(count: int, seed: int) -> list[int]:
    """``count`` kind indices in the mix's proportions, shuffled."""
    total = sum(k.weight for k in KINDS)
    tasks = [i for i, k in enumerate(KINDS) for _ in range(round(count * k.weight / total))]
    tasks = (tasks + [0] * count)[:count]
    random.Random(seed).shuffle(tasks)
    return tasks


# -- a run ----------------------------------------------------------------------------------


def run_mode(
    mode: str,
    fleet: Fleet,
    slots: dict[str, dict[int, Slot]],
    tasks: list[int],
    args: argparse.Namespace,
    root: Path,
    progress: Progress,
) -> dict[str, Any]:
    import parsl
    from parsl.config import Config

    from secretary_executor.parsl import SecretaryExecutor, secretary_app

    world = World(slots, args.hour_s)
    channels = {site: SimulatedSite(world, site) for site in slots}
    executor = SecretaryExecutor(
        fleet,
        channels,
        ledger=root / f"{mode}.db",
        policy=args.policy,
        cache_ttl_s=3600,
        shutdown_channels=False,
        **MODES[mode],
    )
    apps = [
        secretary_app(requirements=kind.requirements().model_dump(mode="json", exclude_none=True))(
            work
        )
        for kind in KINDS
    ]
    config = Config(
        executors=[executor], run_dir=str(root / f"runinfo-{mode}"), initialize_logging=False
    )
    bar = progress.add_task(f"{mode}", total=len(tasks))
    try:
        with parsl.load(config):
            # One task of each kind first, of no duration: the negotiations are done and cached
            # before the clock starts, so the makespan measures placement, not the fan-outs.
            for f in [apps[k](k, 0) for k in range(len(KINDS))]:
                f.result(timeout=args.timeout_s)
            world.reset()
            world.t0 = start = time.monotonic()
            futures = [apps[k](k, KINDS[k].walltime_s) for k in tasks]
            for f in futures:
                f.add_done_callback(lambda _: progress.advance(bar))
            for f in futures:
                f.result(timeout=args.timeout_s)
            makespan = time.monotonic() - start
    finally:
        world.clock.stop()
    sites = {p.site for p in executor.placements.values()}
    return {
        "makespan": makespan,
        "peak": world.peak,
        "sent": world.sent_tasks,
        "overcommits": world.overcommits,
        "sites": len(sites),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--simulated", type=int, default=12, help="generated archetype sites")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hour-s", type=float, default=1.0, help="real seconds per simulated hour")
    parser.add_argument("--policy", default="min-cost")
    parser.add_argument(
        "--modes", default="claims,wait,none", help="comma-separated: " + ", ".join(MODES)
    )
    parser.add_argument("--timeout-s", type=float, default=600.0, help="per task, per mode")
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = sorted(set(modes) - set(MODES))
    if unknown:
        parser.error(f"unknown mode(s) {', '.join(unknown)}; use: {', '.join(MODES)}")

    console = Console() if sys.stdout.isatty() else Console(width=140)
    fleet = build_fleet(args.simulated, args.seed)
    tasks = mixed_tasks(args.tasks, args.seed)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="secretary-placement-") as tmp:
        root = Path(tmp)
        slots = asyncio.run(survey(fleet, args.policy, root / "survey.db"))
        bound = lower_bound(slots, tasks, args.hour_s)
        console.print(
            f"{len(tasks):,} tasks of {len(KINDS)} kinds over {len(fleet.sites)} sites "
            f"({len(slots)} can run some kind); one simulated hour = {args.hour_s} s; "
            f"lower bound {bound:.2f} s"
        )
        columns = (
            TextColumn("{task.description:>8}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console) as progress:
            for mode in modes:
                results[mode] = run_mode(mode, fleet, slots, tasks, args, root, progress)
    _report(console, results, slots, bound, args)
    claims = results.get("claims")
    if claims is None:
        return 0
    met = claims["overcommits"] == 0 and claims["makespan"] <= TARGET * bound
    return 0 if met else 1


def _report(
    console: Console,
    results: dict[str, dict[str, Any]],
    slots: dict[str, dict[int, Slot]],
    bound: float,
    args: argparse.Namespace,
) -> None:
    summary = Table(title=f"{args.tasks:,} mixed tasks, policy {args.policy}: makespan")
    for col in ("Mode", "Makespan (s)", "Bound (s)", "Ratio", "Overcommits", "Sites used"):
        summary.add_column(col, justify="left" if col == "Mode" else "right")
    for mode, r in results.items():
        ratio = r["makespan"] / bound
        style = "green" if ratio <= TARGET and r["overcommits"] == 0 else "red"
        summary.add_row(
            mode,
            f"{r['makespan']:.2f}",
            f"{bound:.2f}",
            f"[{style}]{ratio:.2f}[/{style}]",
            str(r["overcommits"]),
            str(r["sites"]),
        )
    console.print(summary)

    per_site = Table(title="Per site: tasks sent, and peak load in flight / free capacity")
    per_site.add_column("Site")
    per_site.add_column("Free (nodes, cores, GPUs)", justify="right")
    for mode in results:
        per_site.add_column(f"{mode}: tasks", justify="right")
        per_site.add_column(f"{mode}: peak", justify="right")
    for site in sorted(slots):
        caps = {(s.partition, s.capacity) for s in slots[site].values()}
        free = "; ".join(
            f"{part}: " + ", ".join("?" if c == UNLIMITED else str(c) for c in cap[:3])
            for part, cap in sorted(caps)
        )
        row = [site, free]
        for r in results.values():
            peak = r["peak"].get(site)
            text = "-" if peak is None else ("BUSY" if peak == float("inf") else f"{peak:.2f}")
            if peak is not None and peak > 1:
                text = f"[red]{text}[/red]"
            row += [str(r["sent"].get(site, 0)), text]
        per_site.add_row(*row)
    console.print(per_site)
    console.print(
        "Peak: the largest share of a site's free capacity (the partition a kind runs in) that "
        "the executor had sent there at once, queued or running; above 1 is over its free "
        "slots. Overcommits: tasks sent to a site without room while another site able to run "
        f"them had room. Target for 'claims': no overcommit, makespan <= {TARGET} x bound."
    )


if __name__ == "__main__":
    raise SystemExit(main())
