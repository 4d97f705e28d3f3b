"""Procedural simulated workers: worker id -> archetype -> providers -> a site state file.

The output is a :class:`providers.state.SiteState`, so a simulated site is served by the
state-backed providers, which have the same tools and manifests as the real ones. Everything
is a pure function of the worker id (SHA-256 seeded streams, one per purpose), so the same id
gives a byte-identical state file in any process.

Deliberate differences from the prototype's generator (see docs/simulation.md): CPU load and
memory use are drawn independently; InfiniBand really occurs; cloud storage is S3 and/or NFS;
an HPC site holds at most three quarters of any package manager's pool, never the whole
catalogue; dependencies carry their own versions, different from the applications'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from providers.categories import KIND_BASES
from providers.facts import Partition
from providers.state import ProviderState, SiteInfo, SiteState
from providers.wire.common import Category
from secretary_executor.simulation import packages as pkgs
from secretary_executor.simulation.archetypes import ARCHETYPES, Archetype, Span
from secretary_executor.simulation.latent import Latent
from secretary_executor.simulation.pricing import PriceModel
from secretary_executor.simulation.seeding import stream

CPU_OPTIONS = (2, 4, 8, 16, 24, 32, 48, 64, 96, 128)
MEMORY_OPTIONS = (4, 8, 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024)
GPU_OPTIONS = (1, 2, 4, 8)
HPC_PARTITION_NAMES = (
    "batch",
    "gpu",
    "bigmem",
    "debug",
    "long",
    "short",
    "highmem",
    "preempt",
    "standard",
    "large",
)
GPU_NAMES = {"A100": "NVIDIA A100-SXM4-80GB", "L4": "NVIDIA L4"}
GPU_MEMORY_GB = {"A100": 80.0, "L4": 24.0}
MAX_POOL_SHARE = 0.75
"""A package manager holds at most this share of its pool: no site has the whole catalogue."""
FULL_PARTITION_CHANCE = 0.3
"""Chance that a partition has no free node at all (so compatible jobs there are BUSY)."""
WORKLOAD_VERSIONS = {"slurm": "23.11.4", "flux": "0.61.2", "kubernetes": "1.29.4"}


@dataclass(frozen=True)
class Worker:
    """A generated worker: its id, archetype, latent targets and site state."""

    worker_id: str
    archetype: str
    scale: float
    density: float
    state: SiteState


def choose_archetype(worker_id: str) -> Archetype:
    """The weighted 40/40/20 roll, on its own stream."""
    arches = list(ARCHETYPES.values())
    return stream(worker_id, "archetype").choices(arches, weights=[a.weight for a in arches])[0]


def site_name(worker_id: str, archetype: str) -> str:
    """``hpc-17``: the archetype and the id, a valid site name."""
    return f"{archetype}-{worker_id}"


def _in(options: tuple[int, ...], span: Span) -> tuple[int, ...]:
    return tuple(o for o in options if span.low <= o <= span.high)


def _choose_slots(worker_id: str, arch: Archetype) -> dict[Category, list[str]]:
    """Providers per category: a cardinality in the slot's range, then that many choices."""
    chosen: dict[Category, list[str]] = {}
    for slot in arch.slots:
        rng = stream(worker_id, "slot", slot.category.value)
        k = rng.randint(slot.low, min(slot.high, len(slot.choices)))
        chosen[slot.category] = sorted(rng.sample(slot.choices, k))
    return chosen


class _Builder:
    """Builds one worker's providers from its latent targets."""

    def __init__(self, worker_id: str, arch: Archetype, prices: PriceModel) -> None:
        self.wid = worker_id
        self.arch = arch
        self.latent = Latent(worker_id, arch)
        self.prices = prices
        self.r = arch.ranges

    def rng(self, *purpose: object) -> Any:
        return stream(self.wid, *purpose)

    # -- workload ----------------------------------------------------------------------------

    def partitions(self, manager: str) -> list[Partition]:
        lat, r = self.latent, self.r
        count = round(lat.within("partitions", "density", r.partitions, 0.1))
        total = max(count, round(lat.within("nodes", "scale", r.nodes, 0.1)))
        weights = [self.rng("partition-split", i).uniform(0.2, 1.0) for i in range(count)]
        sizes = [max(1, int(total * w / sum(weights))) for w in weights]
        gpu_model = self.rng("gpu-model").choice(self.arch.gpu_models)
        names = (
            [f"pool-{i}" for i in range(count)]
            if manager == "kubernetes"
            else list(HPC_PARTITION_NAMES[:count])
        )
        parts: list[Partition] = []
        for i, (name, size) in enumerate(zip(names, sizes, strict=True)):
            gpus = 0
            first_cpu_only = self.arch.name == "hpc" and i == 0
            if not first_cpu_only and self.rng("gpu-partition", i).random() < (
                self.arch.gpu_partition_chance
            ):
                gpus = lat.pick(f"p{i}.gpus", "scale", _in(GPU_OPTIONS, r.gpus_per_node), 0.3)
            cpus = lat.pick(f"p{i}.cpus", "scale", _in(CPU_OPTIONS, r.cpus_per_node), 0.2)
            memory = lat.pick(
                f"p{i}.memory", "scale", _in(MEMORY_OPTIONS, r.memory_gb_per_node), 0.2
            )
            load = self.rng("load", i)
            full = load.random() < FULL_PARTITION_CHANCE
            free = 0 if full else int(size * load.uniform(0.0, 0.9))
            queue = load.randint(1, 300) if full else load.randint(0, 20)
            parts.append(
                Partition(
                    name=name,
                    total_nodes=size,
                    free_nodes=free,
                    cpus_per_node=cpus,
                    memory_gb_per_node=float(memory),
                    gpus_per_node=gpus,
                    gpu_model=GPU_NAMES[gpu_model] if gpus else None,
                    max_walltime_s=None if manager == "kubernetes" else 86400 * (1 + i % 7),
                    queue_depth=queue,
                    running_jobs=max(0, (size - free) // 2),
                    default=i == 0,
                )
            )
        return parts

    def machine(self) -> tuple[Partition, dict[str, Any], dict[str, Any], dict[str, Any] | None]:
        """A standalone machine: one node whose freedom follows its CPU load alone."""
        lat, r = self.latent, self.r
        cores = lat.pick("machine.cpus", "scale", _in(CPU_OPTIONS, r.cpus_per_node), 0.2)
        memory = float(
            lat.pick("machine.memory", "scale", _in(MEMORY_OPTIONS, r.memory_gb_per_node), 0.2)
        )
        has_gpu = self.rng("gpu-partition", 0).random() < self.arch.gpu_partition_chance
        load = round(self.rng("cpu-load").uniform(0.0, 1.3), 3)
        available = round(memory * self.rng("memory-use").uniform(0.05, 0.95), 2)
        model = self.arch.gpu_models[0]
        part = Partition(
            name="local",
            total_nodes=1,
            free_nodes=1 if load < 0.95 else 0,
            cpus_per_node=cores,
            memory_gb_per_node=memory,
            gpus_per_node=1 if has_gpu else 0,
            gpu_model=GPU_NAMES[model] if has_gpu else None,
            running_jobs=0 if load < 0.95 else 1,
            default=True,
        )
        cpu = self.cpu_facts(cores, load)
        mem = {"total_gb": memory, "available_gb": available}
        gpu = self.gpu_facts(GPU_NAMES[model], 1) if has_gpu else None
        return part, cpu, mem, gpu

    # -- hardware ----------------------------------------------------------------------------

    def cpu_facts(self, cores: int, load: float) -> dict[str, Any]:
        model = "AMD EPYC 7763 64-Core Processor" if cores >= 64 else "Intel(R) Xeon(R) Gold 6338"
        return {
            "model": model,
            "architecture": "x86_64",
            "sockets": 2 if cores >= 64 else 1,
            "cores": cores,
            "threads": cores,
            "flags": ["avx2", "fma"] + (["avx512f"] if "Xeon" in model else []),
            "load_fraction": load,
        }

    def gpu_facts(self, model: str, count: int) -> dict[str, Any]:
        short = next(k for k, v in GPU_NAMES.items() if v == model)
        devices = [
            {"index": i, "vendor": "nvidia", "model": model, "memory_gb": GPU_MEMORY_GB[short]}
            for i in range(count)
        ]
        return {"vendor": "nvidia", "driver_version": "550.54.15", "devices": devices}

    # -- software ----------------------------------------------------------------------------

    def software(self, manager: str, share: int) -> dict[str, Any]:
        pool = pkgs.POOLS[manager]
        pairs = [(name, v) for name, versions in sorted(pool.items()) for v in versions]
        total = round(self.latent.within(f"{manager}.packages", "density", self.r.packages, 0.1))
        count = max(1, min(total // share, int(len(pairs) * MAX_POOL_SHARE)))
        rng = self.rng("packages", manager)
        chosen = sorted(rng.sample(pairs, count))
        env = {"spack": "/opt/spack/opt", "lmod": "/apps/modulefiles", "conda": "base"}.get(manager)
        packages = [
            {"name": n, "version": v, **({"environment": env} if env else {})} for n, v in chosen
        ]
        # Dependencies with their own versions: a dependency is never the application itself.
        every = sorted({**pkgs.HPC_APPS, **pkgs.PYTHON_LIBS}.items())
        deps = []
        for name, _ in chosen:
            if rng.random() < 0.3:
                dep, versions = rng.choice(every)
                if dep != name:
                    deps.append({"package": name, "name": dep, "version": rng.choice(versions)})
        return {
            "manager": manager,
            "version": pkgs.MANAGER_VERSIONS[manager],
            "packages": packages,
            "dependencies": deps,
        }

    # -- storage and network -----------------------------------------------------------------

    def filesystems(self, provider: str) -> list[dict[str, Any]]:
        span = self.r.storage_gb
        fs: list[dict[str, Any]] = []
        specs = {
            "lustre": [("lustre", "/lustre/scratch", 1.0), ("lustre", "/lustre/projects", 0.5)],
            "network-fs": [
                ("nfs", "/home", 0.01 if self.arch.name == "hpc" else 0.5),
                ("nfs", "/projects", 0.05 if self.arch.name == "hpc" else 1.0),
            ],
            "s3": [("s3", f"s3://sim-{self.wid}-data", 1.0)],
            "local-scratch": [("local", "/scratch", 1.0)],
        }[provider]
        many = 1 + int(self.latent.generate(f"{provider}.count", "density", 0.2) > 0.5)
        for i, (kind, mount, factor) in enumerate(specs[:many]):
            total = round(
                max(10.0, self.latent.within(f"{provider}.{i}.size", "scale", span, 0.2) * factor)
            )
            free = round(total * self.rng("storage-free", provider, i).uniform(0.02, 0.8), 1)
            fs.append(
                {
                    "kind": kind,
                    "mount": mount,
                    "total_gb": float(total),
                    "free_gb": free,
                    "shared": kind != "local",
                }
            )
        return fs

    def interfaces(self, provider: str) -> list[dict[str, Any]]:
        if provider == "infiniband":
            speed = self.latent.pick("ib.speed", "scale", (100, 200, 400), 0.2)
            return [{"name": "ib0", "fabric": "infiniband", "speed_gbps": speed, "rdma": True}]
        if provider == "omnipath":
            return [{"name": "hfi1_0", "fabric": "omnipath", "speed_gbps": 100, "rdma": True}]
        speeds = (10, 25, 50, 100) if self.arch.name == "cloud" else (1, 10)
        speed = self.latent.pick("eth.speed", "scale", speeds, 0.2)
        return [{"name": "eth0", "fabric": "ethernet", "speed_gbps": speed, "rdma": False}]

    # -- the whole site ----------------------------------------------------------------------

    def build(self) -> Worker:
        slots = _choose_slots(self.wid, self.arch)
        entries: list[ProviderState] = []

        def add(name: str, kind: str, facts: dict[str, Any]) -> None:
            # Canonical facts (every field, as the facts model dumps them), so that serving
            # the state and exporting it again gives back the identical document.
            canonical = KIND_BASES[kind].facts_model.model_validate(facts).model_dump(mode="json")
            entries.append(ProviderState(name=name, kind=kind, facts=canonical))  # type: ignore[arg-type]

        manager = slots[Category.WORKLOAD][0]
        if manager == "local":
            part, cpu, mem, gpu = self.machine()
            parts = [part]
            add(
                "local",
                "workload",
                {"manager": "machine", "partitions": [part.model_dump(mode="json")]},
            )
        else:
            parts = self.partitions(manager)
            add(
                manager,
                "workload",
                {
                    "manager": manager,
                    "version": WORKLOAD_VERSIONS[manager],
                    "cluster": site_name(self.wid, self.arch.name),
                    "partitions": [p.model_dump(mode="json") for p in parts],
                },
            )
            node = parts[0]
            # CPU load and memory use are separate draws: busy CPUs say nothing about memory.
            load = round(self.rng("cpu-load").uniform(0.0, 1.3), 3)
            cpu = self.cpu_facts(node.cpus_per_node, load)
            use = self.rng("memory-use").uniform(0.05, 0.95)
            mem = {
                "total_gb": node.memory_gb_per_node,
                "available_gb": round(node.memory_gb_per_node * use, 2),
            }
            gpu_parts = [p for p in parts if p.gpus_per_node]
            top = max(gpu_parts, key=lambda p: p.gpus_per_node) if gpu_parts else None
            gpu = self.gpu_facts(top.gpu_model or "", top.gpus_per_node) if top else None
        add("cpu", "cpu", cpu)
        add("memory", "memory", mem)
        if gpu is not None:
            add("nvidia-gpu", "gpu", gpu)
        software = slots[Category.SOFTWARE]
        for name in software:
            add(name, "software", self.software(name, len(software)))
        for name in slots[Category.STORAGE]:
            add(name, "storage", {"filesystems": self.filesystems(name)})
        for name in slots[Category.NETWORK]:
            add(name, "network", {"interfaces": self.interfaces(name)})
        launchers = ["mpirun", "mpiexec"] + (["srun"] if manager == "slurm" else [])
        for name in slots.get(Category.PARALLEL, []):
            version = self.rng("mpi", name).choice(pkgs.MPI_VERSIONS[name])
            add(name, "mpi", {"implementation": name, "version": version, "launchers": launchers})
        for name in slots.get(Category.CONTAINER, []):
            versions, rootless = pkgs.CONTAINER_RUNTIMES[name]
            version = self.rng("container", name).choice(versions)
            add(name, "container", {"runtime": name, "version": version, "rootless": rootless})

        entries.sort(key=lambda e: e.name)
        name = site_name(self.wid, self.arch.name)
        info = SiteInfo(
            name=name,
            kind=self.arch.name,
            description=(
                f"simulated {self.arch.name} worker {self.wid}: scale target "
                f"{self.latent.scale:.4f}, density target {self.latent.density:.4f}"
            ),
            prices=self.prices.site_prices(parts),
        )
        state = SiteState(site=info, providers=tuple(entries))
        return Worker(self.wid, self.arch.name, self.latent.scale, self.latent.density, state)


def generate_worker(worker_id: str, prices: PriceModel | None = None) -> Worker:
    """The simulated worker of ``worker_id``.

    Postcondition: a pure function of ``worker_id`` (and ``prices``): equal ids give equal
    states, and ``state.to_yaml()`` is byte-identical across processes.

    Raises:
        ValueError: ``worker_id`` is empty or cannot be part of a site name.
    """
    if not worker_id or not all(c.isalnum() or c in "._-" for c in worker_id):
        raise ValueError(
            f"worker id {worker_id!r} must be letters, digits, '.', '_' or '-' (e.g. '17')"
        )
    arch = choose_archetype(worker_id)
    return _Builder(worker_id, arch, prices or PriceModel()).build()


def worker_ids(count: int, seed: int = 0) -> list[str]:
    """The ids of a fleet of ``count`` workers: ``0..count-1``, prefixed by the seed if not 0."""
    return [str(i) if seed == 0 else f"{seed}.{i}" for i in range(count)]


def generate_fleet(count: int, seed: int = 0, prices: PriceModel | None = None) -> list[Worker]:
    """``count`` workers, in id order (see :func:`worker_ids`)."""
    return [generate_worker(w, prices) for w in worker_ids(count, seed)]
