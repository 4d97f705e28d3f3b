"""queue-depth: the compatible proposal with the shortest queue."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal
from secretary_executor.select._common import (
    busy_after_ready,
    busy_column,
    high_column,
    high_first,
    low_column,
    low_first,
)
from secretary_executor.select.base import SortingSelector


class QueueDepth(SortingSelector):
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

    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """Shortest queue first; ties more free nodes, READY, then site name."""
        m = proposal.metrics
        return (
            low_first(m.queue_depth),
            high_first(m.free_nodes),
            busy_after_ready(proposal),
            proposal.site,
        )

    def sort_columns(self, pool: Sequence[Proposal]) -> list[list[float]] | None:
        """:meth:`sort_key` as float columns (same order), None where they cannot say it."""
        metrics = [p.metrics for p in pool]
        queue = low_column([m.queue_depth for m in metrics])
        free = high_column([m.free_nodes for m in metrics])
        if queue is None or free is None:
            return None
        return [queue, free, busy_column(pool)]
