"""queue-depth: the compatible proposal with the shortest queue."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal, Verdict
from providers.wire.proposal import RANK_KEYS
from secretary_executor.select._common import INF, busy_after_ready, high_first, low_first
from secretary_executor.select.base import SortingSelector
from secretary_executor.select.proposal_set import FREE, QUEUE, Row


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
    columns: ClassVar[frozenset[str]] = frozenset({FREE, QUEUE})
    use_case: ClassVar[str] = "Fleet-wide load balancing"
    rank_key: ClassVar[str] = RANK_KEYS[2]

    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """Shortest queue first; ties more free nodes, READY, then site name."""
        m = proposal.metrics
        return (
            low_first(m.queue_depth),
            high_first(m.free_nodes),
            busy_after_ready(proposal),
            proposal.site,
        )

    def keys(self, rows: Sequence[Row]) -> list[list[tuple[Any, ...]]]:
        """One group; the queue depth leads every key, as in :meth:`sort_key`."""
        return [[(q, f, busy, site, i, p) for busy, _, _, q, f, site, i, p in rows]]

    def direct(self, proposals: Sequence[Proposal]) -> list[list[tuple[Any, ...]]] | None:
        """The group of :meth:`keys`, read straight from the models in one pass (queue depth
        and free nodes are validated ints, never ambiguous)."""
        ready, busy, inf = Verdict.READY, Verdict.BUSY, INF
        group: list[tuple[Any, ...]] = []
        append = group.append
        for i, p in enumerate(proposals):
            fields = p.__dict__
            verdict = fields["verdict"]
            if verdict is not ready and verdict is not busy:
                continue
            m = fields["metrics"].__dict__
            q = m["queue_depth"]
            f = m["free_nodes"]
            append(
                (
                    inf if q is None else q * 1.0,
                    inf if f is None else f * -1.0,
                    verdict is busy,
                    fields["site"],
                    i,
                    p,
                )
            )
        return [group]
