"""Real ``secretary serve`` hub and worker processes on loopback, for tests that need them.

Used by the federation tests and the crash tests: processes start on free ports with their own
``SECRETARY_HOME``, readiness is awaited by polling with a deadline, and every process is
killed at teardown (a frozen one is thawed first).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from providers.workload.local_runner import STATE_FILE as LOCAL_STATE_FILE

ROOT = Path(__file__).resolve().parents[1]
SECRETARY = [sys.executable, "-m", "secretary_executor.cli.secretary"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], Any], what: str, timeout_s: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = check()
        except Exception:  # noqa: BLE001 - not ready yet
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Procs:
    """Started subprocesses, always killed at teardown."""

    def __init__(self, folder: Path, home: Path) -> None:
        self.folder = folder
        self.env = {**os.environ, "SECRETARY_HOME": str(home), "PYTHONPATH": str(ROOT)}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: list[Any] = []

    def start(
        self, name: str, argv: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        """Start ``secretary ARGV``; ``env`` adds to this harness's environment (e.g. an armed
        failpoint). A name started again appends to the same log."""
        log = (self.folder / f"{name}.log").open("ab")
        self.logs.append(log)
        proc = subprocess.Popen(
            SECRETARY + argv,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**self.env, **(env or {})},
            cwd=ROOT,
        )
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGCONT)
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        for log in self.logs:
            log.close()


class Federation:
    def __init__(self, procs: Procs, url: str, token: str, join_file: Path) -> None:
        self.procs = procs
        self.url = url
        self.token = token
        self.join_file = join_file

    async def call(self, tool: str, args: dict[str, Any], token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(self.url, http_client=http)) as c,
        ):
            return await c.call_tool(tool, args)

    async def read(self, uri: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(self.url, http_client=http)) as c,
        ):
            try:
                return await c.read_resource(uri)
            except Exception as exc:  # noqa: BLE001 - the refusal is what the test reads
                return exc

    def sites(self) -> dict[str, dict[str, Any]]:
        r = asyncio.run(self.call("list_sites", {}))
        return {s["name"]: s for s in r.structured_content["sites"]}

    def worker(self, name: str) -> dict[str, Any]:
        r = asyncio.run(self.call("list_sites", {}))
        return next(w for w in r.structured_content["workers"] if w["name"] == name)

    def start_worker(
        self, name: str, *sites: str, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        argv = ["serve", "worker", "--join", self.url, "--join-token-file", str(self.join_file)]
        argv += ["--name", name, "--port", str(free_port())]
        for site in sites:
            argv += ["--site", site]
        return self.procs.start(name, argv, env)


def token_file(path: Path) -> str:
    token = secrets.token_urlsafe(32)
    path.write_text(token + "\n")
    return token


def start_hub(folder: Path, settings: str = "heartbeat_s: 1\nsite_timeout_s: 20\n") -> Federation:
    """A ``secretary serve hub`` process on a free port with a client token and a shared join
    token in ``folder``; ``settings`` are more lines of its YAML configuration. The caller
    stops it with ``fed.procs.stop_all()``."""
    token = token_file(folder / "tokens.txt")
    token_file(folder / "join.txt")
    port = free_port()
    (folder / "hub.yaml").write_text(
        f"name: hub\nport: {port}\ntoken_file: tokens.txt\njoin_token_file: join.txt\n" + settings
    )
    procs = Procs(folder, folder / "home")
    fed = Federation(procs, f"http://127.0.0.1:{port}/mcp", token, folder / "join.txt")
    try:
        procs.start("hub", ["serve", "hub", "--config", str(folder / "hub.yaml")])
    except BaseException:
        procs.stop_all()
        raise
    return fed


APPEND = "import sys; open(sys.argv[1], 'a').write(sys.argv[2] + chr(10))"
"""A job's whole command: append its name to a file (``sys.argv[1]``), the ground truth of what
ran, written by the jobs themselves and by nothing under test."""


class LocalCluster:
    """A hub (ledger on disk) and workers that each serve this machine as one site, whose jobs
    really run; every process can be started again, with or without an armed failpoint.

    Args:
        folder: where configurations, logs, the ledger and ``SECRETARY_HOME`` go.
        workers: worker name -> the site it serves.
        heartbeat_s: the hub's heartbeat period.
        site_timeout_s: how long the hub waits for a site.
    """

    def __init__(
        self,
        folder: Path,
        workers: dict[str, str],
        *,
        heartbeat_s: float = 1.0,
        site_timeout_s: float = 20.0,
    ) -> None:
        self.folder = folder
        self.workers = dict(workers)
        token = token_file(folder / "tokens.txt")
        token_file(folder / "join.txt")
        port = free_port()
        self.ledger = folder / "ledger.sqlite3"
        (folder / "hub.yaml").write_text(
            f"name: hub\nport: {port}\ntoken_file: tokens.txt\njoin_token_file: join.txt\n"
            f"heartbeat_s: {heartbeat_s}\nsite_timeout_s: {site_timeout_s}\n"
            f"ledger: {self.ledger}\n"
        )
        for site in self.workers.values():
            (folder / f"{site}.yaml").write_text(
                f"name: {site}\nkind: local\nproviders: {{enabled: [local, cpu, memory]}}\n"
            )
        self.home = folder / "home"
        self.procs = Procs(folder, self.home)
        self.fed = Federation(
            self.procs, f"http://127.0.0.1:{port}/mcp", token, folder / "join.txt"
        )
        self.runs = folder / "runs.txt"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        """Every process is killed, whatever the test left running."""
        self.procs.stop_all()

    def start(self, name: str, failpoint: str | None = None) -> None:
        """Start ``hub`` or a worker, with ``failpoint`` armed in its environment if given."""
        env = {"SECRETARY_FAILPOINTS": failpoint} if failpoint else None
        if name == "hub":
            self.procs.start(
                "hub", ["serve", "hub", "--config", str(self.folder / "hub.yaml")], env
            )
        else:
            self.fed.start_worker(name, str(self.folder / f"{self.workers[name]}.yaml"), env=env)

    def up(self) -> bool:
        """Every site is registered and UP."""
        sites = self.fed.sites()
        return all(sites.get(s, {}).get("state") == "UP" for s in self.workers.values())

    def call(self, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
        """(ok, structured result or error text); a dead hub is (False, the exception)."""
        try:
            r = asyncio.run(self.fed.call(tool, args))
        except Exception as exc:  # noqa: BLE001 - a killed hub drops the connection
            return False, f"{type(exc).__name__}: {exc}"
        if r.is_error:
            return False, r.content[0].text
        return True, r.structured_content

    def command(self, marker: str) -> list[str]:
        """A job that appends ``marker`` to :attr:`runs` when it runs."""
        return [sys.executable, "-c", APPEND, str(self.runs), marker]

    def ran(self) -> list[str]:
        return self.runs.read_text().split() if self.runs.exists() else []

    def settled(self) -> bool:
        """Every job this machine's sites started has finished: nothing more can run.

        Each local job has a folder under ``SECRETARY_HOME/jobs``, and its runner writes the
        final state there when the command ends, so a count of what ran is final once this holds.
        """
        jobs = self.home / "jobs"
        folders = [p for p in jobs.iterdir() if p.is_dir()] if jobs.is_dir() else []
        return all((p / LOCAL_STATE_FILE).is_file() for p in folders)
