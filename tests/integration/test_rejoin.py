"""A worker killed with SIGKILL and started again is back at once when its join token is its own.

A real hub and workers (``secretary serve``) on loopback. The hub's heartbeat period is long
(30 s, so an UP worker is marked DOWN only after 90 s of silence): a restarted worker that had to
wait for that mark could not be back within the test's deadline, so being back proves that
the hub replaced the old entry on the spot. Its join token is bound to its name
(``secretary hub add-worker``); the same restart with the shared token, or with another
worker's token, is refused while the old entry is UP.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from federation_harness import Federation, Procs, free_port, token_file, wait_for

from secretary_executor.hub.join_tokens import add_worker

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "secretary_executor" / "fleets" / "demo"
HEARTBEAT_S = 30.0
BACK_WITHIN_S = 60.0
"""Far less than the 90 s after which the hub would mark the killed worker DOWN."""


@pytest.fixture
def fed(tmp_path: Path) -> Iterator[Federation]:
    token = token_file(tmp_path / "tokens.txt")
    join = tmp_path / "join.txt"
    token_file(join)  # a shared token, as every hub that predates per-worker tokens has
    port = free_port()
    (tmp_path / "hub.yaml").write_text(
        f"name: hub\nport: {port}\ntoken_file: tokens.txt\njoin_token_file: join.txt\n"
        f"heartbeat_s: {HEARTBEAT_S}\nsite_timeout_s: 20\n"
    )
    procs = Procs(tmp_path, tmp_path / "home")
    fed = Federation(procs, f"http://127.0.0.1:{port}/mcp", token, join)
    try:
        procs.start("hub", ["serve", "hub", "--config", str(tmp_path / "hub.yaml")])
        yield fed
    finally:
        procs.stop_all()


def _start(fed: Federation, name: str, token: Path, site: Path) -> subprocess.Popen[bytes]:
    argv = ["serve", "worker", "--join", fed.url, "--join-token-file", str(token)]
    argv += ["--name", name, "--port", str(free_port()), "--site", str(site)]
    return fed.procs.start(name, argv)


def _register(fed: Federation, token: str, name: str, sites: list[str]) -> str:
    """What the hub answers a registration under ``name`` with ``token`` (the error text)."""
    args = {"name": name, "url": f"http://127.0.0.1:{free_port()}/mcp", "sites": sites}
    reply = asyncio.run(fed.call("register_worker", args, token=token))
    assert reply.is_error, reply.structured_content
    return str(reply.content[0].text)


def _negotiable(fed: Federation, site: str) -> bool:
    reply: Any = asyncio.run(fed.call("negotiate_job", {"text": "2 cores", "sites": [site]}))
    (proposal,) = reply.structured_content["proposals"]
    return bool(proposal["verdict"] != "UNREACHABLE")


def test_a_worker_restarted_with_its_own_token_is_back_at_once(fed: Federation) -> None:
    folder = fed.join_file.parent
    own, other = folder / "w-own.token", folder / "w-other.token"
    own.write_text(add_worker(fed.join_file, "w-own") + "\n")
    other.write_text(add_worker(fed.join_file, "w-other") + "\n")
    site = DEMO / "hpc-campus.yaml"
    victim = _start(fed, "w-own", own, site)
    wait_for(lambda: fed.sites()["hpc-campus"]["state"] == "UP", "w-own to join", timeout_s=90)
    first = fed.worker("w-own")

    victim.kill()  # SIGKILL: no goodbye, the hub still holds the worker UP
    assert victim.wait(timeout=30) == -9
    assert fed.worker("w-own")["state"] == "UP"

    # While it is UP, neither the shared token nor another worker's token takes the name.
    shared = fed.join_file.read_text().split()[0]
    assert "cannot take its name" in _register(fed, shared, "w-own", ["hpc-campus"])
    theirs = other.read_text().strip()
    assert "for worker 'w-other'" in _register(fed, theirs, "w-own", ["hpc-campus"])
    assert fed.worker("w-own")["joins"] == first["joins"]

    _start(fed, "w-own", own, site)
    wait_for(
        lambda: fed.worker("w-own")["joins"] == first["joins"] + 1,
        "the restarted worker to replace its old entry",
        timeout_s=BACK_WITHIN_S,
    )
    again = fed.worker("w-own")
    assert again["state"] == "UP" and again["url"] != first["url"]
    wait_for(lambda: _negotiable(fed, "hpc-campus"), "the site to answer", timeout_s=30)
    hub_log = fed.procs.log("hub")
    assert "w-own registered again with its own join token" in hub_log
    assert "marked down" not in hub_log
