"""The verdict set: hand-labelled site-by-request answers, and how the negotiator scores on it.

Each request in ``tests/data/verdicts/requests.yaml`` is labelled, for every site state file in
``tests/data/verdicts/sites/``, ``runnable`` (the site has everything the job needs; full or
not) or ``not_runnable``. A proposal counts as *runnable* when it is READY or BUSY; anything
else (INCOMPATIBLE, UNKNOWN, NEEDS_INFORMATION) does not. The dangerous error is a **false
READY**: READY or BUSY where the label says the job cannot run.

Two runs are scored: the parser's reading of the text (what users get), and the hand-written
``expect`` block turned into requirements (the negotiator alone, given a correct parse).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.negotiation.rules import RulesNegotiator
from providers.session import ToolSession
from providers.state import SiteState, load_state, providers_from_state
from providers.tools import ToolKind
from providers.wire.proposal import Proposal, Verdict
from providers.wire.requirements import Requirements
from secretary_executor.evaluation.corpus import LabelledRequest, label_requirements, load_corpus

RUNNABLE = "runnable"
RUNS = (Verdict.READY, Verdict.BUSY)


@dataclass
class VerdictScore:
    """Confusion counts over (request, site) pairs, and the false-READY pairs by name."""

    tp: int = 0
    fn: int = 0
    tn: int = 0
    fp: int = 0
    false_ready: list[tuple[str, str, str]] = field(default_factory=list)
    """(request id, site, the proposal's reason) for every READY/BUSY on a not-runnable pair."""
    undecided: int = 0
    """Pairs answered UNKNOWN (counted as not runnable)."""

    @property
    def pairs(self) -> int:
        return self.tp + self.fn + self.tn + self.fp

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.pairs if self.pairs else 1.0

    @property
    def balanced_accuracy(self) -> float:
        tpr = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        tnr = self.tn / (self.tn + self.fp) if self.tn + self.fp else 1.0
        return (tpr + tnr) / 2

    @property
    def f1_runnable(self) -> float:
        denominator = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denominator if denominator else 1.0


def load_sites(folder: Path) -> dict[str, SiteState]:
    """Every site state file of the verdict set, by site name."""
    sites = [load_state(path) for path in sorted(folder.glob("*.yaml"))]
    return {s.site.name: s for s in sites}


def negotiate(requirements: Requirements, site: SiteState) -> Proposal:
    """The rules negotiator's proposal at one simulated site, on a READ-only session."""
    session = ToolSession(providers_from_state(site), allowed=ToolKind.READ)
    context = NegotiationContext(site=site.site.name, prices=site.site.prices)
    return RulesNegotiator().evaluate(requirements, session, context)


def score_verdicts(
    requests: list[LabelledRequest],
    sites: dict[str, SiteState],
    requirements_of: Callable[[LabelledRequest], Requirements],
) -> VerdictScore:
    """Negotiate every labelled pair and count agreements with the labels."""
    result = VerdictScore()
    for item in requests:
        requirements = requirements_of(item)
        for name, label in sorted(item.labels.items()):
            proposal = negotiate(requirements, sites[name])
            runs = proposal.verdict in RUNS
            result.undecided += proposal.verdict is Verdict.UNKNOWN
            if label == RUNNABLE:
                result.tp += runs
                result.fn += not runs
            else:
                result.fp += runs
                result.tn += not runs
                if runs:
                    result.false_ready.append((item.id, name, proposal.reason))
    return result


def verdict_set(folder: Path) -> tuple[datetime, list[LabelledRequest], dict[str, SiteState]]:
    """The requests (with labels) and the sites of the verdict set in ``folder``."""
    now, requests = load_corpus(folder, "requests.yaml")
    return now, requests, load_sites(folder / "sites")


def parsed_requirements(
    parse: Callable[..., Requirements], now: datetime
) -> Callable[[LabelledRequest], Requirements]:
    """Requirements as the parser reads each request's text."""
    return lambda item: parse(item.text, now=now)


def labelled_requirements(item: LabelledRequest) -> Requirements:
    """Requirements as the hand-written labels state them (a perfect parse)."""
    return label_requirements(item.expect)
