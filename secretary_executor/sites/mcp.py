"""``McpTransport``: reach a site hosted by a worker over MCP (streamable HTTP).

Each operation becomes one call of the worker tool that carries it (``ask_secretary``,
``dispatch``, ...), presenting the credential the hub issued to that worker at registration.
Sites of one worker share one :class:`~endpoint_plugins.mcp_client.McpConnection`, so a
worker hosting hundreds of sites costs one session. Every call has its own deadline; a refused
connection, a 401 or a timeout raises, which :class:`~secretary_executor.sites.base.Site`
turns into an UNREACHABLE proposal or a transient error.

Sites of one worker can also be negotiated together, in one ``ask_secretaries`` call
(:func:`negotiate_batch`); the hub's fan-out does so whenever it asks several sites of one
worker (:mod:`secretary_executor.hub.fanout`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from endpoint_plugins.mcp_batch import SITE_TIMEOUT, BatchReply
from endpoint_plugins.mcp_client import McpCallError, McpConnection
from endpoint_plugins.mcp_worker import TOOL_FOR
from endpoint_plugins.service import Operation
from providers.wire import Proposal, Requirements
from secretary_executor.sites.base import Site, Transport

BATCH_TOOL = "ask_secretaries"
BATCH_GRACE_S = 2.0
"""How much longer than its slowest site's timeout the hub waits for a whole batch reply: the
worker answers an overrunning site itself when that site's own timeout passes, so the reply is
late only when the worker (or the link) is."""


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

    def batch_key(self) -> object:
        """Sites on one worker session can be asked in one call."""
        return self.connection


async def negotiate_batch(
    sites: Sequence[Site], requirements: Requirements, request_id: str, *, concurrency: int
) -> list[Proposal]:
    """One proposal per site, in order, from ONE ``ask_secretaries`` call to their worker.

    Same outcome per site as :meth:`Site.negotiate`: a site that fails or overruns its own
    timeout is UNREACHABLE with the same reason, the others answer. A failed call (worker gone,
    refused credential, a reply over the cap) makes every site of the batch UNREACHABLE with
    the call's error.

    Args:
        sites: sites whose transports are :class:`McpTransport` on one connection.
        concurrency: how many of them the worker may answer at once.
    """
    transports = [s.transport for s in sites]
    mcp = [t for t in transports if isinstance(t, McpTransport)]
    if not sites or len(mcp) != len(sites):
        raise ValueError("negotiate_batch needs sites reached with McpTransport")
    connection = mcp[0].connection
    if any(t.connection is not connection for t in mcp):
        raise ValueError("negotiate_batch needs sites of one worker session")
    start = time.perf_counter()
    arguments = {
        "sites": [
            {"site": t.site, "timeout_s": s.timeout_s} for s, t in zip(sites, mcp, strict=True)
        ],
        "requirements": requirements.model_dump(mode="json"),
        "request_id": request_id,
        "concurrency": concurrency,
    }
    deadline = max(s.timeout_s for s in sites) + BATCH_GRACE_S
    try:
        text = await connection.call_text(BATCH_TOOL, arguments, timeout_s=deadline)
        reply = BatchReply.model_validate_json(text)
    except McpCallError as exc:
        why = f"unreachable for negotiate: {type(exc).__name__}: {exc}"
        return [s.unreachable(request_id, f"site {s.name!r} {why}", start) for s in sites]
    except ValidationError as exc:
        why = f"sent a malformed batch reply to negotiate: {exc.errors()[0]['msg']}"
        return [s.unreachable(request_id, f"site {s.name!r} {why}", start) for s in sites]
    if len(reply.answers) != len(sites):
        why = f"the batch reply has {len(reply.answers)} answers for {len(sites)} sites"
        return [s.unreachable(request_id, f"site {s.name!r}: {why}", start) for s in sites]
    return [
        _proposal(s, a.envelope, request_id, start)
        for s, a in zip(sites, reply.answers, strict=True)
    ]


def _proposal(site: Site, envelope: dict[str, Any], request_id: str, start: float) -> Proposal:
    if "ok" not in envelope:
        return site.unreachable(
            request_id, f"site {site.name!r} sent a malformed reply to negotiate", start
        )
    error = envelope.get("error") or {}
    if not envelope["ok"] and error.get("type") == SITE_TIMEOUT:
        return site.unreachable(request_id, site.timed_out(Operation.NEGOTIATE), start)
    return site.proposal_from(envelope, request_id)


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
