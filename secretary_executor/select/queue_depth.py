"""queue-depth: the compatible proposal with the shortest queue."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from providers.wire import Policy, Proposal, Requirements
from secretary_executor.select._common import (
    READY_OR_BUSY,
    busy_after_ready,
    candidates,
    high_first,
    low_first,
)
from secretary_executor.select.base import Selector


class QueueDepth(Selector):
    """Quantitative: the least loaded site, to balance load across the fleet.

    Order: fewest waiting jobs (``metrics.queue_depth``, unknown last), then most free nodes
    (unknown last), then READY before BUSY, then site name. Wins when many clients share a
    fleet: sending each job to the shortest queue keeps queues even. Loses when queue length
    says little about wait (ten one-minute jobs versus one week-long job) and it ignores price.
    """

    name: ClassVar[str] = "queue-depth"
    summary: ClassVar[str] = "shortest queue; ties most free nodes, READY first"
    status: ClassVar[str] = "R/B"
    logic: ClassVar[str] = "Quantitative"
    use_case: ClassVar[str] = "Fleet-wide load balancing"

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """READY/BUSY proposals, shortest queue first; ties more free nodes, READY, name."""
        return sorted(
            candidates(proposals, READY_OR_BUSY),
            key=lambda p: (
                low_first(p.metrics.queue_depth),
                high_first(p.metrics.free_nodes),
                busy_after_ready(p),
                p.site,
            ),
        )
