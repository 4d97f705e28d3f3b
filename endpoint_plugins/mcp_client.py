"""Calling MCP tools over streamable HTTP with a bearer token and a deadline on every call.

:class:`McpConnection` keeps one session open to one server and lets many tasks call tools on
it concurrently (the hub asks hundreds of sites hosted by one worker over one connection). The
session is owned by one background task, because an MCP client session's task group must be
entered and left by the same task. A call that fails or overruns its deadline drops the
session, so the next call reconnects; a dead server therefore costs one timeout, not a hang.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from endpoint_plugins.errors import SiteError
from endpoint_plugins.reply_cap import MAX_REPLY_BYTES, CappedTransport

CLIENT_KEEPALIVE_S = 2.0
"""How long an idle connection to a worker is kept (less than any server's keep-alive)."""
SERVER_KEEPALIVE_S = 30
"""How long our servers keep an idle connection open (uvicorn's default is 5 s)."""

log = logging.getLogger(__name__)


class McpCallError(SiteError):
    """A tool call failed: connection refused, 401, a timeout, or a tool error (transient)."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message, transient=True)
        self.status = status


def _unwrap(name: str, result: Any) -> dict[str, Any]:
    if result.is_error:
        text = " ".join(getattr(c, "text", "") for c in result.content).strip()
        raise McpCallError(f"tool {name!r} failed: {text or 'no detail'}")
    data = result.structured_content
    if not isinstance(data, dict):
        raise McpCallError(f"tool {name!r} returned no structured result")
    return data


def _text(name: str, result: Any) -> str:
    if result.is_error:
        _unwrap(name, result)  # raises with the tool's message
    texts = [c.text for c in result.content if getattr(c, "type", "") == "text"]
    if len(texts) != 1:
        raise McpCallError(f"tool {name!r} returned {len(texts)} text blocks, expected one")
    return str(texts[0])


def _http_status(exc: BaseException) -> int | None:
    seen: list[BaseException] = [exc]
    while seen:
        e = seen.pop()
        response = getattr(e, "response", None)
        code = getattr(response, "status_code", None)
        if isinstance(code, int):
            return code
        seen.extend(getattr(e, "exceptions", ()) or ())
        if e.__cause__ is not None:
            seen.append(e.__cause__)
    return None


class McpConnection:
    """A reusable session to the MCP server at ``url``.

    Args:
        url: the server's streamable HTTP endpoint (``http://host:port/mcp``).
        token: the bearer token to present; None for an open endpoint. Never logged.
        connect_timeout_s: how long opening the session may take.
        max_reply_bytes: the most bytes one reply may have (see :mod:`~.reply_cap`); a call
            whose reply is larger fails with a message that says so.
    """

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        connect_timeout_s: float = 10.0,
        max_reply_bytes: int = MAX_REPLY_BYTES,
    ) -> None:
        self.url = url
        self.max_reply_bytes = max_reply_bytes
        self.oversized = False
        """True once a reply went past ``max_reply_bytes`` (reported in the call's error)."""
        self._token = token
        self.connect_timeout_s = connect_timeout_s
        self._client: Client | None = None
        self._owner: asyncio.Task[None] | None = None
        self._closing: asyncio.Event | None = None
        self._lock = asyncio.Lock()
        self.refused = False
        """True once the server answered 401 (the SDK's errors do not carry the status)."""

    def __repr__(self) -> str:
        return f"McpConnection(url={self.url!r}, token={'***' if self._token else None})"

    def set_token(self, token: str | None) -> None:
        """Use a new credential from the next session on (drops the current session)."""
        self._token = token
        self._drop()

    async def _open(self) -> Client:
        async with self._lock:
            if self._client is not None and self._owner is not None and not self._owner.done():
                return self._client
            ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
            closing = asyncio.Event()
            self._closing = closing
            self._owner = asyncio.create_task(self._own(ready, closing))
            try:
                client = await asyncio.wait_for(asyncio.shield(ready), self.connect_timeout_s)
            except TimeoutError:
                self._drop()
                raise McpCallError(
                    f"{self.url}: no MCP session within {self.connect_timeout_s:g} s"
                ) from None
            self._client = client
            return client

    async def _own(self, ready: asyncio.Future[Client], closing: asyncio.Event) -> None:
        headers = {"Authorization": f"Bearer {self._token}"} if self._token else {}

        async def seen(response: httpx2.Response) -> None:
            if response.status_code == 401:
                self.refused = True

        hooks = {"response": [seen]}
        # Drop idle connections well before the server does (uvicorn closes them after its
        # keep-alive timeout, 5 s by default): reusing one the server is closing at that very
        # moment fails the call and ends the whole MCP session.
        limits = httpx2.Limits(keepalive_expiry=CLIENT_KEEPALIVE_S)

        def over() -> None:
            self.oversized = True

        transport = CappedTransport(
            httpx2.AsyncHTTPTransport(limits=limits), self.max_reply_bytes, over
        )
        try:
            async with (
                httpx2.AsyncClient(
                    headers=headers, timeout=30.0, event_hooks=hooks, transport=transport
                ) as http,
                Client(streamable_http_client(self.url, http_client=http)) as client,
            ):
                if not ready.done():
                    ready.set_result(client)
                await closing.wait()
        except BaseException as exc:
            if not ready.done():
                status = 401 if self.refused else _http_status(exc)
                what = f"HTTP {status}" if status else f"{type(exc).__name__}: {exc}"
                ready.set_exception(McpCallError(f"{self.url}: {what}", status=status))
            if isinstance(exc, asyncio.CancelledError):
                raise
        finally:
            if self._closing is closing:
                self._client = None

    def _drop(self) -> None:
        if self._closing is not None:
            self._closing.set()
        self._client = None

    async def call(
        self, tool: str, arguments: dict[str, Any], *, timeout_s: float
    ) -> dict[str, Any]:
        """Call ``tool``; return its structured result.

        Raises:
            McpCallError: connection, authentication (``status`` 401), timeout or tool failure.
                The session is dropped on a connection failure or timeout.
        """
        return _unwrap(tool, await self._call(tool, arguments, timeout_s))

    async def call_text(self, tool: str, arguments: dict[str, Any], *, timeout_s: float) -> str:
        """Call a tool whose result is one text block (e.g. a JSON document); return the text.

        Raises:
            McpCallError: as :meth:`call`, or the result is not exactly one text block.
        """
        return _text(tool, await self._call(tool, arguments, timeout_s))

    async def _call(self, tool: str, arguments: dict[str, Any], timeout_s: float) -> Any:
        client = await self._open()
        self.oversized = False
        try:
            return await asyncio.wait_for(client.call_tool(tool, arguments), timeout_s)
        except TimeoutError:
            self._drop()
            if self.oversized:
                raise McpCallError(self._too_large(tool)) from None
            raise McpCallError(
                f"{self.url}: {tool} did not answer within {timeout_s:g} s"
            ) from None
        except McpCallError:
            raise
        except Exception as exc:  # noqa: BLE001 - any transport failure: reconnect next time
            self._drop()
            if self.oversized:
                raise McpCallError(self._too_large(tool)) from None
            status = 401 if self.refused else _http_status(exc)
            raise McpCallError(
                f"{self.url}: {tool}: {type(exc).__name__}: {exc}", status=status
            ) from None

    def _too_large(self, tool: str) -> str:
        return (
            f"{self.url}: {tool}: the reply was larger than {self.max_reply_bytes} bytes and was "
            "discarded"
        )

    async def close(self) -> None:
        """End the session (idempotent)."""
        self._drop()
        owner = self._owner
        self._owner = None
        if owner is not None and not owner.done():
            try:
                await asyncio.wait_for(owner, 5.0)
            except (TimeoutError, Exception):  # noqa: BLE001 - closing must not raise
                owner.cancel()


async def call_once(
    url: str, tool: str, arguments: dict[str, Any], *, token: str | None, timeout_s: float
) -> dict[str, Any]:
    """Open a session, call one tool, close (registration and heartbeats are rare).

    Raises:
        McpCallError: as :meth:`McpConnection.call`; ``status`` 401 means the token was refused.
    """
    conn = McpConnection(url, token, connect_timeout_s=timeout_s)
    try:
        return await conn.call(tool, arguments, timeout_s=timeout_s)
    finally:
        await conn.close()
