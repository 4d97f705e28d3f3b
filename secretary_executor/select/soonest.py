"""soonest: the compatible proposal expected to start first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Proposal, Verdict
from providers.wire.proposal import RANK_KEYS
from secretary_executor.select._common import INF, busy_after_ready, low_first
from secretary_executor.select.base import SortingSelector
from secretary_executor.select.proposal_set import QUEUE, START, Row


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
    columns: ClassVar[frozenset[str]] = frozenset({QUEUE, START})
    use_case: ClassVar[str] = "Shortest ETS"
    rank_key: ClassVar[str] = RANK_KEYS[0]

    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """READY first, then soonest start; ties by queue depth, then site name."""
        m = proposal.metrics
        return (
            busy_after_ready(proposal),
            low_first(m.estimated_start_s),
            low_first(m.queue_depth),
            proposal.site,
        )

    def keys(self, rows: Sequence[Row]) -> list[list[tuple[Any, ...]]]:
        """READY keys, then BUSY keys: a group per verdict keeps the first item of every key a
        float that rarely ties (the start estimate), so most compares end at it."""
        ready = [(t, q, site, i, p) for busy, t, _, q, _, site, i, p in rows if not busy]
        busy = [(t, q, site, i, p) for busy, t, _, q, _, site, i, p in rows if busy]
        return [ready, busy]

    def direct(self, proposals: Sequence[Proposal]) -> list[list[tuple[Any, ...]]] | None:
        """The groups of :meth:`keys`, read straight from the models in one pass."""
        ready_v, busy_v, inf = Verdict.READY, Verdict.BUSY, INF
        ready: list[tuple[Any, ...]] = []
        busy: list[tuple[Any, ...]] = []
        for i, p in enumerate(proposals):
            fields = p.__dict__
            verdict = fields["verdict"]
            if verdict is ready_v:
                group = ready
            elif verdict is busy_v:
                group = busy
            else:
                continue
            m = fields["metrics"].__dict__
            t = m["estimated_start_s"]
            if t is None or not t < inf:
                if t == inf:
                    return None
                t = inf
            q = m["queue_depth"]
            group.append((t, inf if q is None else q * 1.0, fields["site"], i, p))
        return [ready, busy]
