"""Typed facts that providers report, one model family per category.

Facts are what a provider found at the site: frozen pydantic models, small and exact, so that
the rules engine, an LLM agent and an MCP client all read the same structured answer. A site
state file is a list of these facts per provider, so simulated and real sites look alike.
"""

from __future__ import annotations

from pydantic import Field

from providers.wire.common import WireModel


class Partition(WireModel):
    """A partition or queue of a workload manager, with its node shape and current load.

    ``free_nodes`` counts nodes with no job at all (node allocation is exclusive);
    ``queue_depth`` counts jobs waiting in this partition.
    """

    name: str
    total_nodes: int = Field(ge=0)
    free_nodes: int = Field(ge=0)
    cpus_per_node: int = Field(ge=1)
    memory_gb_per_node: float = Field(ge=0)
    gpus_per_node: int = Field(default=0, ge=0)
    gpu_model: str | None = None
    max_walltime_s: int | None = None
    queue_depth: int = Field(default=0, ge=0)
    running_jobs: int = Field(default=0, ge=0)
    estimated_wait_s: float | None = None
    """The scheduler's own estimate of a new job's wait, where it gives one."""
    default: bool = False


class WorkloadFacts(WireModel):
    """A workload manager and its partitions."""

    manager: str
    version: str | None = None
    cluster: str | None = None
    partitions: tuple[Partition, ...] = ()


class SoftwarePackage(WireModel):
    """One installed package as itself: its own version, never a dependency's."""

    name: str
    version: str
    variants: tuple[str, ...] = ()
    location: str | None = None
    environment: str | None = None
    """The environment (conda env, module tree, Spack view) it lives in, where that matters."""


class Dependency(WireModel):
    """A dependency of an installed package, reported by a separate tool."""

    package: str
    name: str
    version: str | None = None


class SoftwareFacts(WireModel):
    """Packages a package manager can provide at the site."""

    manager: str
    version: str | None = None
    packages: tuple[SoftwarePackage, ...] = ()
    dependencies: tuple[Dependency, ...] = ()


class ContainerFacts(WireModel):
    """A container runtime that exists at the site."""

    runtime: str
    version: str | None = None
    rootless: bool = False
    images: tuple[str, ...] = ()


class Filesystem(WireModel):
    """A mounted file system (or object store) and its space."""

    kind: str
    """lustre, gpfs, beegfs, nfs, cifs, local, s3."""
    mount: str
    total_gb: float = Field(ge=0)
    free_gb: float = Field(ge=0)
    shared: bool = False


class StorageFacts(WireModel):
    filesystems: tuple[Filesystem, ...] = ()


class NetworkInterface(WireModel):
    """A network interface or fabric port."""

    name: str
    fabric: str
    """ethernet, infiniband, omnipath, slingshot."""
    speed_gbps: float | None = None
    rdma: bool = False
    low_latency: bool | None = None
    """The site's own word that this link is low latency (e.g. a tuned RoCE or HPC Ethernet
    fabric). None: judged from ``rdma`` and the fabric."""
    state: str = "up"


class NetworkFacts(WireModel):
    interfaces: tuple[NetworkInterface, ...] = ()


class CPUFacts(WireModel):
    model: str = "unknown"
    architecture: str = "unknown"
    sockets: int = Field(default=1, ge=1)
    cores: int = Field(ge=1)
    """Physical cores on this node."""
    threads: int = Field(ge=1)
    flags: tuple[str, ...] = ()
    load_fraction: float = Field(default=0.0, ge=0)
    """Recent load average divided by logical CPUs (1.0 = fully busy)."""


class MemoryFacts(WireModel):
    total_gb: float = Field(ge=0)
    available_gb: float = Field(ge=0)


class GPUDevice(WireModel):
    index: int
    vendor: str
    model: str
    memory_gb: float | None = None
    utilization: float | None = None


class GPUFacts(WireModel):
    vendor: str
    driver_version: str | None = None
    devices: tuple[GPUDevice, ...] = ()


class MPIFacts(WireModel):
    implementation: str
    """openmpi, mpich, intel-mpi, cray-mpich, spectrum-mpi, mvapich."""
    version: str | None = None
    launchers: tuple[str, ...] = ()
