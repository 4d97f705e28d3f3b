"""``McpTransport``: reach a site hosted by a worker over MCP (streamable HTTP).

Each operation becomes one call of the worker tool that carries it (``ask_secretary``,
``dispatch``, ...), presenting the credential the hub issued to that worker at registration.
Sites of one worker share one :class:`~endpoint_plugins.mcp_client.McpConnection`, so a
worker hosting hundreds of sites costs one session. Every call has its own deadline; a refused
connection, a 401 or a timeout raises, which :class:`~secretary_executor.sites.base.Site`
turns into an UNREACHABLE proposal or a transient error.
"""

from __future__ import annotations

from typing import Any

from endpoint_plugins.mcp_client import McpConnection
from endpoint_plugins.mcp_worker import TOOL_FOR
from endpoint_plugins.service import Operation
from secretary_executor.sites.base import Transport


class McpTransport(Transport):
    """One site on a worker.

    Args:
        connection: the (shared) session to the worker.
        site: the site's name at the worker.
        timeout_s: deadline of one call (the Site's own timeout also applies).
    """

    def __init__(self, connection: McpConnection, site: str, *, timeout_s: float = 30.0) -> None:
        self.connection = connection
        self.site = site
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"McpTransport({self.connection!r}, site={self.site!r}, timeout_s={self.timeout_s})"

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        arguments = {"site": self.site, **_arguments(operation, payload)}
        return await self.connection.call(TOOL_FOR[operation], arguments, timeout_s=self.timeout_s)

    async def close(self) -> None:
        await self.connection.close()


def _arguments(operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
    if operation is Operation.NEGOTIATE:
        return {
            "requirements": payload.get("requirements"),
            "request_id": payload.get("request_id", ""),
        }
    if operation is Operation.DISPATCH:
        return {"request": payload["request"], "plan": payload.get("plan")}
    if operation in (Operation.STATUS, Operation.CANCEL):
        return {"native_id": payload["native_id"], "provider": payload.get("provider")}
    if operation is Operation.OUTPUT:
        return {
            "native_id": payload["native_id"],
            "provider": payload.get("provider"),
            "max_bytes": payload.get("max_bytes", 65536),
        }
    return {}
