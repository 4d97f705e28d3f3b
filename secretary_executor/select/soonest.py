"""soonest: the compatible proposal expected to start first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal, Verdict
from secretary_executor.select._common import INF, busy_after_ready, low_first
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

    def flat_keys(self, pool: Sequence[Proposal]) -> list[tuple[Any, ...]] | None:
        """:meth:`sort_key` for the whole pool as flat tuples (see :class:`SortingSelector`)."""
        ready = Verdict.READY
        keys: list[tuple[Any, ...]] = []
        for p in pool:
            t, q = (m := p.metrics).estimated_start_s, m.queue_depth
            if t == INF or q == INF:
                return None
            keys.append(
                (
                    0.0 if p.verdict is ready else 1.0,
                    INF if t is None or t != t else float(t),
                    INF if q is None or q != q else float(q),
                    p.site,
                )
            )
        return keys
