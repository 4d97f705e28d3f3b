"""Structured results of the hub's MCP tools (pydantic, so clients get structured content)."""

from __future__ import annotations

from providers.wire.common import WireModel
from secretary_executor.hub.registry import WorkerRecord, WorkerState
from secretary_executor.select.registry import SelectorInfo


class SiteEntry(WireModel):
    """One site of the hub's fleet."""

    name: str
    worker: str | None = None
    """The worker serving it; None for an in-process site of the hub itself."""
    state: WorkerState = WorkerState.UP


class FleetStatus(WireModel):
    """Every site and worker, for ``list_sites`` and the ``fleet://status`` resource."""

    hub: str
    sites: tuple[SiteEntry, ...]
    workers: tuple[WorkerRecord, ...]


class Algorithms(WireModel):
    algorithms: tuple[SelectorInfo, ...]


PROMPTS: dict[str, str] = {
    "cpu": "Run `{command}` on {cores} cores for {hours} hours.",
    "gpu": "Run `{command}` on 1 node with 1 GPU (at least 40 GB of GPU memory) for {hours} hours.",
    "mpi": "Run `{command}` with MPI on {nodes} nodes, {cores} cores per node, for {hours} hours.",
    "software": "I need lammps with kokkos on {cores} cores; run `{command}`.",
}
"""Request templates offered as prompts; the hub's parser understands each of them."""
