"""``secretary serve``: run a worker (a site's Secretaries over MCP) or a hub.

secretary serve worker --site SITE.yaml [--site ...] [--site-dir DIR] --join HUB_URL
                       --join-token-file FILE [--name NAME] [--host H] [--port P]
secretary serve hub --config HUB.yaml [--transport http|stdio] [--role hub|dual]

A ``--site`` file is either a site configuration (``name:``, ``kind:``, providers, prices) or a
site state file (``schema_version``, ``site``, ``providers``), which serves a simulated site.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from rich.logging import RichHandler

from endpoint_plugins.config import SiteConfig, load_site_config
from endpoint_plugins.errors import SiteConfigError
from endpoint_plugins.secretary import Secretary
from providers.errors import StateFileError
from providers.files import load_yaml, read_text_file
from providers.state import load_state
from secretary_executor.cli.common import EXIT_OK, EXIT_USAGE, err_console, positive_seconds
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import MAX_SITE_TIMEOUT_S, readable_file

if TYPE_CHECKING:  # the MCP stack loads only when a server starts (keeps the CLI quick)
    from endpoint_plugins.mcp_membership import Membership
    from endpoint_plugins.mcp_worker import WorkerServer

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``serve worker`` and ``serve hub``."""
    serve = subparsers.add_parser("serve", help="run a worker or a hub over MCP")
    sub = serve.add_subparsers(dest="role_command", required=True, metavar="ROLE")
    w = sub.add_parser("worker", help="serve site Secretaries to a hub")
    w.add_argument("--site", action="append", default=[], help="site config or state file")
    w.add_argument("--site-dir", help="serve every *.yaml state/config file in this folder")
    w.add_argument("--join", required=True, metavar="HUB_URL", help="the hub's MCP URL")
    w.add_argument(
        "--join-token-file", required=True, metavar="FILE", help="the hub's join token (0600)"
    )
    w.add_argument("--name", help="this worker's name at the hub (default: host-port)")
    w.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    w.add_argument("--port", type=int, default=8701, help="port to listen on (8701)")
    w.add_argument(
        "--advertise-url", help="URL the hub calls back (default http(s)://HOST:PORT/mcp)"
    )
    _tls_arguments(w)
    w.add_argument("-v", "--verbose", action="store_true", help="log at INFO level")
    w.set_defaults(handler=_worker)
    h = sub.add_parser("hub", help="serve the hub (MCP facade for agents, registry for workers)")
    h.add_argument("--config", required=True, metavar="HUB.yaml", help="the hub configuration")
    h.add_argument(
        "--transport",
        choices=("http", "stdio"),
        default="http",
        help="http: serve streamable HTTP; stdio: one local agent on stdin/stdout",
    )
    h.add_argument(
        "--role",
        choices=("hub", "dual"),
        default="hub",
        help="dual: also register as a worker of the config's parent hub",
    )
    h.add_argument("--host", help="override the config's host")
    h.add_argument("--port", type=int, help="override the config's port")
    h.add_argument(
        "--site-timeout",
        type=positive_seconds,
        metavar="S",
        help="override the config's site_timeout_s: seconds each site may take (at most 3600)",
    )
    _tls_arguments(h)
    h.add_argument("-v", "--verbose", action="store_true", help="log at INFO level")
    h.set_defaults(handler=_hub)


def _tls_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tls-cert", metavar="PEM", help="serve https with this certificate (chain)")
    p.add_argument("--tls-key", metavar="PEM", help="the certificate's private key")
    p.add_argument(
        "--allow-insecure-http",
        action="store_true",
        help="let bearer tokens travel over plain http to other hosts (a trusted network only)",
    )


def _tls_files(args: argparse.Namespace) -> tuple[str, str] | None:
    """The (certificate, key) pair to serve https with, checked readable; None for http."""
    if args.tls_cert is None and args.tls_key is None:
        return None
    if args.tls_cert is None or args.tls_key is None:
        raise ConfigurationError("give both --tls-cert and --tls-key, or neither")
    return readable_file(args.tls_cert, "--tls-cert"), readable_file(args.tls_key, "--tls-key")


def _logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(message)s",
        handlers=[RichHandler(console=err_console, show_path=False)],
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpx2").setLevel(logging.WARNING)


def secretary_from_file(path: Path) -> Secretary:
    """A Secretary for a site configuration file or a site state file.

    Raises:
        SiteConfigError: unreadable or invalid file (the message names it and the field).
    """
    try:
        data = load_yaml(read_text_file(path))
    except OSError as exc:
        raise SiteConfigError(f"cannot read site file {str(path)!r}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise SiteConfigError(f"cannot read site file {str(path)!r}: {exc}") from None
    if isinstance(data, dict) and "site" in data and "providers" in data:
        try:
            state = load_state(path)
        except StateFileError as exc:
            raise SiteConfigError(exc.message) from None
        return Secretary(SiteConfig(name=state.site.name, state_file=str(path.resolve())))
    return Secretary(load_site_config(path))


def _settle_unfinished(secretaries: list[Secretary]) -> None:
    """Settle each site's dispatch keys left mid-submit by an earlier worker process."""
    for secretary in secretaries:
        try:
            secretary.settle_unfinished_dispatches()
        except Exception as exc:  # noqa: BLE001 - a site's key file must not stop the worker
            log.warning("site %s: unfinished dispatches not settled: %s", secretary.name, exc)


def _worker(args: argparse.Namespace) -> int:
    from endpoint_plugins.mcp_auth import read_token_file
    from endpoint_plugins.mcp_membership import Membership
    from endpoint_plugins.mcp_worker import WorkerServer

    _logging(args.verbose)
    files = [Path(p) for p in args.site]
    if args.site_dir:
        files += sorted(Path(args.site_dir).glob("*.yaml"))
    if not files:
        err_console.print("[red]error:[/] give at least one --site FILE or --site-dir DIR")
        return EXIT_USAGE
    secretaries: dict[str, Secretary] = {}
    for f in files:
        sec = secretary_from_file(f)
        if sec.name in secretaries:
            raise ConfigurationError(f"two site files define site {sec.name!r}; rename one")
        secretaries[sec.name] = sec
    # The first word of the first token line: a copy of a hub's "TOKEN worker=NAME" line works.
    join_token = read_token_file(args.join_token_file, "join token file")[0].split()[0]
    tls = _tls_files(args)
    url = args.advertise_url or f"{'https' if tls else 'http'}://{args.host}:{args.port}/mcp"
    name = args.name or f"{socket.gethostname()}-{args.port}".replace("_", "-")[:64]
    # Dispatches a killed predecessor left mid-submit are settled in the background: a slow
    # workload manager must not hold up the worker's start.
    threading.Thread(
        target=_settle_unfinished, args=(list(secretaries.values()),), daemon=True
    ).start()
    worker = WorkerServer(secretaries, url=url)
    membership = Membership(
        hub_url=args.join,
        join_token=join_token,
        worker=name,
        url=url,
        sites=list(secretaries),
        on_credential=worker.accept_hub,
        allow_insecure_http=args.allow_insecure_http,
    )
    asyncio.run(_serve_worker(worker, membership, args.host, args.port, tls))
    return EXIT_OK


async def _serve_worker(
    worker: WorkerServer,
    membership: Membership,
    host: str,
    port: int,
    tls: tuple[str, str] | None = None,
) -> None:
    import uvicorn

    from endpoint_plugins.mcp_client import SERVER_KEEPALIVE_S

    app = worker.mcp.streamable_http_app(host=host)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            timeout_keep_alive=SERVER_KEEPALIVE_S,
            ssl_certfile=tls[0] if tls else None,
            ssl_keyfile=tls[1] if tls else None,
        )
    )
    stop = asyncio.Event()

    async def join_when_listening() -> None:
        while not server.started and not stop.is_set():
            await asyncio.sleep(0.05)
        await membership.run(stop)

    task = asyncio.create_task(join_when_listening())
    try:
        await server.serve()
    finally:
        stop.set()
        await asyncio.gather(task, return_exceptions=True)


def _hub(args: argparse.Namespace) -> int:
    from secretary_executor.hub.config import load_hub_config
    from secretary_executor.hub.server import Hub

    _logging(args.verbose)
    config = load_hub_config(args.config)
    tls = _tls_files(args)
    if args.site_timeout is not None and args.site_timeout > MAX_SITE_TIMEOUT_S:
        raise ConfigurationError(
            f"--site-timeout must be at most {MAX_SITE_TIMEOUT_S:g} s (got {args.site_timeout:g})"
        )
    pairs = [("host", args.host), ("port", args.port), ("site_timeout_s", args.site_timeout)]
    if tls:
        pairs += [("tls_cert", tls[0]), ("tls_key", tls[1])]
    if args.allow_insecure_http:
        pairs.append(("allow_insecure_http", True))
    overrides = {k: v for k, v in pairs if v is not None}
    if overrides:
        config = config.model_copy(update=overrides)
    if args.role == "dual" and config.parent is None:
        raise ConfigurationError(
            "--role dual needs 'parent: {url: ..., join_token_file: ...}' in the hub config"
        )
    if args.role == "hub" and config.parent is not None:
        config = config.model_copy(update={"parent": None})
    hub = Hub(config, transport=args.transport)
    if args.transport == "stdio":
        asyncio.run(hub.serve_stdio())
    else:
        err_console.print(f"hub {config.name!r} serving {config.url}", highlight=False)
        dashboard = config.url.removesuffix("/mcp") + "/dashboard"
        err_console.print(f"dashboard (read-only, client token): {dashboard}", highlight=False)
        asyncio.run(hub.serve_http())
    return EXIT_OK
