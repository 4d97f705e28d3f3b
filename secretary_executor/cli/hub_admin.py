"""``secretary hub``: administer a hub's workers without restarting it.

secretary hub add-worker NAME --config HUB.yaml [--out FILE]   # a join token for NAME only
secretary hub revoke NAME --config HUB.yaml                    # NAME may never join again

Both edit the hub's ``join_token_file`` (see :mod:`secretary_executor.hub.join_tokens`); a
running hub reads it again within one heartbeat period.
"""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

from secretary_executor.cli.common import EXIT_OK, console, err_console
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import load_hub_config
from secretary_executor.hub.join_tokens import add_worker, revoke_worker


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    hub = subparsers.add_parser("hub", help="administer a hub's workers (join tokens, revocation)")
    sub = hub.add_subparsers(dest="hub_command", required=True, metavar="ACTION")
    p = sub.add_parser("add-worker", help="issue a join token that admits only worker NAME")
    p.add_argument("name", help="the worker's name")
    p.add_argument("--config", required=True, metavar="HUB.yaml", help="the hub configuration")
    p.add_argument("--out", metavar="FILE", help="write the token here (0600) instead of stdout")
    p.set_defaults(handler=_add)
    p = sub.add_parser("revoke", help="take worker NAME out: drop it now and refuse it from now on")
    p.add_argument("name", help="the worker's name")
    p.add_argument("--config", required=True, metavar="HUB.yaml", help="the hub configuration")
    p.set_defaults(handler=_revoke)


def _join_file(config_path: str) -> str:
    config = load_hub_config(config_path)
    if config.join_token_file is None:
        raise ConfigurationError(
            f"{config_path} has no join_token_file: set one (e.g. join.txt) so the hub accepts "
            "workers"
        )
    return config.join_token_file


def _add(args: argparse.Namespace) -> int:
    path = _join_file(args.config)
    token = add_worker(path, args.name)
    if args.out:
        fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IRUSR | stat.S_IWUSR)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(token + "\n")
        err_console.print(
            f"join token for worker [bold]{args.name}[/] written to {Path(args.out).resolve()}; "
            f"start it with: secretary serve worker --name {args.name} --join-token-file "
            f"{args.out} ...",
            highlight=False,
        )
    else:
        console.print(token, highlight=False, soft_wrap=True)
        err_console.print(
            f"(the join token for worker {args.name}; it is also in {path}, mode 0600)",
            highlight=False,
        )
    return EXIT_OK


def _revoke(args: argparse.Namespace) -> int:
    path = _join_file(args.config)
    dropped = revoke_worker(path, args.name)
    err_console.print(
        f"worker [bold]{args.name}[/] revoked ({dropped} token(s) of its own removed); a running "
        "hub drops it and its sites within one heartbeat period",
        highlight=False,
    )
    return EXIT_OK
