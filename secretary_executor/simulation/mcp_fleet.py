"""Sites served by real ``secretary serve worker`` processes on loopback, reached over MCP.

``secretary sim negotiate --transport mcp`` and ``bench/fanout.py`` both need the real MCP path:
worker processes hosting many state-file sites, worker tools behind hub-issued credentials,
:class:`~secretary_executor.sites.mcp.McpTransport` with one session per worker. A worker only
accepts calls carrying the credential a hub issued when it registered, so a hub is needed;
it runs in this process (:class:`~secretary_executor.hub.server.Hub`, serving HTTP on loopback)
and does for the workers exactly what a hub process would: ``register_worker``, heartbeats,
sweeping. Callers negotiate through :attr:`LoopbackFederation.fleet`, the hub's own
:class:`~secretary_executor.hub.fanout.FederatedFleet` of ``McpTransport`` sites, so the
hub-to-worker leg is the code a hub process runs, without a second MCP hop in front of it.

Every process is started from an argument list (no shell) with its output in a log file, is
waited for by polling with a deadline, and is stopped (SIGTERM, then SIGKILL) whenever the
context exits: normally, on an error, on Ctrl-C, or when this process gets SIGTERM or SIGHUP
(which would otherwise end it at once and leave the workers running).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import uvicorn

import secretary_executor
from endpoint_plugins.mcp_client import SERVER_KEEPALIVE_S, McpCallError
from secretary_executor.errors import SecretaryError
from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.fanout import FanOut, FederatedFleet
from secretary_executor.hub.server import Hub
from secretary_executor.simulation.ports import HOST, PortPool

ROOT = Path(secretary_executor.__file__).resolve().parents[1]
"""The source tree, put on the workers' PYTHONPATH so they run this very code."""
POLL_S = 0.05
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class FederationError(SecretaryError):
    """The loopback federation could not start: a process exited or missed its deadline."""


def write_shares(documents: Sequence[tuple[str, str]], folder: Path, processes: int) -> list[Path]:
    """Write ``(site name, state YAML)`` pairs as ``NAME.yaml``, spread over ``processes`` folders.

    Sites go round-robin to ``folder/w0``, ``folder/w1``, ...; each folder is what one worker
    serves with ``--site-dir``. YAML files left in those folders by an earlier run are removed
    first, because ``--site-dir`` serves every ``*.yaml`` it finds.

    Returns:
        The non-empty folders, one per worker process (fewer than ``processes`` when there are
        fewer sites).
    """
    count = max(1, min(processes, len(documents)))
    dirs = [folder / f"w{i}" for i in range(count)]
    for d in dirs:
        d.mkdir(parents=True, exist_ok=True)
        for stale in d.glob("*.yaml"):
            stale.unlink()
    for i, (name, text) in enumerate(documents):
        (dirs[i % count] / f"{name}.yaml").write_text(text, encoding="utf-8")
    return dirs


class _HubServer(uvicorn.Server):
    """uvicorn without its own signal handlers.

    uvicorn would swallow Ctrl-C to stop only the hub, leaving the caller's loop running against
    dead workers; without them, ``asyncio.run`` cancels the whole run and the federation's
    ``finally`` stops every process.
    """

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@dataclass
class WorkerProcess:
    """One ``secretary serve worker`` process and where its output goes."""

    name: str
    site_dir: Path
    port: int
    log_path: Path
    proc: subprocess.Popen[bytes]
    log: IO[bytes]

    def tail(self, lines: int = 1) -> str:
        """The last non-empty lines of its log (for a one-line error)."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        kept = [line.strip() for line in text.splitlines() if line.strip()]
        return " | ".join(kept[-lines:])


class LoopbackFederation:
    """An in-process hub plus worker processes serving the sites in ``site_dirs``.

    Use as ``async with LoopbackFederation(dirs, workdir=...) as fed:`` and negotiate with
    ``fed.fleet.negotiate(...)``; leaving the block stops everything.

    Args:
        site_dirs: one folder of site state/config files per worker process.
        workdir: where the worker logs go (``NAME.log``).
        fanout: the hub's fan-out policy (default: concurrent, 32 at once).
        site_timeout_s: deadline of one call to one site; a slower site is UNREACHABLE.
        heartbeat_s: the workers' heartbeat period; a worker silent for three periods is DOWN.
            Generous by default, since the caller's own work shares this event loop.
        start_timeout_s: how long the hub and every worker may take to be up and registered.
        stop_timeout_s: how long a worker may take to exit after SIGTERM before SIGKILL.
        prefix: worker names are ``PREFIX-0``, ``PREFIX-1``, ...
        verbose: workers log at INFO (``--verbose``): one line per negotiate call they answer.
        ports: the loopback ports the hub and the workers may listen on (see
            :mod:`.ports`); None lets the kernel pick.
    """

    def __init__(
        self,
        site_dirs: Sequence[Path],
        *,
        workdir: Path,
        fanout: FanOut | None = None,
        site_timeout_s: float = 60.0,
        heartbeat_s: float = 10.0,
        start_timeout_s: float = 120.0,
        stop_timeout_s: float = 15.0,
        prefix: str = "sim",
        verbose: bool = False,
        ports: range | None = None,
    ) -> None:
        if not site_dirs:
            raise FederationError("a loopback federation needs at least one folder of sites")
        self.site_dirs = [Path(d) for d in site_dirs]
        self.workdir = Path(workdir)
        self.fanout = fanout or FanOut()
        self.site_timeout_s = site_timeout_s
        self.heartbeat_s = heartbeat_s
        self.start_timeout_s = start_timeout_s
        self.stop_timeout_s = stop_timeout_s
        self.prefix = prefix
        self.verbose = verbose
        self.ports = PortPool(ports)
        self.hub: Hub | None = None
        self.workers: list[WorkerProcess] = []
        self._server: _HubServer | None = None
        self._serving: asyncio.Task[None] | None = None
        self._secrets: tempfile.TemporaryDirectory[str] | None = None
        self._signalled: int | None = None
        self._previous: dict[int, Any] = {}

    def __repr__(self) -> str:
        return (
            f"LoopbackFederation(workers={len(self.site_dirs)}, hub="
            f"{self.hub.config.url if self.hub else None!r})"
        )

    @property
    def fleet(self) -> FederatedFleet:
        """The hub's fleet: one ``McpTransport`` site per served site."""
        if self.hub is None:
            raise FederationError("the loopback federation is not running; use 'async with'")
        return self.hub.fleet

    async def __aenter__(self) -> LoopbackFederation:
        self._catch_stop_signals()
        try:
            await self.start()
        except BaseException as exc:
            await self.stop()
            self._raise_if_signalled(exc)
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()
        self._raise_if_signalled(exc)

    # -- signals ----------------------------------------------------------------------------

    def _catch_stop_signals(self) -> None:
        """Turn SIGTERM/SIGHUP into a cancellation of the task that owns the federation."""
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        if task is None:
            return

        def stop_signalled(signum: int) -> None:
            self._signalled = signum
            task.cancel()

        for signum in STOP_SIGNALS:
            try:
                previous = signal.getsignal(signum)
                loop.add_signal_handler(signum, stop_signalled, signum)
            except (ValueError, RuntimeError, NotImplementedError):
                continue  # not the main thread, or no signal support: nothing to restore
            self._previous[signum] = previous

    def _restore_signals(self) -> None:
        loop = asyncio.get_running_loop()
        for signum, previous in self._previous.items():
            loop.remove_signal_handler(signum)
            if previous is not None:
                signal.signal(signum, previous)
        self._previous = {}

    def _raise_if_signalled(self, exc: BaseException | None) -> None:
        """After a stop signal, end with a one-line error instead of a bare cancellation."""
        signum, self._signalled = self._signalled, None
        if signum is not None and isinstance(exc, asyncio.CancelledError):
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            raise FederationError(
                f"stopped by {signal.Signals(signum).name}; every worker process was stopped"
            ) from None

    # -- starting ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Serve the hub, start the workers, and return once every worker has registered.

        Raises:
            FederationError: the hub did not listen, or a worker exited or did not register,
                within ``start_timeout_s`` (the message names the worker and its log).
        """
        self.workdir.mkdir(parents=True, exist_ok=True)
        if not logging.getLogger().handlers:
            # Without a handler, the MCP server installs one at INFO and prints every request.
            logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        # Tokens live in a private temporary folder, not beside the results.
        self._secrets = tempfile.TemporaryDirectory(prefix="secretary-federation-")
        folder = Path(self._secrets.name)
        tokens, join = folder / "tokens.txt", folder / "join.txt"
        tokens.write_text(secrets.token_urlsafe(32), encoding="utf-8")
        join.write_text(secrets.token_urlsafe(32), encoding="utf-8")
        config = HubConfig(
            name=f"{self.prefix}-hub",
            host=HOST,
            port=self.ports.take(),
            token_file=str(tokens),
            join_token_file=str(join),
            heartbeat_s=self.heartbeat_s,
            site_timeout_s=self.site_timeout_s,
            fanout=self.fanout,
            ledger=":memory:",
        )
        self.hub = Hub(config)
        app = self.hub.mcp.streamable_http_app(host=HOST)
        self._server = _HubServer(
            uvicorn.Config(
                app,
                host=HOST,
                port=config.port,
                log_level="warning",
                timeout_graceful_shutdown=5,
                timeout_keep_alive=SERVER_KEEPALIVE_S,
            )
        )
        self._serving = asyncio.create_task(self._serve_hub(self._server))
        deadline = time.monotonic() + self.start_timeout_s
        server = self._server
        await self._until(lambda: server.started, f"the hub to listen on {config.url}", deadline)
        for i, site_dir in enumerate(self.site_dirs):
            self.workers.append(self._spawn(f"{self.prefix}-{i}", site_dir, config.url, join))
        hub = self.hub
        names = {w.name for w in self.workers}
        await self._until(
            lambda: names <= set(hub.worker_sites),
            f"{len(names)} worker process(es) to register with the hub",
            deadline,
        )
        # Registered is not yet answering: a worker accepts the hub's credential only once the
        # registration reply reaches it, and a call before that is refused (401).
        for worker in self.workers:
            await self._until_answering(hub, worker, deadline)

    async def _until_answering(self, hub: Hub, worker: WorkerProcess, deadline: float) -> None:
        """Poll the worker with a call no site has to answer (an unknown site's description)."""
        connection = hub.connections[worker.name]
        while True:
            try:
                await connection.call("describe", {"site": ""}, timeout_s=5.0)
                return
            except McpCallError as exc:
                if time.monotonic() > deadline:
                    raise FederationError(
                        f"worker process {worker.name} registered but did not answer within "
                        f"{self.start_timeout_s:g} s: {exc}"
                    ) from None
                await asyncio.sleep(POLL_S)

    async def _serve_hub(self, server: _HubServer) -> None:
        assert self.hub is not None
        stop = asyncio.Event()
        background = asyncio.create_task(self.hub.background(stop))
        try:
            await server.serve()
        except SystemExit:
            # uvicorn exits the process when it cannot bind; here that is one failed start.
            raise FederationError(
                f"the in-process hub could not listen on {self.hub.config.url}"
            ) from None
        finally:
            stop.set()
            await background

    def _spawn(self, name: str, site_dir: Path, hub_url: str, join: Path) -> WorkerProcess:
        port = self.ports.take()
        argv = [
            sys.executable,
            "-m",
            "secretary_executor.cli.secretary",
            "serve",
            "worker",
            "--site-dir",
            str(site_dir),
            "--join",
            hub_url,
            "--join-token-file",
            str(join),
            "--name",
            name,
            "--host",
            HOST,
            "--port",
            str(port),
            *(["--verbose"] if self.verbose else []),
        ]
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONPATH": path}
        log_path = self.workdir / f"{name}.log"
        log = log_path.open("wb")
        try:
            proc = subprocess.Popen(  # noqa: S603 - fixed argument list, no shell
                argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env
            )
        except OSError as exc:
            log.close()
            raise FederationError(f"cannot start worker process {name}: {exc}") from None
        return WorkerProcess(name, site_dir, port, log_path, proc, log)

    async def _until(self, ready: Callable[[], bool], what: str, deadline: float) -> None:
        """Poll ``ready`` until it holds; fail fast when the hub or a worker has died."""
        while not ready():
            if self._serving is not None and self._serving.done():
                error = None if self._serving.cancelled() else self._serving.exception()
                detail = f": {error}" if error else ""
                raise FederationError(
                    f"the in-process hub stopped while waiting for {what}{detail}"
                )
            for w in self.workers:
                code = w.proc.poll()
                if code is not None:
                    raise FederationError(
                        f"worker process {w.name} exited with status {code} while waiting for "
                        f"{what}; log {w.log_path}: {w.tail() or 'empty'}"
                    )
            if time.monotonic() > deadline:
                raise FederationError(
                    f"timed out after {self.start_timeout_s:g} s waiting for {what}; worker logs "
                    f"are in {self.workdir}"
                )
            await asyncio.sleep(POLL_S)

    # -- stopping ---------------------------------------------------------------------------

    async def stop(self) -> None:
        """Stop every worker (SIGTERM, SIGKILL after ``stop_timeout_s``) and the hub.

        Idempotent, and never leaves a worker running: if this is itself interrupted, the
        remaining workers are killed at once.
        """
        try:
            if self.hub is not None:
                await self.hub.fleet.close()
            await self._stop_workers()
            await self._stop_hub()
        finally:
            for w in self.workers:
                if w.proc.poll() is None:
                    w.proc.kill()
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        w.proc.wait(timeout=5)
                w.log.close()
            self.workers = []
            self._restore_signals()
            if self._secrets is not None:
                self._secrets.cleanup()
                self._secrets = None

    async def _stop_workers(self) -> None:
        running = [w for w in self.workers if w.proc.poll() is None]
        for w in running:
            w.proc.send_signal(signal.SIGTERM)
        # Poll rather than block: a worker's shutdown says goodbye to the hub on this loop.
        deadline = time.monotonic() + self.stop_timeout_s
        while any(w.proc.poll() is None for w in running) and time.monotonic() < deadline:
            await asyncio.sleep(POLL_S)
        for w in running:
            if w.proc.poll() is None:
                w.proc.kill()

    async def _stop_hub(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        serving, self._serving = self._serving, None
        if serving is None:
            return
        # A hub that does not finish in time is cancelled by wait_for; a hub that failed has
        # already been reported by start(), so its error is not raised again while stopping.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(serving, self.stop_timeout_s)
