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
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

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
