"""The two experiments end to end, writing their output folders.

Kept apart from the command line so that tests, the benchmark script and notebooks run exactly
what ``secretary sim negotiate`` and ``secretary sim select`` run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from endpoint_plugins.agent.config import LLMConfig
from providers.wire.proposal import Verdict
from secretary_executor.errors import ConfigurationError
from secretary_executor.select.agentic import DEFAULT_RETRIES
from secretary_executor.simulation import report
from secretary_executor.simulation.audit import CaseResult
from secretary_executor.simulation.catalogue import build_catalogue
from secretary_executor.simulation.disagreement import PromptRecord
from secretary_executor.simulation.generator import generate_fleet
from secretary_executor.simulation.negotiate import (
    DEFAULT_PROCESSES,
    NegotiationRun,
    NegotiationSettings,
    run_negotiation,
)
from secretary_executor.simulation.pricing import PriceModel
from secretary_executor.simulation.prompts import generate_prompts
from secretary_executor.simulation.selection import CONDITIONS, STRATEGIES, Job, run_selection
from secretary_executor.simulation.selection_report import (
    is_selection_folder,
    rerender_selection,
    write_decisions,
    write_selection,
)

SELECTION_WORKERS = 100
"""Workers whose results the paper carries forward from negotiation to selection."""


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
    records = prompt_records(run)
    report.write_prompts(out, records)
    summary = report.build_summary(
        run.cases, settings.model_dump(mode="json"), run.elapsed_s, records
    )
    report.write_summary(out, summary)
    report.write_report(out, summary)
    return summary


def prompt_records(run: NegotiationRun) -> list[PromptRecord]:
    """Each prompt's text, intent, intended and parsed requirement, for prompts.jsonl."""
    return [
        PromptRecord(
            prompt_id=p.prompt_id,
            index=p.index,
            style=p.style,
            text=p.text,
            intent=p.intent,
            intended=p.requirements.model_dump(mode="json"),
            parsed=run.parsed[p.prompt_id].model_dump(mode="json"),
        )
        for p in run.prompts
    ]


def rerender(out: Path) -> dict[str, Any]:
    """Rebuild summary.json, report.md and the plots of ``out`` from its results.jsonl (a
    negotiation folder), or selection.json, selection.md and the plots from decisions.jsonl
    (a selection folder)."""
    if is_selection_folder(out) and not (out / report.RESULTS).is_file():
        return rerender_selection(out)
    cases = report.read_results(out)
    settings, elapsed = report.read_settings(out)
    summary = report.build_summary(cases, settings, elapsed, report.read_prompts(out))
    report.write_summary(out, summary)
    report.write_report(out, summary)
    return summary


def jobs_from_cases(
    cases: list[CaseResult], settings: NegotiationSettings, subset: int | None = None
) -> list[Job]:
    """The prompts that at least one site can truly run, with the sites that can run them.

    As in the paper, candidates are filtered by the ground truth (READY or BUSY), not by what
    the sites claimed, and only the first ``subset`` workers of the fleet are carried forward
    (None or 0: all of them).
    """
    workers = generate_fleet(settings.workers, settings.seed)
    kept = {w.state.site.name for w in (workers[:subset] if subset else workers)}
    prompts = generate_prompts(
        build_catalogue(w.state for w in workers), settings.prompts, settings.seed
    )
    compatible: dict[int, list[str]] = defaultdict(list)
    for c in cases:
        if c.truth in (Verdict.READY, Verdict.BUSY) and c.site in kept:
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
    subset: int | None = SELECTION_WORKERS,
    strategies: Sequence[str] = STRATEGIES,
    llm: LLMConfig | None = None,
    retries: int = DEFAULT_RETRIES,
) -> dict[str, Any]:
    """The selection experiment over the truly compatible cases of a negotiation run, in its
    three conditions (with state, without state, and queues starting empty).

    With ``source`` the run in that folder is used; otherwise one is run now (into
    ``out/negotiation``) with ``settings``. ``subset``: workers carried forward (the paper's
    100 of 200; None or 0 for all). ``llm`` is the model of the agentic strategies (the
    environment's when None), which send an unusable answer back ``retries`` times.
    """
    if source is None:
        settings = settings or NegotiationSettings()
        source = out / "negotiation"
        negotiate_experiment(settings, source, llm=llm)
    settings = _settings_of(source)
    cases = report.read_results(source)
    jobs = jobs_from_cases(cases, settings, subset)
    workers = generate_fleet(settings.workers, settings.seed)
    decisions = [
        d
        for condition in CONDITIONS
        for d in run_selection(
            workers,
            jobs,
            iterations=iterations,
            seed=settings.seed,
            strategies=tuple(strategies),
            prices=prices,
            condition=condition,
            llm=llm,
            retries=retries,
        ).decisions
    ]
    write_decisions(out, decisions)
    meta = {
        "source": str(source),
        "iterations": iterations,
        "jobs": len(jobs),
        "prices": (prices or PriceModel()).model_dump(),
        "reference": "per-job minimum cost over every compatible site (a lower bound; see docs)",
        "conditions": list(CONDITIONS),
        "workers_carried_forward": min(subset or settings.workers, settings.workers),
        "model": llm.model if llm is not None else None,
    }
    return write_selection(out, meta, decisions)
