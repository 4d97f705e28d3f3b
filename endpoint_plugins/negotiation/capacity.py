"""The compute check: which partition can hold the job, whether it can start now, what it costs.

READY and BUSY are decided here, so they have one definition: a partition *fits* when its node
shape can ever hold the job (cores, GPUs, memory, walltime, node count); the job can *start now*
when a fitting partition has enough free nodes; otherwise it must *wait* (BUSY). A site where no
partition fits is INCOMPATIBLE for compute, whatever its load.

Sites without a workload manager (a workstation, a cloud VM) are judged as one partition of
one node, built from the hardware providers' ``cpu_info``, ``memory_info`` and ``gpu_info``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import TypeAdapter

from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.negotiation.calls import (
    EvidenceScope,
    ask,
    join_names,
    plural,
    providers_of_kind,
)
from providers.facts import CPUFacts, GPUFacts, MemoryFacts, Partition
from providers.session import ToolSession
from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus, Evidence, Metrics
from providers.wire.requirements import ComputeRequirement, GpuLogic, GpuVendor

HEURISTIC_WAIT_PER_JOB_S = 900.0
"""Assumed wait per job ahead when the scheduler gives no estimate of its own.

The estimate is ``(queue_depth + 1) * 900 s / max(1, total_nodes // nodes_needed)``: every
queued job plus the running job whose nodes we wait for, spread over the number of jobs of this
size the partition can run side by side. It only orders BUSY sites; it is not a promise.
"""

NODE_BUSY_LOAD = 0.95
"""A single machine counts as free while its CPU load fraction stays below this."""

NODE_PARTITION = "node"
"""The partition name reported for a site that is one machine without a workload manager."""

_PARTITIONS: TypeAdapter[list[Partition]] = TypeAdapter(list[Partition])
_CPU: TypeAdapter[CPUFacts] = TypeAdapter(CPUFacts)
_MEMORY: TypeAdapter[MemoryFacts] = TypeAdapter(MemoryFacts)
_GPU: TypeAdapter[GPUFacts] = TypeAdapter(GPUFacts)


# -- the job's shape -------------------------------------------------------------------------


def nodes_needed(compute: ComputeRequirement, part: Partition) -> int:
    """Nodes the job takes on ``part``.

    The explicit node count wins. Otherwise the totals decide: a total core count is spread
    over as many nodes as it takes (``cores_per_node`` per node when given, else full nodes),
    and so is a total GPU count over the partition's GPUs per node (GPUs per node when the
    request gives them). With no total, one node.
    """
    if compute.nodes is not None:
        return compute.nodes
    needed = 1
    if compute.total_cores is not None:
        per_node = compute.cores_per_node or part.cpus_per_node
        needed = max(needed, math.ceil(compute.total_cores / per_node))
    if compute.total_gpus is not None:
        per_node = compute.gpus_per_node or part.gpus_per_node
        if per_node > 0:
            needed = max(needed, math.ceil(compute.total_gpus / per_node))
    return needed


def cores_needed_per_node(compute: ComputeRequirement, nodes: int) -> int | None:
    """Cores each node must have (None: the request says nothing about cores)."""
    if compute.cores_per_node is not None:
        return compute.cores_per_node
    if compute.total_cores is not None:
        return math.ceil(compute.total_cores / nodes)
    return None


def gpus_wanted(compute: ComputeRequirement, nodes: int = 1) -> int:
    """GPUs per node the request asks for on ``nodes`` nodes.

    A total is spread over the nodes; a named GPU model or vendor alone means at least one.
    ``gpus_per_node = 0`` means a CPU-only job: the GPU side then asks for nothing.
    """
    if compute.gpus_per_node is not None:
        return compute.gpus_per_node
    if compute.total_gpus is not None:
        return math.ceil(compute.total_gpus / nodes)
    return 1 if compute.gpu_model or compute.gpu_vendor else 0


def memory_needed_per_node(compute: ComputeRequirement, nodes: int) -> float | None:
    """Memory each node must have: the per-node size, else the job's total over its nodes."""
    if compute.memory_gb_per_node is not None:
        return compute.memory_gb_per_node
    if compute.memory_gb_total is not None:
        return round(compute.memory_gb_total / nodes, 6)
    return None


def gpu_model_matches(wanted: str, have: str | None) -> bool:
    """Case-insensitive substring match, so ``a100`` matches ``NVIDIA A100-SXM4-80GB``."""
    return have is not None and wanted.strip().lower() in have.lower()


_VENDOR_MARKERS: dict[GpuVendor, tuple[str, ...]] = {
    GpuVendor.NVIDIA: ("nvidia", "tesla", "geforce", "quadro", "rtx", "jetson", "orin"),
    GpuVendor.AMD: ("amd", "radeon", "instinct", "mi50", "mi100", "mi2", "mi3"),
    GpuVendor.INTEL: ("intel", "max 1", "ponte vecchio", "arc", "flex"),
}
_NVIDIA_MODEL_RE = re.compile(
    r"(?<![a-z0-9])(?:[abhklptv]\d{1,3}[a-z]?|gh200|gb200|b[12]00)(?![0-9])"
)


def gpu_vendor_of(model: str | None) -> GpuVendor | None:
    """The vendor a reported GPU model names, by its vendor name or model family."""
    if not model:
        return None
    text = model.lower()
    for vendor, markers in _VENDOR_MARKERS.items():
        if any(marker in text for marker in markers):
            return vendor
    return GpuVendor.NVIDIA if _NVIDIA_MODEL_RE.search(text) else None


def compute_label(compute: ComputeRequirement) -> str:
    """The compute requirement as it appears in a check."""
    parts: list[str] = []
    if compute.nodes is not None:
        parts.append(plural(compute.nodes, "node"))
    if compute.total_cores is not None:
        parts.append(f"{compute.total_cores} cores in total")
    cpu = f"{compute.cores_per_node} cores/node" if compute.cores_per_node else None
    gpu = _gpu_label(compute)
    if gpu and compute.gpus_per_node != 0 and compute.gpu_logic is GpuLogic.OR:
        parts.append(f"{cpu or 'CPU only'} or {gpu}")
    else:
        parts.extend(p for p in (cpu, gpu) if p)
    if compute.memory_gb_per_node is not None:
        parts.append(f"{compute.memory_gb_per_node:g} GB/node")
    if compute.memory_gb_total is not None:
        parts.append(f"{compute.memory_gb_total:g} GB in total")
    if compute.walltime_s is not None:
        parts.append(f"walltime {format_duration(compute.walltime_s)}")
    return "compute: " + (", ".join(parts) if parts else "1 node of any shape")


def _gpu_label(compute: ComputeRequirement) -> str | None:
    if compute.gpus_per_node == 0:
        return "no GPU"
    kind = " ".join(
        str(x)
        for x in (compute.gpu_vendor.value if compute.gpu_vendor else None, compute.gpu_model)
        if x
    )
    kind = f" {kind}" if kind else ""
    if compute.gpus_per_node is not None:
        return f"{compute.gpus_per_node}{kind} GPU{'s' if compute.gpus_per_node != 1 else ''}/node"
    if compute.total_gpus is not None:
        return f"{compute.total_gpus}{kind} GPU{'s' if compute.total_gpus != 1 else ''} in total"
    if kind:
        return f"1{kind} GPU/node"
    return None


def format_duration(seconds: float) -> str:
    """``45 s``, ``15 min``, ``2 h 30 min``: for details and reasons read by people."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    return f"{hours} h {rest} min" if rest else f"{hours} h"


# -- fitting ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """How one partition compares with the job's shape."""

    provider: str
    partition: Partition
    nodes: int
    """Nodes the job needs on this partition."""
    uses_gpu: bool
    """The job would run on this partition's GPUs (decides the node price)."""
    mismatches: tuple[str, ...]
    """Why the partition can never hold the job; empty when it fits."""

    @property
    def fits(self) -> bool:
        """True when the partition's shape can hold the job (free or not)."""
        return not self.mismatches


def fit_partition(compute: ComputeRequirement, part: Partition, provider: str = "") -> Fit:
    """Compare one partition with the job, per node.

    The CPU/GPU clause follows ``gpu_logic``: with AND the cores and the GPUs must both fit;
    with OR either suffices ("32 cores or 2 GPUs per node": a CPU-only partition with 32
    cores fits; "CPU or 2 GPUs per node": any partition fits, on its CPUs if need be). When only
    one side is named, that side must fit. Memory, walltime and the node count must fit in
    every case. Totals are spread over the nodes the job takes here.
    """
    nodes = nodes_needed(compute, part)
    cores = cores_needed_per_node(compute, nodes)
    gpus = gpus_wanted(compute, nodes)
    cores_ok = cores is None or cores <= part.cpus_per_node
    cpu_problem = f"{cores} cores/node needed, it has {part.cpus_per_node}"
    gpu_problem = _gpu_problem(compute, part, gpus)
    gpus_ok = not gpu_problem

    mismatches: list[str] = []
    if gpus > 0 and compute.gpu_logic is GpuLogic.OR:
        if not (cores_ok or gpus_ok):
            mismatches.append(f"neither {cpu_problem} nor {gpu_problem}")
        # Either side will do: run on CPUs when the cores fit, which is the cheaper node.
        uses_gpu = not cores_ok
    else:
        if not cores_ok:
            mismatches.append(cpu_problem)
        if not gpus_ok:
            mismatches.append(gpu_problem)
        uses_gpu = gpus > 0
    need_mem = memory_needed_per_node(compute, nodes)
    if need_mem is not None and need_mem > part.memory_gb_per_node:
        mismatches.append(f"{need_mem:g} GB/node needed, it has {part.memory_gb_per_node:g}")
    if (
        compute.walltime_s is not None
        and part.max_walltime_s is not None
        and compute.walltime_s > part.max_walltime_s
    ):
        mismatches.append(
            f"walltime {format_duration(compute.walltime_s)} exceeds its limit of "
            f"{format_duration(part.max_walltime_s)}"
        )
    if part.total_nodes < nodes:
        mismatches.append(f"{plural(nodes, 'node')} needed, it has {part.total_nodes}")
    return Fit(provider, part, nodes, uses_gpu, tuple(mismatches))


def _gpu_problem(compute: ComputeRequirement, part: Partition, gpus: int) -> str:
    """Why the partition's GPUs cannot serve the job, or "" when they can (or none needed)."""
    if gpus <= 0:
        return ""
    have = f" {part.gpu_model}" if part.gpu_model and part.gpus_per_node else ""
    if part.gpus_per_node < gpus:
        return f"{plural(gpus, 'GPU')}/node needed, it has {part.gpus_per_node}{have}"
    if compute.gpu_model and not gpu_model_matches(compute.gpu_model, part.gpu_model):
        return f"{compute.gpu_model} GPUs needed, it has {part.gpu_model or 'none'}"
    if compute.gpu_vendor is not None:
        vendor = gpu_vendor_of(part.gpu_model)
        if vendor is not compute.gpu_vendor:
            shown = part.gpu_model or "GPUs of an unreported model"
            return f"{compute.gpu_vendor.value} GPUs needed, it has {shown}"
    return ""


# -- plans -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A fitting partition with its start estimate and cost: what a proposal offers."""

    fit: Fit
    start_now: bool
    estimated_start_s: float
    hours: float
    """Hours priced: the requested walltime, else the site's default walltime."""
    price_per_node_hour: float | None
    estimated_cost_usd: float | None
    over_budget: bool

    @property
    def partition(self) -> Partition:
        return self.fit.partition

    def rank_key(self) -> tuple[bool, bool, float, float, str, str]:
        """Within budget first, then can start now, soonest start, cheapest, then by name."""
        cost = self.estimated_cost_usd if self.estimated_cost_usd is not None else math.inf
        return (
            self.over_budget,
            not self.start_now,
            self.estimated_start_s,
            cost,
            self.partition.name,
            self.fit.provider,
        )

    def metrics(self) -> Metrics:
        """The numbers selectors rank sites by, from this partition."""
        part = self.partition
        return Metrics(
            partition=part.name,
            provider=self.fit.provider,
            total_nodes=part.total_nodes,
            free_nodes=part.free_nodes,
            queue_depth=part.queue_depth,
            estimated_start_s=self.estimated_start_s,
            price_per_node_hour=self.price_per_node_hour,
            estimated_cost_usd=self.estimated_cost_usd,
        )


def estimated_start_s(fit: Fit) -> float:
    """0 when enough nodes are free, else the scheduler's estimate, else the heuristic."""
    part = fit.partition
    if part.free_nodes >= fit.nodes:
        return 0.0
    if part.estimated_wait_s is not None:
        return max(0.0, part.estimated_wait_s)
    parallel_jobs = max(1, part.total_nodes // fit.nodes)
    return (part.queue_depth + 1) * HEURISTIC_WAIT_PER_JOB_S / parallel_jobs


def make_plan(
    fit: Fit, compute: ComputeRequirement, context: NegotiationContext, budget: float | None
) -> Plan:
    """Price a fitting partition: nodes x hours x the price of the node type used."""
    price = context.prices.per_node_hour(gpu=fit.uses_gpu)
    hours = (compute.walltime_s or context.default_walltime_s) / 3600
    cost = round(fit.nodes * hours * price, 6) if price is not None else None
    return Plan(
        fit=fit,
        start_now=fit.partition.free_nodes >= fit.nodes,
        estimated_start_s=estimated_start_s(fit),
        hours=hours,
        price_per_node_hour=price,
        estimated_cost_usd=cost,
        over_budget=budget is not None and cost is not None and cost > budget,
    )


# -- the check -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CapacityResult:
    """The compute check and, when a partition fits, the plan it chose."""

    check: Check
    plan: Plan | None = None


@dataclass(frozen=True)
class _Candidates:
    partitions: list[tuple[str, Partition]]
    errors: list[str]
    hidden: list[str]
    category: Category


def _workload_partitions(session: ToolSession, context: NegotiationContext) -> _Candidates | None:
    providers = providers_of_kind(session, "workload")
    if not providers:
        return None
    found: list[tuple[str, Partition]] = []
    errors: list[str] = []
    hidden: list[str] = []
    exposed = context.exposed_partitions
    for provider in providers:
        answer = ask(session, provider, "list_partitions", _PARTITIONS)
        if not answer.ok:
            errors.append(answer.error or "")
            continue
        for part in answer.value or []:
            if exposed is not None and part.name not in exposed:
                hidden.append(part.name)
                continue
            found.append((provider.name, part))
    return _Candidates(found, errors, hidden, Category.WORKLOAD)


def _node_partition(session: ToolSession, compute: ComputeRequirement) -> _Candidates:
    """The machine itself as one partition, for sites without a workload manager."""
    errors: list[str] = []
    cpu: CPUFacts | None = None
    for provider in providers_of_kind(session, "cpu")[:1]:
        answer = ask(session, provider, "cpu_info", _CPU)
        cpu = answer.value
        if not answer.ok:
            errors.append(answer.error or "")
    if cpu is None:
        errors = errors or ["no workload manager and no CPU provider report this site's capacity"]
        return _Candidates([], errors, [], Category.HARDWARE)

    # Memory and GPUs matter only when the request names them: an unreadable GPU provider
    # says nothing about a CPU-only job.
    memory_gb: float | None = None
    for provider in providers_of_kind(session, "memory")[:1]:
        mem_answer = ask(session, provider, "memory_info", _MEMORY)
        if mem_answer.value is not None:
            memory_gb = mem_answer.value.total_gb
        elif compute.memory_gb_per_node is not None or compute.memory_gb_total is not None:
            errors.append(mem_answer.error or "")
    wants_memory = compute.memory_gb_per_node is not None or compute.memory_gb_total is not None
    if wants_memory and memory_gb is None and not errors:
        errors.append("no memory provider reports this machine's memory")

    gpu_count, gpu_model = 0, None
    for provider in providers_of_kind(session, "gpu")[:1]:
        gpu_answer = ask(session, provider, "gpu_info", _GPU)
        if gpu_answer.value is not None:
            devices = gpu_answer.value.devices
            gpu_count = len(devices)
            gpu_model = _with_vendor(devices[0].vendor, devices[0].model) if devices else None
        elif gpus_wanted(compute) > 0:
            errors.append(gpu_answer.error or "")

    part = Partition(
        name=NODE_PARTITION,
        total_nodes=1,
        free_nodes=1 if cpu.load_fraction < NODE_BUSY_LOAD else 0,
        cpus_per_node=cpu.cores,
        memory_gb_per_node=memory_gb or 0.0,
        gpus_per_node=gpu_count,
        gpu_model=gpu_model,
    )
    if errors:
        # Part of the machine could not be read: a fit would rest on a guess.
        return _Candidates([], errors, [], Category.HARDWARE)
    return _Candidates([("hardware", part)], [], [], Category.HARDWARE)


def _with_vendor(vendor: str, model: str) -> str:
    """``NVIDIA Orin``: the model as the vendor check can read it."""
    return model if vendor.lower() in model.lower() else f"{vendor} {model}".strip()


def assess_capacity(
    compute: ComputeRequirement,
    session: ToolSession,
    context: NegotiationContext,
    budget: float | None = None,
) -> CapacityResult:
    """Judge the compute requirement and choose the partition the proposal offers.

    SATISFIED: a fitting partition has enough free nodes now. WAIT: partitions fit but none has
    the free nodes. UNSATISFIED: no partition (of those exposed) can ever hold the job; the
    detail names the closest one and what it lacks. UNKNOWN: nothing fits among the partitions
    that could be read, and some could not be read. Among fitting partitions the plan prefers
    one within ``budget``, then one that starts now, then the soonest, cheapest, by name.
    """
    scope = EvidenceScope(session, redact=_partition_redactor(context.exposed_partitions))
    label = compute_label(compute)
    cands = _workload_partitions(session, context) or _node_partition(session, compute)
    fits = [fit_partition(compute, part, prov) for prov, part in cands.partitions]
    good = [f for f in fits if f.fits]
    if good:
        plan = min((make_plan(f, compute, context, budget) for f in good), key=Plan.rank_key)
        part = plan.partition
        where = f"partition {part.name!r}" + (
            f" ({plan.fit.provider})" if cands.category is Category.WORKLOAD else ""
        )
        free = f"{part.free_nodes} of {part.total_nodes} nodes free"
        needs = f"{plural(plan.fit.nodes, 'node')} needed"
        unread = f" (not read: {'; '.join(cands.errors)})" if cands.errors else ""
        if plan.start_now:
            detail = f"{where} fits: {free}, {needs}{unread}"
            return CapacityResult(
                scope.check(label, cands.category, CheckStatus.SATISFIED, detail), plan
            )
        detail = (
            f"{where} fits but has too few free nodes: {free}, {needs}, "
            f"{plural(part.queue_depth, 'job')} queued, "
            f"estimated start in {format_duration(plan.estimated_start_s)}{unread}"
        )
        return CapacityResult(scope.check(label, cands.category, CheckStatus.WAIT, detail), plan)
    if cands.errors:
        detail = "; ".join(cands.errors)
        if fits:
            detail += f"; the partitions that could be read do not fit ({_closest(fits)})"
        return CapacityResult(scope.check(label, cands.category, CheckStatus.UNKNOWN, detail))
    if not fits:
        detail = "the workload manager reports no partitions"
        if cands.hidden:
            # Hidden partitions are not named: the administrator chose not to offer them.
            shown = join_names(list(context.exposed_partitions or ()))
            detail = f"none of the exposed partitions ({shown}) exists at this site"
        return CapacityResult(scope.check(label, cands.category, CheckStatus.UNSATISFIED, detail))
    detail = f"no partition fits; closest is {_closest(fits)}"
    return CapacityResult(scope.check(label, cands.category, CheckStatus.UNSATISFIED, detail))


def _partition_redactor(
    exposed: tuple[str, ...] | None,
) -> Callable[[Evidence], Evidence] | None:
    """Drop partitions the site does not expose from ``list_partitions`` evidence.

    The proposal travels to the requester; partitions the administrator chose not to offer
    must not appear in it, neither in a detail nor in the raw evidence.
    """
    if exposed is None:
        return None
    allowed = set(exposed)

    def redact(evidence: Evidence) -> Evidence:
        if evidence.tool != "list_partitions" or not isinstance(evidence.result, list):
            return evidence
        kept = [p for p in evidence.result if not isinstance(p, dict) or p.get("name") in allowed]
        return evidence.model_copy(update={"result": kept})

    return redact


def _closest(fits: list[Fit], limit: int = 4) -> str:
    """The partitions with the fewest mismatches first, each with what it lacks.

    Several are named because "closest" is a guess: a GPU partition of the wrong model and a
    CPU partition without GPUs both miss by one, and the user needs to see both.
    """
    ranked = sorted(fits, key=lambda f: (len(f.mismatches), f.partition.name))
    shown = [f"{f.partition.name!r} ({'; '.join(f.mismatches)})" for f in ranked[:limit]]
    more = len(ranked) - limit
    text = shown[0]
    if len(shown) > 1:
        text += "; then " + ", ".join(shown[1:])
    return text + (f" and {more} more" if more > 0 else "")
