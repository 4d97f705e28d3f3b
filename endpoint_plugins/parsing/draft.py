"""What the extractors found, before it is checked and frozen into a ``Requirements``.

Extractors only record what the text said, in the order it said it. Deciding what a mention
means (is "8 GPUs" per node? does "64 GB" cover all nodes?) needs the whole request, so it
happens once, here, in :meth:`Draft.build_compute`. Later mentions that contradict earlier
ones are kept as notes in ``unparsed`` instead of silently overwriting or being dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

from providers.wire.requirements import (
    ComputeRequirement,
    ContainerRequirement,
    Fabric,
    GpuLogic,
    MPIRequirement,
    NetworkRequirement,
    SoftwareRequirement,
    StorageKind,
    StorageRequirement,
    Urgency,
    VersionConstraint,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Mention(Generic[T]):
    """A value and the words it came from (shown back to the user when it is not used)."""

    value: T
    text: str


@dataclass(frozen=True)
class Count:
    """A count of cores or GPUs, with the scope the text gave it."""

    value: int
    text: str
    per_node: bool


@dataclass
class ComputeDraft:
    """Every compute mention, unresolved."""

    nodes: list[Mention[int]] = field(default_factory=list)
    cores: list[Count] = field(default_factory=list)
    gpus: list[Count] = field(default_factory=list)
    gpu_mentioned: bool = False
    cpu_only: Mention[bool] | None = None
    gpu_or: bool = False
    gpu_models: list[Mention[str]] = field(default_factory=list)
    memory_per_node: list[Mention[float]] = field(default_factory=list)
    memory_total: list[Mention[float]] = field(default_factory=list)
    memory_per_core: list[Mention[float]] = field(default_factory=list)
    walltime: list[Mention[int]] = field(default_factory=list)


@dataclass
class Draft:
    """Everything found so far, plus notes on what could not be used."""

    software: dict[str, list[VersionConstraint]] = field(default_factory=dict)
    compute: ComputeDraft = field(default_factory=ComputeDraft)
    fabric: Mention[Fabric] | None = None
    low_latency: bool = False
    speed_gbps: Mention[float] | None = None
    storage: dict[StorageKind, float | None] = field(default_factory=dict)
    container: ContainerRequirement | None = None
    rootless: bool = False
    mpi: MPIRequirement | None = None
    mpi_implied: bool = False
    urgency: Mention[Urgency] | None = None
    deadline: Mention[datetime] | None = None
    budget: Mention[float] | None = None
    notes: list[str] = field(default_factory=list)

    # -- recording ---------------------------------------------------------------------------

    def add_software(self, name: str, constraints: list[VersionConstraint]) -> None:
        """Record a package; a second mention adds its constraints to the first."""
        have = self.software.setdefault(name, [])
        have.extend(c for c in constraints if c not in have)

    def add_storage(self, kind: StorageKind, size_gb: float | None) -> None:
        """Record a storage kind; repeated mentions keep the largest size asked for."""
        old = self.storage.get(kind)
        if kind not in self.storage or old is None:
            self.storage[kind] = size_gb
        elif size_gb is not None:
            self.storage[kind] = max(old, size_gb)

    def set_fabric(self, fabric: Fabric, text: str) -> None:
        """Keep the first fabric named; a different later one is reported, not used."""
        if self.fabric is None:
            self.fabric = Mention(fabric, text)
        elif self.fabric.value is not fabric:
            self.conflict(text, self.fabric.text)

    def set_speed(self, gbps: float, text: str) -> None:
        """Keep the first link speed named; a different later one is reported, not used."""
        if self.speed_gbps is None:
            self.speed_gbps = Mention(gbps, text)
        elif self.speed_gbps.value != gbps:
            self.conflict(text, self.speed_gbps.text)

    def set_container(self, runtime: str, constraints: list[VersionConstraint], text: str) -> None:
        """Keep the first named runtime; a named one replaces a generic "container"."""
        current = self.container
        if current is None or (current.runtime == "any" and runtime != "any"):
            self.container = ContainerRequirement(runtime=runtime, constraints=tuple(constraints))
        elif runtime not in ("any", current.runtime):
            self.conflict(text, current.runtime)
        elif runtime == current.runtime and constraints:
            merged = _merge(current.constraints, constraints)
            self.container = current.model_copy(update={"constraints": merged})

    def set_mpi(
        self, implementation: str | None, constraints: list[VersionConstraint], text: str
    ) -> None:
        """Keep the first named MPI; a named one replaces a generic "with MPI"."""
        current = self.mpi
        if current is None or (current.implementation is None and implementation is not None):
            self.mpi = MPIRequirement(implementation=implementation, constraints=tuple(constraints))
        elif implementation is not None and implementation != current.implementation:
            self.conflict(text, current.implementation or "MPI")
        elif implementation == current.implementation and constraints:
            self.mpi = current.model_copy(
                update={"constraints": _merge(current.constraints, constraints)}
            )

    def conflict(self, text: str, kept: str) -> None:
        """Note words that contradict an earlier part of the request."""
        self.notes.append(f"{_clean(text)} (conflicts with {_clean(kept)}; not used)")

    # -- resolving ---------------------------------------------------------------------------

    def build_compute(self) -> ComputeRequirement:
        """Turn the compute mentions into one allocation shape (see module docstring)."""
        c = self.compute
        nodes = self._first(c.nodes)
        cores_per_node = self._first_count(c.cores, per_node=True)
        total_cores = self._first_count(c.cores, per_node=False)
        gpus = self._gpus(nodes)
        model = self._first(c.gpu_models)
        memory = self._memory(nodes, cores_per_node, total_cores)
        walltime = self._first(c.walltime)
        logic = GpuLogic.OR if c.gpu_or and gpus else GpuLogic.AND
        return ComputeRequirement(
            nodes=nodes,
            cores_per_node=cores_per_node,
            total_cores=total_cores,
            gpus_per_node=gpus,
            gpu_logic=logic,
            gpu_model=model,
            memory_gb_per_node=memory,
            walltime_s=walltime,
        )

    def build_network(self) -> NetworkRequirement | None:
        """A network requirement, or None when the request named no fabric, latency or speed."""
        fabric = self.fabric.value if self.fabric else None
        speed = self.speed_gbps.value if self.speed_gbps else None
        if fabric is None and not self.low_latency and speed is None:
            return None
        return NetworkRequirement(fabric=fabric, low_latency=self.low_latency, min_speed_gbps=speed)

    def build_storage(self) -> tuple[StorageRequirement, ...]:
        """One storage requirement per kind, in the order the kinds were named."""
        return tuple(StorageRequirement(kind=k, min_free_gb=v) for k, v in self.storage.items())

    def build_container(self) -> ContainerRequirement | None:
        """The container, with "rootless" applied wherever in the text it was said."""
        if self.container is None and not self.rootless:
            return None
        container = self.container or ContainerRequirement(runtime="any")
        return container.model_copy(update={"rootless": self.rootless or container.rootless})

    def build_mpi(self) -> MPIRequirement | None:
        """The MPI asked for, or "any MPI" when only MPI ranks were counted."""
        if self.mpi is None and self.mpi_implied:
            return MPIRequirement()
        return self.mpi

    def build_software(self) -> tuple[SoftwareRequirement, ...]:
        """One entry per package, constraints merged (the wire model rejects duplicates)."""
        return tuple(
            SoftwareRequirement(name=name, constraints=tuple(cons))
            for name, cons in self.software.items()
        )

    def _first(self, mentions: list[Mention[T]]) -> T | None:
        """The first value mentioned; later different values are reported as conflicts."""
        if not mentions:
            return None
        first = mentions[0]
        for later in mentions[1:]:
            if later.value != first.value:
                self.conflict(later.text, first.text)
        return first.value

    def _first_count(self, counts: list[Count], *, per_node: bool) -> int | None:
        chosen = [Mention(c.value, c.text) for c in counts if c.per_node is per_node]
        return self._first(chosen)

    def _gpus(self, nodes: int | None) -> int | None:
        """GPUs per node: per-node counts win; a bare total is spread over the known nodes.

        "8 GPUs" with "2 nodes" is 4 per node (rounded up); with no node count it is 8 on the
        one node a request gets by default. "CPU only" is zero, and GPU counts then conflict.
        """
        c = self.compute
        if c.cpu_only is not None:
            for count in c.gpus:
                if count.value:
                    self.conflict(count.text, c.cpu_only.text)
            return 0
        per_node = self._first_count(c.gpus, per_node=True)
        total = [Mention(g.value, g.text) for g in c.gpus if not g.per_node]
        if per_node is not None:
            for mention in total:
                if mention.value != per_node * (nodes or 1):
                    self.conflict(mention.text, f"{per_node} GPUs per node")
            return per_node
        first_total = self._first(total)
        if first_total is not None:
            return math.ceil(first_total / nodes) if nodes else first_total
        return 1 if c.gpu_mentioned else None

    def _memory(
        self, nodes: int | None, cores_per_node: int | None, total_cores: int | None
    ) -> float | None:
        """Memory per node. Unscoped sizes are per node, as Slurm's ``--mem`` is.

        A per-node size wins over a total, which wins over a per-core size; a lower-ranked
        size that disagrees with the one used is reported, not silently ignored.
        """
        c = self.compute
        cores = cores_per_node or (math.ceil(total_cores / (nodes or 1)) if total_cores else None)
        candidates = [(m.value, m.text) for m in c.memory_per_node]
        candidates += [(round(m.value / (nodes or 1), 6), m.text) for m in c.memory_total]
        for m in c.memory_per_core:
            if cores is None:
                self.notes.append(f"{_clean(m.text)} (no core count to multiply; not used)")
            else:
                candidates.append((round(m.value * cores, 6), m.text))
        return self._first([Mention(value, text) for value, text in candidates])


def _merge(
    have: tuple[VersionConstraint, ...], more: list[VersionConstraint]
) -> tuple[VersionConstraint, ...]:
    return (*have, *(c for c in more if c not in have))


def _clean(text: str) -> str:
    """Words as the user wrote them, on one line, without blanked spans."""
    return " ".join(text.replace("\x00", " ").split())[:80]
