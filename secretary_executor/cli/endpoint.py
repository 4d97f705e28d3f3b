"""``secretary endpoint``: set up the secretary functions on a Globus Compute endpoint.

secretary endpoint [-c DIR] install NAME --site SITE.yaml [--dry-run] [--restrict]
                   [--worker-package SPEC | --no-worker-init] [--user-options FILE]
secretary endpoint [-c DIR] register NAME [--dry-run] [--restrict] [--user-options FILE]

``-c/--config-dir`` names the folder endpoints live in, as ``globus-compute-endpoint -c DIR``
does (default ``$GLOBUS_COMPUTE_USER_DIR`` or ``~/.globus_compute``); it is accepted after the
action too, and ``--endpoint-dir`` is its older spelling. ``install`` writes the site
configuration beside the endpoint's ``config.yaml``, sets up a template endpoint's worker
environment and allows the registered function ids; ``register`` registers the functions with
the Globus Compute service (it needs a login) and allows them. Both are idempotent and print
what they changed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.table import Table

from endpoint_plugins.install import Change, EndpointInstallError
from secretary_executor.cli.common import EXIT_OK, console

_CONFIG_DIR_HELP = (
    "where endpoints live, as for 'globus-compute-endpoint -c DIR' "
    "(default $GLOBUS_COMPUTE_USER_DIR or ~/.globus_compute)"
)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``endpoint install`` and ``endpoint register``."""
    group = subparsers.add_parser(
        "endpoint", help="install the secretary on a Globus Compute endpoint"
    )
    group.add_argument(
        "-c", "--config-dir", dest="config_dir", metavar="DIR", help=_CONFIG_DIR_HELP
    )
    sub = group.add_subparsers(dest="endpoint_command", required=True, metavar="ACTION")
    p = sub.add_parser("install", help="write the site configuration and allow the functions")
    p.add_argument("name", help="the endpoint's name (its folder under the config dir)")
    p.add_argument("--site", required=True, metavar="SITE.yaml", help="the site configuration")
    worker = p.add_mutually_exclusive_group()
    worker.add_argument(
        "--worker-package",
        metavar="SPEC",
        default="",
        help="template endpoints: what worker_init installs when the workers cannot import "
        "the secretary functions (a pip requirement or wheel path; default this package at "
        "this version)",
    )
    worker.add_argument(
        "--no-worker-init",
        dest="worker_package",
        action="store_const",
        const=None,
        help="template endpoints: leave worker_init alone (the worker environment already "
        "has secretary-executor)",
    )
    _common(p)
    p.set_defaults(handler=_install)
    p = sub.add_parser("register", help="register the secretary functions with Globus Compute")
    p.add_argument("name", help="the endpoint's name (its folder under the config dir)")
    _common(p)
    p.set_defaults(handler=_register)


def _common(p: argparse.ArgumentParser) -> None:
    # SUPPRESS: given only before the action, the group's value must survive the subparser.
    p.add_argument(
        "-c",
        "--config-dir",
        "--endpoint-dir",
        dest="config_dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help=_CONFIG_DIR_HELP,
    )
    p.add_argument("--dry-run", action="store_true", help="show what would change, change nothing")
    p.add_argument(
        "--restrict",
        action="store_true",
        help="on an open endpoint, add allowed_functions: from then on it runs ONLY the listed "
        "functions and refuses every other task (a list that exists is always extended)",
    )
    p.add_argument(
        "--user-options",
        metavar="FILE",
        help="template endpoints: sample user options (JSON) to render the edited template "
        "with, when it needs some",
    )


def _user_options(args: argparse.Namespace) -> dict[str, Any] | None:
    if not args.user_options:
        return None
    try:
        doc = json.loads(Path(args.user_options).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise EndpointInstallError(f"--user-options {args.user_options}: {exc}") from None
    if not isinstance(doc, dict):
        raise EndpointInstallError(f"--user-options {args.user_options}: expected a JSON object")
    return doc


def _install(args: argparse.Namespace) -> int:
    from endpoint_plugins.install import install as do_install

    changes = do_install(
        args.name,
        args.site,
        endpoint_dir=args.config_dir,
        dry_run=args.dry_run,
        restrict=args.restrict,
        worker_package=args.worker_package,
        user_options=_user_options(args),
    )
    _show(f"endpoint {args.name}: install", changes, args.dry_run)
    return EXIT_OK


def _register(args: argparse.Namespace) -> int:
    from endpoint_plugins.install import register as do_register

    changes = do_register(
        args.name,
        endpoint_dir=args.config_dir,
        dry_run=args.dry_run,
        restrict=args.restrict,
        user_options=_user_options(args),
    )
    _show(f"endpoint {args.name}: register", changes, args.dry_run)
    return EXIT_OK


def _show(title: str, changes: list[Change], dry_run: bool) -> None:
    table = Table(title=title + (" (dry run: nothing written)" if dry_run else ""))
    for col in ("File", "Action", "Detail"):
        table.add_column(col, overflow="fold")
    for change in changes:
        style = "green" if change.action in ("created", "updated") else "dim"
        table.add_row(change.path, f"[{style}]{change.action}[/]", change.detail)
    console.print(table)
    if any(c.action == "created" and "allowed_functions" in c.detail for c in changes) or any(
        c.action in ("updated", "would be updated") and c.detail.startswith("allowed_functions")
        for c in changes
    ):
        console.print(
            "[yellow]note:[/] this endpoint now runs only the functions in allowed_functions; "
            "restart it for the list to take effect",
            highlight=False,
        )
    if any(
        c.action in ("updated", "would be updated") and "worker_init" in c.detail for c in changes
    ):
        console.print(
            "[yellow]note:[/] user endpoints started from now on use the new worker_init; "
            "running ones keep the old one until they stop",
            highlight=False,
        )
