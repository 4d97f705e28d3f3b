"""The selector interface: rank proposals, pick the first.

Selectors are pure functions of (proposals, requirements, policy): no I/O, no clock, no
global random state (stochastic selectors use ``policy.seed``), so they are cheap and testable.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from itertools import compress
from operator import attrgetter, eq
from typing import Any, ClassVar

from providers.wire import Policy, Proposal, Requirements, Verdict
from secretary_executor.select._common import READY_OR_BUSY, candidates, distinct
from secretary_executor.select.proposal_set import ProposalSet, Row


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

    ``sort_key`` is the definition: the ranking is ``sorted(candidates, key=sort_key)``, and the
    key ends with the site name, so equal inputs always give the same answer.

    That definition is slow to evaluate (helper calls, nested tuples and pydantic field reads
    per proposal), so the same order is also given by keys that ``list.sort`` compares without
    calling back into Python: from a plain list or tuple, each proposal's own key, one int
    computed when the proposal was built (:attr:`rank_key`, :meth:`presorted`), and where that
    cannot decide, flat tuples that ``direct`` builds in one pass over the models; ``keys``
    builds them from the plain rows of a :class:`ProposalSet` (read once, for proposals ranked
    again). Where a column it ranks by
    holds a known value that ``inf`` cannot tell from unknown (``direct`` returns None;
    ``columns`` against ``ProposalSet.ambiguous``), ``sort_key`` decides instead. Tests hold
    the three to the same ranking on random proposal sets.
    """

    verdicts: ClassVar[frozenset[Verdict]] = READY_OR_BUSY
    columns: ClassVar[frozenset[str]]
    """The row columns ``keys`` ranks by."""
    rank_key: ClassVar[str]
    """The attribute (one of ``providers.wire.proposal.RANK_KEYS``) where every proposal keeps
    this selector's key, computed when the proposal was built: one int that orders as
    ``sort_key`` (equal where a long site name would tell two apart), None when the verdict is
    not READY or BUSY."""

    @abstractmethod
    def sort_key(self, proposal: Proposal) -> tuple[Any, ...]:
        """The key that orders proposals from best to worst (the definition)."""

    @abstractmethod
    def keys(self, rows: Sequence[Row]) -> list[list[tuple[Any, ...]]]:
        """Flat keys for ``rows``, each ending with (position, proposal), as groups ranked
        best group first, each to be sorted on its own."""

    @abstractmethod
    def direct(self, proposals: Sequence[Proposal]) -> list[list[tuple[Any, ...]]] | None:
        """The groups :meth:`keys` gives for ``proposals`` (each object once, as from
        :func:`distinct`), read straight from the models in one pass, with the proposal's index
        as its position; None when a column ranked by holds a known value that ``inf`` cannot
        tell from unknown (``sort_key`` decides then)."""

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """Proposals with one of ``verdicts``, ordered by ``sort_key``; kept by a
        :class:`ProposalSet` for its next ranking by this algorithm.

        From any other sequence the keys are read straight from the models (:meth:`direct`):
        building a set's rows reads every column for every algorithm, which only pays when the
        same proposals are ranked again."""
        if isinstance(proposals, ProposalSet):
            return proposals.ranked_by(self)
        if type(proposals) is list or type(proposals) is tuple:
            ranked = self.presorted(proposals)
            if ranked is not None:
                return ranked
        groups = self.direct(distinct(proposals))
        if groups is None:
            return sorted(candidates(proposals, self.verdicts), key=self.sort_key)
        return self._concat(groups)

    def presorted(self, proposals: list[Proposal] | tuple[Proposal, ...]) -> list[Proposal] | None:
        """The ranking from the keys the proposals keep (:attr:`rank_key`), with no Python code
        run per proposal: the keys are read, sorted as ints and mapped back in C.

        The sort is stable, so it keeps input order where ``sorted(..., key=sort_key)`` does.
        Equal keys (neighbours in the order) are checked on their own: they are the same
        ``sort_key`` only when their site names are equal too (the key holds a name's first
        bytes), and the same object listed twice has equal keys and must be ranked once. None,
        and another path decides, where that fails or a proposal keeps no key (built without
        validation from values of the wrong type)."""
        try:
            keys = list(map(attrgetter(self.rank_key), proposals))
        except AttributeError:
            return None
        order = list(compress(range(len(keys)), keys))  # READY and BUSY: the others keep None
        order.sort(key=keys.__getitem__)
        ordered = list(map(keys.__getitem__, order))
        ranked = list(map(proposals.__getitem__, order))
        if any(map(eq, ordered, ordered[1:])):
            ties = compress(range(len(ranked) - 1), map(eq, ordered, ordered[1:]))
            if len(set(map(id, ranked))) < len(ranked) or any(
                ranked[i].site != ranked[i + 1].site for i in ties
            ):
                return None
        return ranked

    def order(self, proposals: ProposalSet) -> list[Proposal]:
        """The ranking of ``proposals`` computed now."""
        if self.columns & proposals.ambiguous:
            return sorted(candidates(proposals, self.verdicts), key=self.sort_key)
        return self._concat(self.keys(proposals.rows))

    @staticmethod
    def _concat(groups: list[list[tuple[Any, ...]]]) -> list[Proposal]:
        """The proposals of ``groups``, each group sorted, best group first."""
        ranked: list[Proposal] = []
        for group in groups:
            group.sort()
            ranked += [key[-1] for key in group]
        return ranked

    def select(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None = None,
        policy: Policy | None = None,
    ) -> Proposal | None:
        """The best proposal: the smallest key, found without sorting the rest."""
        if isinstance(proposals, ProposalSet):
            groups: list[list[tuple[Any, ...]]] | None = (
                None if self.columns & proposals.ambiguous else self.keys(proposals.rows)
            )
        else:
            groups = self.direct(distinct(proposals))
        if groups is None:
            return min(candidates(proposals, self.verdicts), key=self.sort_key, default=None)
        best = next((min(group) for group in groups if group), None)
        return None if best is None else best[-1]
