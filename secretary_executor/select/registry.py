"""The selection algorithms by name, their Table 1 descriptions, and the fallback chain.

Names map to classes (never to mutated or shared instances): :func:`get_selector` builds a
fresh selector each time, so selectors can never leak state between requests.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter

from pydantic import BaseModel, ConfigDict

from providers.wire import Policy, Proposal, Requirements, Verdict
from secretary_executor.errors import ConfigurationError, SelectionError
from secretary_executor.select.agentic import Agentic, AgenticCost
from secretary_executor.select.base import Selector
from secretary_executor.select.first_ready import FirstReady
from secretary_executor.select.min_cost import MinCost
from secretary_executor.select.queue_depth import QueueDepth
from secretary_executor.select.random_ready import RandomReady
from secretary_executor.select.run_anytime import RunAnytime
from secretary_executor.select.soonest import Soonest

SELECTORS: dict[str, type[Selector]] = {
    cls.name: cls
    for cls in (Agentic, FirstReady, RandomReady, Soonest, RunAnytime, MinCost, QueueDepth)
}
"""The seven algorithms of the paper's Table 1, in the table's order."""

VARIANTS: dict[str, type[Selector]] = {AgenticCost.name: AgenticCost}
"""Algorithms the paper evaluates beyond Table 1 (agentic-cost); found by name like the seven."""


class SelectorInfo(BaseModel):
    """One row of ``resource-ask list select``: the paper's Table 1 plus a one-line summary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    logic: str
    """The kind of reasoning: Greedy, Stochastic, Quantitative, Economic, LLM Reasoning."""
    status: str
    """Verdicts considered: READY, R/B (READY or BUSY, READY preferred where it matters), Varies."""
    use_case: str
    summary: str


class SelectionOutcome(BaseModel):
    """What :func:`select_with_fallback` decided, and why.

    ``chosen`` is None when the algorithm that ran found nothing it may choose; ``ranked`` is
    that algorithm's full order (site names), which dispatch walks for failover; ``notes``
    says which algorithms were skipped and why.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    chosen: Proposal | None
    algorithm: str
    ranked: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


_site = attrgetter("site")


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _selector_class(name: str) -> type[Selector]:
    """The selector class of an algorithm name (case-insensitive; ``_`` and ``-`` alike).

    Raises:
        ConfigurationError: the name is not one of :data:`SELECTORS` or :data:`VARIANTS`; the
            message lists them.
    """
    cls = SELECTORS.get(_normalise(name)) or VARIANTS.get(_normalise(name))
    if cls is None:
        allowed = ", ".join([*SELECTORS, *VARIANTS])
        raise ConfigurationError(
            f"unknown selection algorithm {name!r}; choose one of: {allowed} "
            "(see 'resource-ask list select')"
        )
    return cls


def get_selector(name: str) -> Selector:
    """A new selector for an algorithm name (case-insensitive; ``_`` and ``-`` alike).

    Raises:
        ConfigurationError: the name is not one of :data:`SELECTORS` or :data:`VARIANTS`; the
            message lists them.
    """
    return _selector_class(name)()


@lru_cache(maxsize=256)
def _chain(names: tuple[str, ...]) -> tuple[tuple[str, type[Selector]], ...]:
    """The algorithms of a policy's chain, each name normalised, checked and looked up once,
    repeats dropped; kept per chain of names, as policies repeat (a name that is not known
    raises, and nothing is kept)."""
    chain: dict[str, type[Selector]] = {}
    for name in names:
        key = _normalise(name)
        if key not in chain:
            chain[key] = _selector_class(name)  # validates the name, with the allowed set
    return tuple(chain.items())


def list_selectors() -> list[SelectorInfo]:
    """Every algorithm with its Table 1 row, in the table's order, then the variants the paper
    evaluates beyond the table (agentic-cost): every name ``get_selector`` accepts is listed."""
    return [
        SelectorInfo(
            name=cls.name,
            logic=getattr(cls, "logic", ""),
            status=cls.status,
            use_case=getattr(cls, "use_case", ""),
            summary=cls.summary,
        )
        for cls in (*SELECTORS.values(), *VARIANTS.values())
    ]


def _tally(proposals: Sequence[Proposal]) -> str:
    ready = sum(p.verdict is Verdict.READY for p in proposals)
    busy = sum(p.verdict is Verdict.BUSY for p in proposals)
    return f"{len(proposals)} proposal(s): {ready} READY, {busy} BUSY"


def select_with_fallback(
    proposals: Sequence[Proposal],
    requirements: Requirements | None,
    policy: Policy,
) -> SelectionOutcome:
    """Run ``policy.algorithm``, and each of ``policy.fallback`` in turn if it cannot decide.

    "Cannot decide" means the algorithm raised :class:`SelectionError` (e.g. agentic with no
    model); the reason goes into ``notes`` and the next algorithm runs. An algorithm that runs
    but finds nothing to choose is an answer, not a failure: the outcome then has
    ``chosen=None`` and a note, and no fallback is tried (a fallback would override the user's
    explicit rule, e.g. first-ready's "never queue"). Every name is checked before anything
    runs, so a misspelt fallback is reported at once rather than on the day it is needed.

    Raises:
        ConfigurationError: an unknown name in ``policy.algorithm`` or ``policy.fallback``.
        SelectionError: every algorithm in the chain failed; the message gives each reason.
    """
    chain = _chain((policy.algorithm, *policy.fallback))
    notes: list[str] = []
    # No ProposalSet here: an ordering selector reads the keys the proposals keep, and
    # each algorithm of the chain ranks these proposals at most once (the chain has no repeats,
    # and the first one that decides ends it), so rows read for every algorithm would not pay.
    for name, cls in chain:
        try:
            ranked = cls().rank(proposals, requirements, policy)
        except SelectionError as exc:
            notes.append(f"{name} could not decide: {exc.message}")
            continue
        if not ranked:
            notes.append(f"{name} found nothing to choose among {_tally(proposals)}")
        # Every value is already of its field's type (proposals were validated on arrival), so
        # the outcome is built without validating it again, a sixth of a decision's cost.
        return SelectionOutcome.model_construct(
            chosen=ranked[0] if ranked else None,
            algorithm=name,
            ranked=tuple(map(_site, ranked)),
            notes=tuple(notes),
        )
    tried = ", ".join(name for name, _ in chain)
    raise SelectionError(f"no selection algorithm could decide (tried {tried}): {'; '.join(notes)}")
