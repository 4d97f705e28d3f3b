"""The proposals of one request, read once into plain rows that every ordering selector ranks.

Reading a field of a pydantic model costs several times a plain attribute read, and a ranking
built from the models pays it for every field of every proposal, for every algorithm the hub
tries (the policy's, then each fallback when one cannot decide).
A :class:`ProposalSet` reads each proposal once, when the proposals arrive, into a tuple of
floats and strings; selectors then sort tuples of those, with no model in the loop. Proposals
are frozen and ordering selectors are pure functions of them, so the ranking of a set by one
algorithm can never change: it is computed on first use and kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, overload

from providers.wire import Proposal, Verdict
from secretary_executor.select._common import INF, distinct

if TYPE_CHECKING:
    from secretary_executor.select.base import SortingSelector

Row = tuple[bool, float, float, float, float, str, int, Proposal]
"""One READY or BUSY proposal: (busy, start, cost, queue, -free, site, position, proposal).

Numbers are floats with an unknown value (None or NaN) as ``inf``, so that plain tuple order
puts it after every known value (queue depth and free nodes are validated ints, never NaN or
infinite); ``free`` is negated so that more free nodes sort first; the position is the
proposal's index in the input, unique, so two equal keys keep input order as a stable sort
would and the proposal itself is never compared."""

START, COST, QUEUE, FREE = "start", "cost", "queue", "free"


class ProposalSet(Sequence[Proposal]):
    """An immutable sequence of proposals, in arrival order, with their ranking rows.

    Pass it wherever selectors take proposals; it behaves as the tuple of its proposals.

    Attributes:
        rows: one :data:`Row` per READY or BUSY proposal (each object once), in input order.
        ambiguous: the columns holding a known value that ``inf`` cannot tell from unknown
            (a known infinite start or cost); a selector that ranks by one of them falls back
            to its ``sort_key``.
    """

    __slots__ = ("_items", "_rankings", "ambiguous", "rows")

    def __init__(self, proposals: Iterable[Proposal]) -> None:
        self._items: tuple[Proposal, ...] = tuple(proposals)
        self._rankings: dict[type, list[Proposal]] = {}
        ready, busy, inf = Verdict.READY, Verdict.BUSY, INF
        rows: list[Row] = []
        append = rows.append
        ambiguous: set[str] = set()
        # One pass, each field read once, from the models' ``__dict__`` (where pydantic keeps
        # field values): a model attribute read goes through pydantic's ``__getattr__`` hook and
        # costs several dict look-ups, and a helper call per field would cost as much again.
        for i, p in enumerate(distinct(self._items)):
            fields = p.__dict__
            verdict = fields["verdict"]
            if verdict is not ready and verdict is not busy:
                continue
            m = fields["metrics"].__dict__
            # ``not x < inf``: None aside, true only for NaN (unknown) and a known +inf.
            t = m["estimated_start_s"]
            if t is None or not t < inf:
                if t == inf:
                    ambiguous.add(START)
                t = inf
            c = m["estimated_cost_usd"]
            if c is None or not c < inf:
                if c == inf:
                    ambiguous.add(COST)
                c = inf
            # Validated counts are ints: never NaN, never infinite. As floats, so that sorts
            # use the float compare; free nodes negated, so that more sort first.
            q = m["queue_depth"]
            f = m["free_nodes"]
            append(
                (
                    verdict is busy,
                    t,
                    c,
                    inf if q is None else q * 1.0,
                    inf if f is None else f * -1.0,
                    fields["site"],
                    i,
                    p,
                )
            )
        self.rows: tuple[Row, ...] = tuple(rows)
        self.ambiguous: frozenset[str] = frozenset(ambiguous)

    def __repr__(self) -> str:
        return f"ProposalSet({[p.site for p in self._items]!r})"

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Proposal]:
        return iter(self._items)

    @overload
    def __getitem__(self, index: int) -> Proposal: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Proposal, ...]: ...
    def __getitem__(self, index: int | slice) -> Proposal | tuple[Proposal, ...]:
        return self._items[index]

    @property
    def proposals(self) -> tuple[Proposal, ...]:
        """The proposals as they arrived."""
        return self._items

    def ranked_by(self, selector: SortingSelector) -> list[Proposal]:
        """``selector``'s ranking of this set, computed on first use and kept (a new list)."""
        key = type(selector)
        ranking = self._rankings.get(key)
        if ranking is None:
            ranking = self._rankings[key] = selector.order(self)  # never handed out itself
        return ranking.copy()


def as_set(proposals: Sequence[Proposal]) -> ProposalSet:
    """``proposals`` as a :class:`ProposalSet` (itself when it already is one)."""
    return proposals if isinstance(proposals, ProposalSet) else ProposalSet(proposals)
