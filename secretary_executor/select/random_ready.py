"""random: a READY proposal drawn at random, reproducibly for a given seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from providers.wire import Policy, Proposal, Requirements
from secretary_executor.select._common import READY_ONLY, candidates, seeded_shuffle
from secretary_executor.select.base import Selector


class RandomReady(Selector):
    """Stochastic: any site that can start the job now, chosen at random.

    Wins when many equivalent sites are free and load should spread without anyone measuring
    it; with ``policy.seed`` set the same proposals give the same choice (for experiments).
    Loses when sites differ in cost or speed (it ignores both), and, like first-ready, chooses
    nothing when every compatible site is BUSY.
    """

    name: ClassVar[str] = "random"
    summary: ClassVar[str] = "a READY proposal at random (seeded by policy.seed)"
    status: ClassVar[str] = "READY"
    logic: ClassVar[str] = "Stochastic"
    use_case: ClassVar[str] = "Random selection"

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """READY proposals in a random order drawn from ``policy.seed``."""
        return seeded_shuffle(candidates(proposals, READY_ONLY), policy.seed)
