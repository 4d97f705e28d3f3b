"""The hub: an MCP facade over the Broker, and the place workers register.

Clients (agents, people) call ``negotiate_job``, ``select_proposal``, ``dispatch_job``,
``job_status``, ``cancel_job``, ``list_sites``, ``describe_site`` and
``list_selection_algorithms``; workers call ``register_worker`` and ``heartbeat``. Each tool
checks the scope of the caller's bearer token (see :mod:`secretary_executor.hub.auth`). Every
request goes through :class:`~secretary_executor.broker.Broker` over a
:class:`~secretary_executor.hub.fanout.FederatedFleet` whose remote sites use
:class:`~secretary_executor.sites.mcp.McpTransport`, so a request behaves the same here as in
``resource-ask``. With a ``parent`` in the config (``--role dual``) the hub also serves the
worker tools for its own sites and registers with the parent: a hub of hubs.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar, cast

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, CallToolResult, TextContent
from mcp.types import Tool as MCPTool
from pydantic import Field
from starlette.applications import Starlette
from starlette.routing import Mount

from endpoint_plugins.errors import SiteConfigError, SiteError
from endpoint_plugins.mcp_auth import auth_settings, caller, read_token_file
from endpoint_plugins.mcp_client import SERVER_KEEPALIVE_S, McpConnection
from endpoint_plugins.mcp_membership import Membership
from endpoint_plugins.mcp_worker import HUB_SCOPE, add_worker_tools, require_scope
from endpoint_plugins.reply_cap import reply_cap_for
from endpoint_plugins.secretary import SiteDescription
from endpoint_plugins.tool_hints import (
    MEMBERSHIP,
    READS_HERE,
    READS_SITES,
    STARTS_WORK,
    STOPS_WORK,
)
from providers.errors import ProviderError
from providers.wire import (
    DispatchReceipt,
    JobOutput,
    JobRequest,
    JobStatus,
    Policy,
    Proposal,
    Requirements,
)
from providers.wire.jobs import MAX_OUTPUT_BYTES
from providers.wire.strict import validate_user_input
from secretary_executor import __version__
from secretary_executor.broker import Broker, NegotiationResult
from secretary_executor.cost_guard import max_cost_usd as max_cost_usd_in_force
from secretary_executor.cost_guard import over_ceiling
from secretary_executor.errors import (
    ConfigurationError,
    DispatchError,
    SecretaryError,
    UnknownJobError,
)
from secretary_executor.hub import extensions
from secretary_executor.hub.auth import (
    CLIENT,
    JOIN,
    WORKER,
    HubVerifier,
    grant_join_tokens,
    hub_tokens,
    is_bound_to,
    join_refusal,
)
from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.events import JobEvents, JobView
from secretary_executor.hub.fanout import FederatedFleet
from secretary_executor.hub.forward import FleetBackend
from secretary_executor.hub.join_tokens import JoinTokens, load_join_tokens
from secretary_executor.hub.models import PROMPTS, Algorithms, FleetStatus, SiteEntry
from secretary_executor.hub.progress import FanOutProgress
from secretary_executor.hub.registry import (
    HeartbeatAck,
    RegistrationError,
    RegistrationReply,
    Registry,
    WorkerState,
)
from secretary_executor.hub.summaries import negotiation_text, selection_text, site_text
from secretary_executor.hub.tool_schemas import (
    AlgorithmArg,
    DetailArg,
    JobIdArg,
    PolicyArg,
    RequestIdArg,
    RequirementsArg,
    SiteDetailArg,
)
from secretary_executor.hub.views import (
    NegotiationView,
    SelectionView,
    SiteView,
    detail_level,
    negotiation_view,
    selection_view,
    site_view,
)
from secretary_executor.ledger import Ledger
from secretary_executor.select.registry import list_selectors
from secretary_executor.sites.base import Site
from secretary_executor.sites.fleet import load_fleet
from secretary_executor.sites.mcp import McpTransport

log = logging.getLogger(__name__)

_KEEP_RESULTS = 512


class HubToolError(SecretaryError):
    """A tool call the hub refuses; the message says why and what to send instead."""


_Fn = TypeVar("_Fn", bound=Callable[..., Awaitable[Any]])


def _as_tool_error(fn: _Fn) -> _Fn:
    """Expected failures reach the client as a one-line tool error, not a generic crash."""

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except UnknownJobError as exc:
            # The ledger's hint names a CLI command; an agent has tools instead.
            if not exc.job_id:
                raise ToolError(exc.message) from None
            raise ToolError(
                f"unknown job {exc.job_id!r}; use the job_id from a dispatch_job receipt"
            ) from None
        except (SecretaryError, SiteError, ProviderError) as exc:
            raise ToolError(exc.message) from None

    return cast(_Fn, wrapper)


def _as_resource_error(fn: _Fn) -> _Fn:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except (SecretaryError, SiteError, ProviderError) as exc:
            raise ResourceError(exc.message) from None

    return cast(_Fn, wrapper)


WORKER_ONLY_TOOLS = frozenset({"register_worker", "heartbeat"})
"""Tools for workers joining this hub: listed only to a caller holding a join token or a
worker credential, so an agent's tool list holds only what it can use."""


class _HubServer(MCPServer):
    """The hub's MCP server: lists the worker-only tools to workers alone."""

    async def list_tools(self) -> list[MCPTool]:
        tools = await super().list_tools()
        who = caller()
        if who is not None and who[1] in (JOIN, WORKER):
            return tools
        return [t for t in tools if t.name not in WORKER_ONLY_TOOLS]


def _render_request_template(kind: str, command: str, cores: str, nodes: str, hours: str) -> str:
    """The prompt's text; a bad argument is the client's mistake: an invalid-params error that
    names it (the SDK would otherwise answer "Internal server error")."""
    template = PROMPTS.get(kind)
    if template is None:
        raise MCPError(INVALID_PARAMS, f"unknown kind {kind!r}; use one of {', '.join(PROMPTS)}")
    for name, value in (("cores", cores), ("nodes", nodes), ("hours", hours)):
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if not number > 0:
            raise MCPError(INVALID_PARAMS, f"{name} must be a positive number, got {value!r}")
    return template.format(command=command, cores=cores, nodes=nodes, hours=hours)


class Hub:
    """One hub process: registry, fleet, broker, events and the MCP server.

    Args:
        config: the validated hub configuration.
        transport: ``http`` (streamable HTTP, bearer auth per the config) or ``stdio``.

    Raises:
        ConfigurationError: unusable auth settings, fleet file or extension.
    """

    def __init__(self, config: HubConfig, *, transport: str = "http") -> None:
        self.config = config
        static = load_fleet(config.fleet).sites if config.fleet else []
        self.registry = Registry(
            heartbeat_s=config.heartbeat_s,
            miss_limit=config.miss_limit,
            reserved_sites=[s.name for s in static],
            worker_hosts=config.worker_hosts,
            max_sites=config.max_sites_per_worker,
            forget_after_s=config.forget_down_after_s,
            allow_insecure_http=config.allow_insecure_http,
        )
        self.fleet = FederatedFleet(static, fanout=config.fanout, is_down=self.registry.is_down)
        self.broker = Broker(self.fleet, Ledger(config.ledger) if config.ledger else None)
        self.tokens = hub_tokens(config, transport=transport)
        self.auth_enabled = self.tokens is not None
        self.join_tokens: JoinTokens | None = None
        self._join_mtime: int | None = None
        self._to_drop: set[str] = set()
        if self.tokens is not None and config.join_token_file is not None:
            self._join_mtime = os.stat(config.join_token_file).st_mtime_ns
            self.join_tokens = load_join_tokens(config.join_token_file)
        if config.parent is not None and not self.auth_enabled:
            raise ConfigurationError(
                "the dual role needs token_file in the hub config (the parent's calls are "
                "authenticated with the credential it issues)"
            )
        self.bus = InMemorySubscriptionBus()
        self.events = JobEvents(self.broker, self.bus, poll_s=config.job_poll_s)
        self.connections: dict[str, McpConnection] = {}
        self.worker_sites: dict[str, tuple[str, ...]] = {}
        self.results: OrderedDict[str, NegotiationResult] = OrderedDict()
        self.membership: Membership | None = None
        verifier = (
            HubVerifier(self.tokens, self.registry, reload=self._reload_join_tokens)
            if self.tokens is not None
            else None
        )
        self.verifier = verifier
        """Checks bearer tokens (the dashboard's too); None when auth is off."""
        self.mcp: MCPServer = _HubServer(
            config.name,
            version=__version__,
            instructions=(
                "Find where a job can run across the registered sites, choose one and run it: "
                "negotiate_job, then select_proposal, then dispatch_job, then job_status."
            ),
            token_verifier=verifier,
            auth=auth_settings(config.url) if verifier is not None else None,
            subscriptions=self.bus,
        )
        self._add_client_tools()
        self._add_worker_admin_tools()
        self._add_resources_and_prompts()
        self.extensions = extensions.install(self.mcp, config.extensions)
        if config.parent is not None:
            self._join_parent()

    def __repr__(self) -> str:
        return f"Hub(name={self.config.name!r}, sites={self.fleet.names!r})"

    # -- authorisation ---------------------------------------------------------------------

    def _require(self, scope: str) -> str | None:
        """The caller's name when it holds ``scope``; raises otherwise (None: auth off)."""
        if not self.auth_enabled:
            if scope in (JOIN, WORKER):
                raise HubToolError(
                    "this hub accepts no workers: set token_file and join_token_file in its config"
                )
            return None
        who = caller()
        if who is None or who[1] != scope:
            raise HubToolError(f"this tool needs a {scope!r} token")
        return who[0]

    # -- client tools ----------------------------------------------------------------------

    def _remember(self, result: NegotiationResult) -> None:
        self.results[result.request.request_id] = result
        while len(self.results) > _KEEP_RESULTS:
            self.results.popitem(last=False)

    def _result(self, request_id: str) -> NegotiationResult:
        # A negotiation from before a restart is read back from the ledger.
        found = self.results.get(request_id) or self.broker.recall(request_id)
        if found is None:
            raise HubToolError(
                f"unknown request {request_id!r}; call negotiate_job first and pass its "
                "request.request_id"
            )
        return found

    def _add_client_tools(self) -> None:
        mcp, broker = self.mcp, self.broker

        @mcp.tool(annotations=READS_SITES)
        @_as_tool_error
        async def negotiate_job(
            text: Annotated[
                str, Field(description='The request in words, e.g. "16 cores, 2 hours, lammps".')
            ] = "",
            requirements: RequirementsArg = None,
            command: Annotated[
                list[str] | None,
                Field(description="The job's argument vector, e.g. ['python', 'run.py']."),
            ] = None,
            policy: PolicyArg = None,
            sites: Annotated[
                list[str] | None,
                Field(description="Ask only these sites (names from list_sites); default all."),
            ] = None,
            detail: DetailArg = "summary",
            ctx: Context | None = None,
        ) -> Annotated[CallToolResult, NegotiationView]:
            """Ask every site (or `sites`) whether it can run the request; one proposal per site.

            Give `text` or structured `requirements` (or both: the structured fields win). Next:
            select_proposal, then dispatch_job with the returned `request_id`. `detail` says how
            much comes back (default `summary`); requests://{request_id} has everything. With a
            progress token, each site's answer is reported as it arrives.
            """
            self._require(CLIENT)
            level = detail_level(detail)
            try:
                reqs = validate_user_input(Requirements, requirements) if requirements else None
                pol = Policy.model_validate(policy) if policy else None
                request = broker.prepare(text, requirements=reqs, command=command or (), policy=pol)
            except ValueError as exc:
                raise HubToolError(f"bad request: {exc}") from None
            total = len(sites) if sites is not None else len(self.fleet.names)
            progress = FanOutProgress(ctx, total) if ctx is not None else None
            result = await broker.negotiate(request, only=sites, on_answer=progress)
            self._remember(result)
            return CallToolResult(
                content=[TextContent(type="text", text=negotiation_text(result, level))],
                structured_content=negotiation_view(result, level),
            )

        @mcp.tool(annotations=READS_HERE)
        @_as_tool_error
        async def select_proposal(
            request_id: RequestIdArg, algorithm: AlgorithmArg = None, detail: DetailArg = "summary"
        ) -> Annotated[CallToolResult, SelectionView]:
            """Choose among a negotiation's proposals (algorithm: see list_selection_algorithms).

            `detail` cuts the chosen proposal as negotiate_job's `detail` cuts each proposal.
            """
            self._require(CLIENT)
            level = detail_level(detail)
            outcome = broker.select(self._result(request_id), algorithm)
            return CallToolResult(
                content=[TextContent(type="text", text=selection_text(outcome, request_id, level))],
                structured_content=selection_view(outcome, level),
            )

        @mcp.tool(annotations=STARTS_WORK)
        @_as_tool_error
        async def dispatch_job(
            request_id: RequestIdArg,
            site: Annotated[
                str | None,
                Field(description="Run it at this site; default: the selected one, with failover."),
            ] = None,
            algorithm: AlgorithmArg = None,
            command: Annotated[
                list[str] | None,
                Field(description="The job's argument vector, if not given at negotiate_job."),
            ] = None,
            force: Annotated[
                bool, Field(description="Dispatch even where the proposal says it cannot run.")
            ] = False,
            idempotency_key: Annotated[
                str | None,
                Field(
                    description="8-128 of letters, digits, ._:@- : a repeat returns the first job."
                ),
            ] = None,
            max_cost_usd: Annotated[
                float | None,
                Field(
                    description="Largest estimated cost to dispatch (default "
                    "$SECRETARY_MAX_COST_USD or 100); a dearer site is refused, with its estimate."
                ),
            ] = None,
        ) -> DispatchReceipt:
            """Run a negotiated request at `site`, or at the selected site with failover.

            A `site` whose proposal says the job cannot run there is refused unless `force`.
            Give an `idempotency_key` (8-128 of letters, digits, `._:@-`) to make retries
            safe: the same key returns the first receipt, never a second job.
            """
            self._require(CLIENT)
            result = self._result(request_id)
            request = result.request
            if command:
                request = request.model_copy(update={"command": tuple(command)})
            ceiling = max_cost_usd_in_force(max_cost_usd)
            if site is not None:
                self._check_cost(result.proposal(site), ceiling)
                receipt = await broker.dispatch(
                    request, site, result.proposal(site), force=force, key=idempotency_key
                )
            else:
                receipt = await self._dispatch_ranked(
                    result, request, algorithm, idempotency_key, ceiling
                )
            self.events.follow(receipt.job_id)
            await self.events.publish(receipt.job_id)
            return receipt

        @mcp.tool(annotations=READS_SITES)
        @_as_tool_error
        async def job_status(job_id: JobIdArg) -> JobView:
            """The job's state now (asked of its site), with every state change so far."""
            self._require(CLIENT)
            return await self.events.refresh(job_id)

        @mcp.tool(annotations=STOPS_WORK)
        @_as_tool_error
        async def cancel_job(job_id: JobIdArg) -> JobStatus:
            """Cancel a job; a finished job keeps its final state."""
            self._require(CLIENT)
            status = await broker.cancel(job_id)
            await self.events.publish(job_id)
            return status

        @mcp.tool(annotations=READS_SITES)
        @_as_tool_error
        async def job_output(
            job_id: JobIdArg,
            max_bytes: Annotated[
                int,
                Field(ge=1, le=MAX_OUTPUT_BYTES, description="Bytes from the end of each stream."),
            ] = 8192,
        ) -> JobOutput:
            """The end of a job's standard output and error, read at the site that ran it."""
            self._require(CLIENT)
            return await broker.output(job_id, max_bytes=max_bytes)

        @mcp.tool(annotations=READS_HERE)
        @_as_tool_error
        async def list_sites() -> FleetStatus:
            """Every site and worker, with whether it is UP or DOWN."""
            self._require(CLIENT)
            return self.fleet_status()

        @mcp.tool(annotations=READS_SITES)
        @_as_tool_error
        async def describe_site(
            name: Annotated[str, Field(description="A site name from list_sites.")],
            detail: SiteDetailArg = "summary",
        ) -> Annotated[CallToolResult, SiteView]:
            """A site's providers, facts and tools (its manifest); sites://{name} has everything."""
            self._require(CLIENT)
            level = detail_level(detail)
            site = await self._describe(name)
            return CallToolResult(
                content=[TextContent(type="text", text=site_text(site, level))],
                structured_content=site_view(site, level),
            )

        @mcp.tool(annotations=READS_HERE)
        @_as_tool_error
        async def list_selection_algorithms() -> Algorithms:
            """The selection algorithms select_proposal accepts, with when each fits."""
            self._require(CLIENT)
            return Algorithms(algorithms=tuple(list_selectors()))

    @staticmethod
    def _check_cost(proposal: Proposal | None, ceiling: float) -> None:
        if proposal is not None and (problem := over_ceiling(proposal, ceiling)):
            raise HubToolError(f"not dispatched: {problem}")

    async def _dispatch_ranked(
        self,
        result: NegotiationResult,
        request: JobRequest,
        algorithm: str | None,
        key: str | None = None,
        ceiling: float | None = None,
    ) -> DispatchReceipt:
        # Each site gets its own key, KEY@SITE: a refusal frees the next site to take the job.
        if key:
            earlier = self.broker.ledger.dispatched_under(f"{key}@")
            if earlier:
                # A retry: the site that took (or may have taken) the first try is the only
                # one it may go to, whatever the ranking says now.
                record, site_key = earlier[0]
                return await self.broker.dispatch(
                    request, record.site, result.proposal(record.site), key=site_key, force=True
                )
        outcome = self.broker.select(result, algorithm)
        if outcome.chosen is None:
            raise HubToolError("no site can run this request: " + "; ".join(outcome.notes))
        errors = []
        for name in outcome.ranked or (outcome.chosen.site,):
            if ceiling is not None:
                self._check_cost(result.proposal(name), ceiling)
            try:
                site_key = f"{key}@{name}" if key else None
                return await self.broker.dispatch(
                    request, name, result.proposal(name), key=site_key
                )
            except DispatchError as exc:
                errors.append(exc.message)
                if not exc.transient:
                    raise
        raise DispatchError("every ranked site refused the job: " + "; ".join(errors))

    async def _describe(self, name: str) -> SiteDescription:
        site = self.fleet.get(name)
        if self.registry.is_down(name):
            raise HubToolError(f"site {name!r} is down (its worker missed its heartbeats)")
        return await site.describe()

    def fleet_status(self) -> FleetStatus:
        owner = {s: w for w, sites in self.worker_sites.items() for s in sites}
        entries = tuple(
            SiteEntry(
                name=n,
                worker=owner.get(n),
                state=WorkerState.DOWN if self.registry.is_down(n) else WorkerState.UP,
            )
            for n in self.fleet.names
        )
        return FleetStatus(
            hub=self.config.name, sites=entries, workers=tuple(self.registry.workers())
        )

    # -- worker tools ----------------------------------------------------------------------

    def _add_worker_admin_tools(self) -> None:
        mcp = self.mcp

        @mcp.tool(annotations=MEMBERSHIP)
        @_as_tool_error
        async def register_worker(
            name: str, url: str, sites: list[str], credential: str | None = None
        ) -> RegistrationReply:
            """Join this hub (needs the join token); returns the worker's own credential.

            A worker that is still UP registers again (to change its sites) by passing its
            current ``credential``; without it, its name cannot be taken over, unless the join
            token is bound to that name (the worker itself, restarted).
            """
            joiner = self._require(JOIN)
            self._reload_join_tokens()
            if refusal := join_refusal(joiner, name, self.join_tokens):
                raise HubToolError(refusal)
            try:
                credential = self.registry.register(
                    name, url, sites, credential, bound_token=is_bound_to(joiner, name)
                )
            except RegistrationError as exc:
                raise HubToolError(exc.message) from None
            await self._attach(name, url, tuple(sites), credential)
            log.info("worker %s registered %d site(s) from %s", name, len(sites), url)
            return RegistrationReply(
                worker=name,
                hub=self.config.name,
                credential=credential,
                heartbeat_s=self.config.heartbeat_s,
            )

        @mcp.tool(annotations=MEMBERSHIP)
        @_as_tool_error
        async def heartbeat(name: str) -> HeartbeatAck:
            """A worker is alive (needs that worker's credential)."""
            who = self._require(WORKER)
            if who != name:
                raise HubToolError(f"this credential belongs to worker {who!r}, not {name!r}")
            try:
                record = self.registry.heartbeat(name)
            except RegistrationError as exc:
                raise HubToolError(exc.message) from None
            return HeartbeatAck(worker=name, state=record.state, next_in_s=self.config.heartbeat_s)

    async def _attach(self, worker: str, url: str, sites: tuple[str, ...], credential: str) -> None:
        old = self.connections.pop(worker, None)
        # A batch reply carries up to `largest_group` proposals; its cap grows with them.
        cap = reply_cap_for(min(len(sites), self.fleet.fanout.largest_group))
        conn = McpConnection(
            url, credential, connect_timeout_s=self.config.site_timeout_s, max_reply_bytes=cap
        )
        self.connections[worker] = conn
        timeout = self.config.site_timeout_s
        new = [Site(s, McpTransport(conn, s, timeout_s=timeout), timeout_s=timeout) for s in sites]
        self.fleet.remove(set(self.worker_sites.get(worker, ())) - set(sites))
        self.fleet.replace(new)
        self.worker_sites[worker] = sites
        if old is not None:
            await old.close()
        if self.membership is not None:
            self.membership.refresh(self.fleet.names)

    # -- resources and prompts -------------------------------------------------------------

    def _add_resources_and_prompts(self) -> None:
        mcp = self.mcp

        @mcp.resource("fleet://status", mime_type="application/json")
        @_as_resource_error
        async def fleet_status() -> str:
            """Every site and worker of this hub, UP or DOWN."""
            self._require(CLIENT)  # the same scope as the client tools
            return self.fleet_status().model_dump_json(indent=2)

        @mcp.resource("sites://{name}", mime_type="application/json")
        @_as_resource_error
        async def site_manifest(name: str) -> str:
            """A site's manifest: providers, facts and tools."""
            self._require(CLIENT)  # the same scope as the client tools
            return (await self._describe(name)).model_dump_json(indent=2)

        @mcp.resource("requests://{request_id}", mime_type="application/json")
        @_as_resource_error
        async def negotiation(request_id: str) -> str:
            """A negotiation in full: the request and every proposal, with its evidence."""
            self._require(CLIENT)  # the same scope as the client tools
            return self._result(request_id).model_dump_json(indent=2)

        @mcp.resource("jobs://{job_id}", mime_type="application/json")
        @_as_resource_error
        async def job(job_id: str) -> str:
            """A job's ledger record and state changes (updated events are published)."""
            self._require(CLIENT)  # the same scope as the client tools
            return self.events.view(job_id).model_dump_json(indent=2)

        @mcp.resource("jobs://{job_id}/output", mime_type="application/json")
        @_as_resource_error
        async def job_output_resource(job_id: str) -> str:
            """The last 8 KiB of a job's standard output and error."""
            self._require(CLIENT)
            return (await self.broker.output(job_id, max_bytes=8192)).model_dump_json(indent=2)

        @mcp.prompt()
        def request_template(
            kind: str = "cpu",
            command: str = "python run.py",
            cores: str = "16",
            nodes: str = "2",
            hours: str = "2",
        ) -> str:
            """A request in words the hub understands (kind: cpu, gpu, mpi, software)."""
            return _render_request_template(kind, command, cores, nodes, hours)

    # -- dual role -------------------------------------------------------------------------

    def _join_parent(self) -> None:
        parent = self.config.parent
        assert parent is not None and self.tokens is not None
        try:
            join = read_token_file(parent.join_token_file, "parent.join_token_file")[0]
        except SiteConfigError as exc:
            raise ConfigurationError(exc.message) from None
        add_worker_tools(self.mcp, FleetBackend(self.fleet), require_scope(HUB_SCOPE, enabled=True))
        tokens = self.tokens

        def accept(hub: str, credential: str) -> None:
            tokens.revoke_client(hub)
            tokens.grant(credential, hub, HUB_SCOPE)

        self.membership = Membership(
            allow_insecure_http=self.config.allow_insecure_http,
            hub_url=parent.url,
            join_token=join,
            worker=self.config.name,
            url=parent.advertise_url or self.config.url,
            sites=self.fleet.names,
            on_credential=accept,
        )

    # -- running ---------------------------------------------------------------------------

    async def sweep_forever(self) -> None:
        """Run :meth:`sweep` every half heartbeat period."""
        while True:
            await asyncio.sleep(self.config.heartbeat_s / 2)
            await self.sweep()

    def _reload_join_tokens(self) -> None:
        """Read the join token file again if it changed (called by the sweep, and by the token
        check on an unknown token). Newly revoked workers wait in ``_to_drop`` for the sweep.

        A file that became invalid keeps the tokens in force (and is logged): a typo in an
        edit must not lock every worker out.
        """
        path = self.config.join_token_file
        if path is None or self.tokens is None:
            return
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError:
            return
        if mtime == self._join_mtime:
            return
        self._join_mtime = mtime
        try:
            tokens = load_join_tokens(path)
        except ConfigurationError as exc:
            log.error("join token file not reloaded: %s", exc.message)
            return
        before = self.join_tokens.revoked if self.join_tokens else frozenset()
        self.join_tokens = tokens
        grant_join_tokens(self.tokens, tokens)
        self._to_drop.update(tokens.revoked - before)

    async def _drop_worker(self, name: str) -> None:
        sites = self.registry.drop(name)
        self.fleet.remove(sites)
        self.worker_sites.pop(name, None)
        conn = self.connections.pop(name, None)
        if conn is not None:
            await conn.close()

    async def sweep(self) -> None:
        """Mark silent workers DOWN (dropping their sessions), forget workers DOWN for
        longer than ``forget_down_after_s`` together with their sites, and drop workers the
        administrator revoked since the last sweep."""
        self._reload_join_tokens()
        while self._to_drop:
            name = self._to_drop.pop()
            log.warning("worker %s revoked by the administrator; dropped with its sites", name)
            await self._drop_worker(name)
        for name in self.registry.sweep():
            log.warning("worker %s missed its heartbeats; marked down", name)
            conn = self.connections.get(name)
            if conn is not None:
                await conn.close()
        forgotten = self.registry.forget()
        for name, sites in forgotten:
            log.warning("worker %s was down too long; dropped its %d site(s)", name, len(sites))
            self.fleet.remove(sites)
            self.worker_sites.pop(name, None)
            conn = self.connections.pop(name, None)
            if conn is not None:
                await conn.close()
        if forgotten and self.membership is not None:
            self.membership.refresh(self.fleet.names)

    async def background(self, stop: asyncio.Event) -> None:
        """Run the sweeper, the job follower and (dual role) the membership until ``stop``."""
        tasks = [asyncio.create_task(self.sweep_forever()), asyncio.create_task(self.events.run())]
        if self.membership is not None:
            tasks.append(asyncio.create_task(self.membership.run(stop)))
        try:
            await stop.wait()
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.broker.close()

    def http_app(self) -> Starlette:
        """The MCP endpoint (``/mcp``) and the read-only dashboard (``/dashboard``)."""
        # Imported here: Jinja and the templates load only when an HTTP hub starts.
        from secretary_executor.dashboard.hub import hub_dashboard

        app = self.mcp.streamable_http_app(host=self.config.host)
        app.router.routes.insert(0, Mount("/dashboard", app=hub_dashboard(self)))
        return app

    async def serve_http(self) -> None:
        """Serve streamable HTTP at ``config.host:config.port`` until interrupted."""
        import uvicorn

        app = self.http_app()
        server = uvicorn.Server(
            uvicorn.Config(
                app,
                host=self.config.host,
                port=self.config.port,
                log_level="warning",
                timeout_keep_alive=SERVER_KEEPALIVE_S,
                ssl_certfile=self.config.tls_cert,
                ssl_keyfile=self.config.tls_key,
            )
        )
        self._uvicorn = server
        stop = asyncio.Event()
        bg = asyncio.create_task(self.background(stop))
        try:
            await server.serve()
        finally:
            stop.set()
            await bg

    def request_stop(self) -> None:
        """Ask a running :meth:`serve_http` to finish (it returns after a clean shutdown)."""
        server = getattr(self, "_uvicorn", None)
        if server is not None:
            server.should_exit = True

    async def serve_stdio(self) -> None:
        """Serve one local agent over stdin/stdout until it disconnects."""
        stop = asyncio.Event()
        bg = asyncio.create_task(self.background(stop))
        try:
            await self.mcp.run_stdio_async()
        finally:
            stop.set()
            await bg
