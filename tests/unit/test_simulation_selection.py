"""The selection experiment: statuses, state that changes as jobs are placed, the reference."""

from __future__ import annotations

import pytest

from providers.wire.requirements import ComputeRequirement, Requirements, SoftwareRequirement
from secretary_executor.simulation.generator import generate_fleet
from secretary_executor.simulation.pricing import PriceModel
from secretary_executor.simulation.selection import (
    Job,
    _Fleet,
    run_selection,
    summarise_selection,
)
from secretary_executor.simulation.truth import SiteFacts, fitting_partitions


@pytest.fixture(scope="module")
def setup():
    workers = generate_fleet(20)
    req = Requirements(
        software=(SoftwareRequirement(name="x"),), compute=ComputeRequirement(nodes=1)
    )
    candidates = tuple(
        w.state.site.name for w in workers if fitting_partitions(req.compute, w.state)
    )
    jobs = [Job(i, req, candidates) for i in range(30)]
    return workers, jobs


def test_every_strategy_decides_every_job_every_iteration(setup):
    workers, jobs = setup
    run = run_selection(workers, jobs, iterations=2)
    summary = summarise_selection(run)
    assert set(summary) == {
        "agentic",
        "first-ready",
        "random",
        "soonest",
        "run-anytime",
        "min-cost",
        "queue-depth",
        "agentic-cost",
    }
    for s in summary.values():
        assert s["decisions"] == 60
        assert s["selected"] + s["rejected"] + s["unknown"] == 60
    # No model is configured: the agentic strategies never decide, and say why.
    for name in ("agentic", "agentic-cost"):
        assert summary[name]["unknown"] == 60
    notes = {d.note for d in run.decisions if d.strategy.startswith("agentic")}
    assert len(notes) == 1 and notes.pop().startswith("no model configured")
    assert summary["min-cost"]["selected"] == 60  # a queue always accepts


def test_costs_never_beat_the_reference_lower_bound(setup):
    workers, jobs = setup
    run = run_selection(workers, jobs, iterations=1)
    for d in run.decisions:
        if d.status == "SELECTED":
            assert d.cost_usd is not None and d.cost_usd >= d.reference_cost_usd - 1e-9
    summary = summarise_selection(run)
    assert summary["min-cost"]["cost_vs_reference"] == pytest.approx(1.0, abs=0.5)
    for s in summary.values():
        if s["cost_vs_reference"] is not None:
            assert s["cost_vs_reference"] >= 1.0 - 1e-9


def test_placing_jobs_takes_free_nodes_then_grows_queues(setup):
    workers, _ = setup
    by_name = {w.state.site.name: w for w in workers}
    fleet = _Fleet(by_name, {n: SiteFacts(w.state) for n, w in by_name.items()})
    site = next(iter(fleet.sites.values()))
    part = next(iter(site.parts.values()))
    free, queue = part.free, part.queue
    for _ in range(free):
        fleet.place(site.name, part.spec.name, 1)
    assert part.free == 0 and part.queue == queue
    fleet.place(site.name, part.spec.name, 1)
    assert part.queue == queue + 1


def test_a_full_site_proposes_busy(setup):
    workers, jobs = setup
    by_name = {w.state.site.name: w for w in workers}
    fleet = _Fleet(by_name, {n: SiteFacts(w.state) for n, w in by_name.items()})
    name = jobs[0].candidates[0]
    for part in fleet.sites[name].parts.values():
        part.free = 0
    proposal = fleet.proposal(name, jobs[0].requirements, PriceModel())
    assert proposal is not None and proposal.verdict.value == "BUSY"
    assert proposal.metrics.estimated_start_s and proposal.metrics.estimated_start_s > 0
