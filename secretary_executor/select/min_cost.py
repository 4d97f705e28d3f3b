"""min-cost: the compatible proposal with the lowest estimated cost."""

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


class MinCost(SortingSelector):
    """Economic: cheapest estimated cost of the whole job.

    Order: smallest ``metrics.estimated_cost_usd`` (sites that cannot price the job last, as
    their cost is a risk), then READY before BUSY, then soonest estimated start, then site
    name. Wins for budget-bound batch work. Loses when the cheap site is deeply queued: it will
    happily wait a day to save a cent, and a site that omits its prices is ranked down even if
    it would have been free.
    """

    name: ClassVar[str] = "min-cost"
    summary: ClassVar[str] = "lowest estimated cost; ties READY first, then soonest"
    status: ClassVar[str] = "R/B"
    logic: ClassVar[str] = "Economic"
    use_case: ClassVar[str] = "Budget optimized"

    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """Cheapest first; ties READY first, soonest, then site name."""
        m = proposal.metrics
        return (
            low_first(m.estimated_cost_usd),
            busy_after_ready(proposal),
            low_first(m.estimated_start_s),
            proposal.site,
        )

    def sort_columns(self, pool: Sequence[Proposal]) -> list[list[float]] | None:
        """:meth:`sort_key` as float columns (same order), None where they cannot say it."""
        metrics = [p.metrics for p in pool]
        cost = low_column([m.estimated_cost_usd for m in metrics])
        start = low_column([m.estimated_start_s for m in metrics])
        if cost is None or start is None:
            return None
        return [cost, busy_column(pool), start]
