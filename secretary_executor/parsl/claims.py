"""Claims: what each task in flight takes from the free capacity its site's proposal reported.

A proposal says how many nodes of the chosen partition are free (``Metrics.free_nodes``) and, in
the evidence of its compute check, the shape of those nodes (the partition's ``cpus_per_node``,
``gpus_per_node`` and ``memory_gb_per_node`` as ``list_partitions`` reported them). That is the
site's free capacity when it answered. Without claims, a cache hit sends every task to the
first-ranked site whatever is already running there, so twenty one-node tasks all land on a
one-node site. With claims, each placement takes its share of that capacity and gives it back
when the task ends, so the next task goes to the next-ranked site that still has room.

Capacity is kept per (site, partition) in a :class:`Pool` of four integer counters: whole
nodes, cores, GPUs and memory (MB). A counter whose capacity the proposal did not state is
unlimited (-1). A task's :data:`Claim` is taken from its requirements and the node shape:

* ``nodes`` given: whole nodes, so it takes those nodes and all their cores (a node given to
  an MPI job is not shared), plus the GPUs and memory it asks for;
* no ``nodes``: part of a node: the cores (``total_cores`` or ``cores_per_node``, else one),
  GPUs and memory it asks for. Where the node shape is unknown it takes one node instead.

A fresh negotiation replaces a pool's capacity with the new proposal's figures and keeps the
claims in flight, so the executor's own running tasks count against what the site reported.
That errs on the safe side for a site whose report already includes them.

Everything here runs under one lock that :class:`Placer` owns; taking or giving back a claim
is a few integer operations, since it happens on the executor's cache-hit path.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, TypeAlias

from providers.wire import Proposal, Requirements
from secretary_executor.errors import ConfigurationError

Claim: TypeAlias = tuple[int, int, int, int]
"""What one task takes: (whole nodes, cores, GPUs, memory in MB)."""

Placement = Literal["pack", "spread"]
WhenFull = Literal["queue", "wait", "renegotiate"]
PLACEMENTS: tuple[str, ...] = ("pack", "spread")
WHEN_FULL: tuple[str, ...] = ("queue", "wait", "renegotiate")

UNLIMITED = -1
"""A capacity the proposal did not state: never the reason a task is refused."""

DEFAULT_WALLTIME_S = 3600.0
"""How long a task that states no walltime is taken to run, when queues are compared."""

HOLD = -1
""":meth:`Placer.acquire`: no site has room now; hold the task until a claim is given back."""
NONE_LEFT = -2
""":meth:`Placer.acquire`: every candidate was tried (or none could ever take the task)."""


class Shape:
    """The node shape of a proposal's partition, where the proposal's evidence states it."""

    __slots__ = ("cores", "gpus", "memory_mb")

    def __init__(self, cores: int | None, gpus: int | None, memory_mb: int | None) -> None:
        self.cores = cores
        self.gpus = gpus
        self.memory_mb = memory_mb


def node_shape(proposal: Proposal) -> Shape:
    """The shape of one node of the proposal's partition, from its ``list_partitions`` evidence.

    The partition is ``metrics.partition`` (of ``metrics.provider`` when given). Unknown
    fields are None: a site that reported no partitions has no known shape.
    """
    metrics = proposal.metrics
    name = metrics.partition
    if name is not None:
        for check in proposal.checks:
            for evidence in check.evidence:
                if evidence.tool != "list_partitions" or not isinstance(evidence.result, list):
                    continue
                if metrics.provider is not None and evidence.provider != metrics.provider:
                    continue
                for part in evidence.result:
                    if isinstance(part, dict) and part.get("name") == name:
                        return Shape(
                            _count(part.get("cpus_per_node")),
                            _count(part.get("gpus_per_node")),
                            _megabytes(part.get("memory_gb_per_node")),
                        )
    return Shape(None, None, None)


def _count(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return int(value)


def _megabytes(gb: object) -> int | None:
    if isinstance(gb, bool) or not isinstance(gb, int | float) or gb < 0:
        return None
    return math.ceil(gb * 1024)


def _nodes_of(nodes: int | None, shape: Shape) -> Claim:
    """``nodes`` nodes of ``shape`` as (nodes, cores, GPUs, MB); -1 where it is not stated."""
    if nodes is None:
        return (UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED)
    return (
        nodes,
        UNLIMITED if shape.cores is None else nodes * shape.cores,
        UNLIMITED if shape.gpus is None else nodes * shape.gpus,
        UNLIMITED if shape.memory_mb is None else nodes * shape.memory_mb,
    )


def free_capacity(proposal: Proposal, shape: Shape) -> Claim:
    """The proposal's free capacity as (nodes, cores, GPUs, MB); -1 where it is not stated."""
    return _nodes_of(proposal.metrics.free_nodes, shape)


def total_capacity(proposal: Proposal, shape: Shape) -> Claim:
    """The partition's whole capacity (how fast a queue there drains); -1 where unknown."""
    return _nodes_of(proposal.metrics.total_nodes, shape)


def claim_of(requirements: Requirements, shape: Shape) -> Claim:
    """What a task with these requirements takes at a partition of this node shape."""
    c = requirements.compute
    memory_gb = (
        c.memory_gb_total
        if c.memory_gb_total is not None
        else (c.memory_gb_per_node or 0.0) * c.node_count
    )
    memory = math.ceil(memory_gb * 1024)
    gpus = c.total_gpus if c.total_gpus is not None else (c.gpus_per_node or 0) * c.node_count
    if c.nodes is not None:
        cores = (
            c.nodes * shape.cores if shape.cores is not None else (c.cores_per_node or 1) * c.nodes
        )
        return (c.nodes, cores, gpus, memory)
    cores = c.total_cores or c.cores_per_node or 1
    if shape.cores is None:
        return (1, cores, gpus, memory)  # part of a node of unknown size: count it as one node
    return (0, cores, gpus, memory)


class Pool:
    """The free capacity of one (site, partition) and what this executor's tasks hold of it."""

    __slots__ = ("cap", "drain", "held", "load", "site", "start_s", "work")

    def __init__(self, site: str, load: SiteLoad) -> None:
        self.site = site
        self.load = load
        self.cap: Claim = (UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED)
        self.drain: Claim = (1, 1, 1, 1)
        """Capacity by which a queue here is taken to drain (free, else total, else 1)."""
        self.held = [0, 0, 0, 0]
        self.work = [0.0, 0.0, 0.0, 0.0]
        """What is held, times each holder's walltime (e.g. core-seconds)."""
        self.start_s = 0.0

    def update(self, proposal: Proposal, shape: Shape) -> None:
        """Take the capacity from a fresh proposal (claims in flight stay)."""
        self.cap = free_capacity(proposal, shape)
        total = total_capacity(proposal, shape)
        self.drain = tuple(  # type: ignore[assignment]
            f if f > 0 else (t if t > 0 else 1) for f, t in zip(self.cap, total, strict=True)
        )
        self.start_s = proposal.metrics.estimated_start_s or 0.0

    def fits(self, claim: Claim) -> bool:
        """True when the claim fits beside what is held now."""
        held, cap = self.held, self.cap
        # Unrolled: this runs for every task placed from the cache.
        return (
            (cap[0] < 0 or held[0] + claim[0] <= cap[0])
            and (cap[1] < 0 or held[1] + claim[1] <= cap[1])
            and (cap[2] < 0 or held[2] + claim[2] <= cap[2])
            and (cap[3] < 0 or held[3] + claim[3] <= cap[3])
        )

    def could_fit(self, claim: Claim) -> bool:
        """True when the claim fits once every claim held here is given back."""
        return all(cap < 0 or need <= cap for cap, need in zip(self.cap, claim, strict=True))

    def used(self) -> float:
        """The largest share of a stated capacity that is held (0 when nothing is stated)."""
        share = 0.0
        for cap, held in zip(self.cap, self.held, strict=True):
            if cap > 0:
                share = max(share, held / cap)
            elif cap == 0 and held:
                share = math.inf
        return share

    def start_after(self, claim: Claim, walltime_s: float) -> float:
        """When a task with this claim would start here if it were sent now (seconds).

        The proposal's estimated start, plus, where the task does not fit beside what is held,
        the time to work off what this executor has sent here (its claims times their
        walltimes) at the rate the capacity drains, less the task's own walltime. Tasks of
        this size fit a whole number of times: four-node tasks on five free nodes drain at
        four nodes, not five.
        """
        wait = 0.0
        for i in range(4):
            cap = self.cap[i]
            need = claim[i]
            if cap < 0 or self.held[i] + need <= cap:
                continue
            drain = self.drain[i]
            if 0 < need <= cap:  # tasks of this size use whole multiples of it at once
                drain = cap // need * need
            wait = max(wait, (self.work[i] + need * walltime_s) / drain - walltime_s)
        return self.start_s + wait


class SiteLoad:
    """Tasks of this executor in flight at one site, against its ``max_in_flight``."""

    __slots__ = ("count", "limit")

    def __init__(self, limit: int | None) -> None:
        self.count = 0
        self.limit = limit


class Binding:
    """A negotiation's candidates bound to their pools: what each of its tasks claims where."""

    __slots__ = ("claims", "pools", "walltime_s")

    def __init__(self, pools: Sequence[Pool], claims: Sequence[Claim], walltime_s: float) -> None:
        self.pools = tuple(pools)
        self.claims = tuple(claims)
        self.walltime_s = walltime_s


class Placer:
    """Chooses a candidate with room and keeps the claims; thread-safe.

    Args:
        enabled: False places like a cache without claims did: always the first untried
            candidate, nothing counted (for comparison in benchmarks).
        placement: ``pack`` fills candidates in ranking order (the policy's preference);
            ``spread`` takes the candidate with room whose capacity is least used.
        when_full: what :meth:`acquire` does when no candidate has room (see the executor).
        max_in_flight: a limit of tasks in flight per site: one for all, or site -> limit;
            None (or a site left out) is no limit beyond capacity.

    Raises:
        ConfigurationError: an unknown placement or ``when_full``, or a limit below 1.
    """

    def __init__(
        self,
        *,
        enabled: bool = True,
        placement: str = "pack",
        when_full: str = "queue",
        max_in_flight: int | Mapping[str, int] | None = None,
    ) -> None:
        if placement not in PLACEMENTS:
            raise ConfigurationError(
                f"unknown placement {placement!r}; use one of: {', '.join(PLACEMENTS)}"
            )
        if when_full not in WHEN_FULL:
            raise ConfigurationError(
                f"unknown when_full {when_full!r}; use one of: {', '.join(WHEN_FULL)}"
            )
        limits = _limits(max_in_flight)
        self.enabled = enabled
        self.spread = placement == "spread"
        self.when_full = when_full
        self._limits = limits
        self._default_limit = max_in_flight if isinstance(max_in_flight, int) else None
        self._pools: dict[tuple[str, str], Pool] = {}
        self._loads: dict[str, SiteLoad] = {}
        self.lock = threading.Lock()
        self.releases = 0
        """Claims given back so far (read without the lock to notice a release in between)."""

    def bind(self, candidates: Iterable[Proposal], requirements: Requirements) -> Binding:
        """Bind a fresh negotiation's candidates to their pools, updating each pool's capacity."""
        pools: list[Pool] = []
        claims: list[Claim] = []
        with self.lock:
            for proposal in candidates:
                key = (proposal.site, proposal.metrics.partition or "")
                pool = self._pools.get(key)
                if pool is None:
                    pool = self._pools[key] = Pool(proposal.site, self._load(proposal.site))
                shape = node_shape(proposal)
                pool.update(proposal, shape)
                pools.append(pool)
                claims.append(claim_of(requirements, shape))
        walltime = float(requirements.compute.walltime_s or DEFAULT_WALLTIME_S)
        return Binding(pools, claims, walltime)

    def _load(self, site: str) -> SiteLoad:
        load = self._loads.get(site)
        if load is None:
            limit = self._limits.get(site, self._default_limit)
            load = self._loads[site] = SiteLoad(limit)
        return load

    def acquire(
        self, binding: Binding, tried: Iterable[str] = (), *, refreshed: bool = False
    ) -> int:
        """Take a claim at the candidate to send the task to; its index.

        Args:
            binding: the negotiation's candidates.
            tried: sites the task already failed at (skipped).
            refreshed: the binding comes from a negotiation made because a held task found no
                room (``when_full="renegotiate"``): if there is still none, the task queues.

        Returns:
            The index of the chosen candidate (its claim is now held); :data:`HOLD` when the
            task should wait for a release; :data:`NONE_LEFT` when no untried candidate is left.
        """
        pools, claims = binding.pools, binding.claims
        if not self.enabled:
            for i, pool in enumerate(pools):
                if pool.site not in tried:
                    return i
            return NONE_LEFT
        with self.lock:
            left = limited = False
            chosen, chosen_used = -1, math.inf
            for i, pool in enumerate(pools):
                if tried and pool.site in tried:
                    continue
                left = True
                load = pool.load
                if load.limit is not None and load.count >= load.limit:
                    limited = True
                    continue
                if not pool.fits(claims[i]):
                    continue
                if not self.spread:
                    self._take(pool, claims[i], binding.walltime_s)
                    return i
                used = pool.used()
                if used < chosen_used:
                    chosen, chosen_used = i, used
            if chosen >= 0:
                self._take(pools[chosen], claims[chosen], binding.walltime_s)
                return chosen
            if not left:
                return NONE_LEFT
            if self.when_full == "wait" and (limited or self._may_wait(binding, tried)):
                return HOLD
            if self.when_full == "renegotiate" and not refreshed:
                return HOLD  # the executor renegotiates once the cached view is stale
            queued = self._queue(binding, tried)
            return HOLD if queued < 0 else queued  # < 0: every untried site is at its limit

    def _may_wait(self, binding: Binding, tried: Iterable[str]) -> bool:
        """True when a release may make room: some site that could take the task holds claims."""
        for pool, claim in zip(binding.pools, binding.claims, strict=True):
            if pool.site in tried:
                continue
            if pool.could_fit(claim) and any(pool.held):
                return True
        return False

    def _queue(self, binding: Binding, tried: Iterable[str]) -> int:
        """Queue past capacity at the candidate whose estimated start is soonest."""
        best, best_start = NONE_LEFT, math.inf
        for i, pool in enumerate(binding.pools):
            if pool.site in tried:
                continue
            load = pool.load
            if load.limit is not None and load.count >= load.limit:
                continue
            start = pool.start_after(binding.claims[i], binding.walltime_s)
            if start < best_start:
                best, best_start = i, start
        if best >= 0:
            self._take(binding.pools[best], binding.claims[best], binding.walltime_s)
        return best

    def _take(self, pool: Pool, claim: Claim, walltime_s: float) -> None:
        held, work = pool.held, pool.work
        held[0] += claim[0]
        held[1] += claim[1]
        held[2] += claim[2]
        held[3] += claim[3]
        work[0] += claim[0] * walltime_s
        work[1] += claim[1] * walltime_s
        work[2] += claim[2] * walltime_s
        work[3] += claim[3] * walltime_s
        pool.load.count += 1

    def release(self, binding: Binding, index: int) -> None:
        """Give back the claim taken at candidate ``index`` (once per :meth:`acquire`)."""
        if not self.enabled:
            return
        pool = binding.pools[index]
        claim = binding.claims[index]
        walltime_s = binding.walltime_s
        with self.lock:
            held, work = pool.held, pool.work
            held[0] -= claim[0]
            held[1] -= claim[1]
            held[2] -= claim[2]
            held[3] -= claim[3]
            work[0] -= claim[0] * walltime_s
            work[1] -= claim[1] * walltime_s
            work[2] -= claim[2] * walltime_s
            work[3] -= claim[3] * walltime_s
            pool.load.count -= 1
            self.releases += 1

    def in_flight(self) -> dict[str, int]:
        """Site -> tasks of this executor in flight there (a snapshot)."""
        with self.lock:
            return {site: load.count for site, load in self._loads.items() if load.count}


def _limits(max_in_flight: int | Mapping[str, int] | None) -> dict[str, int]:
    if max_in_flight is None:
        return {}
    if isinstance(max_in_flight, Mapping):
        limits = dict(max_in_flight)
    elif isinstance(max_in_flight, int) and not isinstance(max_in_flight, bool):
        limits = {}
        if max_in_flight < 1:
            raise ConfigurationError(
                f"max_in_flight must be at least 1 (or None for no limit), not {max_in_flight}"
            )
        return limits
    else:
        raise ConfigurationError(
            "max_in_flight must be None, a number of tasks, or a mapping site -> number, "
            f"not {max_in_flight!r}"
        )
    for site, limit in limits.items():
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ConfigurationError(
                f"max_in_flight[{site!r}] must be a whole number of tasks >= 1, not {limit!r}"
            )
    return limits
