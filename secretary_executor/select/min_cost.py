"""min-cost: the compatible proposal with the lowest estimated cost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal, Verdict
from providers.wire.proposal import RANK_KEYS
from secretary_executor.select._common import INF, busy_after_ready, low_first
from secretary_executor.select.base import SortingSelector
from secretary_executor.select.proposal_set import COST, START, Row


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
    columns: ClassVar[frozenset[str]] = frozenset({COST, START})
    use_case: ClassVar[str] = "Budget optimized"
    rank_key: ClassVar[str] = RANK_KEYS[1]

    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """Cheapest first; ties READY first, soonest, then site name."""
        m = proposal.metrics
        return (
            low_first(m.estimated_cost_usd),
            busy_after_ready(proposal),
            low_first(m.estimated_start_s),
            proposal.site,
        )

    def keys(self, rows: Sequence[Row]) -> list[list[tuple[Any, ...]]]:
        """One group; the cost leads every key, as in :meth:`sort_key`."""
        return [[(c, busy, t, site, i, p) for busy, t, c, _, _, site, i, p in rows]]

    def direct(self, proposals: Sequence[Proposal]) -> list[list[tuple[Any, ...]]] | None:
        """The group of :meth:`keys`, read straight from the models in one pass."""
        ready, busy, inf = Verdict.READY, Verdict.BUSY, INF
        group: list[tuple[Any, ...]] = []
        append = group.append
        for i, p in enumerate(proposals):
            fields = p.__dict__
            verdict = fields["verdict"]
            if verdict is not ready and verdict is not busy:
                continue
            m = fields["metrics"].__dict__
            t = m["estimated_start_s"]
            if t is None or not t < inf:
                if t == inf:
                    return None
                t = inf
            c = m["estimated_cost_usd"]
            if c is None or not c < inf:
                if c == inf:
                    return None
                c = inf
            append((c, verdict is busy, t, fields["site"], i, p))
        return [group]
