"""``secretary dashboard``: the read-only web dashboard over a ledger file, with no hub.

secretary dashboard --ledger PATH [--port P] [--token-file FILE]

It listens on loopback only. The API still needs a bearer token (another user of this machine
can reach loopback too): the first line of ``--token-file``, or a fresh random token printed
at start, which the page's login form asks for once per tab.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from secretary_executor.cli.common import EXIT_OK, err_console
from secretary_executor.errors import ConfigurationError

HOST = "127.0.0.1"
DEFAULT_PORT = 8780


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``dashboard``."""
    p = subparsers.add_parser(
        "dashboard", help="serve the read-only web dashboard for a ledger file (loopback only)"
    )
    p.add_argument("--ledger", required=True, metavar="PATH", help="the ledger (SQLite) to show")
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port on {HOST} ({DEFAULT_PORT})"
    )
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help="the token to log in with (first line); default: a new one, printed at start",
    )
    p.set_defaults(handler=_dashboard)


def _token(path: str | None) -> tuple[str, bool]:
    """(token, generated): from the file's first line, or a new random one."""
    if path is None:
        return secrets.token_urlsafe(24), True
    from endpoint_plugins.errors import SiteConfigError
    from endpoint_plugins.mcp_auth import read_token_file

    try:
        return read_token_file(path, "--token-file")[0], False
    except SiteConfigError as exc:
        raise ConfigurationError(exc.message) from None


def _dashboard(args: argparse.Namespace) -> int:
    import hmac

    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from secretary_executor.dashboard import LedgerSource, dashboard_app
    from secretary_executor.dashboard.hub import LOOPBACK_HOSTS
    from secretary_executor.ledger import Ledger

    path = Path(args.ledger)
    if not path.is_file():
        raise ConfigurationError(
            f"no ledger at {str(path)!r}; give the file a hub or resource-ask writes "
            "(by default $SECRETARY_HOME/ledger.sqlite3)"
        )
    token, generated = _token(args.token_file)

    async def authorize(presented: str) -> bool:
        return hmac.compare_digest(presented.encode(), token.encode())

    source = LedgerSource(path.name, Ledger(path))
    app = dashboard_app(source, authorize=authorize, allowed_hosts=LOOPBACK_HOSTS)
    err_console.print(f"dashboard: http://{HOST}:{args.port}/dashboard", highlight=False)
    if generated:
        err_console.print(f"log in with this token: {token}", highlight=False)
    root = Starlette(routes=[Mount("/dashboard", app=app)])
    uvicorn.run(root, host=HOST, port=args.port, log_level="warning")
    return EXIT_OK
