"""A site's Secretary (or several) served over MCP to the hub that registered it.

Six worker tools, each a thin wrapper over :func:`endpoint_plugins.service.handle`: the
service envelope is the tool's structured result, so the hub reads exactly what an in-process
site would return. Every call needs the bearer credential the hub was issued at registration
(checked in constant time by :class:`~endpoint_plugins.mcp_auth.BearerTable`); before
registration no call is accepted. One worker may host many sites (e.g. simulated ones), so each
tool names the site it is for; ``ask_secretaries`` negotiates for many of them in one call
(:mod:`endpoint_plugins.mcp_batch`).

The same tools are mounted by a hub acting as a worker of a parent hub (``--role dual``); it
passes a backend that forwards to its own fleet instead of local Secretaries.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mcp.server import MCPServer
from mcp.types import CallToolResult

from endpoint_plugins import __version__
from endpoint_plugins.blocking import SHARED, SiteBusyError
from endpoint_plugins.mcp_auth import BearerTable, auth_settings, caller
from endpoint_plugins.mcp_batch import (
    MAX_BATCH_SITES,
    SiteAsk,
    answer_all,
    batch_result,
)
from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.secretary import Secretary
from endpoint_plugins.service import Operation, error_envelope, handle
from endpoint_plugins.tool_hints import READS_SITES, STARTS_WORK, STOPS_WORK
from providers.wire import Requirements
from providers.wire.common import WireModel

log = logging.getLogger(__name__)

HUB_SCOPE = "hub"
"""The scope of the credential a hub was issued for calling this worker."""

TOOL_FOR: dict[Operation, str] = {
    Operation.NEGOTIATE: "ask_secretary",
    Operation.DISPATCH: "dispatch",
    Operation.STATUS: "status",
    Operation.CANCEL: "cancel",
    Operation.DESCRIBE: "describe",
    Operation.OUTPUT: "output",
}
"""The worker tool that carries each service operation."""


class ErrorInfo(WireModel):
    type: str
    message: str
    transient: bool = False


class Envelope(WireModel):
    """The service envelope as a tool result: ``result`` when ``ok``, else ``error``."""

    ok: bool
    result: dict[str, Any] | None = None
    error: ErrorInfo | None = None


class SiteBackend(Protocol):
    """Where worker tools send operations: local Secretaries, or a hub's fleet."""

    def site_names(self) -> list[str]: ...

    async def call(self, site: str, op: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        """Run one operation for ``site``; always an envelope, never an exception."""
        ...


class SecretaryBackend:
    """Local Secretaries by site name. Real sites run in a thread (probes may block)."""

    def __init__(self, secretaries: Mapping[str, Secretary]) -> None:
        self.secretaries = dict(secretaries)

    def __repr__(self) -> str:
        return f"SecretaryBackend(sites={list(self.secretaries)!r})"

    def site_names(self) -> list[str]:
        return list(self.secretaries)

    async def call(self, site: str, op: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        secretary = self.secretaries[site]
        if secretary.config.state_file is not None:
            return handle(secretary, op.value, payload)
        try:
            return await SHARED.call(site, handle, secretary, op.value, payload)
        except SiteBusyError as exc:
            return error_envelope(type(exc).__name__, exc.message, transient=True)


Authorize = Callable[[], str | None]
"""Returns None when the current caller may use the worker tools, else why not."""


def require_scope(scope: str, *, enabled: bool) -> Authorize:
    """An authorizer that admits only bearer tokens of ``scope`` (when auth is ``enabled``)."""

    def check() -> str | None:
        if not enabled:
            return None
        who = caller()
        if who is None or who[1] != scope:
            return f"this tool needs a {scope!r} credential"
        return None

    return check


def add_worker_tools(mcp: MCPServer, backend: SiteBackend, authorize: Authorize) -> None:
    """Register ask_secretary, ask_secretaries, dispatch, status, cancel and describe.

    Postcondition: each tool answers with an :class:`Envelope`; bad input, an unknown site or
    a refused caller give ``ok: false`` with a one-line message, never an exception.
    """

    async def run(site: str, op: Operation, payload: dict[str, Any]) -> Envelope:
        denied = authorize()
        if denied is not None:
            return Envelope.model_validate(error_envelope("Unauthorized", denied))
        names = backend.site_names()
        if not site and len(names) == 1:
            site = names[0]
        if site not in names:
            return Envelope.model_validate(
                error_envelope(
                    "BadRequest", f"unknown site {site!r}; this worker serves: {', '.join(names)}"
                )
            )
        return Envelope.model_validate(await backend.call(site, op, payload))

    @mcp.tool(annotations=READS_SITES)
    async def ask_secretary(
        site: str = "",
        requirements: dict[str, Any] | None = None,
        text: str = "",
        request_id: str = "",
    ) -> Envelope:
        """Ask a site's Secretary for a proposal: structured requirements, or text to parse."""
        if requirements is None:
            requirements = (parse_requirements(text) if text else Requirements()).model_dump(
                mode="json"
            )
        payload = {"request_id": request_id, "requirements": requirements}
        log.info("ask_secretary: site %r", site)
        return await run(site, Operation.NEGOTIATE, payload)

    @mcp.tool(annotations=READS_SITES)
    async def ask_secretaries(
        sites: list[SiteAsk],
        requirements: dict[str, Any] | None = None,
        request_id: str = "",
        concurrency: int = 32,
    ) -> CallToolResult:
        """Ask several of this worker's sites at once about the same requirements.

        Each entry names a site and its own deadline; at most ``concurrency`` sites are answered
        at once. The result is one text block, a BatchReply as JSON: one answer per site, in
        order, each the envelope ``ask_secretary`` would give; a site that fails or overruns its
        deadline gets an error envelope in its slot while the others answer.
        """
        requests = sites
        denied = authorize()
        if denied is None and len(requests) > MAX_BATCH_SITES:
            denied = f"a batch may carry at most {MAX_BATCH_SITES} sites, got {len(requests)}"
        if denied is not None:
            refusal = error_envelope("Unauthorized" if authorize() else "BadRequest", denied)
            return batch_result(
                {"answers": [{"site": r.site, "envelope": refusal} for r in requests]}
            )
        names = set(backend.site_names())
        body = Requirements().model_dump(mode="json") if requirements is None else requirements
        payload = {"request_id": request_id, "requirements": body}

        async def ask(item: SiteAsk) -> dict[str, Any]:
            if item.site not in names:
                return error_envelope(
                    "BadRequest",
                    f"unknown site {item.site!r}; this worker serves: {', '.join(sorted(names))}",
                )
            return await backend.call(item.site, Operation.NEGOTIATE, dict(payload))

        return await answer_all(requests, ask, concurrency=concurrency)

    @mcp.tool(annotations=STARTS_WORK)
    async def dispatch(
        request: dict[str, Any], site: str = "", plan: dict[str, Any] | None = None
    ) -> Envelope:
        """Submit a job request (a JobRequest document) to the site's workload manager."""
        return await run(site, Operation.DISPATCH, {"request": request, "plan": plan or {}})

    @mcp.tool(annotations=READS_SITES)
    async def status(native_id: str, site: str = "", provider: str | None = None) -> Envelope:
        """The state of a job the site accepted."""
        payload = {"native_id": native_id, "provider": provider}
        return await run(site, Operation.STATUS, payload)

    @mcp.tool(annotations=STOPS_WORK)
    async def cancel(native_id: str, site: str = "", provider: str | None = None) -> Envelope:
        """Cancel a job the site accepted; returns its state afterwards."""
        payload = {"native_id": native_id, "provider": provider}
        return await run(site, Operation.CANCEL, payload)

    @mcp.tool(annotations=READS_SITES)
    async def describe(site: str = "") -> Envelope:
        """What the site has (providers and facts) and which tools it offers."""
        return await run(site, Operation.DESCRIBE, {})

    @mcp.tool(annotations=READS_SITES)
    async def output(
        native_id: str, site: str = "", provider: str | None = None, max_bytes: int = 65536
    ) -> Envelope:
        """The end of a job's standard output and error (at most max_bytes of each)."""
        payload = {"native_id": native_id, "provider": provider, "max_bytes": max_bytes}
        return await run(site, Operation.OUTPUT, payload)


class WorkerServer:
    """The MCP server of a worker: worker tools behind the hub-issued credential.

    Args:
        secretaries: the sites this worker serves, by name.
        url: the URL the hub will call (``http://host:port/mcp``), used for auth metadata.
    """

    def __init__(self, secretaries: Mapping[str, Secretary], *, url: str) -> None:
        self.url = url
        self.backend = SecretaryBackend(secretaries)
        self.tokens = BearerTable()
        self.mcp: MCPServer = MCPServer(
            "secretary-worker",
            version=__version__,
            instructions="Site Secretaries; called by the hub that registered this worker.",
            token_verifier=self.tokens,
            auth=auth_settings(url),
        )
        add_worker_tools(self.mcp, self.backend, require_scope(HUB_SCOPE, enabled=True))

    def __repr__(self) -> str:
        return f"WorkerServer(sites={self.backend.site_names()!r}, url={self.url!r})"

    def accept_hub(self, hub: str, credential: str) -> None:
        """Accept ``credential`` from now on (and no earlier credential of that hub)."""
        self.tokens.revoke_client(hub)
        self.tokens.grant(credential, hub, HUB_SCOPE)
