"""Prompt generation: a structured requirement first, then text that states exactly it.

Each prompt draws a specificity index (SI) 1-7 with the paper's weights 5/20/30/20/10/10/5 and
a phrasing style. The index adds dimensions cumulatively:

=====  ============================================================================
SI     dimensions
=====  ============================================================================
1      application
2      + version with an operator (<=, >=, ==)
3      + node count and memory per node (counts with units)
4      + cores per node AND/OR GPUs per node
5      + network fabric (or "low latency") and urgency
6      + storage kind (with free space half of the time) and MPI (with a version half of the time)
7      + container runtime
=====  ============================================================================

The :class:`~secretary_executor.simulation.intent.Intent` is drawn first from fleet values,
the :class:`providers.wire.Requirements` derived from it, and the text rendered from that, so
text and recorded requirement cannot disagree (they did in about a third
of the prototype's prompts). The tests parse every style at every index back with the real
parser and demand the identical requirement.
"""

from __future__ import annotations

import math
import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from providers.wire.requirements import (
    Comparator,
    ComputeRequirement,
    ContainerRequirement,
    Fabric,
    GpuLogic,
    MPIRequirement,
    NetworkRequirement,
    Requirements,
    SoftwareRequirement,
    StorageKind,
    StorageRequirement,
    Urgency,
    VersionConstraint,
)
from secretary_executor.simulation.catalogue import Catalogue
from secretary_executor.simulation.intent import LOW_LATENCY, Intent, VersionBound
from secretary_executor.simulation.seeding import stream

Style = Literal["terse", "sentence", "polite"]
STYLES: tuple[Style, ...] = ("terse", "sentence", "polite")
INDEX_WEIGHTS: dict[int, int] = {1: 5, 2: 20, 3: 30, 4: 20, 5: 10, 6: 10, 7: 5}
OPERATORS = (Comparator.LE, Comparator.GE, Comparator.EQ)
NODE_DIVISORS = (1, 2, 4, 8, 16, 64, 256)

_VERSION_FORMS: dict[Comparator, dict[Style, str]] = {
    Comparator.GE: {
        "terse": "{n} >= {v}",
        "sentence": "{n} {v} or newer",
        "polite": "{n} version {v} or later",
    },
    Comparator.LE: {
        "terse": "{n} <= {v}",
        "sentence": "{n} at most {v}",
        "polite": "{n} {v} or older",
    },
    Comparator.EQ: {
        "terse": "{n}=={v}",
        "sentence": "{n} version {v}",
        "polite": "{n} exactly {v}",
    },
}
_FABRIC_NAMES = {
    Fabric.INFINIBAND: "InfiniBand",
    Fabric.OMNIPATH: "Omni-Path",
    Fabric.ETHERNET: "Ethernet",
    Fabric.SLINGSHOT: "Slingshot",
}
_STORAGE_NAMES = {
    StorageKind.LUSTRE: "Lustre",
    StorageKind.NFS: "NFS",
    StorageKind.S3: "S3 object storage",
    StorageKind.LOCAL: "local scratch",
    StorageKind.PARALLEL: "a parallel file system",
}
_URGENCY: dict[Urgency, dict[Style, str]] = {
    Urgency.NOW: {"terse": "asap", "sentence": "urgently", "polite": "as soon as possible"},
    Urgency.SOON: {"terse": "soon", "sentence": "soon", "polite": "shortly"},
    Urgency.NO_RUSH: {
        "terse": "no rush",
        "sentence": "whenever convenient",
        "polite": "low priority",
    },
}
_MPI_NAMES = {"openmpi": ("Open MPI", "OpenMPI", "openmpi"), "mpich": ("MPICH", "MPICH", "mpich")}
_RUNTIME_NAMES = {"singularity": "Singularity", "docker": "Docker", "podman": "Podman"}


class Prompt(BaseModel):
    """One generated request: its text and the requirement the text states exactly."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prompt_id: int = Field(ge=0)
    index: int = Field(ge=1, le=7)
    """Specificity index."""
    style: Style
    text: str
    intent: Intent
    """What the prompt means, drawn before anything else (the independent auditor's input)."""
    requirements: Requirements
    """The wire form of ``intent``; the text is rendered from it."""
    dimensions: tuple[str, ...]
    """The dimensions the prompt names, e.g. ("application", "version", "nodes")."""


# -- values ----------------------------------------------------------------------------------


def _nice_floor(value: float) -> float:
    """``value`` rounded down to one significant digit (37.2 -> 30, 2450 -> 2000)."""
    if value < 1:
        return 0.0
    unit = 10 ** math.floor(math.log10(value))
    return float(math.floor(value / unit) * unit)


def _size_text(gb: float) -> str:
    if gb >= 1000 and gb % 1000 == 0:
        return f"{gb / 1000:g} TB"
    return f"{gb:g} GB"


def _bound(rng: random.Random, versions: tuple[str, ...]) -> VersionBound:
    op = rng.choice(OPERATORS)
    return VersionBound(op=op.value, version=rng.choice(versions))  # type: ignore[arg-type]


def draw_intent(index: int, cat: Catalogue, rng: random.Random) -> tuple[Intent, tuple[str, ...]]:
    """The intended requirement of a prompt of specificity ``index``, drawn from the catalogue."""
    dims = ["application"]
    fields: dict[str, object] = {"app": rng.choice(sorted(cat.apps))}
    if index >= 2:
        dims.append("version")
        fields["version"] = _bound(rng, cat.apps[str(fields["app"])])
    if index >= 3:
        dims += ["nodes", "memory"]
        size = rng.choice(cat.partition_sizes)
        fields["nodes"] = max(1, size // rng.choice(NODE_DIVISORS))
        fields["memory_gb_per_node"] = rng.choice(cat.memory_gb_per_node)
    if index >= 4:
        dims += ["cores", "gpus"]
        fields["cores_per_node"] = rng.choice(cat.cores_per_node)
        fields["gpus_per_node"] = rng.choice(cat.gpus_per_node)
        fields["gpu_logic"] = rng.choice((GpuLogic.AND, GpuLogic.OR)).value
    if index >= 5:
        dims += ["network", "urgency"]
        fields["fabric"] = LOW_LATENCY if rng.random() < 0.2 else rng.choice(cat.fabrics)
        fields["urgency"] = rng.choice(tuple(Urgency)).value
    if index >= 6:
        dims += ["storage", "mpi"]
        kinds = [k for k in cat.storage if k in {s.value for s in _STORAGE_NAMES}]
        kind = StorageKind.PARALLEL if rng.random() < 0.1 else StorageKind(rng.choice(kinds))
        frees = cat.storage.get(kind.value) or cat.storage.get("lustre") or (0.0,)
        free = _nice_floor(rng.choice(frees)) if rng.random() < 0.5 else 0.0
        fields["storage"] = kind.value
        fields["storage_free_gb"] = free or None
        impl = rng.choice(sorted(cat.mpi))
        fields["mpi"] = impl
        fields["mpi_version"] = _bound(rng, cat.mpi[impl]) if rng.random() < 0.5 else None
    if index >= 7:
        dims.append("container")
        fields["container"] = rng.choice(cat.runtimes)
    return Intent.model_validate(fields), tuple(dims)


def _constraints(bound: VersionBound | None) -> tuple[VersionConstraint, ...]:
    return (
        ()
        if bound is None
        else (VersionConstraint(op=Comparator(bound.op), version=bound.version),)
    )


def requirements_of(intent: Intent) -> Requirements:
    """The wire requirement that states ``intent``: what the negotiator reads when the parse
    is perfect, and what the prompt text is rendered from."""
    compute = {
        k: v
        for k, v in (
            ("nodes", intent.nodes),
            ("memory_gb_per_node", intent.memory_gb_per_node),
            ("cores_per_node", intent.cores_per_node),
            ("gpus_per_node", intent.gpus_per_node),
        )
        if v is not None
    }
    if intent.gpus_per_node is not None:
        compute["gpu_logic"] = GpuLogic(intent.gpu_logic)
    network = None
    if intent.fabric == LOW_LATENCY:
        network = NetworkRequirement(low_latency=True)
    elif intent.fabric is not None:
        network = NetworkRequirement(fabric=Fabric(intent.fabric))
    storage: tuple[StorageRequirement, ...] = ()
    if intent.storage is not None:
        storage = (
            StorageRequirement(
                kind=StorageKind(intent.storage), min_free_gb=intent.storage_free_gb
            ),
        )
    mpi = None
    if intent.mpi is not None:
        mpi = MPIRequirement(
            implementation=intent.mpi, constraints=_constraints(intent.mpi_version)
        )
    return Requirements(
        software=(SoftwareRequirement(name=intent.app, constraints=_constraints(intent.version)),),
        compute=ComputeRequirement.model_validate(compute),
        network=network,
        storage=storage,
        container=None
        if intent.container is None
        else ContainerRequirement(runtime=intent.container),
        mpi=mpi,
        urgency=None if intent.urgency is None else Urgency(intent.urgency),
    )


# -- text ------------------------------------------------------------------------------------


def _software_text(name: str, constraints: tuple[VersionConstraint, ...], style: Style) -> str:
    if not constraints:
        return name
    (c,) = constraints
    return _VERSION_FORMS[c.op][style].format(n=name, v=c.version)


def _compute_parts(c: ComputeRequirement, style: Style) -> list[str]:
    parts: list[str] = []
    if c.nodes is not None:
        nodes = f"{c.nodes} node{'s' if c.nodes != 1 else ''}"
        parts.append(
            {
                "terse": nodes,
                "sentence": f"on {nodes}",
                "polite": f"across {c.nodes} compute node{'s' if c.nodes != 1 else ''}",
            }[style]
        )
    if c.memory_gb_per_node is not None:
        m = f"{c.memory_gb_per_node:g}"
        parts.append(
            {
                "terse": f"{m}GB RAM per node",
                "sentence": f"with {m} GB of memory per node",
                "polite": f"{m} GB of memory on each node",
            }[style]
        )
    if c.cores_per_node is not None and c.gpus_per_node is not None:
        gpus = f"{c.gpus_per_node} GPU{'s' if c.gpus_per_node != 1 else ''}"
        cores = f"{c.cores_per_node} cores"
        if c.gpu_logic is GpuLogic.OR:
            text = {
                "terse": f"{cores} or {gpus} per node",
                "sentence": f"{gpus} per node or {cores} per node",
                "polite": f"either {cores} or {gpus} per node",
            }[style]
        else:
            text = {
                "terse": f"{cores} per node and {gpus} per node",
                "sentence": f"{cores} and {gpus} per node",
                "polite": f"{gpus} per node and {cores} per node",
            }[style]
        parts.append(text)
    return parts


def _network_text(n: NetworkRequirement, style: Style) -> str:
    if n.fabric is None:
        return {
            "terse": "low latency",
            "sentence": "over a low-latency network",
            "polite": "with a fast interconnect",
        }[style]
    name = _FABRIC_NAMES[n.fabric]
    article = "an" if name[0] in "AEIOU" else "a"
    return {
        "terse": name,
        "sentence": f"over {article} {name} network",
        "polite": f"with {article} {name} interconnect",
    }[style]


def _storage_text(s: StorageRequirement, style: Style) -> str:
    name = _STORAGE_NAMES[s.kind]
    if s.min_free_gb is None:
        return {
            "terse": name,
            "sentence": f"on {name}",
            "polite": name if s.kind is StorageKind.PARALLEL else f"{name} storage",
        }[style]
    size = _size_text(s.min_free_gb)
    if s.kind is StorageKind.PARALLEL:
        return f"on {name} with {size} free"
    return {
        "terse": f"{size} of {name}",
        "sentence": f"{name} with {size} free",
        "polite": f"{size} free on {name}",
    }[style]


def _mpi_text(m: MPIRequirement, style: Style) -> str:
    names = _MPI_NAMES[m.implementation or "openmpi"]
    name = names[STYLES.index(style)]
    text = _software_text(name, m.constraints, style)
    return text if style == "terse" else f"with {text}"


def _container_text(c: ContainerRequirement, style: Style) -> str:
    name = _RUNTIME_NAMES.get(c.runtime, c.runtime)
    return {"terse": name, "sentence": f"in a {name} container", "polite": f"using {name}"}[style]


def render(req: Requirements, style: Style) -> str:
    """The request text, in ``style``, that states exactly ``req``."""
    (sw,) = req.software
    parts = [_software_text(sw.name, sw.constraints, style)]
    parts += _compute_parts(req.compute, style)
    if req.network is not None:
        parts.append(_network_text(req.network, style))
    parts += [_storage_text(s, style) for s in req.storage]
    if req.mpi is not None:
        parts.append(_mpi_text(req.mpi, style))
    if req.container is not None:
        parts.append(_container_text(req.container, style))
    if req.urgency is not None:
        parts.append(_URGENCY[req.urgency][style])
    if style == "terse":
        return ", ".join(parts)
    if style == "sentence":
        # No closing full stop: the parser misreads "3.10 or newer." as "== 3.10" (reported).
        rest = ", " + ", ".join(parts[2:]) if parts[2:] else ""
        return "Run " + " ".join(parts[:2]) + rest
    return "Could you run " + ", ".join(parts) + " please?"


def generate_prompts(cat: Catalogue, count: int, seed: int = 0) -> list[Prompt]:
    """``count`` prompts; prompt ``i`` depends only on (seed, i) and the catalogue.

    Raises:
        ValueError: the catalogue is empty (no application anywhere in the fleet).
    """
    if not cat.apps:
        raise ValueError("the fleet has no software at all, so no prompt can name an application")
    prompts: list[Prompt] = []
    indices = list(INDEX_WEIGHTS)
    weights = list(INDEX_WEIGHTS.values())
    for i in range(count):
        rng = stream("prompt", seed, i)
        index = rng.choices(indices, weights=weights)[0]
        style = rng.choice(STYLES)
        intent, dims = draw_intent(index, cat, rng)
        req = requirements_of(intent)
        text = render(req, style)
        prompts.append(
            Prompt(
                prompt_id=i,
                index=index,
                style=style,
                text=text,
                intent=intent,
                requirements=req,
                dimensions=dims,
            )
        )
    return prompts
