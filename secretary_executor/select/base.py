"""The selector interface: rank proposals, pick the first.

Selectors are pure functions of (proposals, requirements, policy): no I/O, no clock, no
global random state (stochastic selectors use ``policy.seed``), so they are cheap and testable.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from providers.wire import Policy, Proposal, Requirements, Verdict
from secretary_executor.select._common import READY_OR_BUSY, candidates


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


class SortingSelector(Selector):
    """A selector that is one deterministic ordering of the compatible proposals.

    Subclasses give ``sort_key`` (ending with the site name, so equal inputs always give the
    same answer); the filtering and sorting live here once.

    ``sort_key`` is the definition. A subclass may also give ``flat_keys``: the same keys for
    a whole pool, built in one loop with plain attribute reads and float compares (no helper
    call per field, no model method), as flat tuples whose first item is always a float, which
    Python's sort compares with its specialised float compare. Each key is computed once per
    proposal set. An unknown value becomes ``inf``, which sorts it after every known value,
    as the ``(unknown, value)`` pairs of ``sort_key`` do, unless a known value is itself
    infinite: then ``flat_keys`` returns None and ``sort_key`` is used. Tests hold the two to
    the same ranking on random proposal sets.
    """

    verdicts: ClassVar[frozenset[Verdict]] = READY_OR_BUSY

    @abstractmethod
    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """The key that orders proposals from best to worst."""

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """Proposals with one of ``verdicts``, ordered by ``sort_key``."""
        pool = candidates(proposals, self.verdicts)
        keys = self.flat_keys(pool)
        if keys is None:
            return sorted(pool, key=self.sort_key)
        # Keys end with the site name; equal keys keep input order, as sorted() by key would.
        return [pool[i] for i in sorted(range(len(pool)), key=keys.__getitem__)]

    def flat_keys(self, pool: Sequence[Proposal]) -> list[tuple[Any, ...]] | None:
        """``sort_key`` for the whole pool as flat tuples in the same order, or None to sort by
        ``sort_key`` itself (the default)."""
        return None
