"""``resource-ask``: the hub's flow from the command line (after the paper's Listing 1).

    resource-ask negotiate "I need <resources, constraints>" [-- CMD ...]   # all five stages
    resource-ask satisfy   "I need <resources, constraints>"                # request + query
    resource-ask select    "I need <resources, constraints>" [--algorithm NAME]
    resource-ask dispatch  SITE "I need <resources>" -- CMD ...             # straight to a site
    resource-ask list select | list sites
    resource-ask status JOB | jobs | cancel JOB | wait JOB | logs JOB

Every command takes ``--fleet`` (``demo`` or a fleet YAML) and ``--json``. The job's command
goes after ``--`` (or in backticks inside the request text) and is run as an argument list,
never through a shell. Exit status: 0 done, 1 the outcome is a failure, 2 bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from rich.prompt import Confirm
from rich.table import Table

from providers.wire import JobState, JobStatus, Policy, Proposal, Verdict
from providers.wire.jobs import MAX_OUTPUT_BYTES
from secretary_executor.broker import Broker, NegotiationResult
from secretary_executor.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    add_version,
    console,
    emit_json,
    err_console,
    positive_seconds,
    run_guarded,
    split_trailing_command,
)
from secretary_executor.cli.render import events_table, jobs_table, print_proposals
from secretary_executor.cost_guard import DEFAULT_MAX_COST_USD, ENV, max_cost_usd, over_ceiling
from secretary_executor.errors import ConfigurationError
from secretary_executor.ledger import Ledger
from secretary_executor.select.registry import get_selector, list_selectors
from secretary_executor.sites.fleet import DEMO, load_fleet

_DONE = frozenset({JobState.COMPLETED, JobState.SIMULATED})
"""Final states a script may take as success: the command ran and exited 0, or the site is
simulated and ran nothing by design (its state says so, and it has no exit status)."""


def _cost_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--max-cost",
        type=float,
        metavar="USD",
        help=f"largest estimated cost to dispatch without asking (default ${ENV} or "
        f"{DEFAULT_MAX_COST_USD:g})",
    )
    p.add_argument("--yes", action="store_true", help="dispatch above --max-cost without asking")


def _within_ceiling(args: argparse.Namespace, proposal: Proposal) -> bool:
    """True when the job may go: within the ceiling, or a person said yes (or --yes)."""
    problem = over_ceiling(proposal, max_cost_usd(args.max_cost))
    if problem is None or args.yes:
        return True
    if not args.json and sys.stdin.isatty() and sys.stdout.isatty():
        return Confirm.ask(f"{problem}. Dispatch anyway?", console=err_console, default=False)
    err_console.print(f"[red]not dispatched:[/] {problem} (or pass --yes)", highlight=False)
    return False


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--fleet", default=DEMO, help="'demo' (built in) or the path of a fleet YAML file"
    )
    common.add_argument("--json", action="store_true", help="print JSON instead of tables")
    common.add_argument(
        "--site-timeout",
        type=positive_seconds,
        metavar="S",
        help="seconds each site may take to answer before it is UNREACHABLE (default: the fleet "
        "file's timeout_s, else 30 in process and 60 through Globus Compute)",
    )

    parser = argparse.ArgumentParser(
        prog="resource-ask",
        description="Negotiate where a job should run across a fleet of sites, then run it.",
        epilog="Put the job's command after '--', e.g.: resource-ask negotiate "
        "'python >= 3.8 on 1 node' -- python3 -c 'print(42)'",
    )
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[common], help=help_text, description=help_text)

    p = add("negotiate", "request, query every site, select, and dispatch if a command is given")
    p.add_argument("text", help="the request in words")
    p.add_argument("--algorithm", help="selection algorithm (see 'list select')")
    p.add_argument("--explain", action="store_true", help="show every check with its evidence")
    p.add_argument("--wait", action="store_true", help="wait for the dispatched job to finish")
    _cost_arguments(p)

    p = add("satisfy", "request and query every site: which sites can run it")
    p.add_argument("text", help="the request in words")
    p.add_argument("--explain", action="store_true", help="show every check with its evidence")

    p = add("select", "request, query and select one site")
    p.add_argument("text", help="the request in words")
    p.add_argument("--algorithm", help="selection algorithm (see 'list select')")
    p.add_argument("--explain", action="store_true", help="show every check with its evidence")

    p = add("dispatch", "dispatch straight to a named site")
    p.add_argument("site", help="the site to run it at (see 'list sites')")
    p.add_argument("text", help="the request in words")
    p.add_argument("--force", action="store_true", help="dispatch even if the site says no")
    p.add_argument("--wait", action="store_true", help="wait for the job to finish")
    p.add_argument(
        "--key",
        help="idempotency key (8-128 of letters, digits, ._:@-): running the command again "
        "with the same key returns the first job instead of starting another",
    )
    _cost_arguments(p)

    p = add("list", "list selection algorithms or the fleet's sites")
    p.add_argument(
        "what", choices=["select", "sites"], help="select: the algorithms; sites: the fleet"
    )

    p = add("status", "state of a dispatched job")
    p.add_argument("job", help="a job id (see 'jobs')")

    add("jobs", "jobs in the ledger, newest first")

    p = add("logs", "the end of a job's output and error, wherever it ran")
    p.add_argument("job", help="a job id (see 'jobs')")
    p.add_argument(
        "--bytes",
        type=int,
        default=65536,
        metavar="N",
        help="how much of the end of each stream (default 65536, at most 1048576)",
    )

    p = add("cancel", "cancel a dispatched job")
    p.add_argument("job", help="a job id (see 'jobs')")

    p = add("wait", "wait until a job finishes")
    p.add_argument("job", help="a job id (see 'jobs')")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds (default 600)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``resource-ask``."""
    options, command = split_trailing_command(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(options)
    return run_guarded(lambda: asyncio.run(_dispatch_command(args, command)))


async def _dispatch_command(args: argparse.Namespace, command: list[str]) -> int:
    if args.command == "list" and args.what == "select":
        return _list_select(args)
    if getattr(args, "algorithm", None):
        get_selector(args.algorithm)  # unknown names fail before any site is asked
    fleet = load_fleet(args.fleet)
    if getattr(args, "site_timeout", None) is not None:
        fleet.set_timeout(args.site_timeout)
    broker = Broker(fleet, Ledger())
    try:
        handler = {
            "negotiate": _negotiate,
            "satisfy": _satisfy,
            "select": _select,
            "dispatch": _dispatch,
            "list": _list_sites,
            "status": _status,
            "jobs": _jobs,
            "cancel": _cancel,
            "logs": _logs,
            "wait": _wait,
        }[args.command]
        return await handler(broker, args, command)
    finally:
        await broker.close()


async def _ask(broker: Broker, args: argparse.Namespace, command: list[str]) -> NegotiationResult:
    policy = Policy(algorithm=args.algorithm) if getattr(args, "algorithm", None) else None
    request = broker.prepare(args.text, command=command, policy=policy)
    if args.json:
        return await broker.negotiate(request)
    with console.status(f"Negotiating with {len(broker.fleet.sites)} sites..."):
        return await broker.negotiate(request)


def _show_unparsed(result: NegotiationResult) -> None:
    req = result.request.requirements
    if req is not None and req.unresolved:
        quoted = ", ".join(repr(p) for p in req.unresolved)
        err_console.print(
            f"[yellow]could not read {quoted}[/]: no site can be READY on it; rephrase it (a "
            "package with a version, a GPU model) or remove it",
            highlight=False,
        )
    ignored = [u for u in (req.unparsed if req is not None else ()) if u not in req.unresolved]
    if ignored:
        err_console.print(f"[dim]ignored: {', '.join(ignored)}[/]", highlight=False)
    if result.verdict is Verdict.NEEDS_INFORMATION:
        console.print("[magenta]NEEDS_INFORMATION[/]: please add " + " ".join(result.missing))


async def _satisfy(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    result = await _ask(broker, args, command)
    if args.json:
        emit_json(result)
    else:
        print_proposals(console, result.proposals, explain=args.explain)
        _show_unparsed(result)
    return EXIT_OK


async def _select(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    result = await _ask(broker, args, command)
    outcome = broker.select(result, args.algorithm)
    if args.json:
        emit_json({"negotiation": result, "selection": outcome})
    else:
        chosen = outcome.chosen.site if outcome.chosen else None
        print_proposals(console, result.proposals, chosen=chosen, explain=args.explain)
        _show_unparsed(result)
        _print_selection(outcome)
    return EXIT_OK if outcome.chosen is not None else EXIT_FAILED  # nothing selected: exit 1


def _print_selection(outcome: object) -> None:
    chosen = getattr(outcome, "chosen", None)
    algorithm = getattr(outcome, "algorithm", "?")
    for note in getattr(outcome, "notes", ()):
        err_console.print(f"[dim]{note}[/]", highlight=False)
    if chosen is None:
        console.print(f"[red]{algorithm}: no site selected[/]")
    else:
        console.print(f"[bold]{algorithm}[/] selects [bold green]{chosen.site}[/]")


async def _negotiate(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    result = await _ask(broker, args, command)
    outcome = broker.select(result, args.algorithm)
    receipt = None
    status = None
    held = False
    if outcome.chosen is not None and result.request.command:
        held = not _within_ceiling(args, outcome.chosen)
    if outcome.chosen is not None and result.request.command and not held:
        receipt = await broker.dispatch(result.request, outcome.chosen.site, outcome.chosen)
        if args.wait:
            status = await _wait_job(broker, receipt.job_id, 600.0, quiet=args.json)
    if args.json:
        emit_json(
            {"negotiation": result, "selection": outcome, "receipt": receipt, "status": status}
        )
    else:
        chosen = outcome.chosen.site if outcome.chosen else None
        print_proposals(console, result.proposals, chosen=chosen, explain=args.explain)
        _show_unparsed(result)
        _print_selection(outcome)
        if receipt is not None:
            console.print(f"dispatched as job [bold]{receipt.job_id}[/] ({receipt.native_id})")
        elif outcome.chosen is not None and not held:
            console.print("[dim]no command given: put it after '--' to dispatch[/]")
        if status is not None:
            console.print(f"job {receipt.job_id if receipt else ''}: {status.state.value}")
    if status is not None and status.state not in _DONE:
        return EXIT_FAILED
    if outcome.chosen is None or (result.request.command and receipt is None):
        return EXIT_FAILED  # nothing selected, or nothing dispatched: a script must see it
    return EXIT_OK


async def _dispatch(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    broker.fleet.get(args.site)  # unknown site: exit 2 before anything else
    request = broker.prepare(args.text, command=command)
    if not request.command:
        raise ConfigurationError(
            "nothing to run: put the command after '--' (resource-ask dispatch SITE "
            "'TEXT' -- echo hi) or in backticks in the text"
        )
    result = await broker.negotiate(request, only=[args.site])
    proposal = result.proposals[0]
    if not proposal.verdict.compatible and not args.force:
        err_console.print(
            f"[red]{args.site} says {proposal.verdict.value}: {proposal.reason}[/] "
            "(use --force to dispatch anyway)",
            highlight=False,
        )
        if args.json:
            emit_json({"negotiation": result, "receipt": None})
        return EXIT_FAILED
    if not _within_ceiling(args, proposal):
        if args.json:
            emit_json({"negotiation": result, "receipt": None})
        return EXIT_FAILED
    receipt = await broker.dispatch(
        result.request, args.site, proposal, force=args.force, key=args.key
    )
    status = await _wait_job(broker, receipt.job_id, 600.0, quiet=args.json) if args.wait else None
    if args.json:
        emit_json({"negotiation": result, "receipt": receipt, "status": status})
    else:
        console.print(
            f"dispatched to {args.site} as job [bold]{receipt.job_id}[/] ({receipt.native_id})"
        )
        if status is not None:
            console.print(f"job {receipt.job_id}: {status.state.value}")
    return EXIT_OK


def _list_select(args: argparse.Namespace) -> int:
    infos = list_selectors()
    if args.json:
        emit_json(infos)
        return EXIT_OK
    table = Table(title="Selection algorithms")
    for col in ("Name", "Logic", "Status", "Use case", "Summary"):
        table.add_column(col, overflow="fold")
    for info in infos:
        table.add_row(info.name, info.logic, info.status, info.use_case, info.summary)
    console.print(table)
    return EXIT_OK


async def _list_sites(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    descriptions = await asyncio.gather(*(s.describe() for s in broker.fleet.sites))
    if args.json:
        emit_json(list(descriptions))
        return EXIT_OK
    table = Table(title="Sites")
    for col in ("Site", "Kind", "Providers", "$/node-h CPU", "$/node-h GPU", "Description"):
        table.add_column(col, overflow="fold")
    for d in descriptions:
        found = ", ".join(r.provider for r in d.providers if r.available)
        cpu, gpu = d.prices.cpu_node_hour, d.prices.gpu_node_hour
        table.add_row(
            d.name,
            d.kind,
            found,
            "-" if cpu is None else f"{cpu:.2f}",
            "-" if gpu is None else f"{gpu:.2f}",
            d.description,
        )
    console.print(table)
    return EXIT_OK


async def _status(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    record, status = await broker.status(args.job)
    if args.json:
        emit_json({"job": record, "status": status, "events": broker.ledger.events(args.job)})
    else:
        console.print(jobs_table([record]))
        console.print(events_table(broker.ledger.events(args.job)))
        if status.message:
            console.print(f"[dim]{status.message}[/]")
    return EXIT_OK


async def _jobs(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    records = broker.ledger.jobs()
    if args.json:
        emit_json(records)
    else:
        console.print(jobs_table(records))
    return EXIT_OK


async def _cancel(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    status = await broker.cancel(args.job)
    if args.json:
        emit_json(status)
    else:
        console.print(f"job {args.job}: {status.state.value} {status.message}".rstrip())
    return EXIT_OK


async def _logs(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    if not 1 <= args.bytes <= MAX_OUTPUT_BYTES:
        raise ConfigurationError(f"--bytes must be between 1 and {MAX_OUTPUT_BYTES}")
    output = await broker.output(args.job, max_bytes=args.bytes)
    if args.json:
        emit_json(output)
        return EXIT_OK if output.available else EXIT_FAILED
    if not output.available:
        err_console.print(f"job {args.job}: no output: {output.note}", highlight=False)
        return EXIT_FAILED
    cut = " (last bytes only)" if output.truncated else ""
    for name, text in (("stdout", output.stdout), ("stderr", output.stderr)):
        if text or name == "stdout":
            # A rule names the stream; the text itself goes out verbatim (never re-wrapped), so
            # it can be copied or piped as the job wrote it.
            console.rule(f"{name} of {output.native_id} at {output.site}{cut}", align="left")
            console.file.flush()
            sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
            sys.stdout.flush()
    return EXIT_OK


async def _wait(broker: Broker, args: argparse.Namespace, command: list[str]) -> int:
    status = await _wait_job(broker, args.job, args.timeout, quiet=args.json)
    if args.json:
        emit_json(status)
    else:
        console.print(f"job {args.job}: {status.state.value}")
    return EXIT_OK if status.state in _DONE else EXIT_FAILED


async def _wait_job(broker: Broker, job_id: str, timeout_s: float, *, quiet: bool) -> JobStatus:
    if quiet:
        return await broker.wait(job_id, timeout_s=timeout_s)
    with console.status(f"Waiting for job {job_id}..."):
        return await broker.wait(job_id, timeout_s=timeout_s)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "main"]
