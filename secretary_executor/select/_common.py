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


def distinct(proposals: Iterable[Proposal]) -> Sequence[Proposal]:
    """The proposals with each object once, first occurrence kept, in input order.

    De-duplication is by identity, not equality: two sites may legitimately send equal-looking
    answers, but the same object listed twice must not be tried twice at dispatch. The usual
    case, no object twice, is checked in one pass in C and returns the input itself.
    """
    items = proposals if isinstance(proposals, list | tuple) else list(proposals)
    if len(set(map(id, items))) == len(items):
        return items
    seen: set[int] = set()
    unique: list[Proposal] = []
    for proposal in items:
        if id(proposal) not in seen:
            seen.add(id(proposal))
            unique.append(proposal)
    return unique


def candidates(proposals: Iterable[Proposal], verdicts: frozenset[Verdict]) -> list[Proposal]:
    """The proposals whose verdict is in ``verdicts``, each object once (see :func:`distinct`),
    in input order."""
    unique = distinct([p for p in proposals if p.verdict in verdicts])
    return unique if isinstance(unique, list) else list(unique)


INF = float("inf")


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
