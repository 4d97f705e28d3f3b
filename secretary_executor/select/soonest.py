"""soonest: the compatible proposal expected to start first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal
from secretary_executor.select._common import (
    busy_after_ready,
    busy_column,
    low_column,
    low_first,
)
from secretary_executor.select.base import SortingSelector


class Soonest(SortingSelector):
    """Quantitative: shortest estimated time to start, READY sites first.

    Order: READY before BUSY (a READY site starts now whatever its estimate says), then the
    smallest ``metrics.estimated_start_s`` (unknown last), then the shortest queue (unknown
    last), then site name, so equal inputs always give the same answer. Wins for interactive
    and deadline-bound work, and it still picks a BUSY site when nothing is free. Loses when
    sites' estimates are poor (schedulers' start estimates often are) and it ignores price.
    """

    name: ClassVar[str] = "soonest"
    summary: ClassVar[str] = "shortest estimated time to start, READY before BUSY"
    status: ClassVar[str] = "R/B"
    logic: ClassVar[str] = "Quantitative"
    use_case: ClassVar[str] = "Shortest ETS"

    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """READY first, then soonest start; ties by queue depth, then site name."""
        m = proposal.metrics
        return (
            busy_after_ready(proposal),
            low_first(m.estimated_start_s),
            low_first(m.queue_depth),
            proposal.site,
        )

    def sort_columns(self, pool: Sequence[Proposal]) -> list[list[float]] | None:
        """:meth:`sort_key` as float columns (same order), None where they cannot say it."""
        metrics = [p.metrics for p in pool]
        start = low_column([m.estimated_start_s for m in metrics])
        queue = low_column([m.queue_depth for m in metrics])
        if start is None or queue is None:
            return None
        return [busy_column(pool), start, queue]
