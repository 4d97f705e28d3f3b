"""``secretary sim``: simulated workers and the paper's two experiments.

secretary sim export --worker ID --out FILE          a generated worker's state file
secretary sim negotiate [--workers N] [--prompts N]  the negotiation protocol, audited
                        [--truth independent|faithful] against which ground truth
                        [--transport mcp]            ... with sites served by worker processes
                        [--ports 9100-9199]          ... listening on ports of that range
                        [--site-timeout S]           how long one site may take
secretary sim report DIR                             re-render report.md and plots
secretary sim select [--iterations N] [--from DIR]   the selection experiment
                     [--strategies a,b]              ... with only these strategies

Model strategies (negotiation ``agent``/``hybrid``, selection ``agentic``/``agentic-cost``)
take the model from --llm-model/--llm-base-url/... or the SECRETARY_LLM_* variables.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from rich.logging import RichHandler
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from secretary_executor.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    console,
    err_console,
    positive_seconds,
)
from secretary_executor.cli.llm_options import add_llm_options, llm_config
from secretary_executor.simulation.experiments import (
    SELECTION_WORKERS,
    negotiate_experiment,
    rerender,
    select_experiment,
)
from secretary_executor.simulation.generator import generate_worker
from secretary_executor.simulation.negotiate import (
    DEFAULT_MCP_SITE_TIMEOUT_S,
    DEFAULT_PROCESSES,
    DEFAULT_SITE_TIMEOUT_S,
    TRUTH_MODES,
    NegotiationSettings,
)
from secretary_executor.simulation.ports import parse_ports
from secretary_executor.simulation.pricing import PriceModel
from secretary_executor.simulation.selection import STRATEGIES

TRANSPORTS = ("in-process", "mcp")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``sim`` and its sub-commands to the ``secretary`` command line."""
    sim = subparsers.add_parser("sim", help="simulated workers and the paper's experiments")
    sub = sim.add_subparsers(dest="sim_command", required=True, metavar="SUBCOMMAND")

    p = sub.add_parser("export", help="write a generated worker's site state file")
    p.add_argument("--worker", required=True, help="worker id, e.g. 17")
    p.add_argument("--out", required=True, type=Path, help="state file to write (YAML)")
    p.set_defaults(handler=_export)

    p = sub.add_parser("negotiate", help="every prompt against every worker, audited")
    _negotiation_options(p)
    p.add_argument(
        "--mcp-processes",
        type=int,
        default=DEFAULT_PROCESSES,
        help="with --transport mcp: how many worker processes share the sites",
    )
    p.add_argument(
        "--ports",
        metavar="FIRST-LAST",
        help="with --transport mcp: the loopback ports the hub and worker processes may use, "
        "e.g. 9100-9199 (default: any free port)",
    )
    p.add_argument("--out", required=True, type=Path, help="folder for results and report")
    add_llm_options(p)
    p.set_defaults(handler=_negotiate)

    p = sub.add_parser("report", help="re-render report.md and plots from results.jsonl")
    p.add_argument("dir", type=Path, help="a 'sim negotiate' or 'sim select' output folder")
    p.set_defaults(handler=_report)

    p = sub.add_parser("select", help="the selection experiment over compatible proposals")
    p.add_argument(
        "--iterations", type=int, default=10, help="repetitions of each selection (default 10)"
    )
    p.add_argument("--from", dest="source", type=Path, help="a 'sim negotiate' output folder")
    _negotiation_options(p)
    p.add_argument(
        "--subset",
        type=int,
        default=SELECTION_WORKERS,
        help=f"workers carried forward from the negotiation (default {SELECTION_WORKERS}, "
        "as in the paper; 0: all)",
    )
    p.add_argument("--cpu-core-hour", type=float, default=0.015, help="USD per core-hour")
    p.add_argument("--a100-hour", type=float, default=1.49, help="USD per A100 GPU-hour")
    p.add_argument("--l4-hour", type=float, default=0.44, help="USD per L4 GPU-hour")
    p.add_argument(
        "--strategies",
        metavar="A,B,...",
        help=f"selection strategies to run (default: all: {', '.join(STRATEGIES)})",
    )
    p.add_argument("--out", required=True, type=Path, help="folder for results and report")
    add_llm_options(p)
    p.set_defaults(handler=_select)


def _negotiation_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=int, default=200, help="simulated sites (default 200)")
    p.add_argument("--prompts", type=int, default=100, help="job requests (default 100)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--strategy",
        default="rules",
        help="rules (default), agent or hybrid (agent and hybrid need a model: docs/agents.md)",
    )
    p.add_argument(
        "--transport",
        default="in-process",
        help="in-process (default), or mcp: sites served by worker processes on 127.0.0.1",
    )
    p.add_argument(
        "--truth",
        default="independent",
        help="ground truth: independent (default; the generator's intent against the raw site "
        "state) or faithful (the paper's auditor rules over the fact models)",
    )
    p.add_argument(
        "--site-timeout",
        type=positive_seconds,
        metavar="S",
        help=f"seconds one site may take to answer before it is UNREACHABLE (default "
        f"{DEFAULT_SITE_TIMEOUT_S:g} in process, {DEFAULT_MCP_SITE_TIMEOUT_S:g} over MCP; a site "
        "on a local model takes seconds to minutes, and sites asked at once share its server)",
    )
    p.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help="in process: sites asked at once (default: all; 1 asks them one after another, so "
        "each site's timeout covers its own model calls only)",
    )


def _fail(message: str) -> int:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    return EXIT_USAGE


def _settings(args: argparse.Namespace) -> NegotiationSettings | str:
    """Validated settings, or the one-line reason they are wrong."""
    if args.transport not in TRANSPORTS:
        return f"unknown transport {args.transport!r}; choose in-process or mcp"
    if args.truth not in TRUTH_MODES:
        return f"unknown truth {args.truth!r}; choose {' or '.join(TRUTH_MODES)}"
    if args.strategy not in ("rules", "agent", "hybrid"):
        return f"unknown strategy {args.strategy!r}; choose rules, agent or hybrid"
    if args.transport == "mcp" and args.strategy != "rules":
        return (
            f"--transport mcp serves sites with --strategy rules only (got {args.strategy!r}); "
            "use --transport in-process for agent or hybrid"
        )
    if args.concurrency is not None and args.concurrency < 1:
        return f"--concurrency must be at least 1 (got {args.concurrency})"
    if getattr(args, "mcp_processes", 1) < 1:
        return f"--mcp-processes must be at least 1 (got {args.mcp_processes})"
    for name in ("workers", "prompts"):
        if getattr(args, name) < 1:
            return f"--{name} must be at least 1 (got {getattr(args, name)})"
    if args.seed < 0:
        return f"--seed must be 0 or more (got {args.seed})"
    return NegotiationSettings(
        workers=args.workers,
        prompts=args.prompts,
        seed=args.seed,
        strategy=args.strategy,
        transport=args.transport,
        truth=args.truth,
        site_timeout_s=args.site_timeout,
        concurrency=args.concurrency,
    )


def _strategies(text: str | None) -> tuple[str, ...] | str:
    """The selection strategies named (all when None), or why the list is wrong."""
    if text is None:
        return STRATEGIES
    names = tuple(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in STRATEGIES]
    if unknown or not names:
        return (
            f"unknown strategy {', '.join(unknown) or repr(text)} in --strategies; choose from: "
            + ", ".join(STRATEGIES)
        )
    return names


def _export(args: argparse.Namespace) -> int:
    try:
        worker = generate_worker(args.worker)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(worker.state.to_yaml(), encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {str(args.out)!r}: {exc.strerror}")
    console.print(
        f"wrote {args.out}: {worker.state.site.name} ({worker.archetype}, "
        f"{len(worker.state.providers)} providers)"
    )
    return EXIT_OK


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )


def _negotiate(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if isinstance(settings, str):
        return _fail(settings)
    ports = parse_ports(args.ports) if args.ports is not None else None
    if ports is not None and settings.transport != "mcp":
        return _fail("--ports only applies to --transport mcp (the processes that serve sites)")
    llm = llm_config(args) if settings.strategy != "rules" else None
    negotiating = f"negotiating {settings.workers} workers"
    starting = negotiating
    if settings.transport == "mcp":
        negotiating += " over MCP"
        processes = min(args.mcp_processes, settings.workers)
        starting = f"starting {processes} MCP worker process(es)"
        # Warnings (a worker marked down) print above the progress bar, not through it; the
        # MCP server would otherwise log every request at INFO.
        logging.basicConfig(
            level=logging.WARNING,
            format="%(message)s",
            handlers=[RichHandler(console=err_console, show_path=False)],
        )
    with _progress() as progress:
        task = progress.add_task(starting, total=settings.prompts)
        summary = negotiate_experiment(
            settings,
            args.out,
            on_prompt=lambda _i: progress.advance(task),
            processes=args.mcp_processes,
            on_ready=lambda: progress.update(task, description=negotiating),
            llm=llm,
            guided=args.llm_guided,
            ports=ports,
        )
    _print_summary(summary, args.out)
    return EXIT_OK


def _print_summary(summary: dict, out: Path) -> None:  # type: ignore[type-arg]
    overall = summary["overall"]
    table = Table(title=f"Negotiation ({summary['elapsed_s']:.1f} s) -> {out}")
    for col in ("figure", "secretary", "always INCOMPATIBLE", "always READY"):
        table.add_column(col, justify="right" if col != "figure" else "left")
    for key in ("accuracy", "balanced_accuracy", "f1_compatible"):
        table.add_row(key, *(f"{100 * overall[n][key]:.2f} %" for n in overall))
    for key in ("false_ready", "false_incompatible", "unknown", "unreachable", "cases"):
        table.add_row(key, *(f"{overall[n][key]:,}" for n in overall))
    console.print(table)


def _report(args: argparse.Namespace) -> int:
    summary = rerender(args.dir)
    if "strategies" in summary:
        _print_selection(summary, args.dir)
    else:
        _print_summary(summary, args.dir)
    return EXIT_OK


def _select(args: argparse.Namespace) -> int:
    if args.iterations < 1:
        return _fail(f"--iterations must be at least 1 (got {args.iterations})")
    if args.subset < 0:
        return _fail(f"--subset must be 0 (all workers) or more (got {args.subset})")
    settings = None
    if args.source is None:
        settings = _settings(args)
        if isinstance(settings, str):
            return _fail(settings)
    strategies = _strategies(args.strategies)
    if isinstance(strategies, str):
        return _fail(strategies)
    prices = PriceModel(
        cpu_core_hour=args.cpu_core_hour, gpu_hour={"A100": args.a100_hour, "L4": args.l4_hour}
    )
    llm = llm_config(args)
    with console.status("running the selection experiment"):
        summary = select_experiment(
            args.out,
            iterations=args.iterations,
            source=args.source,
            settings=settings,
            prices=prices,
            subset=args.subset,
            strategies=strategies,
            llm=llm,
            retries=args.llm_retries,
        )
    _print_selection(summary, args.out)
    return EXIT_OK


def _print_selection(summary: dict, out: Path) -> None:  # type: ignore[type-arg]
    table = Table(title=f"Selection: {summary['jobs']} jobs x {summary['iterations']} -> {out}")
    for col in (
        "strategy",
        "selected",
        "rejected",
        "unknown",
        "scheduled",
        "latency (s)",
        "cost / reference",
    ):
        table.add_column(col, justify="left" if col == "strategy" else "right")
    for name, s in summary["strategies"].items():
        ratio = s["cost_vs_reference"]
        table.add_row(
            name,
            f"{s['selected']:,}",
            f"{s['rejected']:,}",
            f"{s['unknown']:,}",
            f"{100 * s['fraction_scheduled']:.1f} %",
            f"{s['latency_mean_s']:.6f}",
            "n/a" if ratio is None else f"{ratio:.3f}",
        )
    console.print(table)
