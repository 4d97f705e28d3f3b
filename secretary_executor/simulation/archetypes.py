"""The three simulated worker archetypes of the paper's Table 2 and Section 3.2.

An archetype is a blueprint: how likely it is, the Gaussian its latent scale and density
targets are drawn from, which provider may fill each category slot (and how many), and the
resource ranges its providers map those targets into. Provider names are the real provider
names, so a simulated site looks exactly like a real one of that kind.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from providers.wire.common import Category

ArchetypeName = Literal["hpc", "cloud", "standalone"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Gaussian(_Frozen):
    """N(mu, sigma), from which a latent target is drawn (then clipped to [0.01, 1])."""

    mu: float = Field(ge=0, le=1)
    sigma: float = Field(ge=0)


class Slot(_Frozen):
    """One category of the archetype: between ``low`` and ``high`` providers out of ``choices``."""

    category: Category
    low: int = Field(ge=0)
    high: int = Field(ge=0)
    choices: tuple[str, ...]


class Span(_Frozen):
    """An inclusive range of a resource (``low`` may equal ``high``)."""

    low: float
    high: float


class Ranges(_Frozen):
    """The resource ranges of Section 3.2 that the scale and density targets map into."""

    nodes: Span
    cpus_per_node: Span
    memory_gb_per_node: Span
    gpus_per_node: Span
    storage_gb: Span
    partitions: Span
    packages: Span


class Archetype(_Frozen):
    """One row group of Table 2."""

    name: ArchetypeName
    weight: float = Field(gt=0)
    scale: Gaussian
    density: Gaussian
    slots: tuple[Slot, ...]
    ranges: Ranges
    gpu_models: tuple[str, ...]
    """GPU models its GPU partitions carry (priced by the selection experiment)."""
    gpu_partition_chance: float = Field(ge=0, le=1)
    """Chance that a partition (beyond an HPC site's first, always CPU) has GPUs."""

    def slot(self, category: Category) -> Slot | None:
        """The slot of ``category`` (None: this archetype has no provider of that category)."""
        return next((s for s in self.slots if s.category is category), None)


_W, _S, _C, _ST, _N, _H, _P = (
    Category.WORKLOAD,
    Category.SOFTWARE,
    Category.CONTAINER,
    Category.STORAGE,
    Category.NETWORK,
    Category.HARDWARE,
    Category.PARALLEL,
)

HPC = Archetype(
    name="hpc",
    weight=40,
    scale=Gaussian(mu=0.7, sigma=0.2),
    density=Gaussian(mu=0.8, sigma=0.2),
    slots=(
        Slot(category=_W, low=1, high=1, choices=("flux", "slurm")),
        Slot(category=_S, low=1, high=3, choices=("spack", "lmod", "conda", "pip")),
        Slot(category=_ST, low=1, high=2, choices=("lustre", "network-fs")),
        Slot(category=_N, low=1, high=1, choices=("infiniband", "omnipath")),
        Slot(category=_P, low=1, high=2, choices=("openmpi", "mpich")),
        Slot(category=_H, low=1, high=1, choices=("hardware",)),
        Slot(category=_C, low=1, high=1, choices=("singularity", "podman")),
    ),
    ranges=Ranges(
        nodes=Span(low=100, high=10_000),
        cpus_per_node=Span(low=32, high=128),
        memory_gb_per_node=Span(low=128, high=1024),
        gpus_per_node=Span(low=0, high=8),
        storage_gb=Span(low=10_000, high=10_000_000),
        partitions=Span(low=3, high=10),
        packages=Span(low=50, high=500),
    ),
    gpu_models=("A100",),
    gpu_partition_chance=0.35,
)

CLOUD = Archetype(
    name="cloud",
    weight=40,
    scale=Gaussian(mu=0.3, sigma=0.2),
    density=Gaussian(mu=0.4, sigma=0.2),
    slots=(
        Slot(category=_W, low=1, high=1, choices=("kubernetes",)),
        Slot(category=_S, low=1, high=2, choices=("conda", "pip")),
        Slot(category=_ST, low=1, high=2, choices=("s3", "network-fs")),
        Slot(category=_N, low=1, high=1, choices=("ethernet",)),
        Slot(category=_H, low=1, high=1, choices=("hardware",)),
        Slot(category=_C, low=1, high=1, choices=("docker",)),
    ),
    ranges=Ranges(
        nodes=Span(low=1, high=500),
        cpus_per_node=Span(low=2, high=64),
        memory_gb_per_node=Span(low=4, high=256),
        gpus_per_node=Span(low=0, high=8),
        storage_gb=Span(low=10, high=5_000),
        partitions=Span(low=1, high=2),
        packages=Span(low=10, high=50),
    ),
    gpu_models=("L4", "A100"),
    gpu_partition_chance=0.4,
)

STANDALONE = Archetype(
    name="standalone",
    weight=20,
    scale=Gaussian(mu=0.3, sigma=0.2),
    density=Gaussian(mu=0.4, sigma=0.2),
    slots=(
        Slot(category=_W, low=1, high=1, choices=("local",)),
        Slot(category=_S, low=1, high=2, choices=("conda", "spack", "pip")),
        Slot(category=_ST, low=1, high=1, choices=("local-scratch",)),
        Slot(category=_N, low=1, high=1, choices=("ethernet",)),
        Slot(category=_H, low=1, high=1, choices=("hardware",)),
        Slot(category=_C, low=0, high=2, choices=("docker", "singularity")),
    ),
    ranges=Ranges(
        nodes=Span(low=1, high=1),
        cpus_per_node=Span(low=4, high=32),
        memory_gb_per_node=Span(low=8, high=128),
        gpus_per_node=Span(low=0, high=1),
        storage_gb=Span(low=100, high=2_000),
        partitions=Span(low=1, high=1),
        packages=Span(low=20, high=100),
    ),
    gpu_models=("L4",),
    gpu_partition_chance=0.3,
)

ARCHETYPES: dict[str, Archetype] = {a.name: a for a in (HPC, CLOUD, STANDALONE)}
"""The archetypes by name, in Table 2's order (weights 40/40/20)."""
