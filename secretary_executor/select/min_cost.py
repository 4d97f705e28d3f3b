"""min-cost: the compatible proposal with the lowest estimated cost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal, Verdict
from secretary_executor.select._common import INF, busy_after_ready, low_first
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

    def flat_keys(self, pool: Sequence[Proposal]) -> list[tuple[Any, ...]] | None:
        """:meth:`sort_key` for the whole pool as flat tuples (see :class:`SortingSelector`)."""
        ready = Verdict.READY
        keys: list[tuple[Any, ...]] = []
        for p in pool:
            c, t = (m := p.metrics).estimated_cost_usd, m.estimated_start_s
            if c == INF or t == INF:
                return None
            keys.append(
                (
                    INF if c is None or c != c else float(c),
                    0.0 if p.verdict is ready else 1.0,
                    INF if t is None or t != t else float(t),
                    p.site,
                )
            )
        return keys
