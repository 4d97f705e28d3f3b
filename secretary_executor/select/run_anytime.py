"""run-anytime: any compatible proposal (READY or BUSY) drawn at random."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from providers.wire import Policy, Proposal, Requirements
from secretary_executor.select._common import READY_OR_BUSY, candidates, seeded_shuffle
from secretary_executor.select.base import Selector


class RunAnytime(Selector):
    """Stochastic over every compatible site: READY and BUSY alike.

    Wins for work with no deadline that should simply land somewhere: it never chooses
    nothing while any site can run the job, and spreads jobs across the whole compatible
    fleet, busy sites included. Loses whenever time matters: a BUSY site with a day-long queue
    is as likely as an idle one. ``policy.seed`` makes the draw reproducible.
    """

    name: ClassVar[str] = "run-anytime"
    summary: ClassVar[str] = "any compatible (READY or BUSY) proposal at random (seeded)"
    status: ClassVar[str] = "R/B"
    logic: ClassVar[str] = "Stochastic"
    use_case: ClassVar[str] = "All compatible clusters"

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """READY and BUSY proposals in a random order drawn from ``policy.seed``."""
        return seeded_shuffle(candidates(proposals, READY_OR_BUSY), policy.seed)
