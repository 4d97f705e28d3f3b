"""soonest: the compatible proposal expected to start first."""

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


class Soonest(Selector):
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

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """READY/BUSY proposals, soonest start first; ties by queue depth, then site name."""
        return sorted(
            candidates(proposals, READY_OR_BUSY),
            key=lambda p: (
                busy_after_ready(p),
                low_first(p.metrics.estimated_start_s),
                low_first(p.metrics.queue_depth),
                p.site,
            ),
        )
