"""A worker's reply has a size ceiling: an oversized one is cut off as it arrives and the site
is UNREACHABLE with the reason, instead of the hub holding (and recording) megabytes.

The worker is a real MCP server (the SDK's ``MCPServer``, streamable HTTP, served by uvicorn on
loopback in a thread) whose ``ask_secretary`` tool answers with a reply of a chosen size; the
hub side is the real :class:`McpConnection` and :class:`Site`.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from mcp.server import MCPServer

from endpoint_plugins.mcp_client import McpCallError, McpConnection
from providers.wire import Requirements, Verdict
from secretary_executor.sites.base import Site
from secretary_executor.sites.mcp import McpTransport


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def worker() -> Iterator[str]:
    mcp = MCPServer("bloated-worker")

    @mcp.tool()
    def ask_secretary(
        site: str,
        payload: dict[str, Any] | None = None,
        requirements: dict[str, Any] | None = None,
        request_id: str = "",
    ) -> dict[str, Any]:
        """Answers with as many bytes as ``payload['size']`` asks for (3 MB for "big")."""
        size = 3_000_000 if request_id == "big" else int((payload or {}).get("size", 1))
        return {"ok": False, "error": {"type": "X", "message": "x" * size}}

    port = _port()
    server = uvicorn.Server(
        uvicorn.Config(mcp.streamable_http_app(host="127.0.0.1"), port=port, log_level="error")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the test MCP server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(10)


async def _ask(url: str, size: int, cap: int) -> dict[str, Any]:
    conn = McpConnection(url, max_reply_bytes=cap)
    try:
        args = {"site": "s", "payload": {"size": size}}
        return await conn.call("ask_secretary", args, timeout_s=20)
    finally:
        await conn.close()


@pytest.mark.parametrize("size", [10, 50_000, 900_000])
def test_a_reply_under_the_cap_arrives_whole(worker: str, size: int) -> None:
    reply = asyncio.run(_ask(worker, size, cap=2_000_000))
    assert len(reply["error"]["message"]) == size


@pytest.mark.parametrize(("size", "cap"), [(300_000, 100_000), (3_000_000, 1_000_000)])
def test_an_oversized_reply_is_refused_with_its_reason(worker: str, size: int, cap: int) -> None:
    with pytest.raises(McpCallError, match=f"larger than {cap} bytes"):
        asyncio.run(_ask(worker, size, cap))


def test_the_site_is_unreachable_with_the_reason_and_the_next_call_works(worker: str) -> None:
    async def go() -> tuple[Any, Any]:
        conn = McpConnection(worker, max_reply_bytes=100_000)
        site = Site("bloated", McpTransport(conn, "bloated", timeout_s=20), timeout_s=20)
        try:
            reqs = Requirements.model_validate({"compute": {"cores_per_node": 1}})
            big = await site.negotiate(reqs, request_id="big")
            small = await conn.call(
                "ask_secretary", {"site": "s", "payload": {"size": 5}}, timeout_s=20
            )
            return big, small
        finally:
            await conn.close()

    big, small = asyncio.run(go())
    assert big.verdict is Verdict.UNREACHABLE
    assert "larger than 100000 bytes" in big.reason
    assert small["error"]["message"] == "xxxxx"
