"""``secretary endpoint``: set up the secretary functions on a Globus Compute endpoint.

secretary endpoint install NAME --site SITE.yaml [--endpoint-dir DIR] [--dry-run]
secretary endpoint register NAME [--endpoint-dir DIR] [--dry-run]

``install`` writes the site configuration beside the endpoint's ``config.yaml`` and allows the
registered function ids there; ``register`` registers the functions with the Globus Compute
service (it needs a login) and allows them. Both are idempotent and print what they changed.
"""

from __future__ import annotations

import argparse

from rich.table import Table

from endpoint_plugins.install import Change
from secretary_executor.cli.common import EXIT_OK, console


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``endpoint install`` and ``endpoint register``."""
    group = subparsers.add_parser(
        "endpoint", help="install the secretary on a Globus Compute endpoint"
    )
    sub = group.add_subparsers(dest="endpoint_command", required=True, metavar="ACTION")
    p = sub.add_parser("install", help="write the site configuration and allow the functions")
    p.add_argument("name", help="the endpoint's name (its folder under --endpoint-dir)")
    p.add_argument("--site", required=True, metavar="SITE.yaml", help="the site configuration")
    _common(p)
    p.set_defaults(handler=_install)
    p = sub.add_parser("register", help="register the secretary functions with Globus Compute")
    p.add_argument("name", help="the endpoint's name (its folder under --endpoint-dir)")
    _common(p)
    p.set_defaults(handler=_register)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--endpoint-dir",
        metavar="DIR",
        help="where endpoints live (default $GLOBUS_COMPUTE_USER_DIR or ~/.globus_compute)",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would change, change nothing")
    p.add_argument(
        "--restrict",
        action="store_true",
        help="on an open endpoint, add allowed_functions: from then on it runs ONLY the listed "
        "functions and refuses every other task (a list that exists is always extended)",
    )


def _install(args: argparse.Namespace) -> int:
    from endpoint_plugins.install import install as do_install

    changes = do_install(
        args.name,
        args.site,
        endpoint_dir=args.endpoint_dir,
        dry_run=args.dry_run,
        restrict=args.restrict,
    )
    _show(f"endpoint {args.name}: install", changes, args.dry_run)
    return EXIT_OK


def _register(args: argparse.Namespace) -> int:
    from endpoint_plugins.install import register as do_register

    changes = do_register(
        args.name, endpoint_dir=args.endpoint_dir, dry_run=args.dry_run, restrict=args.restrict
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
