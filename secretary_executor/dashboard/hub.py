"""The dashboard of a running hub: its data, and the hub's own ``client`` tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.applications import Starlette

from secretary_executor.dashboard.app import dashboard_app
from secretary_executor.dashboard.security import Authorizer
from secretary_executor.dashboard.sources import HubSource
from secretary_executor.hub.auth import CLIENT, is_loopback

if TYPE_CHECKING:
    from secretary_executor.hub.server import Hub

LOOPBACK_HOSTS = ("127.0.0.1", "localhost")
"""The ``Host`` names a loopback server answers (anything else is a DNS-rebinding attempt)."""


def hub_dashboard(hub: Hub) -> Starlette:
    """The dashboard app for ``hub``: readable with a ``client`` token, as the MCP tools are.

    A worker's credential or a join token is refused: they are for joining and heartbeats, not
    for reading what clients asked. A hub with auth off (loopback, no tokens) leaves the
    dashboard open too, like its MCP endpoint.
    """
    verifier = hub.verifier
    authorize: Authorizer | None = None
    if verifier is not None:

        async def authorize(token: str) -> bool:
            found = await verifier.verify_token(token)
            return found is not None and CLIENT in found.scopes

    hosts = LOOPBACK_HOSTS if is_loopback(hub.config.host) else None
    return dashboard_app(HubSource(hub), authorize=authorize, allowed_hosts=hosts)
