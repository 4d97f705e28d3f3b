"""Progress of a fan-out, reported to the MCP client as the sites answer.

A negotiation waits for its slowest site; a client that sent a ``progressToken`` sees each
answer arrive (``notifications/progress``: sites answered so far, of how many, and who said
what) instead of silence until the end. Without a token the SDK sends nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from mcp.server.mcpserver import Context

from providers.wire import Proposal

log = logging.getLogger(__name__)


class FanOutProgress:
    """An ``on_answer`` callback for :meth:`Broker.negotiate` that reports to ``ctx``.

    Reports are sent one at a time, in the order answers are counted, so the client sees
    ``progress`` only grow, and the last report is ``total`` once every site has answered.

    Args:
        ctx: the tool call's context (holds the client's progress token, if any).
        total: how many sites the fan-out asks.
    """

    def __init__(self, ctx: Context, total: int) -> None:
        self.ctx = ctx
        self.total = total
        self.done = 0
        self._turn = asyncio.Lock()

    async def __call__(self, proposals: Sequence[Proposal]) -> None:
        async with self._turn:
            self.done = min(self.total, self.done + len(proposals))
            said = ", ".join(f"{p.site} {p.verdict.value}" for p in proposals)
            message = f"{self.done}/{self.total} sites answered ({said})"
            try:
                await self.ctx.report_progress(self.done, self.total, message)
            except Exception as exc:  # noqa: BLE001 - a lost notification must not fail the negotiation
                log.debug("progress not reported: %s", exc)
