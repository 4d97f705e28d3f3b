"""One base class per kind of resource, with the standard tools of that kind.

The standard tools read the provider's probed facts, so a real provider only implements
``_probe`` (and, for workload managers that run work, the three dispatch hooks). A state-backed
provider (:mod:`providers.state`) reuses the same classes, so simulated and real sites offer the
same tools with the same manifests. Providers may override a tool for a live query; the
override stays a tool of the same class.
"""

from __future__ import annotations

from typing import ClassVar

from providers.base import Provider
from providers.errors import ProviderError
from providers.facts import (
    ContainerFacts,
    CPUFacts,
    Dependency,
    Filesystem,
    GPUFacts,
    MemoryFacts,
    MPIFacts,
    NetworkFacts,
    NetworkInterface,
    Partition,
    SoftwareFacts,
    SoftwarePackage,
    StorageFacts,
    WorkloadFacts,
)
from providers.jobspec import JobSpec, SubmitResult
from providers.package_names import normalise
from providers.tools import dispatch_tool, secretary_tool
from providers.wire.common import Category, WireModel
from providers.wire.jobs import MAX_OUTPUT_BYTES, JobOutput, JobStatus


def normalise_package_name(name: str) -> str:
    """Compare package names the way package managers do: case- and separator-insensitive."""
    return normalise(name)


class CapacitySummary(WireModel):
    """Totals over the partitions a site exposes."""

    total_nodes: int
    free_nodes: int
    queue_depth: int
    running_jobs: int


class WorkloadProvider(Provider):
    """A workload manager: partitions, load, and (where supported) running work."""

    category: ClassVar[Category] = Category.WORKLOAD
    facts_model = WorkloadFacts
    cache_ttl_s: ClassVar[float] = 10.0

    @secretary_tool
    def list_partitions(self) -> list[Partition]:
        """List the partitions (queues) with node shape, free nodes and queue depth."""
        return list(self.facts().partitions)

    @secretary_tool
    def capacity_summary(self) -> CapacitySummary:
        """Total and free nodes, waiting and running jobs, over all partitions."""
        parts = self.facts().partitions
        return CapacitySummary(
            total_nodes=sum(p.total_nodes for p in parts),
            free_nodes=sum(p.free_nodes for p in parts),
            queue_depth=sum(p.queue_depth for p in parts),
            running_jobs=sum(p.running_jobs for p in parts),
        )

    @dispatch_tool
    def submit_job(self, spec: JobSpec) -> SubmitResult:
        """Submit a job to this workload manager and return its native id.

        Args:
            spec: the job: command (argument vector), nodes, cores, GPUs, memory, walltime.
        """
        result = self._submit(spec)
        self.invalidate()
        return result

    @dispatch_tool
    def job_status(self, native_id: str) -> JobStatus:
        """Report the state of a job submitted here.

        Args:
            native_id: the id the workload manager gave the job.
        """
        return self._status(native_id)

    @dispatch_tool
    def cancel_job(self, native_id: str) -> JobStatus:
        """Cancel a job submitted here and report its state afterwards.

        Args:
            native_id: the id the workload manager gave the job.
        """
        status = self._cancel(native_id)
        self.invalidate()
        return status

    @dispatch_tool
    def job_output(self, native_id: str, max_bytes: int = 65536) -> JobOutput:
        """Read the end of a job's standard output and error (at most ``max_bytes`` of each).

        Args:
            native_id: the id the workload manager gave the job.
            max_bytes: how many bytes of each stream, from its end (1 to 1 MiB).
        """
        if not 1 <= max_bytes <= MAX_OUTPUT_BYTES:
            raise ProviderError(f"max_bytes must be between 1 and {MAX_OUTPUT_BYTES}")
        return self._output(native_id, max_bytes)

    def find_job(self, dispatch_key: str, since: float) -> str | None:
        """The native id of the job submitted here with ``dispatch_key``; None when no such
        job exists and none can still appear.

        Not a tool: the site asks this about its own dispatch keys, when the process that
        submitted under ``dispatch_key`` (claimed at ``since``, epoch seconds) died before it
        recorded the manager's answer.

        Raises:
            ProviderError: the manager cannot tell (it keeps no trace of the key, no longer
                remembers jobs that old, or a submit may still be in flight).
        """
        return self._find_job(dispatch_key, since)

    # Hooks for managers that run work. The defaults refuse clearly: a provider that only
    # observes a scheduler (no submit rights) is still useful for negotiation.
    def _find_job(self, dispatch_key: str, since: float) -> str | None:
        raise ProviderError(
            f"workload provider {self.name!r} cannot look up a job by its dispatch key"
        )

    def _submit(self, spec: JobSpec) -> SubmitResult:
        raise ProviderError(f"workload provider {self.name!r} does not accept jobs")

    def _status(self, native_id: str) -> JobStatus:
        raise ProviderError(f"workload provider {self.name!r} does not track jobs")

    def _cancel(self, native_id: str) -> JobStatus:
        raise ProviderError(f"workload provider {self.name!r} cannot cancel jobs")

    def _output(self, native_id: str, max_bytes: int) -> JobOutput:
        return JobOutput(
            site=self.name,
            native_id=native_id,
            available=False,
            note=f"workload provider {self.name!r} does not read job output; look where the "
            "site's manager writes it",
        )


class SoftwareProvider(Provider):
    """A package manager or module system: which applications exist, as themselves."""

    category: ClassVar[Category] = Category.SOFTWARE
    facts_model = SoftwareFacts

    @secretary_tool
    def find_software(self, name: str) -> list[SoftwarePackage]:
        """Find an installed package by exact name and return each of its own versions.

        Dependencies are not searched: a package that is only a dependency of another is not
        reported here (use package_dependencies for that).

        Args:
            name: the package name, e.g. "lammps" or "python" (case-insensitive).
        """
        wanted = normalise_package_name(name)
        return [p for p in self.facts().packages if normalise_package_name(p.name) == wanted]

    @secretary_tool
    def package_dependencies(self, name: str) -> list[Dependency]:
        """List the dependencies (with their versions) of an installed package.

        Args:
            name: the package whose dependencies to list.
        """
        wanted = normalise_package_name(name)
        return [d for d in self.facts().dependencies if normalise_package_name(d.package) == wanted]

    @secretary_tool
    def list_software(self, prefix: str = "", limit: int = 50) -> list[str]:
        """List installed package names, optionally only those starting with a prefix.

        Args:
            prefix: only names starting with this text (case-insensitive).
            limit: at most this many names (1 to 500).
        """
        limit = max(1, min(limit, 500))
        want = normalise_package_name(prefix) if prefix else ""
        names = sorted(
            {
                p.name
                for p in self.facts().packages
                if normalise_package_name(p.name).startswith(want)
            }
        )
        return names[:limit]


class ContainerProvider(Provider):
    """A container runtime."""

    category: ClassVar[Category] = Category.CONTAINER
    facts_model = ContainerFacts

    @secretary_tool
    def runtime_info(self) -> ContainerFacts:
        """Name, version and rootless support of this container runtime."""
        return self.facts()


class StorageProvider(Provider):
    """File systems and object stores."""

    category: ClassVar[Category] = Category.STORAGE
    facts_model = StorageFacts

    @secretary_tool
    def list_filesystems(self, kind: str | None = None) -> list[Filesystem]:
        """List mounted file systems with their kind and free space.

        Args:
            kind: only this kind (lustre, gpfs, beegfs, nfs, cifs, local, s3).
        """
        found = self.facts().filesystems
        if kind:
            found = tuple(f for f in found if f.kind == kind.strip().lower())
        return list(found)


class NetworkProvider(Provider):
    """Network interfaces and fabrics."""

    category: ClassVar[Category] = Category.NETWORK
    facts_model = NetworkFacts

    @secretary_tool
    def list_interfaces(self) -> list[NetworkInterface]:
        """List network interfaces with fabric, speed and RDMA capability."""
        return list(self.facts().interfaces)


class CPUProviderBase(Provider):
    """Processors of a node."""

    category: ClassVar[Category] = Category.HARDWARE
    facts_model = CPUFacts

    @secretary_tool
    def cpu_info(self) -> CPUFacts:
        """CPU model, architecture, sockets, cores, threads, flags and current load."""
        return self.facts()


class MemoryProviderBase(Provider):
    """Memory of a node."""

    category: ClassVar[Category] = Category.HARDWARE
    facts_model = MemoryFacts

    @secretary_tool
    def memory_info(self) -> MemoryFacts:
        """Total and available memory in GB."""
        return self.facts()


class GPUProviderBase(Provider):
    """Accelerators of a node."""

    category: ClassVar[Category] = Category.HARDWARE
    facts_model = GPUFacts

    @secretary_tool
    def gpu_info(self) -> GPUFacts:
        """GPU vendor, driver and devices (model, memory, utilisation)."""
        return self.facts()


class MPIProvider(Provider):
    """An MPI implementation."""

    category: ClassVar[Category] = Category.PARALLEL
    facts_model = MPIFacts

    @secretary_tool
    def mpi_info(self) -> MPIFacts:
        """MPI implementation, version and launchers."""
        return self.facts()


KIND_BASES: dict[str, type[Provider]] = {
    "workload": WorkloadProvider,
    "software": SoftwareProvider,
    "container": ContainerProvider,
    "storage": StorageProvider,
    "network": NetworkProvider,
    "cpu": CPUProviderBase,
    "memory": MemoryProviderBase,
    "gpu": GPUProviderBase,
    "mpi": MPIProvider,
}
"""Base class of each provider *kind* (the hardware category has three kinds)."""


def provider_kind(provider: type[Provider] | Provider) -> str:
    """The kind name (``workload``, ``cpu``, ...) of a provider class or instance."""
    cls = provider if isinstance(provider, type) else type(provider)
    for kind, base in KIND_BASES.items():
        if issubclass(cls, base):
            return kind
    raise ProviderError(f"{cls.__name__} does not derive from a provider kind base class")
