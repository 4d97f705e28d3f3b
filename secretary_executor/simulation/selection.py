"""The selection experiment: place each compatible job with each strategy as the fleet fills.

Protocol (the paper's Section 3.2, "Selection Simulation"): the jobs are the prompts that at
least one site can run (compatible proposals of a negotiation run). Each iteration shuffles the
jobs and the candidate sites with its own seed; every strategy then places the same sequence
on a fresh copy of the fleet's state. A site proposes READY when its chosen partition has the
free nodes and the site is below 95 % utilisation, else BUSY. Allocation is exclusive: a placed
job takes whole nodes, or joins the queue where they are not free. Prices are per node-hour
from :class:`~secretary_executor.simulation.pricing.PriceModel`; run time is not modelled, so
each job is priced for one hour.

Statuses: SELECTED (the strategy chose a site), REJECTED (it found nothing it may choose, e.g.
first-ready when every candidate is BUSY), UNKNOWN (the strategy could not decide: agentic and
agentic-cost with no model configured, a model call that failed or timed out, or no usable
answer after the retries; the decision's ``note`` says which). A model decision's latency
includes its model calls, and its ``note`` the model's answers, tokens and reason.

Conditions (the paper runs two, and a third as a sanity check):

* ``with-state``: placements change the fleet (free nodes fall, queues grow), as above;
* ``without-state``: every job sees the same initial state, nothing placed is remembered;
* ``pressure``: with state, but every queue starts empty, so the growth of the chosen sites'
  queues over the run is visible (the paper's Figure 7; not used for the other figures).

Reference: for each job, the minimum cost over every compatible site and fitting partition.
Cost does not depend on load in this model (a queued job pays the same node price), and the
set of compatible sites never changes as jobs are placed, so the sum of these minima is a
lower bound on the total cost of any strategy that schedules the same jobs, and it schedules
every job (a queue always accepts). It is the best possible assignment for the sequence.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from endpoint_plugins.agent.config import LLMConfig
from providers.facts import Partition
from providers.wire import Metrics, Policy, Proposal, Requirements, Verdict
from secretary_executor.errors import SelectionError
from secretary_executor.select.agentic import DEFAULT_RETRIES, Agentic
from secretary_executor.select.base import Selector
from secretary_executor.select.registry import SELECTORS, VARIANTS, get_selector
from secretary_executor.simulation.generator import Worker
from secretary_executor.simulation.pricing import PriceModel
from secretary_executor.simulation.seeding import stream
from secretary_executor.simulation.truth import SiteFacts, fits, nodes_for, partitions

Condition = Literal["with-state", "without-state", "pressure"]
CONDITIONS: tuple[Condition, ...] = ("with-state", "without-state", "pressure")

STRATEGIES: tuple[str, ...] = (*SELECTORS, *VARIANTS)
"""Every strategy the experiment runs by default: Table 1's seven, then agentic-cost."""
BUSY_UTILISATION = 0.95
WAIT_PER_JOB_S = 900.0
HOURS = 1.0


@dataclass(frozen=True)
class Job:
    """A compatible prompt and the sites that can run it."""

    prompt_id: int
    requirements: Requirements
    candidates: tuple[str, ...]


@dataclass
class _Part:
    spec: Partition
    free: int
    queue: int


@dataclass
class _SiteLoad:
    name: str
    archetype: str
    parts: dict[str, _Part]

    def utilisation(self) -> float:
        total = sum(p.spec.total_nodes for p in self.parts.values())
        free = sum(p.free for p in self.parts.values())
        return 1.0 - free / total if total else 1.0


@dataclass
class Decision:
    """One strategy's decision on one job."""

    strategy: str
    iteration: int
    prompt_id: int
    status: str
    site: str | None = None
    archetype: str | None = None
    verdict: str | None = None
    cost_usd: float | None = None
    reference_cost_usd: float = 0.0
    archetype_reference_usd: float | None = None
    latency_s: float = 0.0
    note: str = ""
    condition: Condition = "with-state"
    step: int = 0
    """Position of the job in this iteration's shuffled order."""
    queue_after: int | None = None
    """Queue depth of the chosen partition after the placement (selection pressure)."""
    free_after: int | None = None
    queue_totals: dict[str, int] | None = None
    """``pressure`` run only: queued jobs over every site of each archetype after this decision."""


@dataclass
class SelectionRun:
    """All decisions of a selection experiment."""

    iterations: int
    jobs: int
    decisions: list[Decision] = field(default_factory=list)


class _Fleet:
    """Fleet load during one (strategy, iteration): a fresh copy of the initial state."""

    def __init__(
        self,
        workers: dict[str, Worker],
        facts: dict[str, SiteFacts],
        *,
        empty_queues: bool = False,
        remember: bool = True,
    ) -> None:
        self.remember = remember
        """False: placements are not applied, every job sees the initial state."""
        self.sites = {
            name: _SiteLoad(
                name,
                w.archetype,
                {
                    p.name: _Part(p, p.free_nodes, 0 if empty_queues else p.queue_depth)
                    for p in partitions(facts[name])
                },
            )
            for name, w in workers.items()
        }

    def proposal(self, site: str, req: Requirements, prices: PriceModel) -> Proposal | None:
        """The site's proposal for ``req`` now; None when no partition fits (not a candidate)."""
        load = self.sites[site]
        fitting = [p for p in load.parts.values() if fits(req.compute, p.spec)]
        if not fitting:
            return None

        def key(p: _Part) -> tuple[bool, float, int, str]:
            n = nodes_for(req.compute, p.spec)
            return (p.free < n, prices.node_hour(p.spec), p.queue, p.spec.name)

        part = min(fitting, key=key)
        nodes = nodes_for(req.compute, part.spec)
        ready = part.free >= nodes and load.utilisation() < BUSY_UTILISATION
        price = prices.node_hour(part.spec)
        parallel = max(1, part.spec.total_nodes // nodes)
        start = 0.0 if ready else (part.queue + 1) * WAIT_PER_JOB_S / parallel
        return Proposal(
            site=site,
            verdict=Verdict.READY if ready else Verdict.BUSY,
            metrics=Metrics(
                partition=part.spec.name,
                total_nodes=part.spec.total_nodes,
                free_nodes=part.free,
                queue_depth=part.queue,
                estimated_start_s=start,
                price_per_node_hour=price,
                estimated_cost_usd=round(nodes * HOURS * price, 6),
            ),
        )

    def queue_totals(self) -> dict[str, int]:
        """Queued jobs summed over the sites of each archetype."""
        totals: dict[str, int] = defaultdict(int)
        for load in self.sites.values():
            totals[load.archetype] += sum(p.queue for p in load.parts.values())
        return dict(totals)

    def place(self, site: str, partition: str, nodes: int) -> None:
        """Exclusive allocation: take the nodes if free, else join the queue (nothing changes
        when the fleet does not remember placements)."""
        part = self.sites[site].parts[partition]
        if not self.remember:
            return
        if part.free >= nodes:
            part.free -= nodes
        else:
            part.queue += 1


def min_cost(
    req: Requirements, sites: list[str], facts: dict[str, SiteFacts], prices: PriceModel
) -> float | None:
    """Lowest cost of ``req`` over ``sites`` and their fitting partitions (None: none fits)."""
    costs = [
        nodes_for(req.compute, p) * HOURS * prices.node_hour(p)
        for s in sites
        for p in partitions(facts[s])
        if fits(req.compute, p)
    ]
    return round(min(costs), 6) if costs else None


def run_selection(
    workers: list[Worker],
    jobs: list[Job],
    *,
    iterations: int = 10,
    seed: int = 0,
    strategies: tuple[str, ...] = STRATEGIES,
    prices: PriceModel | None = None,
    condition: Condition = "with-state",
    llm: LLMConfig | None = None,
    retries: int = DEFAULT_RETRIES,
) -> SelectionRun:
    """Place every job with every strategy, ``iterations`` times (see the module docstring).

    The shuffles depend on (seed, iteration) only, so every condition and strategy sees the
    same job order and candidate order. ``llm`` is the model of the agentic strategies (None:
    the environment's, if any), which send an unusable answer back ``retries`` times before
    the decision is UNKNOWN.

    Postcondition: one decision per (strategy, iteration, job).
    """
    prices = prices or PriceModel()
    by_name = {w.state.site.name: w for w in workers}
    facts = {name: SiteFacts(w.state) for name, w in by_name.items()}
    run = SelectionRun(iterations=iterations, jobs=len(jobs))
    reference = {
        j.prompt_id: min_cost(j.requirements, list(j.candidates), facts, prices) for j in jobs
    }
    for it in range(iterations):
        rng = stream("selection", seed, it)
        order = list(jobs)
        rng.shuffle(order)
        shuffled = {j.prompt_id: rng.sample(list(j.candidates), len(j.candidates)) for j in order}
        for name in strategies:
            fleet = _Fleet(
                by_name,
                facts,
                empty_queues=condition == "pressure",
                remember=condition != "without-state",
            )
            policy = Policy(algorithm=name, fallback=(), seed=seed * 1000 + it)
            selector = strategy_selector(name, llm, retries)
            for step, job in enumerate(order):
                decision = _decide(
                    selector,
                    it,
                    job,
                    shuffled[job.prompt_id],
                    fleet,
                    policy,
                    prices,
                    reference[job.prompt_id] or 0.0,
                    facts,
                )
                decision.condition = condition
                decision.step = step
                if condition == "pressure":
                    decision.queue_totals = fleet.queue_totals()
                run.decisions.append(decision)
    return run


def strategy_selector(name: str, llm: LLMConfig | None, retries: int) -> Selector:
    """The selector for a strategy name; a model strategy gets ``llm`` and ``retries``."""
    selector = get_selector(name)
    if isinstance(selector, Agentic):
        return type(selector)(llm, retries=retries)
    return selector


def _decide(
    selector: Selector,
    iteration: int,
    job: Job,
    candidates: list[str],
    fleet: _Fleet,
    policy: Policy,
    prices: PriceModel,
    reference: float,
    facts: dict[str, SiteFacts],
) -> Decision:
    proposals = [p for s in candidates if (p := fleet.proposal(s, job.requirements, prices))]
    name = selector.name
    start = time.perf_counter()
    try:
        ranked = selector.rank(proposals, job.requirements, policy)
    except SelectionError as exc:
        latency = time.perf_counter() - start
        return Decision(
            name,
            iteration,
            job.prompt_id,
            "UNKNOWN",
            reference_cost_usd=reference,
            latency_s=latency,
            note=exc.message,
        )
    latency = time.perf_counter() - start
    if not ranked:
        return Decision(
            name,
            iteration,
            job.prompt_id,
            "REJECTED",
            reference_cost_usd=reference,
            latency_s=latency,
            note="nothing this strategy may choose",
        )
    chosen = ranked[0]
    site = fleet.sites[chosen.site]
    partition = chosen.metrics.partition or ""
    part = site.parts[partition]
    fleet.place(chosen.site, partition, nodes_for(job.requirements.compute, part.spec))
    same_kind = [s for s in job.candidates if fleet.sites[s].archetype == site.archetype]
    return Decision(
        name,
        iteration,
        job.prompt_id,
        "SELECTED",
        site=chosen.site,
        archetype=site.archetype,
        verdict=chosen.verdict.value,
        cost_usd=chosen.metrics.estimated_cost_usd,
        reference_cost_usd=reference,
        archetype_reference_usd=min_cost(job.requirements, same_kind, facts, prices),
        latency_s=latency,
        queue_after=part.queue,
        free_after=part.free,
        note=selector.last_note if isinstance(selector, Agentic) else "",
    )


def _mean_sd(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    return statistics.fmean(values), statistics.pstdev(values) if len(values) > 1 else 0.0


def cei(decision: Decision) -> float | None:
    """The cost efficiency index of one placed job (None when it was not placed)."""
    d = decision
    if d.status != "SELECTED" or not d.cost_usd or d.archetype_reference_usd is None:
        return None
    return d.archetype_reference_usd / d.cost_usd


def summarise_selection(run: SelectionRun | Sequence[Decision]) -> dict[str, Any]:
    """Per strategy: statuses, fraction scheduled, latency, cost against the reference, CEI.

    CEI (cost efficiency index) of a placed job = the cheapest cost of that job among the
    candidate sites of the chosen site's archetype / the cost paid (1 = best of that archetype,
    lower = dearer), averaged per archetype, so large and small archetypes are compared fairly.
    ``cost_vs_reference`` = sum of costs paid / sum of the reference minima of the same jobs.
    """
    by: dict[str, list[Decision]] = defaultdict(list)
    for d in run.decisions if isinstance(run, SelectionRun) else run:
        by[d.strategy].append(d)
    out: dict[str, Any] = {}
    for name, decisions in by.items():
        selected = [d for d in decisions if d.status == "SELECTED"]
        lat_mean, lat_sd = _mean_sd([d.latency_s for d in decisions])
        paid = sum(d.cost_usd or 0.0 for d in selected)
        ref = sum(d.reference_cost_usd for d in selected)
        ceis: dict[str, list[float]] = defaultdict(list)
        for d in selected:
            if (value := cei(d)) is not None and d.archetype:
                ceis[d.archetype].append(value)
        out[name] = {
            "decisions": len(decisions),
            "selected": len(selected),
            "rejected": sum(d.status == "REJECTED" for d in decisions),
            "unknown": sum(d.status == "UNKNOWN" for d in decisions),
            "fraction_scheduled": len(selected) / len(decisions) if decisions else 0.0,
            "latency_mean_s": lat_mean,
            "latency_sd_s": lat_sd,
            "cost_paid_usd": round(paid, 4),
            "reference_cost_usd": round(ref, 4),
            "cost_vs_reference": paid / ref if ref else None,
            "cei_by_archetype": {k: statistics.fmean(v) for k, v in sorted(ceis.items())},
            "placements_by_archetype": {
                k: sum(d.archetype == k for d in selected) for k in ("hpc", "cloud", "standalone")
            },
            "ready_choices": sum(d.verdict == "READY" for d in selected),
        }
    return out
