"""The selector interface: rank proposals, pick the first.

Selectors are pure functions of (proposals, requirements, policy): no I/O, no clock, no
global random state (stochastic selectors use ``policy.seed``), so they are cheap and testable.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from providers.wire import Policy, Proposal, Requirements


class Selector(ABC):
    """Orders proposals from best to worst; proposals it would never choose are left out.

    Postcondition of :meth:`rank`: a list of proposals taken from the input (no copies made
    up), each at most once, every one of them compatible (READY or BUSY) unless the selector's
    docstring says otherwise. An empty list means "nothing to choose".
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    """One line for ``resource-ask list select``."""
    status: ClassVar[str]
    """Which verdicts it considers, as in the paper's Table 1 (READY, R/B, Varies)."""

    @abstractmethod
    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """Return the candidates in order of preference."""

    def select(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None = None,
        policy: Policy | None = None,
    ) -> Proposal | None:
        """The best proposal, or None when no proposal can be chosen."""
        ranked = self.rank(proposals, requirements, policy or Policy(algorithm=self.name))
        return ranked[0] if ranked else None
