"""The fleet catalogue: every value a prompt may ask for, gathered over the simulated fleet.

As in the paper, prompt values are the unique values found across all simulated workers, so
every requested application, version, shape, fabric, storage kind, runtime and MPI exists
somewhere in the fleet, and whether a given site has it is the question being asked.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from providers.facts import (
    ContainerFacts,
    MPIFacts,
    NetworkFacts,
    SoftwareFacts,
    StorageFacts,
    WorkloadFacts,
)
from providers.state import SiteState


class Catalogue(BaseModel):
    """Unique values across a fleet, each sorted (so prompt draws are reproducible)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    apps: dict[str, tuple[str, ...]]
    """Application -> every version of it installed somewhere (as itself, not a dependency)."""
    partition_sizes: tuple[int, ...]
    cores_per_node: tuple[int, ...]
    memory_gb_per_node: tuple[float, ...]
    gpus_per_node: tuple[int, ...]
    """GPU counts of GPU partitions (zero left out)."""
    fabrics: tuple[str, ...]
    storage: dict[str, tuple[float, ...]]
    """Storage kind -> free space (GB) of each file system of that kind."""
    runtimes: tuple[str, ...]
    mpi: dict[str, tuple[str, ...]]
    """MPI implementation -> versions."""


def build_catalogue(states: Iterable[SiteState]) -> Catalogue:
    """Gather the unique values of every state in ``states``."""
    apps: dict[str, set[str]] = {}
    sizes: set[int] = set()
    cores: set[int] = set()
    memory: set[float] = set()
    gpus: set[int] = set()
    fabrics: set[str] = set()
    storage: dict[str, set[float]] = {}
    runtimes: set[str] = set()
    mpi: dict[str, set[str]] = {}
    for state in states:
        for entry in state.providers:
            facts = entry.facts
            if entry.kind == "workload":
                for p in WorkloadFacts.model_validate(facts).partitions:
                    sizes.add(p.total_nodes)
                    cores.add(p.cpus_per_node)
                    memory.add(p.memory_gb_per_node)
                    if p.gpus_per_node:
                        gpus.add(p.gpus_per_node)
            elif entry.kind == "software":
                for pkg in SoftwareFacts.model_validate(facts).packages:
                    apps.setdefault(pkg.name, set()).add(pkg.version)
            elif entry.kind == "network":
                fabrics.update(i.fabric for i in NetworkFacts.model_validate(facts).interfaces)
            elif entry.kind == "storage":
                for fs in StorageFacts.model_validate(facts).filesystems:
                    storage.setdefault(fs.kind, set()).add(fs.free_gb)
            elif entry.kind == "container":
                runtimes.add(ContainerFacts.model_validate(facts).runtime)
            elif entry.kind == "mpi":
                info = MPIFacts.model_validate(facts)
                if info.version:
                    mpi.setdefault(info.implementation, set()).add(info.version)
    return Catalogue(
        apps={k: tuple(sorted(v)) for k, v in sorted(apps.items())},
        partition_sizes=tuple(sorted(sizes)),
        cores_per_node=tuple(sorted(cores)),
        memory_gb_per_node=tuple(sorted(memory)),
        gpus_per_node=tuple(sorted(gpus)),
        fabrics=tuple(sorted(fabrics)),
        storage={k: tuple(sorted(v)) for k, v in sorted(storage.items())},
        runtimes=tuple(sorted(runtimes)),
        mpi={k: tuple(sorted(v)) for k, v in sorted(mpi.items())},
    )
