"""queue-depth: the compatible proposal with the shortest queue."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal, Verdict
from secretary_executor.select._common import INF, busy_after_ready, high_first, low_first
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

    def flat_keys(self, pool: Sequence[Proposal]) -> list[tuple[Any, ...]] | None:
        """:meth:`sort_key` for the whole pool as flat tuples (see :class:`SortingSelector`)."""
        ready = Verdict.READY
        keys: list[tuple[Any, ...]] = []
        for p in pool:
            q, f = (m := p.metrics).queue_depth, m.free_nodes
            if q == INF or f == -INF:
                return None
            keys.append(
                (
                    INF if q is None or q != q else float(q),
                    INF if f is None or f != f else -float(f),
                    0.0 if p.verdict is ready else 1.0,
                    p.site,
                )
            )
        return keys
