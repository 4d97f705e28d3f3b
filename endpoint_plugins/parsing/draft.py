"""What the extractors found, before it is checked and frozen into a ``Requirements``.

Extractors only record what the text said, in the order it said it. Deciding what a mention
means (is "8 GPUs" per node? does "64 GB" cover all nodes?) needs the whole request, so it
happens once, here, in :meth:`Draft.build_compute`. Later mentions that contradict earlier
ones are kept as notes in ``unparsed`` instead of silently overwriting or being dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

from endpoint_plugins.parsing.constraints import build_tag
from providers.wire.requirements import (
    Comparator,
    ComputeRequirement,
    ContainerRequirement,
    Fabric,
    Feature,
    GpuLogic,
    GpuVendor,
    MPIRequirement,
    NetworkRequirement,
    SoftwareChoice,
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
    """A count of cores or GPUs, with the scope the text gave it.

    ``per_node`` and ``total`` say what the text said; neither means no scope was given, which
    is resolved once the whole request is known (see :meth:`Draft.build_compute`).
    """

    value: int
    text: str
    per_node: bool
    total: bool = False


@dataclass
class ComputeDraft:
    """Every compute mention, unresolved."""

    nodes: list[Mention[int]] = field(default_factory=list)
    cores: list[Count] = field(default_factory=list)
    gpus: list[Count] = field(default_factory=list)
    gpu_mentioned: bool = False
    cpu_only: Mention[bool] | None = None
    gpu_or: bool = False
    cpu_fallback: bool = False
    """CPUs named as a fallback apart from any GPU phrase ("works on CPU too")."""
    gpu_not_required: Mention[bool] | None = None
    """A spec's ``gpu_required: false``: GPUs are an option when it asks for some, else none."""
    gpu_models: list[Mention[str]] = field(default_factory=list)
    gpu_model_choice: bool = False
    """Two models offered as alternatives ("H100 or A100"): neither is required."""
    memory_per_node: list[Mention[float]] = field(default_factory=list)
    memory_total: list[Mention[float]] = field(default_factory=list)
    memory_per_core: list[Mention[float]] = field(default_factory=list)
    walltime: list[Mention[int]] = field(default_factory=list)
    gpu_vendor: list[Mention[GpuVendor]] = field(default_factory=list)


@dataclass
class Draft:
    """Everything found so far, plus notes on what could not be used."""

    software: dict[str, list[VersionConstraint]] = field(default_factory=dict)
    variants: dict[str, list[str]] = field(default_factory=dict)
    software_spans: list[tuple[int, int, str]] = field(default_factory=list)
    """Where each package was named, for telling "A or B" from "A and B"."""
    alternatives: list[list[str]] = field(default_factory=list)
    """Groups of package names (keys of ``software``) of which any one will do."""
    version_choices: list[tuple[str, list[str]]] = field(default_factory=list)
    """"python 3.10 or 3.11": a package and the exact versions any of which will do."""
    variant_choices: list[tuple[str, list[str]]] = field(default_factory=list)
    """"WarpX, either the CUDA build or the HIP build": a package and the builds any of which
    will do (requiring both would turn away every site, none builds it both ways at once)."""
    name_spans: list[tuple[int, int]] = field(default_factory=list)
    """Text spans whose words name packages (the value of ``software=``), for the open
    vocabulary."""
    pending_container_constraints: list[VersionConstraint] = field(default_factory=list)
    """A container version given before the runtime was named (``container_min_version``)."""
    module_items: list[str] = field(default_factory=list)
    """Items of ``module load`` lines, each naming a package (read by the software stage)."""
    compute: ComputeDraft = field(default_factory=ComputeDraft)
    fabric: Mention[Fabric] | None = None
    low_latency: bool = False
    speed_gbps: Mention[float] | None = None
    storage: dict[StorageKind, float | None] = field(default_factory=dict)
    scratch_sized: bool = False
    """A size was said of scratch or disk ("2 TB of scratch"): no object store's free space."""
    container: ContainerRequirement | None = None
    rootless: bool = False
    mpi: MPIRequirement | None = None
    mpi_implied: bool = False
    runtime_spots: dict[str, list[int]] = field(default_factory=dict)
    """Where the MPI library ("mpi") or container runtime ("container") was named in prose, when
    no earlier stage had set it: the software stage drops one named only in pasted output."""
    urgency: Mention[Urgency] | None = None
    deadline: Mention[datetime] | None = None
    budget: Mention[float] | None = None
    deadline_within_s: int | None = None
    excluded: list[Feature] = field(default_factory=list)
    refused_fabrics: list[str] = field(default_factory=list)
    """Fabrics named as not wanted ("but not Slingshot"): see :meth:`build_excluded`."""
    unresolved: list[str] = field(default_factory=list)
    """Requirement-like phrases that no extractor could read (they block READY)."""
    notes: list[str] = field(default_factory=list)

    # -- recording ---------------------------------------------------------------------------

    def add_software(
        self,
        name: str,
        constraints: list[VersionConstraint],
        span: tuple[int, int] | None = None,
        variants: list[str] | None = None,
    ) -> None:
        """Record a package; a second mention adds its constraints and variants to the first.

        A build tag after a version ("relion/5.0-cuda") is a variant, not part of the version.
        """
        constraints, tagged = _untagged(constraints)
        variants = [*(variants or ()), *(v for v in tagged if v not in (variants or ()))]
        have = self.software.setdefault(name, [])
        have.extend(c for c in constraints if c not in have)
        if variants:
            known = self.variants.setdefault(name, [])
            known.extend(v for v in variants if v not in known)
        if span is not None:
            self.software_spans.append((span[0], span[1], name))

    def exclude(self, feature: Feature) -> None:
        """Record that the request says the job does not need ``feature``."""
        if feature not in self.excluded:
            self.excluded.append(feature)

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
        if c.gpu_not_required is not None and c.cpu_only is None:
            if any(g.value for g in c.gpus) or c.gpu_mentioned or c.gpu_models:
                c.gpu_or = True  # "gpus": 2, "gpu_required": false: the GPUs are an option
            else:
                c.cpu_only = c.gpu_not_required  # no GPU asked for: "no GPU needed"
                self.exclude(Feature.GPU)
        if c.cpu_fallback and (c.gpu_mentioned or c.gpus) and c.cpu_only is None:
            c.gpu_or = True  # "runs on NVIDIA GPUs ... works on CPU too": GPUs are an option
        nodes = self._first(c.nodes)
        cores_per_node = self._first_count(c.cores, per_node=True)
        total_cores = self._first_count(c.cores, per_node=False)
        gpus, total_gpus = self._gpus(nodes)
        model = None if c.gpu_model_choice else self._first(c.gpu_models)
        vendor = self._first(c.gpu_vendor)
        memory = self._memory(nodes, cores_per_node, total_cores)
        memory_total = self._first(c.memory_total)
        if memory is not None and memory_total is not None:
            if nodes is None or round(memory * nodes, 3) != round(memory_total, 3):
                first = c.memory_total[0]
                self.conflict(first.text, f"{memory:g} GB per node")
            memory_total = None
        walltime = self._first(c.walltime)
        logic = GpuLogic.OR if c.gpu_or and gpus != 0 else GpuLogic.AND
        return ComputeRequirement(
            nodes=nodes,
            cores_per_node=cores_per_node,
            total_cores=total_cores,
            gpus_per_node=gpus,
            total_gpus=total_gpus,
            gpu_logic=logic,
            gpu_model=model,
            gpu_vendor=vendor,
            memory_gb_per_node=memory,
            memory_gb_total=memory_total,
            walltime_s=walltime,
        )

    def build_excluded(self) -> tuple[Feature, ...]:
        """What the job does not need or must not use.

        A fabric refused by name ("no Slingshot") excludes low latency, unless the request asks
        for another low-latency fabric or for low latency itself: "InfiniBand is required, but not
        Slingshot" wants a fast network, only not that one, and a site offering InfiniBand meets
        it.
        """
        excluded = list(self.excluded)
        named = self.fabric is not None and self.fabric.value is not Fabric.ETHERNET
        fast = self.low_latency or named
        if self.refused_fabrics and not fast and Feature.LOW_LATENCY not in excluded:
            excluded.append(Feature.LOW_LATENCY)
        return tuple(excluded)

    def build_network(self) -> NetworkRequirement | None:
        """A network requirement, or None when the request named no fabric, latency or speed."""
        fabric = self.fabric.value if self.fabric else None
        speed = self.speed_gbps.value if self.speed_gbps else None
        if fabric is None and not self.low_latency and speed is None:
            return None
        return NetworkRequirement(fabric=fabric, low_latency=self.low_latency, min_speed_gbps=speed)

    def build_storage(self) -> tuple[StorageRequirement, ...]:
        """One storage requirement per kind, in the order the kinds were named.

        A size said apart from its kind ("GPFS, and we need 50 TB free there") belongs to the
        one kind named without a size, unless that kind is an object store and the size was
        said of scratch ("data in an S3 bucket ... 2 TB of scratch": two storages); "scratch"
        with no size says nothing more once a specific kind is named ("10 TB of Lustre
        scratch").
        """
        storage = dict(self.storage)
        unsized = [k for k, v in storage.items() if v is None and k is not StorageKind.ANY]
        loose = storage.get(StorageKind.ANY)
        if (
            loose is not None
            and len(unsized) == 1
            and not (unsized[0] is StorageKind.S3 and self.scratch_sized)
        ):
            storage[unsized[0]] = loose
            del storage[StorageKind.ANY]
        if StorageKind.ANY in storage and storage[StorageKind.ANY] is None and len(storage) > 1:
            del storage[StorageKind.ANY]
        return tuple(StorageRequirement(kind=k, min_free_gb=v) for k, v in storage.items())

    def build_container(self) -> ContainerRequirement | None:
        """The container, with "rootless" applied wherever in the text it was said."""
        if self.container is None and not self.rootless:
            return None  # a version alone (container_min_version) names no runtime
        container = self.container or ContainerRequirement(runtime="any")
        constraints = _merge(container.constraints, self.pending_container_constraints)
        return container.model_copy(
            update={"rootless": self.rootless or container.rootless, "constraints": constraints}
        )

    def build_mpi(self) -> MPIRequirement | None:
        """The MPI asked for, or "any MPI" when only MPI ranks were counted."""
        if self.mpi is None and self.mpi_implied:
            return MPIRequirement()
        return self.mpi

    def build_software(self) -> tuple[SoftwareRequirement, ...]:
        """One entry per package, constraints merged (the wire model rejects duplicates);
        packages that are only named as alternatives are left to :meth:`build_alternatives`."""
        grouped = {name for group in self.alternatives for name in group}
        grouped |= {name for name, _ in self.version_choices}
        grouped |= {name for name, _ in self.variant_choices}
        built_in = {v[1:] for vs in self.variants.values() for v in vs if v.startswith("+")}
        return tuple(
            self._requirement(name)
            for name in self.software
            if name not in grouped and not self._only_a_variant(name, built_in)
        )

    def _only_a_variant(self, name: str, built_in: set[str]) -> bool:
        """ "CP2K + PLUMED ... CP2K built with PLUMED": a package named bare that another is
        built with is that build's part (``cp2k+plumed``), not a second requirement; with a
        version or variants of its own ("and PLUMED 2.9 for analysis") it stays one."""
        return (
            name in built_in
            and not self.software.get(name)
            and not self.variants.get(name)
            and name not in self.variants
        )

    def build_alternatives(self) -> tuple[SoftwareChoice, ...]:
        """Each "A or B" group, and each "python 3.10 or 3.11" choice of versions."""
        choices = [
            SoftwareChoice(any_of=tuple(self._requirement(n) for n in group))
            for group in self.alternatives
        ]
        for name, versions in self.version_choices:
            options = tuple(
                SoftwareRequirement(
                    name=name,
                    constraints=(VersionConstraint(op=Comparator.EQ, version=v),),
                    variants=tuple(self.variants.get(name, ())),
                )
                for v in versions
            )
            choices.append(SoftwareChoice(any_of=options))
        for name, variants in self.variant_choices:
            constraints = _most_precise(self.software.get(name, []))
            builds = tuple(
                SoftwareRequirement(
                    name=name,
                    constraints=constraints,
                    variants=(*self.variants.get(name, ()), v),
                )
                for v in variants
            )
            choices.append(SoftwareChoice(any_of=builds))
        return tuple(choices)

    def _requirement(self, name: str) -> SoftwareRequirement:
        return SoftwareRequirement(
            name=name,
            constraints=_most_precise(self.software.get(name, [])),
            variants=tuple(self.variants.get(name, ())),
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
        chosen = [c for c in counts if c.per_node is per_node]
        chosen.sort(key=lambda c: not c.total)  # "4,000 cores in total" outranks "single-core"
        return self._first([Mention(c.value, c.text) for c in chosen])

    def _gpus(self, nodes: int | None) -> tuple[int | None, int | None]:
        """GPUs per node and GPUs in total, as the text scoped them.

        Per-node counts ("4 GPUs each") and totals ("8 GPUs in total") are kept as said. A
        count with no scope is per node when the request names no node count or one node (the
        job is one node) and a total when it names more ("2 nodes; 8 GPUs"). "GPU" without a
        count is one per node, unless GPUs are optional ("a CPU or GPU build"). "CPU only" is
        zero.
        """
        c = self.compute
        if c.cpu_only is not None:
            for count in c.gpus:
                if count.value:
                    self.conflict(count.text, c.cpu_only.text)
            return 0, None
        per_node = [Mention(g.value, g.text) for g in c.gpus if g.per_node]
        total = [Mention(g.value, g.text) for g in c.gpus if g.total]
        unscoped = [Mention(g.value, g.text) for g in c.gpus if not (g.per_node or g.total)]
        (total if nodes and nodes > 1 else per_node).extend(unscoped)
        first_per_node = self._first(per_node)
        first_total = self._first(total)
        if first_per_node is not None and first_total is not None:
            if first_total != first_per_node * (nodes or 1) and nodes:
                self.conflict(f"{first_total} GPUs in total", f"{first_per_node} GPUs per node")
            stated = any(g.total for g in c.gpus)  # "16 nodes; 64 GPUs in total, 4 per node"
            keep = not nodes or (stated and first_total == first_per_node * nodes)
            return first_per_node, first_total if keep else None
        if first_per_node is None and first_total is None and c.gpu_mentioned and not c.gpu_or:
            return 1, None
        return first_per_node, first_total or None

    def _memory(
        self, nodes: int | None, cores_per_node: int | None, total_cores: int | None
    ) -> float | None:
        """Memory per node. Unscoped sizes are per node, as Slurm's ``--mem`` is.

        A per-node size wins over a total, which wins over a per-core size; a lower-ranked
        size that disagrees with the one used is reported, not silently ignored.
        """
        c = self.compute
        candidates = [(m.value, m.text) for m in c.memory_per_node]
        for m in c.memory_per_core:
            if cores_per_node is None:
                # A total core count spread over nodes says nothing of how the ranks are
                # placed, so no node's memory follows from it: quoted, never guessed.
                self.notes.append(f"{_clean(m.text)} (no core count to multiply; not used)")
                if not candidates:
                    self.unresolved.append(_clean(m.text))
            else:
                candidates.append((round(m.value * cores_per_node, 6), m.text))
        return self._first([Mention(value, text) for value, text in candidates])


def _untagged(constraints: list[VersionConstraint]) -> tuple[list[VersionConstraint], list[str]]:
    """The constraints with build tags cut off their versions, and the tags as variants."""
    kept: list[VersionConstraint] = []
    tags: list[str] = []
    for c in constraints:
        split = build_tag(c.version)
        if split is None:
            kept.append(c)
            continue
        kept.append(VersionConstraint(op=c.op, version=split[0]))
        tags.append("+" + split[1])
    return kept, tags


def _merge(
    have: tuple[VersionConstraint, ...], more: list[VersionConstraint]
) -> tuple[VersionConstraint, ...]:
    return (*have, *(c for c in more if c not in have))


def _clean(text: str) -> str:
    """Words as the user wrote them, on one line, without blanked spans."""
    return " ".join(text.replace("\x00", " ").split())[:80]


def _most_precise(constraints: list[VersionConstraint]) -> tuple[VersionConstraint, ...]:
    """Exact versions that restate each other keep the most precise one: "SU2 8.0" in prose and
    ``su2/8.0.0`` in the script are one version, not two that no release could both match."""
    exact = [c.version for c in constraints if c.op is Comparator.EQ]

    def restated(c: VersionConstraint) -> bool:
        if c.op is not Comparator.EQ:  # ">=0.6" and ">=0.6.0" are one bound: keep the longer
            return any(
                o.op is c.op and re.fullmatch(re.escape(c.version) + r"(?:\.0)+", o.version)
                for o in constraints
            )
        return any(v != c.version and v.startswith(c.version + ".") for v in exact)

    return tuple(c for c in constraints if not restated(c))
