"""``ask_secretaries``: one worker call that carries the negotiation for many of its sites.

Why: a worker that serves hundreds of sites (simulated ones, or a hub of hubs) would otherwise
cost the hub one MCP round trip per site, and the round trips, not the sites, dominate the
fan-out. Here the hub sends one request listing the sites (each with its own deadline) and the
worker answers them concurrently, each in isolation: a site that fails gives an error envelope
in its own slot, and a site that overruns its deadline is answered with a
:data:`SITE_TIMEOUT` error while the others' answers go back in the same reply. Real sites run
their blocking work in their own threads (:mod:`endpoint_plugins.blocking`), so a hung provider
holds up neither the event loop nor the other sites.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.types import CallToolResult, TextContent
from pydantic import Field

from providers.wire.common import WireModel

log = logging.getLogger(__name__)

SITE_TIMEOUT = "SiteTimeout"
"""The error type of a site that did not answer within its deadline at the worker."""

MAX_BATCH_SITES = 1024
"""The most sites one call may carry: the hub splits a larger worker into several calls, and a
batch reply stays within its cap (:func:`endpoint_plugins.reply_cap.reply_cap_for`)."""


class SiteAsk(WireModel):
    """One site of a batch and its own deadline (the requirements are the batch's)."""

    site: str
    timeout_s: float = Field(default=30.0, gt=0, le=3600)


class SiteAnswer(WireModel):
    """One site's answer: the same service envelope ``ask_secretary`` would have returned."""

    site: str
    envelope: dict[str, Any]


class BatchReply(WireModel):
    """The answers of a batch, one per asked site, in the order asked."""

    answers: list[SiteAnswer]


async def answer_all(
    asks: list[SiteAsk],
    ask: Callable[[SiteAsk], Awaitable[dict[str, Any]]],
    *,
    concurrency: int,
) -> CallToolResult:
    """Answer every ask concurrently (at most ``concurrency`` at once), each under its deadline.

    Returns the tool result: a :class:`BatchReply` as one JSON text block, which the hub
    parses and validates against that model (:meth:`BatchReply.model_validate_json`). Not as
    MCP structured content: for a thousand proposals, the SDK's generic serialization of
    structured content and the client's JSON-schema check of it cost more than answering the
    sites; a JSON text is written and read by compiled code.

    Postcondition: one answer per ask, in order; never raises for a failing or slow site.
    """
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(item: SiteAsk) -> dict[str, Any]:
        async with gate:
            try:
                envelope = await asyncio.wait_for(ask(item), item.timeout_s)
            except TimeoutError:
                envelope = _error(
                    SITE_TIMEOUT,
                    f"site {item.site!r} did not answer negotiate within {item.timeout_s:g} s",
                )
            except Exception as exc:  # noqa: BLE001 - one site's failure stays in its slot
                envelope = _error("InternalError", f"{type(exc).__name__}: {exc}")
        return {"site": item.site, "envelope": envelope}

    reply = {"answers": list(await asyncio.gather(*(one(a) for a in asks)))}
    log.info("ask_secretaries: answered %d site(s) in one call", len(asks))
    return batch_result(reply)


def batch_result(reply: dict[str, Any]) -> CallToolResult:
    """A tool result carrying ``reply`` (a :class:`BatchReply` as a dict) as JSON text."""
    text = json.dumps(reply, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)])


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"type": kind, "message": message, "transient": True}}
