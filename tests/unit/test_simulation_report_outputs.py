"""What `sim negotiate`, `sim select` and `sim report` write: files, table columns, figures
computed from hand-made decisions."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from secretary_executor.simulation import selection_figures as figs
from secretary_executor.simulation.experiments import (
    negotiate_experiment,
    rerender,
    select_experiment,
)
from secretary_executor.simulation.negotiate import NegotiationSettings
from secretary_executor.simulation.plots import available
from secretary_executor.simulation.selection import Decision


def _header(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as fh:
        return next(csv.reader(fh))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("sim")
    negotiate_experiment(NegotiationSettings(workers=6, prompts=8, seed=1), root / "neg")
    select_experiment(root / "sel", iterations=2, source=root / "neg", subset=4)
    return root / "neg", root / "sel"


def test_negotiation_writes_the_three_figures_and_the_tables(runs):
    neg, _ = runs
    for name in ("results.jsonl", "prompts.jsonl", "summary.json", "report.md"):
        assert (neg / name).is_file(), name
    assert _header(neg / "disagreements.csv") == ["kind", "counted_per", "count", "example"]
    assert _header(neg / "fig5_log_odds.csv") == [
        "group", "term", "coef", "ci_low", "ci_high", "p_value", "cases", "status",
    ]  # fmt: skip
    report = (neg / "report.md").read_text()
    assert "Where errors come from (truth: `independent`)" in report
    assert "decision accuracy given a correct parse" in report
    assert "Figure 5: log-odds" in report
    if available():
        assert (neg / "fig5_log_odds.png").read_bytes()[:4] == b"\x89PNG"


def test_selection_writes_every_figure_as_table_and_plot(runs):
    _, sel = runs
    expected = {
        "outcomes.csv": ["condition", "strategy", "decisions", "SELECTED", "REJECTED", "UNKNOWN"],
        "fig7_pressure.csv": ["strategy", "step", "queued_total", "site", "site_queue_after"],
        "fig9_cei.csv": [
            "strategy", "archetype", "placements", "cei_mean", "cei_sd", "ci_low", "ci_high",
        ],
        "state_comparison.csv": [
            "strategy", "scheduled_with", "scheduled_without", "cost_vs_reference_with",
            "cost_vs_reference_without", "cei_with", "cei_without", "same_site",
        ],
    }  # fmt: skip
    for name, columns in expected.items():
        assert _header(sel / name) == columns, name
    strategies = ["agentic", "first-ready", "random", "soonest", "run-anytime", "min-cost"]
    assert _header(sel / "fig8_agreement.csv") == [
        "strategy",
        *strategies,
        "queue-depth",
        "agentic-cost",
    ]
    with (sel / "outcomes.csv").open() as fh:
        conditions = {row["condition"] for row in csv.DictReader(fh)}
    assert conditions == {"with-state", "without-state", "pressure"}
    text = (sel / "selection.md").read_text()
    for section in ("REJECTED", "With and without state", "Figure 7", "Figure 8", "Figure 9"):
        assert section in text
    if available():
        for png in ("outcomes", "fig7_pressure", "fig8_agreement", "fig9_cei", "state_comparison"):
            assert (sel / f"{png}.png").read_bytes()[:4] == b"\x89PNG", png


def test_report_redraws_a_selection_folder_identically(runs):
    _, sel = runs
    before = (sel / "selection.md").read_text()
    (sel / "selection.md").unlink()
    (sel / "fig9_cei.csv").unlink()
    rerender(sel)
    assert (sel / "selection.md").read_text() == before
    assert (sel / "fig9_cei.csv").is_file()


def _d(strategy: str, job: int, site: str | None, **kw) -> Decision:
    status = kw.pop("status", "SELECTED" if site else "REJECTED")
    return Decision(strategy, kw.pop("iteration", 0), job, status, site=site, **kw)


def test_agreement_counts_jobs_placed_by_both():
    decisions = [
        _d("a", 1, "s1"), _d("b", 1, "s1"), _d("c", 1, None, status="UNKNOWN"),
        _d("a", 2, "s1"), _d("b", 2, "s2"), _d("c", 2, None, status="UNKNOWN"),
        _d("a", 3, "s3"), _d("b", 3, None), _d("c", 3, None, status="UNKNOWN"),
    ]  # fmt: skip
    names, share, pairs = figs.agreement(decisions)
    assert names == ["a", "b", "c"]
    assert share[0] == [1.0, 0.5, None]  # a and b both placed jobs 1 and 2, agreeing on 1
    assert pairs[0] == [3, 2, 0]
    assert share[2] == [None, None, None]


def test_outcomes_count_rejected_per_condition():
    decisions = [
        _d("a", 1, "s1"), _d("a", 2, None), _d("a", 3, None),
        _d("a", 1, "s1", condition="without-state"),
    ]  # fmt: skip
    rows = figs.outcome_rows(decisions)
    assert rows == [
        {"condition": "with-state", "strategy": "a", "decisions": 3,
         "SELECTED": 1, "REJECTED": 2, "UNKNOWN": 0},
        {"condition": "without-state", "strategy": "a", "decisions": 1,
         "SELECTED": 1, "REJECTED": 0, "UNKNOWN": 0},
    ]  # fmt: skip


def test_cei_is_the_cheapest_of_the_archetype_over_the_cost_paid():
    decisions = [
        _d("a", 1, "s1", archetype="hpc", cost_usd=2.0, archetype_reference_usd=1.0),
        _d("a", 2, "s1", archetype="hpc", cost_usd=1.0, archetype_reference_usd=1.0),
    ]
    rows = {r["archetype"]: r for r in figs.cei_rows(decisions)}
    assert rows["hpc"]["placements"] == 2
    assert rows["hpc"]["cei_mean"] == pytest.approx(0.75)  # (0.5 + 1.0) / 2
    assert rows["cloud"] == {
        "strategy": "a", "archetype": "cloud", "placements": 0,
        "cei_mean": None, "cei_sd": None, "ci_low": None, "ci_high": None,
    }  # fmt: skip


def test_state_rows_compare_the_two_conditions():
    decisions = [
        _d("a", 1, "s1", cost_usd=2.0, reference_cost_usd=1.0),
        _d("a", 2, None),
        _d("a", 1, "s2", cost_usd=1.0, reference_cost_usd=1.0, condition="without-state"),
        _d("a", 2, "s1", cost_usd=1.0, reference_cost_usd=1.0, condition="without-state"),
    ]
    (row,) = figs.state_rows(decisions)
    assert row["scheduled_with"] == 0.5 and row["scheduled_without"] == 1.0
    assert row["cost_vs_reference_with"] == 2.0 and row["cost_vs_reference_without"] == 1.0
    assert row["same_site"] == 0.0  # job 1 went to s1 with state, s2 without


def test_pressure_follows_the_archetype_queue_total_in_order():
    decisions = [
        _d("a", 1, "s1", archetype="hpc", condition="pressure", step=0, queue_after=0,
           queue_totals={"hpc": 0}),
        _d("a", 2, "s1", archetype="hpc", condition="pressure", step=1, queue_after=1,
           queue_totals={"hpc": 1, "cloud": 0}),
        _d("a", 3, "c1", archetype="cloud", condition="pressure", step=2, queue_after=0,
           queue_totals={"hpc": 1, "cloud": 0}),
    ]  # fmt: skip
    rows = figs.pressure_rows(decisions)
    assert [r["queued_total"] for r in rows] == [0, 1, 1]
    assert [r["site"] for r in rows] == ["s1", "s1", None]
