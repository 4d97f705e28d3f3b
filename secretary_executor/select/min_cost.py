"""min-cost: the compatible proposal with the lowest estimated cost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from providers.wire import Policy, Proposal, Requirements
from secretary_executor.select._common import (
    READY_OR_BUSY,
    busy_after_ready,
    candidates,
    low_first,
)
from secretary_executor.select.base import Selector


class MinCost(Selector):
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

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """READY/BUSY proposals, cheapest first; ties READY first, soonest, then site name."""
        return sorted(
            candidates(proposals, READY_OR_BUSY),
            key=lambda p: (
                low_first(p.metrics.estimated_cost_usd),
                busy_after_ready(p),
                low_first(p.metrics.estimated_start_s),
                p.site,
            ),
        )
