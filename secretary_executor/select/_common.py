"""Helpers shared by the selectors: candidate filtering, sort keys and seeded shuffling.

Kept private so that every selector module stays a few lines of policy and the details that
make rankings deterministic (identity de-duplication, unknown numbers sorting last, stable
tie-breaks) live in one place.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from operator import attrgetter

from providers.wire import Proposal, Verdict

READY_ONLY: frozenset[Verdict] = frozenset({Verdict.READY})
"""Verdicts that mean "would start now"."""
READY_OR_BUSY: frozenset[Verdict] = frozenset({Verdict.READY, Verdict.BUSY})
"""Verdicts that mean "can run here", now or after a wait (the paper's R/B)."""


def candidates(proposals: Iterable[Proposal], verdicts: frozenset[Verdict]) -> list[Proposal]:
    """The proposals whose verdict is in ``verdicts``, each object once, in input order.

    De-duplication is by identity, not equality: two sites may legitimately send equal-looking
    answers, but the same object listed twice must not be tried twice at dispatch. Verdicts
    are matched by identity too (enum members are singletons): hashing an enum member runs
    Python code, and this runs once per proposal per decision.
    """
    wanted = {id(v) for v in verdicts}
    out = [p for p in proposals if id(p.verdict) in wanted]
    if len({id(p) for p in out}) == len(out):
        return out
    seen: set[int] = set()
    unique: list[Proposal] = []
    for proposal in out:
        if id(proposal) not in seen:
            seen.add(id(proposal))
            unique.append(proposal)
    return unique


INF = float("inf")


def low_column(values: Sequence[float | None]) -> list[float] | None:
    """One :func:`low_first` key part per value, as one float: the value, ``inf`` if unknown.

    ``inf`` sorts an unknown value after every known one, which is what the pair does, unless
    a known value is itself ``inf``: then this returns None and the caller uses the pairs.
    """
    if INF in values:  # None and NaN never compare equal to inf: this is a known infinity
        return None
    return [INF if v is None or v != v else float(v) for v in values]


def high_column(values: Sequence[float | None]) -> list[float] | None:
    """One :func:`high_first` key part per value: the negated value, ``inf`` if unknown."""
    if -INF in values:
        return None
    return [INF if v is None or v != v else -float(v) for v in values]


def busy_column(pool: Sequence[Proposal]) -> list[float]:
    """One :func:`busy_after_ready` key part per proposal: 0.0 for READY, 1.0 otherwise."""
    ready = Verdict.READY
    return [0.0 if p.verdict is ready else 1.0 for p in pool]


def order_by_columns(pool: Sequence[Proposal], columns: Sequence[list[float]]) -> list[Proposal]:
    """``pool`` ordered by ``columns`` (most significant first), then site name, then input
    order: exactly ``sorted(pool, key=...)`` with the matching tuple key.

    Why this way: one stable sort per column, least significant first, gives the same order as
    one sort by the whole tuple, and a sort whose keys are all floats (or all strings) uses
    Python's specialised compare, several times faster than comparing tuples item by item.
    """
    order = sorted(range(len(pool)), key=[p.site for p in pool].__getitem__)
    for column in reversed(columns):
        order.sort(key=column.__getitem__)
    return [pool[i] for i in order]


def known(value: float | None) -> float | None:
    """The value, or None when the site could not say (None) or said nonsense (NaN).

    NaN compares false with everything, which would make ``sorted`` order depend on input
    order; treating it as unknown keeps rankings total and deterministic.
    """
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def low_first(value: float | None) -> tuple[bool, float]:
    """Sort key: smaller known values first, unknown values after every known one."""
    v = known(value)
    return (v is None, 0.0 if v is None else float(v))


def high_first(value: float | None) -> tuple[bool, float]:
    """Sort key: larger known values first, unknown values after every known one."""
    v = known(value)
    return (v is None, 0.0 if v is None else -float(v))


def busy_after_ready(proposal: Proposal) -> bool:
    """Sort key: READY (False) before BUSY (True)."""
    return proposal.verdict is not Verdict.READY


def seeded_shuffle(pool: Sequence[Proposal], seed: int | None) -> list[Proposal]:
    """Shuffle ``pool`` with a private generator seeded by ``seed``.

    The pool is first put in site-name order: the hub collects proposals concurrently, so their
    arrival order changes from run to run, and a seed alone would not reproduce a choice. A
    private :class:`random.Random` leaves the global random state alone. ``seed=None`` draws
    fresh entropy, which is what "random" means when no reproducibility is asked for.
    """
    ordered = sorted(pool, key=attrgetter("site"))
    random.Random(seed).shuffle(ordered)
    return ordered
