"""Forwarding worker-tool calls to a hub's own fleet (the dual role: a hub of hubs).

A parent hub calls this hub's worker tools exactly as it calls a worker's; each call goes to
the named site of this hub's fleet through that site's transport. A DOWN or failing site gives
a transient error envelope, so the parent reports it UNREACHABLE or fails over.
"""

from __future__ import annotations

import asyncio
from typing import Any

from endpoint_plugins.service import Operation, error_envelope
from secretary_executor.hub.fanout import FederatedFleet


class FleetBackend:
    """A :class:`~endpoint_plugins.mcp_worker.SiteBackend` over a hub's fleet."""

    def __init__(self, fleet: FederatedFleet) -> None:
        self.fleet = fleet

    def __repr__(self) -> str:
        return f"FleetBackend({self.fleet!r})"

    def site_names(self) -> list[str]:
        return self.fleet.names

    async def call(self, site: str, op: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        if self.fleet.is_down(site):
            return error_envelope("Unreachable", f"site {site!r} is down", transient=True)
        target = self.fleet.get(site)
        try:
            return await asyncio.wait_for(target.transport.call(op, payload), target.timeout_s)
        except TimeoutError:
            why = f"site {site!r} did not answer {op.value} within {target.timeout_s:g} s"
        except Exception as exc:  # noqa: BLE001 - any transport failure is "unreachable"
            why = f"site {site!r} unreachable: {type(exc).__name__}: {exc}"
        return error_envelope("Unreachable", why, transient=True)
