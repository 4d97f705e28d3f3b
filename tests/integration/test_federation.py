"""Federation over MCP with real processes on loopback.

A hub and three workers run as ``secretary serve`` subprocesses on free ports: two workers
serve simulated sites from the demo fleet's state files, one serves this machine (it really
runs the dispatched job). Extra workers are started by the tests that kill or freeze them.
Workers heartbeat every second, so a silent worker is marked down after 3 s. Readiness and
state changes are awaited by polling with a deadline. The last tests drive the hub through the
official MCP Inspector CLI (npm ``@modelcontextprotocol/inspector@1.0.3``, the newest release
that runs on Node 20) and check a hub of hubs (``--role dual``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from conftest import need_service
from federation_harness import Federation, free_port, start_hub, token_file, wait_for
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "secretary_executor" / "fleets" / "demo"
SECRETARY = [sys.executable, "-m", "secretary_executor.cli.secretary"]
INSPECTOR = "@modelcontextprotocol/inspector@1.0.3"
HEARTBEAT_S = 1.0


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Federation]:
    folder = tmp_path_factory.mktemp("federation")
    (folder / "here.yaml").write_text(
        "name: here\nkind: local\nproviders: {enabled: [local, cpu, memory]}\n"
    )
    fed = start_hub(folder, f"heartbeat_s: {HEARTBEAT_S}\nsite_timeout_s: 20\njob_poll_s: 0.2\n")
    procs = fed.procs
    try:
        fed.start_worker("w-campus", str(DEMO / "hpc-campus.yaml"))
        fed.start_worker("w-gpu", str(DEMO / "cloud-gpu.yaml"))
        fed.start_worker("w-here", str(folder / "here.yaml"))
        wait_for(
            lambda: {"hpc-campus", "cloud-gpu", "here"} <= set(fed.sites()),
            "three workers to register",
            timeout_s=90,
        )
        yield fed
    finally:
        procs.stop_all()


def test_negotiate_select_dispatch_and_follow_events(fed: Federation) -> None:
    async def go() -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {fed.token}"}
        out: dict[str, Any] = {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(fed.url, http_client=http)) as c,
        ):
            r = await c.call_tool(
                "negotiate_job",
                {"text": "2 cores for 10 minutes", "sites": ["hpc-campus", "cloud-gpu", "here"]},
            )
            proposals = r.structured_content["proposals"]
            out["verdicts"] = {p["site"]: p["verdict"] for p in proposals}
            out["reasons"] = {p["site"]: p["reason"] for p in proposals}
            rid = r.structured_content["request_id"]
            r = await c.call_tool(
                "select_proposal", {"request_id": rid, "algorithm": "first-ready"}
            )
            out["ranked"] = r.structured_content["ranked"]
            r = await c.call_tool(
                "dispatch_job",
                {"request_id": rid, "site": "here", "command": ["python3", "-c", "print(6*7)"]},
            )
            assert not r.is_error, r.content[0].text
            job = r.structured_content["job_id"]
            out["receipt"] = r.structured_content
            states = []
            async with c.listen(resource_subscriptions=[f"jobs://{job}"]) as sub:
                # The job may have finished before listening started: read once first.
                async def state() -> str:
                    res = await c.read_resource(f"jobs://{job}")
                    return json.loads(res.contents[0].text)["record"]["state"]

                states.append(await state())
                if states[-1] not in ("COMPLETED", "FAILED"):
                    async with asyncio.timeout(30):
                        async for _event in sub:
                            states.append(await state())
                            if states[-1] in ("COMPLETED", "FAILED"):
                                break
            out["states"] = states
            r = await c.call_tool("job_status", {"job_id": job})
            out["status"] = r.structured_content
        return out

    out = asyncio.run(go())
    assert out["verdicts"]["here"] == "READY", out["reasons"]
    assert out["verdicts"]["cloud-gpu"] == "READY", out["reasons"]
    assert "here" in out["ranked"]
    assert out["receipt"]["site"] == "here" and out["receipt"]["provider"] == "local"
    assert out["states"][-1] == "COMPLETED"
    assert out["status"]["status"]["exit_code"] == 0
    assert [e["state"] for e in out["status"]["events"]][-1] == "COMPLETED"


def test_missing_or_wrong_token_gets_401(fed: Federation) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    sites = fed.worker("w-campus")
    with httpx2.Client(timeout=10) as http:
        assert http.post(fed.url, json=body).status_code == 401
        wrong = {"Authorization": "Bearer " + secrets.token_urlsafe(32)}
        assert http.post(fed.url, json=body, headers=wrong).status_code == 401
        assert (
            http.post(fed.url, json=body, headers={"Authorization": fed.token}).status_code == 401
        )
        # A worker accepts only the credential its hub was issued, not the hub's client token.
        bearer = {"Authorization": f"Bearer {fed.token}"}
        assert http.post(sites["url"], json=body, headers=bearer).status_code == 401
    join = fed.join_file.read_text().strip()
    r = asyncio.run(fed.call("negotiate_job", {"text": "1 core"}, token=join))
    assert r.is_error and "needs a 'client' token" in r.content[0].text


def test_a_join_token_cannot_take_over_an_up_workers_name(fed: Federation) -> None:
    """Every worker holds the join token; only the worker's own credential re-registers it."""
    before = fed.worker("w-campus")
    join = fed.join_file.read_text().strip()
    impostor = {"name": "w-campus", "url": f"http://127.0.0.1:{free_port()}/mcp"}
    r = asyncio.run(fed.call("register_worker", {**impostor, "sites": before["sites"]}, token=join))
    assert r.is_error and "cannot take its name" in r.content[0].text
    after = fed.worker("w-campus")
    assert after["url"] == before["url"] and after["joins"] == before["joins"]
    r = asyncio.run(fed.call("negotiate_job", {"text": "2 cores", "sites": ["hpc-campus"]}))
    (proposal,) = r.structured_content["proposals"]
    assert proposal["verdict"] != "UNREACHABLE", proposal  # still the real worker


def test_resources_need_a_client_token(fed: Federation) -> None:
    """The join token and a worker's credential open the worker tools only; the fleet, site
    manifests and job records are for clients."""
    join = fed.join_file.read_text().strip()
    for uri in (
        "fleet://status",
        "sites://hpc-campus",
        "requests://no-such-request",
        "jobs://no-such-job",
    ):
        refused = asyncio.run(fed.read(uri, token=join))
        assert isinstance(refused, Exception) and "needs a 'client' token" in str(refused)
    for uri in ("fleet://status", "sites://hpc-campus"):
        contents = asyncio.run(fed.read(uri)).contents
        assert json.loads(contents[0].text)


def test_kill_9_during_negotiation_reports_unreachable(fed: Federation) -> None:
    victim = fed.start_worker("w-victim", str(DEMO / "hpc-legacy.yaml"))
    wait_for(lambda: "hpc-legacy" in fed.sites(), "the victim to register")
    names = ["hpc-campus", "cloud-gpu", "here", "hpc-legacy"]
    victim.send_signal(signal.SIGSTOP)  # frozen: the hub's call to it hangs ...

    async def go() -> Any:
        task = asyncio.create_task(fed.call("negotiate_job", {"text": "4 cores", "sites": names}))
        await asyncio.sleep(0)  # let the call leave
        await asyncio.to_thread(time.sleep, 0.3)
        victim.kill()  # ... and the worker dies mid-negotiation
        return await task

    r = asyncio.run(go())
    victim.wait(timeout=10)
    verdicts = {p["site"]: p for p in r.structured_content["proposals"]}
    assert verdicts["hpc-legacy"]["verdict"] == "UNREACHABLE"
    for site in ("hpc-campus", "cloud-gpu", "here"):
        assert verdicts[site]["verdict"] != "UNREACHABLE", verdicts[site]
    wait_for(
        lambda: fed.sites()["hpc-legacy"]["state"] == "DOWN", "the dead worker to be marked down"
    )


def test_silent_worker_is_dropped_then_rejoins(fed: Federation) -> None:
    sleepy = fed.start_worker("w-sleepy", str(DEMO / "edge-jetson.yaml"))
    wait_for(lambda: "edge-jetson" in fed.sites(), "the worker to register")
    sleepy.send_signal(signal.SIGSTOP)
    wait_for(lambda: fed.sites()["edge-jetson"]["state"] == "DOWN", "the worker to be dropped")
    r = asyncio.run(fed.call("negotiate_job", {"text": "1 core", "sites": ["edge-jetson", "here"]}))
    by_site = {p["site"]: p for p in r.structured_content["proposals"]}
    assert by_site["edge-jetson"]["verdict"] == "UNREACHABLE"
    assert "heartbeats" in by_site["edge-jetson"]["reason"]
    assert by_site["here"]["verdict"] != "UNREACHABLE"
    sleepy.send_signal(signal.SIGCONT)
    wait_for(lambda: fed.worker("w-sleepy")["joins"] == 2, "the worker to rejoin")
    assert fed.sites()["edge-jetson"]["state"] == "UP"
    r = asyncio.run(fed.call("negotiate_job", {"text": "1 core", "sites": ["edge-jetson"]}))
    assert r.structured_content["proposals"][0]["verdict"] != "UNREACHABLE"


def _inspector(tmp: Path) -> list[str] | None:
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        return None
    folder = Path.home() / ".cache" / "secretary-tests" / "mcp-inspector-1.0.3"
    cli = folder / "node_modules" / ".bin" / "mcp-inspector"
    if not cli.exists():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.json").write_text('{"name": "inspector-cache", "private": true}')
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", INSPECTOR],
            cwd=folder,
            capture_output=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0 or not cli.exists():
            return None
    return [str(cli), "--cli"]


def test_an_independent_mcp_client_drives_the_hub(fed: Federation, tmp_path: Path) -> None:
    """The official MCP Inspector CLI (TypeScript SDK) lists and calls the hub's tools."""
    cli = _inspector(tmp_path)
    need_service(cli is not None, "npm/node or the MCP Inspector package is not available")
    assert cli is not None
    base = [*cli, fed.url, "--transport", "http", "--header", f"Authorization: Bearer {fed.token}"]

    def run(*extra: str) -> dict[str, Any]:
        done = subprocess.run(
            [*base, *extra], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout[done.stdout.index("{") :])

    names = {t["name"] for t in run("--method", "tools/list")["tools"]}
    assert {"negotiate_job", "list_sites", "dispatch_job"} <= names
    assert "register_worker" not in names  # a client token sees the client tools
    result = run("--method", "tools/call", "--tool-name", "list_sites")
    assert "hpc-campus" in json.dumps(result["structuredContent"])
    denied = subprocess.run(
        [*cli, fed.url, "--transport", "http", "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert denied.returncode != 0 and "invalid_token" in denied.stdout + denied.stderr


def test_hub_of_hubs(fed: Federation, tmp_path: Path) -> None:
    """A child hub in the dual role registers its own sites with the parent hub."""
    child_port = free_port()
    token_file(tmp_path / "child-tokens.txt")
    (tmp_path / "fleet.yaml").write_text(
        f"sites:\n  - name: frontier\n    state_file: {DEMO / 'hpc-frontier-like.yaml'}\n"
    )
    (tmp_path / "child.yaml").write_text(
        f"name: child\nport: {child_port}\ntoken_file: child-tokens.txt\nfleet: fleet.yaml\n"
        f"heartbeat_s: {HEARTBEAT_S}\n"
        f"parent: {{url: '{fed.url}', join_token_file: '{fed.join_file}'}}\n"
    )
    fed.procs.start(
        "child", ["serve", "hub", "--role", "dual", "--config", str(tmp_path / "child.yaml")]
    )
    wait_for(lambda: "frontier" in fed.sites(), "the child hub's site at the parent")
    assert fed.sites()["frontier"]["worker"] == "child"
    r = asyncio.run(fed.call("negotiate_job", {"text": "4 cores", "sites": ["frontier"]}))
    proposal = r.structured_content["proposals"][0]
    assert proposal["site"] == "frontier" and proposal["verdict"] != "UNREACHABLE", proposal


def test_workers_tools_are_listed_to_workers_only(fed: Federation) -> None:
    """An agent's tool list holds the client tools; the join token sees register_worker."""

    async def names(token: str | None) -> set[str]:
        headers = {"Authorization": f"Bearer {token or fed.token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(fed.url, http_client=http)) as c,
        ):
            return {t.name for t in (await c.list_tools()).tools}

    join = fed.join_file.read_text().split()[0]
    client_tools = asyncio.run(names(None))
    worker_tools = asyncio.run(names(join))
    assert "negotiate_job" in client_tools and "register_worker" not in client_tools
    assert "heartbeat" not in client_tools
    assert {"register_worker", "heartbeat"} <= worker_tools


def test_per_worker_join_tokens_and_revocation(fed: Federation, tmp_path: Path) -> None:
    """A token from ``secretary hub add-worker`` admits its worker only, and ``secretary hub
    revoke`` drops a running worker with its sites and refuses it from then on, without a hub
    restart. Runs last: it adds lines to the shared join token file."""
    hub_yaml = str(fed.join_file.parent / "hub.yaml")
    secretary = [*SECRETARY, "hub"]
    env = fed.procs.env
    own = tmp_path / "w-bound.token"
    added = subprocess.run(
        [*secretary, "add-worker", "w-bound", "--config", hub_yaml, "--out", str(own)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert added.returncode == 0, added.stderr
    assert oct(own.stat().st_mode & 0o777) == "0o600"
    bound = own.read_text().strip()
    assert bound not in added.stdout + added.stderr  # written to the file, not printed

    # The bound token is refused for any other name.
    other = {"name": "w-thief", "url": f"http://127.0.0.1:{free_port()}/mcp", "sites": ["x"]}
    r = asyncio.run(fed.call("register_worker", other, token=bound))
    assert r.is_error and "for worker 'w-bound'" in r.content[0].text

    campus = DEMO / "hpc-frontier-like.yaml"
    fed.procs.start(
        "w-bound",
        [
            *("serve", "worker", "--join", fed.url, "--join-token-file", str(own)),
            *("--name", "w-bound", "--port", str(free_port()), "--site", str(campus)),
        ],
    )
    site = wait_for(
        lambda: next((s for s, v in fed.sites().items() if v.get("worker") == "w-bound"), None),
        "the bound worker to register",
        timeout_s=60,
    )

    revoked = subprocess.run(
        [*secretary, "revoke", "w-bound", "--config", hub_yaml],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert revoked.returncode == 0, revoked.stderr
    wait_for(lambda: site not in fed.sites(), "the revoked worker's site to go", timeout_s=30)
    wait_for(lambda: "refused this worker's join token" in fed.procs.log("w-bound"), "a refusal")
    assert site not in fed.sites()  # it did not come back
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    with httpx2.Client(timeout=10) as http:  # its token no longer opens the hub at all
        refused = http.post(fed.url, json=body, headers={"Authorization": f"Bearer {bound}"})
        assert refused.status_code == 401
