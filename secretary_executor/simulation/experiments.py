"""The two experiments end to end, writing their output folders.

Kept apart from the command line so that tests, the benchmark script and notebooks run exactly
what ``secretary sim negotiate`` and ``secretary sim select`` run.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from endpoint_plugins.agent.config import LLMConfig
from providers.wire.proposal import Verdict
from secretary_executor.errors import ConfigurationError
from secretary_executor.select.agentic import DEFAULT_RETRIES
from secretary_executor.simulation import report
from secretary_executor.simulation.audit import CaseResult
from secretary_executor.simulation.catalogue import build_catalogue
from secretary_executor.simulation.generator import generate_fleet
from secretary_executor.simulation.negotiate import (
    DEFAULT_PROCESSES,
    NegotiationSettings,
    run_negotiation,
)
from secretary_executor.simulation.plots import bar_plot
from secretary_executor.simulation.pricing import PriceModel
from secretary_executor.simulation.prompts import generate_prompts
from secretary_executor.simulation.selection import (
    STRATEGIES,
    Job,
    run_selection,
    summarise_selection,
)

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


def negotiate_experiment(
    settings: NegotiationSettings,
    out: Path,
    on_prompt: Callable[[int], None] | None = None,
    *,
    processes: int = DEFAULT_PROCESSES,
    on_ready: Callable[[], None] | None = None,
    llm: LLMConfig | None = None,
    guided: bool = False,
    ports: range | None = None,
) -> dict[str, Any]:
    """Run the negotiation protocol and write results.jsonl, summary.json, report.md, plots.

    With ``transport="mcp"`` the workers' state files and logs are kept in ``out/workers``
    (served by ``processes`` worker processes on ``ports``), so a failed start can be
    diagnosed afterwards. ``llm`` and ``guided`` configure model strategies
    (:func:`~secretary_executor.simulation.negotiate.negotiate_all`).
    """
    run = run_negotiation(
        settings,
        on_prompt,
        workdir=out / "workers",
        processes=processes,
        on_ready=on_ready,
        llm=llm,
        guided=guided,
        ports=ports,
    )
    report.write_results(out, run.cases)
    summary = report.build_summary(run.cases, settings.model_dump(mode="json"), run.elapsed_s)
    report.write_summary(out, summary)
    report.write_report(out, summary)
    return summary


def rerender(out: Path) -> dict[str, Any]:
    """Rebuild summary.json, report.md and the plots of ``out`` from its results.jsonl."""
    cases = report.read_results(out)
    settings, elapsed = report.read_settings(out)
    summary = report.build_summary(cases, settings, elapsed)
    report.write_summary(out, summary)
    report.write_report(out, summary)
    return summary


def jobs_from_cases(cases: list[CaseResult], settings: NegotiationSettings) -> list[Job]:
    """The prompts with at least one compatible proposal, with the sites that made them."""
    workers = generate_fleet(settings.workers, settings.seed)
    prompts = generate_prompts(
        build_catalogue(w.state for w in workers), settings.prompts, settings.seed
    )
    compatible: dict[int, list[str]] = defaultdict(list)
    for c in cases:
        if c.verdict in (Verdict.READY, Verdict.BUSY):
            compatible[c.prompt_id].append(c.site)
    return [
        Job(p.prompt_id, p.requirements, tuple(compatible[p.prompt_id]))
        for p in prompts
        if compatible.get(p.prompt_id)
    ]


def _settings_of(source: Path) -> NegotiationSettings:
    data, _ = report.read_settings(source)
    if not data:
        raise ConfigurationError(
            f"{str(source / report.SUMMARY)!r} is missing or unreadable; pass a folder written by "
            "'secretary sim negotiate', or leave out --from to run one now"
        )
    return NegotiationSettings.model_validate(data)


def select_experiment(
    out: Path,
    *,
    iterations: int = 10,
    source: Path | None = None,
    settings: NegotiationSettings | None = None,
    prices: PriceModel | None = None,
    strategies: Sequence[str] = STRATEGIES,
    llm: LLMConfig | None = None,
    retries: int = DEFAULT_RETRIES,
) -> dict[str, Any]:
    """The selection experiment over the compatible proposals of a negotiation run.

    With ``source`` the run in that folder is used; otherwise one is run now (into
    ``out/negotiation``) with ``settings``. ``llm`` is the model of the agentic strategies
    (the environment's when None), which send an unusable answer back ``retries`` times.
    """
    if source is None:
        settings = settings or NegotiationSettings()
        source = out / "negotiation"
        negotiate_experiment(settings, source, llm=llm)
    settings = _settings_of(source)
    cases = report.read_results(source)
    jobs = jobs_from_cases(cases, settings)
    workers = generate_fleet(settings.workers, settings.seed)
    run = run_selection(
        workers,
        jobs,
        iterations=iterations,
        seed=settings.seed,
        strategies=tuple(strategies),
        prices=prices,
        llm=llm,
        retries=retries,
    )
    summary = {
        "source": str(source),
        "iterations": iterations,
        "jobs": len(jobs),
        "prices": (prices or PriceModel()).model_dump(),
        "reference": "per-job minimum cost over every compatible site (a lower bound; see docs)",
        "paper_latency_s": PAPER_LATENCY_S,
        "model": llm.model if llm is not None else None,
        "strategies": summarise_selection(run),
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / SELECTION_SUMMARY).write_text(
        json.dumps(summary, indent=2, sort_keys=True) + "\n", "utf-8"
    )
    with (out / DECISIONS).open("w", encoding="utf-8") as fh:
        for d in run.decisions:
            fh.write(json.dumps(asdict(d)) + "\n")
    (out / SELECTION_REPORT).write_text(render_selection(summary), "utf-8")
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
    return summary


def render_selection(summary: dict[str, Any]) -> str:
    """selection.md: one row per strategy, with the paper's latencies beside ours."""
    lines = [
        "# Selection simulation",
        "",
        f"{summary['jobs']} compatible jobs x {summary['iterations']} iterations; reference: "
        f"{summary['reference']}.",
        "",
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
    model = summary.get("model")
    agentic = [n for n in summary["strategies"] if n.startswith("agentic")]
    if agentic:
        lines += [
            "",
            f"{' and '.join(agentic)}: "
            + (
                f"model `{model}`; latency includes the model calls. An UNKNOWN decision is "
                "one the model could not make (its reason is in decisions.jsonl, `note`)."
                if model
                else "no model was configured, so every decision is UNKNOWN and its latency "
                "is the time to refuse (pass --llm-model/--llm-base-url)."
            ),
        ]
    lines += [
        "",
        "Plots: `selection_latency.png`, `selection_scheduled.png`, `selection_cost.png`.",
        "",
    ]
    return "\n".join(lines)
