"""What a job needs, as one validated object: the output of request parsing.

A ``Requirements`` is parsed once (at the client or hub) and sent to every site, so all sites
judge exactly the same thing. Every field is optional: a field left at ``None`` means "no
constraint". Anything the parser could not read is kept in ``unparsed`` rather than dropped.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from enum import StrEnum

from pydantic import Field, field_validator, model_validator

from providers.wire.common import SCHEMA_VERSION, WireModel


class Comparator(StrEnum):
    """A version comparison operator."""

    GE = ">="
    LE = "<="
    EQ = "=="
    GT = ">"
    LT = "<"
    NE = "!="


class VersionConstraint(WireModel):
    """One comparison against a version, e.g. ``>= 2023``.

    Versions are kept as text: ordering is decided by :mod:`providers.versions`, which knows
    PEP 440, Spack-style and date-style (``2Aug2023``) versions.
    """

    op: Comparator
    version: str = Field(min_length=1, max_length=64)

    @field_validator("version")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("a version constraint needs a version, e.g. '>= 3.8'")
        return value

    def __str__(self) -> str:
        return f"{self.op.value}{self.version}"


_VARIANT_RE = re.compile(r"^[+~][A-Za-z0-9][A-Za-z0-9_.-]{0,39}\Z")


class SoftwareRequirement(WireModel):
    """An application or library that must be installed, found as itself (not as a dependency).

    ``name`` is matched exactly (case and ``_``/``-`` aside) or through an explicit alias:
    ``netcdf-c`` never matches ``netcdf``. ``variants`` are Spack-style build variants:
    ``+cuda`` must be enabled, ``~mpi`` must be disabled.
    """

    name: str = Field(min_length=1, max_length=128)
    constraints: tuple[VersionConstraint, ...] = ()
    variants: tuple[str, ...] = ()

    @field_validator("name")
    @classmethod
    def _normalise(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("a software requirement needs a name, e.g. 'lammps'")
        return value

    @field_validator("variants")
    @classmethod
    def _variants(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for variant in value:
            if not _VARIANT_RE.match(variant):
                raise ValueError(
                    f"variant {variant!r} must be '+name' (enabled) or '~name' (disabled), "
                    "e.g. '+cuda' or '~mpi'"
                )
        return tuple(dict.fromkeys(value))

    def __str__(self) -> str:
        spec = ",".join(str(c) for c in self.constraints)
        return f"{self.name}{''.join(self.variants)} {spec}".strip()


class SoftwareChoice(WireModel):
    """Alternatives: any one of these packages will do ("lammps or gromacs")."""

    any_of: tuple[SoftwareRequirement, ...] = Field(min_length=2, max_length=16)

    def __str__(self) -> str:
        return " or ".join(str(s) for s in self.any_of)


class Feature(StrEnum):
    """Things a request can say it does *not* need ("no GPUs", "no MPI", "no containers")."""

    GPU = "gpu"
    MPI = "mpi"
    CONTAINER = "container"
    LOW_LATENCY = "low_latency"


class GpuLogic(StrEnum):
    """How the CPU and GPU parts of a compute requirement combine."""

    AND = "and"
    """Both the cores and the GPUs per node are needed."""
    OR = "or"
    """Either the CPU side or the GPUs will do (the job runs on either). With no core count
    the CPU side is any node: the GPUs are optional ("runs on CPU or on 2 GPUs per node")."""


class GpuVendor(StrEnum):
    """GPU makers, as a request names them."""

    NVIDIA = "nvidia"
    AMD = "amd"
    INTEL = "intel"


class ComputeRequirement(WireModel):
    """Shape of the allocation. Counts are per node unless named ``total``.

    A total (``total_cores``, ``total_gpus``, ``memory_gb_total``) is spread over the nodes the
    job gets at each partition: the explicit ``nodes``, else as many as the totals need there.
    ``gpus_per_node = 0`` is a CPU-only job.
    """

    nodes: int | None = Field(default=None, ge=1)
    cores_per_node: int | None = Field(default=None, ge=1)
    total_cores: int | None = Field(default=None, ge=1)
    gpus_per_node: int | None = Field(default=None, ge=0)
    total_gpus: int | None = Field(default=None, ge=1)
    gpu_logic: GpuLogic = GpuLogic.AND
    gpu_model: str | None = Field(default=None, max_length=64)
    gpu_vendor: GpuVendor | None = None
    memory_gb_per_node: float | None = Field(default=None, gt=0)
    memory_gb_total: float | None = Field(default=None, gt=0)
    walltime_s: int | None = Field(default=None, ge=1)

    def is_empty(self) -> bool:
        """True when no field constrains the allocation."""
        return all(
            getattr(self, f) is None
            for f in (
                "nodes",
                "cores_per_node",
                "total_cores",
                "gpus_per_node",
                "total_gpus",
                "gpu_model",
                "gpu_vendor",
                "memory_gb_per_node",
                "memory_gb_total",
                "walltime_s",
            )
        )

    @property
    def node_count(self) -> int:
        """Nodes to allocate: the explicit count, else one."""
        return self.nodes or 1


class Fabric(StrEnum):
    """Interconnect families."""

    ETHERNET = "ethernet"
    INFINIBAND = "infiniband"
    OMNIPATH = "omnipath"
    SLINGSHOT = "slingshot"

    @property
    def low_latency(self) -> bool:
        """High-performance fabrics with RDMA-class latency."""
        return self is not Fabric.ETHERNET


class NetworkRequirement(WireModel):
    """A named fabric, or just "low latency" (any RDMA-class fabric)."""

    fabric: Fabric | None = None
    low_latency: bool = False
    min_speed_gbps: float | None = Field(default=None, gt=0)


class StorageKind(StrEnum):
    """Storage families. ``parallel`` means any parallel file system."""

    LUSTRE = "lustre"
    GPFS = "gpfs"
    BEEGFS = "beegfs"
    NFS = "nfs"
    CIFS = "cifs"
    LOCAL = "local"
    S3 = "s3"
    PARALLEL = "parallel"
    ANY = "any"

    @property
    def is_parallel(self) -> bool:
        return self in (StorageKind.LUSTRE, StorageKind.GPFS, StorageKind.BEEGFS)


class StorageRequirement(WireModel):
    """A kind of storage and, optionally, how much free space it must have."""

    kind: StorageKind = StorageKind.ANY
    min_free_gb: float | None = Field(default=None, gt=0)


class ContainerRequirement(WireModel):
    """A container runtime that must really exist at the site. The software is checked too."""

    runtime: str = Field(min_length=1, max_length=64)
    constraints: tuple[VersionConstraint, ...] = ()
    rootless: bool = False


class MPIRequirement(WireModel):
    """An MPI library; ``implementation`` None means any MPI."""

    implementation: str | None = Field(default=None, max_length=64)
    constraints: tuple[VersionConstraint, ...] = ()


class Urgency(StrEnum):
    """How soon the user wants the job to start."""

    NOW = "now"
    SOON = "soon"
    NO_RUSH = "no_rush"


class Requirements(WireModel):
    """Everything a job needs, in one frozen object that every site judges identically."""

    schema_version: int = SCHEMA_VERSION
    software: tuple[SoftwareRequirement, ...] = ()
    """Packages that must all be present."""
    alternatives: tuple[SoftwareChoice, ...] = ()
    """Groups of packages of which any one will do."""
    compute: ComputeRequirement = ComputeRequirement()
    network: NetworkRequirement | None = None
    storage: tuple[StorageRequirement, ...] = ()
    container: ContainerRequirement | None = None
    mpi: MPIRequirement | None = None
    urgency: Urgency | None = None
    deadline: datetime | None = None
    """When the results are needed by, an absolute time (relative phrases are resolved against
    ``requested_at``). A deadline is never a walltime."""
    deadline_within_s: int | None = Field(default=None, ge=1)
    """A deadline given relative to the request time ("within 6 hours"), as written."""
    requested_at: datetime | None = None
    """The request time the parser resolved relative dates against."""
    budget_usd: float | None = Field(default=None, ge=0)
    excluded: tuple[Feature, ...] = ()
    """What the request says the job does not need ("no GPUs", "no MPI"). Never a reason to
    turn a site down; kept so that a negated phrase is never read as a demand."""
    unresolved: tuple[str, ...] = Field(default=(), max_length=200)
    """Phrases that look like requirements but could not be read. They are never dropped: a
    site cannot answer READY or BUSY while any remain, and each becomes an UNKNOWN check
    quoting it. Rephrase or remove them to get a firm answer."""
    unparsed: tuple[str, ...] = ()
    """Everything the parser did not use, word for word: the ``unresolved`` phrases, harmless
    leftovers ("hi", "thanks") and notes on contradictions."""
    source_text: str = Field(default="", max_length=20_000)

    @model_validator(mode="after")
    def _no_duplicate_software(self) -> Requirements:
        names = [s.name.lower() for s in self.software]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(
                f"software listed twice: {', '.join(dupes)}; merge the version constraints "
                "into one entry"
            )
        return self

    def is_empty(self) -> bool:
        """True when nothing in it can be checked against a site."""
        return (
            not self.software
            and not self.alternatives
            and not self.unresolved
            and self.compute.is_empty()
            and self.network is None
            and not self.storage
            and self.container is None
            and self.mpi is None
        )

    def missing(self) -> list[str]:
        """What a request must still say before a site can judge it (empty when judgeable)."""
        if not self.is_empty():
            return []
        return [
            "the application or software to run (e.g. 'lammps >= 2023')",
            "or the resources it needs (e.g. '4 nodes', '2 GPUs per node', '64 GB memory')",
        ]

    def signature(self) -> str:
        """A stable hash of what sites judge: equal signatures get equal proposals."""
        payload = self.model_dump_json(exclude={"source_text", "unparsed", "requested_at"})
        return hashlib.sha256(payload.encode()).hexdigest()[:16]
