"""Ground truth: can this simulated site run this requirement, judged from its state file?

This is deliberately a second, independent reading of the facts, written to be checked by eye:
it never calls the rules negotiator or its helpers (a test comparing the negotiator with itself
could not fail). It shares only :func:`providers.versions.satisfies_all`, the project's single
definition of version ordering, which has its own tests.

Definitions (see docs/architecture.md, "Verdicts"):

* NEEDS_INFORMATION: the requirement names nothing checkable.
* INCOMPATIBLE: some requirement can never be met here (named in ``unmet``).
* READY: everything can be met and a partition that fits the job has enough free nodes now.
* BUSY: everything can be met, but every fitting partition lacks free nodes: the job waits.

Urgency never changes the verdict: an urgent job on a full cluster is BUSY, not INCOMPATIBLE.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict

from providers.facts import (
    ContainerFacts,
    CPUFacts,
    GPUFacts,
    MemoryFacts,
    MPIFacts,
    NetworkFacts,
    Partition,
    SoftwareFacts,
    StorageFacts,
    WorkloadFacts,
)
from providers.state import SiteState
from providers.versions import satisfies_all
from providers.wire.common import Category
from providers.wire.proposal import Verdict
from providers.wire.requirements import ComputeRequirement, GpuLogic, Requirements, StorageKind

RDMA_FABRICS = {"infiniband", "omnipath", "slingshot"}
PARALLEL_FS = {"lustre", "gpfs", "beegfs"}
SAME_RUNTIME = {"apptainer": "singularity"}
"""Apptainer is the renamed Singularity: either name satisfies a request for the other."""
MACHINE_BUSY_LOAD = 0.95
"""A machine without a workload manager is free while its CPU load is below this."""


class Truth(BaseModel):
    """The expected verdict for one (site, requirement) pair, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict
    unmet: tuple[str, ...] = ()
    failing: tuple[Category, ...] = ()
    """Categories of the unmet requirements."""
    needed: tuple[Category, ...] = ()
    """Categories a full check of this requirement must look at (compute always)."""


class SiteFacts:
    """The state's facts by provider kind, validated once, with a package index.

    Build it once per site and pass it to :func:`evaluate` for every prompt: validating a
    large site's facts costs more than judging one request.
    """

    def __init__(self, state: SiteState) -> None:
        self.kinds: dict[str, list[Any]] = {}
        models = {
            "workload": WorkloadFacts,
            "software": SoftwareFacts,
            "container": ContainerFacts,
            "storage": StorageFacts,
            "network": NetworkFacts,
            "cpu": CPUFacts,
            "memory": MemoryFacts,
            "gpu": GPUFacts,
            "mpi": MPIFacts,
        }
        for entry in state.providers:
            facts = models[entry.kind].model_validate(entry.facts)
            self.kinds.setdefault(entry.kind, []).append(facts)
        self.versions: dict[str, list[str]] = {}
        """Package name (normalised) -> every version installed as that package."""
        for sw in self.of("software"):
            for p in sw.packages:
                self.versions.setdefault(_norm(p.name), []).append(p.version)

    def of(self, kind: str) -> list[Any]:
        return self.kinds.get(kind, [])


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def has_package(site: SiteFacts, name: str, constraints: tuple[Any, ...]) -> bool:
    """The package installed as itself (dependencies never count) in a satisfying version."""
    return any(satisfies_all(v, constraints) for v in site.versions.get(_norm(name), ()))


def partitions(site: SiteFacts) -> list[Partition]:
    """The workload manager's partitions, or the machine itself as one partition."""
    found = [p for w in site.of("workload") for p in w.partitions]
    if found or site.of("workload") or not site.of("cpu"):
        return found
    cpu = site.of("cpu")[0]
    mem = site.of("memory")[0].total_gb if site.of("memory") else 0.0
    gpus = site.of("gpu")[0].devices if site.of("gpu") else ()
    return [
        Partition(
            name="node",
            total_nodes=1,
            free_nodes=int(cpu.load_fraction < MACHINE_BUSY_LOAD),
            cpus_per_node=cpu.cores,
            memory_gb_per_node=mem,
            gpus_per_node=len(gpus),
            gpu_model=gpus[0].model if gpus else None,
        )
    ]


def nodes_for(c: ComputeRequirement, part: Partition) -> int:
    """Nodes the job takes on ``part``: as stated, else total cores spread, else one."""
    if c.nodes is not None:
        return c.nodes
    if c.total_cores is not None:
        return max(1, math.ceil(c.total_cores / (c.cores_per_node or part.cpus_per_node)))
    return 1


def fits(c: ComputeRequirement, part: Partition) -> bool:
    """Can ``part``'s node shape ever hold the job (ignoring who uses it now)?"""
    nodes = nodes_for(c, part)
    cores = c.cores_per_node or (math.ceil(c.total_cores / nodes) if c.total_cores else None)
    gpus = c.gpus_per_node if c.gpus_per_node is not None else (1 if c.gpu_model else 0)
    cpu_ok = cores is None or cores <= part.cpus_per_node
    gpu_ok = gpus == 0 or (
        part.gpus_per_node >= gpus
        and (c.gpu_model is None or c.gpu_model.lower() in (part.gpu_model or "").lower())
    )
    if cores is not None and gpus > 0 and c.gpu_logic is GpuLogic.OR:
        shape_ok = cpu_ok or gpu_ok
    else:
        shape_ok = cpu_ok and gpu_ok
    return (
        shape_ok
        and part.total_nodes >= nodes
        and (c.memory_gb_per_node is None or c.memory_gb_per_node <= part.memory_gb_per_node)
        and (
            c.walltime_s is None
            or part.max_walltime_s is None
            or c.walltime_s <= part.max_walltime_s
        )
    )


def fitting_partitions(c: ComputeRequirement, state: SiteState) -> list[Partition]:
    """The partitions of ``state`` whose shape can hold the job."""
    return [p for p in partitions(SiteFacts(state)) if fits(c, p)]


def evaluate(req: Requirements, state: SiteState | SiteFacts) -> Truth:
    """The expected verdict of ``req`` at the site described by ``state``.

    Raises:
        ValueError: the requirement has a budget; budgets depend on the negotiator's cost
            model and are not part of the simulated protocol.
    """
    if req.budget_usd is not None:
        raise ValueError("the ground truth does not judge budgets; drop budget_usd")
    if req.is_empty():
        return Truth(verdict=Verdict.NEEDS_INFORMATION)
    site = state if isinstance(state, SiteFacts) else SiteFacts(state)
    unmet: list[tuple[str, Category]] = []
    needed: list[Category] = []

    for sw in req.software:
        needed.append(Category.SOFTWARE)
        if not has_package(site, sw.name, sw.constraints):
            unmet.append((f"software {sw}", Category.SOFTWARE))

    compute_category = Category.WORKLOAD if site.of("workload") else Category.HARDWARE
    needed.append(compute_category)
    good = [p for p in partitions(site) if fits(req.compute, p)]
    if not good:
        unmet.append(("compute", compute_category))

    if req.network is not None:
        n = req.network
        needed.append(Category.NETWORK)
        ok = any(
            i.state != "down"
            and (n.fabric is None or i.fabric == n.fabric.value)
            and (not n.low_latency or i.rdma or i.fabric in RDMA_FABRICS)
            and (n.min_speed_gbps is None or (i.speed_gbps or 0) >= n.min_speed_gbps)
            for net in site.of("network")
            for i in net.interfaces
        )
        if not ok:
            unmet.append(("network", Category.NETWORK))

    for st in req.storage:
        needed.append(Category.STORAGE)
        ok = any(
            (
                st.kind is StorageKind.ANY
                or fs.kind == st.kind.value
                or (st.kind is StorageKind.PARALLEL and fs.kind in PARALLEL_FS)
            )
            and (st.min_free_gb is None or fs.free_gb >= st.min_free_gb)
            for s in site.of("storage")
            for fs in s.filesystems
        )
        if not ok:
            unmet.append((f"storage {st.kind.value}", Category.STORAGE))

    if req.container is not None:
        c = req.container
        needed.append(Category.CONTAINER)
        want = SAME_RUNTIME.get(_norm(c.runtime), _norm(c.runtime))
        ok = any(
            (want == "any" or SAME_RUNTIME.get(_norm(r.runtime), _norm(r.runtime)) == want)
            and (r.rootless or not c.rootless)
            and (
                not c.constraints
                or (
                    _norm(r.runtime) == _norm(c.runtime)
                    and r.version is not None
                    and satisfies_all(r.version, c.constraints)
                )
            )
            for r in site.of("container")
        )
        if not ok:
            unmet.append((f"container {c.runtime}", Category.CONTAINER))

    if req.mpi is not None:
        m = req.mpi
        needed.append(Category.PARALLEL)
        want_mpi = _norm(m.implementation) if m.implementation else None
        ok = any(
            (want_mpi is None or _norm(i.implementation) == want_mpi)
            and (
                not m.constraints
                or (i.version is not None and satisfies_all(i.version, m.constraints))
            )
            for i in site.of("mpi")
        ) or (want_mpi is not None and has_package(site, want_mpi, m.constraints))
        if not ok:
            unmet.append((f"mpi {m.implementation or 'any'}", Category.PARALLEL))

    needed_unique = tuple(dict.fromkeys(needed))
    if unmet:
        return Truth(
            verdict=Verdict.INCOMPATIBLE,
            unmet=tuple(u for u, _ in unmet),
            failing=tuple(dict.fromkeys(cat for _, cat in unmet)),
            needed=needed_unique,
        )
    ready = any(p.free_nodes >= nodes_for(req.compute, p) for p in good)
    return Truth(verdict=Verdict.READY if ready else Verdict.BUSY, needed=needed_unique)
