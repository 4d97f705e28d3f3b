"""``secretary``: schemas, the provider catalogue, and what this machine has.

secretary schema [MODEL]          JSON Schemas of the wire models
secretary providers [--json]      the provider catalogue, with an Active column here
secretary detect [CATEGORY]       facts the active providers found on this machine
secretary tools [PROVIDER]        the tool manifests an agent sees
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from pydantic import BaseModel
from rich.table import Table

from endpoint_plugins.secretary import SiteDescription
from providers.base import ProbeReport, Provider
from providers.registry import discover
from providers.state import SiteState
from providers.tools import ToolManifest
from providers.wire import DispatchReceipt, JobRequest, JobStatus, Proposal, Requirements
from providers.wire.common import SCHEMA_VERSION, Category
from secretary_executor.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    add_version,
    console,
    emit_json,
    err_console,
    run_guarded,
)

SCHEMAS: dict[str, type[BaseModel]] = {
    "JobRequest": JobRequest,
    "Requirements": Requirements,
    "Proposal": Proposal,
    "DispatchReceipt": DispatchReceipt,
    "JobStatus": JobStatus,
    "SiteState": SiteState,
    "SiteDescription": SiteDescription,
    "ToolManifest": ToolManifest,
}


EXTENSIONS = (
    "secretary_executor.cli.sim",
    "secretary_executor.cli.endpoint",
    "secretary_executor.cli.serve",
    "secretary_executor.cli.hub_admin",
    "secretary_executor.cli.dashboard",
)
"""Modules that add command groups. Each defines ``register(subparsers)``, which adds its
sub-parsers and sets ``handler`` (a function of the parsed arguments returning the exit
status) as a default on each of them."""


def _extensions() -> list[Callable[[argparse._SubParsersAction], None]]:  # type: ignore[type-arg]
    found = []
    for name in EXTENSIONS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # that command group is not part of this installation
            raise
        found.append(module.register)
    return found


def _completion(args: argparse.Namespace) -> int:
    """Completion generated from the same parsers the commands use, so it never goes stale."""
    import shtab

    from secretary_executor.cli import resource_ask

    parser = _parser() if args.prog == "secretary" else resource_ask._parser()
    print(shtab.complete(parser, shell=args.shell))
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="secretary", description=__doc__.split("\n")[0])
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in _extensions():
        register(sub)
    p = sub.add_parser(
        "completion",
        help="print a shell completion script (e.g. secretary completion bash > "
        "/etc/bash_completion.d/secretary)",
    )
    p.add_argument("shell", choices=["bash", "zsh", "tcsh"], help="the shell to complete in")
    p.add_argument(
        "--for",
        dest="prog",
        choices=["secretary", "resource-ask"],
        default="secretary",
        help="which command to complete (default secretary)",
    )
    p.set_defaults(handler=_completion)
    p = sub.add_parser("schema", help="print the JSON Schemas of the wire models")
    p.add_argument("model", nargs="?", help=f"one of: {', '.join(SCHEMAS)}")
    p = sub.add_parser("providers", help="the provider catalogue, with an Active column")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p = sub.add_parser("detect", help="facts found on this machine")
    p.add_argument(
        "category",
        nargs="?",
        choices=[c.value for c in Category],
        help="only this category of provider",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p = sub.add_parser("tools", help="tool manifests of the providers")
    p.add_argument("provider", nargs="?", help="only this provider's tools")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``secretary``."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    builtin = {"schema": _schema, "providers": _providers, "detect": _detect, "tools": _tools}
    handler = getattr(args, "handler", None) or builtin[args.command]
    return run_guarded(lambda: handler(args))


def _schema(args: argparse.Namespace) -> int:
    if args.model and args.model not in SCHEMAS:
        err_console.print(
            f"[red]error:[/] unknown model {args.model!r}; choose one of: {', '.join(SCHEMAS)}"
        )
        return EXIT_USAGE
    names = [args.model] if args.model else list(SCHEMAS)
    out = {n: SCHEMAS[n].model_json_schema(mode="serialization") for n in names}
    emit_json({"schema_version": SCHEMA_VERSION, "models": out})
    return EXIT_OK


def _instances() -> list[Provider]:
    catalogue = discover()
    for name, why in catalogue.errors.items():
        err_console.print(f"[yellow]warning:[/] provider entry point {name}: {why}")
    return [cls() for _, cls in sorted(catalogue.classes.items())]


def _providers(args: argparse.Namespace) -> int:
    rows = []
    for provider in _instances():
        report = provider.probe()
        rows.append((provider, report))
    if args.json:
        emit_json(
            [
                {
                    **type(p).info().model_dump(mode="json", exclude={"tools"}),
                    "active": r.available,
                    "error": r.error,
                }
                for p, r in rows
            ]
        )
        return EXIT_OK
    table = Table(title="Providers")
    for col in ("Category", "Name", "Active", "Detection", "Description"):
        table.add_column(col, overflow="fold")
    for p, r in sorted(rows, key=lambda x: (x[0].category.value, x[0].name)):
        active = "[green]yes[/]" if r.available else f"[dim]no[/] {r.error or ''}".strip()
        table.add_row(p.category.value, p.name, active, p.detection, p.description)
    console.print(table)
    return EXIT_OK


def _detect(args: argparse.Namespace) -> int:
    reports: list[ProbeReport] = []
    for provider in _instances():
        if args.category and provider.category.value != args.category:
            continue
        report = provider.probe()
        if report.available:
            reports.append(report)
    if args.json:
        emit_json(reports)
        return EXIT_OK
    for report in reports:
        table = Table(
            title=f"{report.category.value}: {report.provider} ({report.elapsed_s:.3f} s)"
        )
        table.add_column("Fact")
        table.add_column("Value", overflow="fold")
        for key, value in (report.facts or {}).items():
            table.add_row(key, _short(value))
        console.print(table)
    return EXIT_OK


def _short(value: object, limit: int = 300) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _tools(args: argparse.Namespace) -> int:
    manifests: list[ToolManifest] = []
    known = []
    for provider in _instances():
        known.append(provider.name)
        if args.provider and provider.name != args.provider:
            continue
        manifests.extend(provider.manifest())
    if args.provider and args.provider not in known:
        err_console.print(
            f"[red]error:[/] unknown provider {args.provider!r}; known: {', '.join(known)}"
        )
        return EXIT_USAGE
    if args.json:
        emit_json(manifests)
        return EXIT_OK
    table = Table(title="Tools")
    for col in ("Tool", "Class", "Parameters", "Description"):
        table.add_column(col, overflow="fold")
    for m in manifests:
        params = ", ".join(m.parameters.get("properties", {}))
        table.add_row(m.name, m.kind.value, params, m.description.split("\n")[0])
    console.print(table)
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
