"""Writing a selection run: decisions.jsonl, selection.json, selection.md, tables and plots.

Everything but ``decisions.jsonl`` and the run's settings in ``selection.json`` is derived from
the decisions, so ``secretary sim report DIR`` redraws it at any time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from secretary_executor.simulation import selection_figures as figs
from secretary_executor.simulation import selection_plots as plots
from secretary_executor.simulation.jsonl import read_lines, write_lines
from secretary_executor.simulation.plots import bar_plot
from secretary_executor.simulation.selection import Decision, summarise_selection
from secretary_executor.simulation.tables import markdown, write_csv

SELECTION_SUMMARY = "selection.json"
DECISIONS = "decisions.jsonl"
SELECTION_REPORT = "selection.md"
PAPER_LATENCY_S = {
    "agentic": 2.1971,
    "first-ready": 0.0002,
    "min-cost": 0.0004,
    "queue-depth": 0.0003,
    "random": 0.0084,
    "run-anytime": 0.0003,
    "soonest": 0.0003,
}
OUTCOME_COLUMNS = ("condition", "strategy", "decisions", *figs.STATUSES)
CEI_COLUMNS = ("strategy", "archetype", "placements", "cei_mean", "cei_sd", "ci_low", "ci_high")
PRESSURE_COLUMNS = ("strategy", "step", "queued_total", "site", "site_queue_after")
STATE_COLUMNS = (
    "strategy",
    "scheduled_with",
    "scheduled_without",
    "cost_vs_reference_with",
    "cost_vs_reference_without",
    "cei_with",
    "cei_without",
    "same_site",
)
_DECISION = TypeAdapter(Decision)


def write_decisions(out: Path, decisions: Sequence[Decision]) -> None:
    write_lines(out / DECISIONS, (json.dumps(asdict(d)) for d in decisions))


def read_decisions(out: Path) -> list[Decision]:
    """The decisions of a selection folder, validated.

    Raises:
        ConfigurationError: a line that is not a decision (says which).
    """
    return read_lines(out / DECISIONS, _DECISION.validate_json, "selection decision")


def is_selection_folder(out: Path) -> bool:
    return (out / DECISIONS).is_file() and (out / SELECTION_SUMMARY).is_file()


def write_selection(
    out: Path, settings: dict[str, Any], decisions: Sequence[Decision]
) -> dict[str, Any]:
    """selection.json, selection.md, every figure's CSV and PNG; returns the summary.

    ``settings`` are the run's own keys (source, iterations, jobs, prices, reference); the
    figures are recomputed from ``decisions``.
    """
    with_state = [d for d in decisions if d.condition == "with-state"]
    names, share, pairs = figs.agreement(decisions)
    outcomes = figs.outcome_rows(decisions)
    cei = figs.cei_rows(decisions)
    pressure = figs.pressure_rows(decisions)
    state = figs.state_rows(decisions)
    summary = {
        **{k: v for k, v in settings.items() if k not in _DERIVED},
        "paper_latency_s": PAPER_LATENCY_S,
        "strategies": summarise_selection(with_state),
        "outcomes": outcomes,
        "agreement": {"strategies": names, "share": share, "pairs": pairs},
        "cei": cei,
        "state_comparison": state,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / SELECTION_SUMMARY).write_text(
        json.dumps(summary, indent=2, sort_keys=True) + "\n", "utf-8"
    )
    agreement_rows = [
        {"strategy": a, **{b: share[i][j] for j, b in enumerate(names)}}
        for i, a in enumerate(names)
    ]
    write_csv(out / "outcomes.csv", outcomes, OUTCOME_COLUMNS)
    write_csv(out / "fig8_agreement.csv", agreement_rows, ("strategy", *names))
    write_csv(out / "fig9_cei.csv", cei, CEI_COLUMNS)
    write_csv(out / "fig7_pressure.csv", pressure, PRESSURE_COLUMNS)
    write_csv(out / "state_comparison.csv", state, STATE_COLUMNS)
    (out / SELECTION_REPORT).write_text(
        render_selection(summary, agreement_rows, names, pressure), "utf-8"
    )
    _draw(out, summary, names, share, pairs, pressure)
    return summary


_DERIVED = frozenset(
    {"paper_latency_s", "strategies", "outcomes", "agreement", "cei", "state_comparison"}
)


def _draw(
    out: Path,
    summary: dict[str, Any],
    names: list[str],
    share: list[list[float | None]],
    pairs: list[list[int]],
    pressure: list[dict[str, Any]],
) -> None:
    strategies = summary["strategies"]
    bar_plot(
        out / "selection_latency.png",
        "Decision latency per strategy",
        "mean latency (s, log)",
        {k: max(v["latency_mean_s"], 1e-9) for k, v in strategies.items()},
        log=True,
    )
    bar_plot(
        out / "selection_scheduled.png",
        "Fraction of jobs scheduled",
        "fraction",
        {k: v["fraction_scheduled"] for k, v in strategies.items()},
    )
    bar_plot(
        out / "selection_cost.png",
        "Cost paid / reference minimum",
        "ratio",
        {k: v["cost_vs_reference"] or 0.0 for k, v in strategies.items()},
    )
    plots.outcomes_plot(out / "outcomes.png", summary["outcomes"])
    plots.agreement_plot(out / "fig8_agreement.png", names, share, pairs)
    plots.cei_plot(out / "fig9_cei.png", summary["cei"])
    plots.pressure_plot(out / "fig7_pressure.png", pressure)
    plots.state_plot(out / "state_comparison.png", summary["state_comparison"])


def _strategy_table(summary: dict[str, Any]) -> list[str]:
    lines = [
        "| strategy | selected | rejected | unknown | scheduled | latency mean +- sd (s) "
        "| paper latency (s) | cost / reference | CEI hpc | CEI cloud | CEI standalone |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in summary["strategies"].items():
        cei = s["cei_by_archetype"]
        ratio = "n/a" if s["cost_vs_reference"] is None else f"{s['cost_vs_reference']:.3f}"
        paper = summary["paper_latency_s"].get(name)
        lines.append(
            f"| {name} | {s['selected']:,} | {s['rejected']:,} | {s['unknown']:,} "
            f"| {100 * s['fraction_scheduled']:.1f} % "
            f"| {s['latency_mean_s']:.6f} +- {s['latency_sd_s']:.6f} "
            f"| {'' if paper is None else f'{paper:.4f}'} | {ratio} "
            + " ".join(
                f"| {cei[k]:.3f}" if k in cei else "| n/a" for k in ("hpc", "cloud", "standalone")
            )
            + " |"
        )
    return lines


def _agentic_note(summary: dict[str, Any]) -> str:
    """What the agentic rows mean: decided by the named model, or all UNKNOWN without one."""
    agentic = [n for n in summary["strategies"] if n.startswith("agentic")]
    if not agentic:
        return ""
    names = " and ".join(agentic)
    if model := summary.get("model"):
        return (
            f"{names}: model `{model}`; latency includes the model calls. An UNKNOWN decision "
            "is one the model could not make (its reason is in decisions.jsonl, `note`)."
        )
    return (
        f"{names}: no model was configured, so every decision is UNKNOWN and its latency is "
        "the time to refuse (pass --llm-model/--llm-base-url)."
    )


def render_selection(
    summary: dict[str, Any],
    agreement_rows: list[dict[str, Any]],
    names: list[str],
    pressure: list[dict[str, Any]],
) -> str:
    """selection.md: the strategies with the paper's latencies, then one section per figure."""
    lines = [
        "# Selection simulation",
        "",
        f"{summary['jobs']} compatible jobs x {summary['iterations']} iterations; reference: "
        f"{summary['reference']}.",
        "",
        "## Strategies, with fleet state updated as jobs are placed",
        "",
        *_strategy_table(summary),
        "",
        _agentic_note(summary),
        "",
        "## Outcomes: SELECTED, REJECTED, UNKNOWN (`outcomes.csv`, `outcomes.png`)",
        "",
        "REJECTED: the strategy found nothing it may choose (e.g. first-ready or random when "
        "every candidate is BUSY).",
        "",
        *markdown(summary["outcomes"], OUTCOME_COLUMNS),
        "",
        "## With and without state (`state_comparison.csv`, `state_comparison.png`)",
        "",
        "with: placements take free nodes and grow queues; without: every job sees the initial "
        "state. same_site: share of jobs placed in both runs on the same site.",
        "",
        *markdown(summary["state_comparison"], STATE_COLUMNS),
        "",
        "## Figure 8: agreement of the selected worker (`fig8_agreement.csv`, `.png`)",
        "",
        "Share of (iteration, job) pairs placed by both strategies on the same worker; "
        "- where no job was placed by both.",
        "",
        *markdown(agreement_rows, ("strategy", *names)),
        "",
        "## Figure 9: cost efficiency index by archetype (`fig9_cei.csv`, `fig9_cei.png`)",
        "",
        "CEI of a placed job: cheapest cost among candidates of the chosen archetype / cost "
        "paid. Mean, sd and a normal 95 % interval of the mean.",
        "",
        *markdown(summary["cei"], CEI_COLUMNS),
        "",
        "## Figure 7: selected worker pressure (`fig7_pressure.csv`, `fig7_pressure.png`)",
        "",
        "Separate run with every queue starting empty, iteration 0: jobs queued over all HPC "
        "sites after each decision (queued_total), and the chosen HPC site's partition queue. "
        f"Largest total reached: {max((r['queued_total'] for r in pressure), default=0)}. "
        "Not used for the other figures.",
        "",
    ]
    return "\n".join(lines)


def rerender_selection(out: Path) -> dict[str, Any]:
    """Redraw a selection folder from its decisions and settings."""
    settings = json.loads((out / SELECTION_SUMMARY).read_text("utf-8"))
    return write_selection(out, settings, read_decisions(out))
