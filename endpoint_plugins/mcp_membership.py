"""Joining a hub: register with a join token, keep a credential, heartbeat, rejoin.

The worker calls the hub's ``register_worker`` tool presenting the join token (read from a
file, never logged); the hub answers with a per-worker credential, which the worker then
accepts on its own endpoint (the hub presents it on every call) and presents in its
heartbeats. A heartbeat refused with 401 means the hub dropped this worker (missed heartbeats,
hub restart): the worker registers again and gets a fresh credential. A hub that cannot be
reached is retried on the next beat, so a worker outlives hub restarts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from pydantic import Field

from endpoint_plugins.errors import SiteConfigError, SiteError
from endpoint_plugins.mcp_auth import cleartext_problem
from endpoint_plugins.mcp_client import McpCallError, McpConnection, call_once
from providers.wire.common import WireModel

log = logging.getLogger(__name__)

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"


class Registration(WireModel):
    """What the hub answers to ``register_worker``."""

    worker: str
    hub: str
    credential: str = Field(repr=False)
    heartbeat_s: float


class HeartbeatReply(WireModel):
    worker: str
    state: str
    next_in_s: float


class Membership:
    """Keeps one worker (or child hub) registered at one hub.

    Args:
        hub_url: the hub's MCP endpoint.
        join_token: the shared secret that admits workers (from a file). Never logged.
        worker: this worker's name at the hub.
        url: where the hub reaches this worker.
        sites: the site names this worker serves.
        on_credential: called with each new credential (install it on the worker endpoint).
        timeout_s: deadline of each call to the hub.
        allow_insecure_http: join a hub on another host over plain http (the join token then
            travels in clear); refused otherwise.

    Raises:
        SiteConfigError: a plain-http ``hub_url`` on another host without the opt-out.
    """

    def __init__(
        self,
        *,
        hub_url: str,
        join_token: str,
        worker: str,
        url: str,
        sites: Sequence[str],
        on_credential: Callable[[str, str], None],
        timeout_s: float = 10.0,
        allow_insecure_http: bool = False,
    ) -> None:
        if not allow_insecure_http and (problem := cleartext_problem(hub_url, "hub url")):
            raise SiteConfigError(problem)
        self.hub_url = hub_url
        self._join_token = join_token
        self.worker = worker
        self.url = url
        self.sites = list(sites)
        self.on_credential = on_credential
        self.timeout_s = timeout_s
        self.registration: Registration | None = None
        self._credential: str | None = None
        self.joins = 0
        self._wake = asyncio.Event()
        self._beats: McpConnection | None = None

    def __repr__(self) -> str:
        return (
            f"Membership(hub_url={self.hub_url!r}, worker={self.worker!r}, sites={len(self.sites)})"
        )

    async def register(self) -> Registration:
        """Register (or re-register) and install the new credential.

        Raises:
            McpCallError: the hub is unreachable, or refused the join token (``status`` 401).
            SiteError: the hub refused the registration (the message says why).
        """
        arguments: dict[str, object] = {"name": self.worker, "url": self.url, "sites": self.sites}
        if self._credential:
            # While this worker is UP, only its current credential lets it register again.
            arguments["credential"] = self._credential
        try:
            data = await call_once(
                self.hub_url,
                "register_worker",
                arguments,
                token=self._join_token,
                timeout_s=self.timeout_s,
            )
        except McpCallError as exc:
            if exc.status == 401:
                raise McpCallError(
                    f"{self.hub_url}: the hub refused this worker's join token (HTTP 401): check "
                    "--join-token-file, or ask the hub administrator whether the token was "
                    "revoked ('secretary hub add-worker NAME' issues a new one)",
                    status=401,
                ) from None
            raise
        if not data.get("ok", True) and "error" in data:
            raise SiteError(f"hub refused registration: {data['error']}")
        reg = Registration.model_validate(data)
        self._credential = reg.credential
        self.on_credential(reg.hub, reg.credential)
        if self._beats is not None:
            await self._beats.close()
        self._beats = McpConnection(self.hub_url, reg.credential, connect_timeout_s=self.timeout_s)
        self.registration = reg
        self.joins += 1
        log.info("worker %s joined hub %s (%d sites)", self.worker, reg.hub, len(self.sites))
        return reg

    async def beat(self) -> float:
        """One heartbeat (registering first if needed); returns the seconds to the next one."""
        if self.registration is None or self._beats is None:
            return (await self.register()).heartbeat_s
        try:
            data = await self._beats.call(
                "heartbeat", {"name": self.worker}, timeout_s=self.timeout_s
            )
        except McpCallError as exc:
            if exc.status == 401:
                log.warning("hub %s dropped worker %s; rejoining", self.hub_url, self.worker)
                self.registration = None
                return (await self.register()).heartbeat_s
            await self._beats.close()  # reconnect at the next beat (a 401 shows there)
            raise
        reply = HeartbeatReply.model_validate(data)
        return reply.next_in_s

    def refresh(self, sites: Sequence[str]) -> None:
        """Serve a new list of sites: register again at the next beat, which comes at once."""
        self.sites = list(sites)
        self.registration = None
        self._wake.set()

    async def run(self, stop: asyncio.Event) -> None:
        """Beat until ``stop`` is set. Failures are logged and retried; never raises."""
        delay = 1.0
        while not stop.is_set():
            started = time.monotonic()
            try:
                # The period runs from the start of a beat, so a slow beat is not a late one.
                delay = max(0.0, await self.beat() - (time.monotonic() - started))
            except SiteError as exc:
                log.warning("worker %s: %s", self.worker, exc.message)
                delay = min(max(delay, 1.0) * 2, 30.0) if self.registration is None else delay
            self._wake.clear()
            waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
            _, pending = await asyncio.wait(waits, timeout=delay, return_when="FIRST_COMPLETED")
            for task in waits:
                task.cancel()
        if self._beats is not None:
            await self._beats.close()
