"""first-ready: the first READY proposal, in the order given."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from providers.wire import Policy, Proposal, Requirements
from secretary_executor.select._common import READY_ONLY, candidates
from secretary_executor.select.base import Selector


class FirstReady(Selector):
    """Greedy: take the first site that can start the job now.

    Wins when any free site is as good as any other and the decision must cost nothing: the
    order of the list (fleet order, or answer order) decides, so an operator can put preferred
    sites first. Loses when all compatible sites are BUSY (it chooses none rather than queue),
    and it ignores cost and load, so the first listed site takes every job.
    """

    name: ClassVar[str] = "first-ready"
    summary: ClassVar[str] = "first READY proposal in the order given"
    status: ClassVar[str] = "READY"
    logic: ClassVar[str] = "Greedy"
    use_case: ClassVar[str] = "First available compatible"

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """READY proposals in input order."""
        return candidates(proposals, READY_ONLY)
