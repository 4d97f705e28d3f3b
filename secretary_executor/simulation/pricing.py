"""Per-node prices for simulated sites, from the per-unit prices the paper cites.

Node allocation is exclusive, so a job pays for whole nodes: every core and every GPU of each
node it holds, whether it uses them or not. The defaults are the paper's sources: $1.49 per
A100 GPU-hour, $0.44 per L4 GPU-hour and $0.015 per CPU core-hour.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from providers.facts import Partition
from providers.state import Prices


class PriceModel(BaseModel):
    """Unit prices in US dollars per hour; a GPU model not listed costs ``default_gpu_hour``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cpu_core_hour: float = Field(default=0.015, ge=0)
    gpu_hour: dict[str, float] = Field(default_factory=lambda: {"A100": 1.49, "L4": 0.44})
    default_gpu_hour: float = Field(default=1.49, ge=0)

    def gpu_rate(self, model: str | None) -> float:
        """Price of one GPU-hour of ``model`` (matched as a substring, longest name first)."""
        text = (model or "").upper()
        for name in sorted(self.gpu_hour, key=len, reverse=True):
            if name.upper() in text:
                return self.gpu_hour[name]
        return self.default_gpu_hour

    def node_hour(self, partition: Partition) -> float:
        """Price of one whole node of ``partition`` for one hour."""
        gpus = partition.gpus_per_node * self.gpu_rate(partition.gpu_model)
        return round(partition.cpus_per_node * self.cpu_core_hour + gpus, 6)

    def site_prices(self, partitions: Iterable[Partition]) -> Prices:
        """The site-level prices a state file carries: its dearest CPU and GPU node types.

        A site states one price per node type; taking the dearest shape of each type means the
        negotiator's cost estimates never undercut what the selection experiment charges.
        """
        parts = list(partitions)
        cpu = [self.node_hour(p) for p in parts if p.gpus_per_node == 0]
        gpu = [self.node_hour(p) for p in parts if p.gpus_per_node > 0]
        return Prices(
            cpu_node_hour=max(cpu) if cpu else (max(gpu) if gpu else None),
            gpu_node_hour=max(gpu) if gpu else None,
        )
