"""The Secretary: a site's representative. It negotiates, dispatches and tracks jobs.

One Secretary serves one site. Each negotiation opens a fresh READ-only tool session and each
dispatch a fresh DISPATCH session, so nothing from one request is visible to another and a
negotiation can never submit work. Providers are probed once and their facts cached, so a
burst of negotiations does not re-run probes.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from pydantic import Field

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.dispatch_keys import DispatchMemory, default_path
from endpoint_plugins.dispatch_reconcile import settle_unfinished
from endpoint_plugins.errors import SiteConfigError, SiteDispatchError
from endpoint_plugins.negotiation.base import NegotiationContext, Negotiator
from endpoint_plugins.negotiation.rules import RulesNegotiator
from providers.base import ProbeReport, Provider, probe_many
from providers.categories import WorkloadProvider
from providers.errors import StateFileError
from providers.failpoints import failpoint
from providers.jobspec import JobSpec, SubmitResult
from providers.registry import discover
from providers.session import ToolSession
from providers.state import Prices, SiteInfo, SiteState, export_state, load_state
from providers.state import providers_from_state as _from_state
from providers.tools import ToolKind, ToolManifest
from providers.wire import (
    DispatchReceipt,
    JobOutput,
    JobRequest,
    JobState,
    JobStatus,
    Proposal,
    Requirements,
    Verdict,
)
from providers.wire.common import WireModel
from providers.wire.request import new_id

log = logging.getLogger(__name__)


def _job_name(request: JobRequest) -> str:
    """The name a job has in the site's queue: how a person finds it by hand."""
    return f"secretary-{request.request_id}"[:64]


def make_site_negotiator(strategy: str) -> Negotiator:
    """The negotiator for a site's strategy; the LLM stack is imported only when chosen.

    Raises:
        SiteConfigError: an LLM strategy without a configured model (the message says what
            to set).
    """
    if strategy == "rules":
        return RulesNegotiator()
    from endpoint_plugins.agent.factory import make_negotiator

    return make_negotiator(strategy)


class SiteDescription(WireModel):
    """What a site tells about itself: identity, prices, providers found, tools offered."""

    name: str
    kind: str
    description: str = ""
    prices: Prices = Prices()
    strategy: str = "rules"
    providers: tuple[ProbeReport, ...] = ()
    tools: tuple[ToolManifest, ...] = ()
    elapsed_s: float = 0.0


class DispatchPlan(WireModel):
    """Where at the site a job goes: the workload provider and partition a proposal chose."""

    provider: str | None = None
    partition: str | None = None
    nodes: int = Field(default=1, ge=1)
    idempotency_key: str | None = Field(
        default=None, min_length=8, max_length=128, pattern=r"^[A-Za-z0-9._:@-]+$"
    )
    """The hub's key for this dispatch: a repeat with the same key gets the first receipt back
    instead of a second job (see :mod:`endpoint_plugins.dispatch_keys`)."""
    settle_only: bool = False
    """Only ask what became of ``idempotency_key``; never submit (an unknown key is withdrawn)."""


def build_providers(config: SiteConfig) -> tuple[list[Provider], SiteState | None]:
    """Create the site's providers: from its state file, or by discovery on this machine.

    Raises:
        SiteConfigError: the state file cannot be used, or an enabled provider is unknown.
    """
    selection = config.providers
    if config.state_file:
        try:
            state = load_state(config.state_file)
        except StateFileError as exc:
            raise SiteConfigError(f"site {config.name!r}: {exc.message}") from None
        return [p for p in _from_state(state) if selection.allows(p.name)], state
    catalogue = discover()
    if selection.enabled is not None:
        unknown = sorted(set(selection.enabled) - set(catalogue.classes))
        if unknown:
            known = ", ".join(sorted(catalogue.classes))
            raise SiteConfigError(
                f"site {config.name!r}: unknown provider(s) {', '.join(unknown)} in "
                f"providers.enabled; known providers are: {known}"
            )
    providers: list[Provider] = []
    for name, cls in sorted(catalogue.classes.items()):
        if selection.allows(name):
            providers.append(cls(options=selection.options.get(name)))
    return providers, None


class Secretary:
    """Answers for one site. Cheap to construct: providers are probed on first use.

    Args:
        config: the administrator's site configuration.
        providers: the site's providers; built from ``config`` when omitted.
        negotiator: how requests are judged; built from ``config.strategy`` (and, for a model
            strategy, the environment) when omitted. A caller that holds its own model
            configuration (an experiment run with command-line options) passes one.
    """

    def __init__(
        self,
        config: SiteConfig,
        providers: list[Provider] | None = None,
        *,
        negotiator: Negotiator | None = None,
    ) -> None:
        self.config = config
        state: SiteState | None = None
        if providers is None:
            providers, state = build_providers(config)
        self.providers = providers
        prices = config.prices or (state.site.prices if state else None) or Prices()
        self.info = SiteInfo(
            name=config.name,
            kind=config.kind or (state.site.kind if state else "local"),
            description=config.description or (state.site.description if state else ""),
            prices=prices,
        )
        self.negotiator = negotiator or make_site_negotiator(config.strategy)

    def __repr__(self) -> str:
        return f"Secretary({self.config!r})"

    @property
    def name(self) -> str:
        return self.config.name

    # -- negotiation -------------------------------------------------------------------------

    def negotiate(self, requirements: Requirements, *, request_id: str = "") -> Proposal:
        """Judge ``requirements`` at this site.

        Postcondition: a proposal for this site with one check per requirement. Site problems
        (a failing probe or tool) appear as UNKNOWN checks, never as exceptions.
        """
        probe_many(self.providers)  # a cold site probes in parallel; a warm one reuses facts
        session = ToolSession(self.providers, allowed=ToolKind.READ)
        context = NegotiationContext(
            site=self.name,
            request_id=request_id,
            prices=self.info.prices,
            default_walltime_s=self.config.default_walltime_s,
            exposed_partitions=self.config.exposed_partitions,
        )
        return self.negotiator.evaluate(requirements, session, context)

    # -- dispatch --------------------------------------------------------------------------

    def _workload(self, name: str | None = None) -> WorkloadProvider:
        """The named workload provider, or else the first available one (in site order)."""
        for provider in self.providers:
            if isinstance(provider, WorkloadProvider) and (name is None or provider.name == name):
                if provider.available:
                    return provider
        which = f"workload provider {name!r}" if name else "workload provider"
        raise SiteDispatchError(f"site {self.name!r} has no available {which} to run the job")

    def dispatch(self, request: JobRequest, plan: DispatchPlan | None = None) -> DispatchReceipt:
        """Submit the request's command to this site's workload manager.

        Postcondition: the returned receipt's ``native_id`` names the job at the site.

        Raises:
            SiteDispatchError: nothing to run, no workload provider, or the manager refused.
                ``transient`` is True when the manager failed (another site may work).
        """
        if not request.command and not (plan and plan.settle_only):
            raise SiteDispatchError(
                "nothing to run: give the command as an argument list "
                "(resource-ask: put it after '--' or in backticks in the request text)"
            )
        plan = plan or DispatchPlan()
        if plan.idempotency_key is None:
            if plan.settle_only:
                raise SiteDispatchError("settle_only asks about a key: give idempotency_key")
            return self._submit(request, plan)
        key = plan.idempotency_key
        with DispatchMemory(self._dispatch_keys_path()) as memory:
            # A claim left by a process that died mid-submit: ask the manager what became of it.
            settle_unfinished(memory, self.providers, self.name, key)
            first = memory.claim(key, _job_name(request), settle_only=plan.settle_only)
            failpoint("site.dispatch.claimed")
            if first is not None:
                log.info("site %s: repeated dispatch key, job %s", self.name, first.native_id)
                return first
            try:
                receipt = self._submit(request, plan)
            except SiteDispatchError:
                memory.release(key)  # the manager said no: nothing was submitted
                raise
            except BaseException:
                memory.interrupted(key)  # anything else: whether it was submitted is unknown
                raise
            failpoint("site.dispatch.submitted")
            memory.finish(key, receipt)
            failpoint("site.dispatch.remembered")
            return receipt

    def _dispatch_keys_path(self) -> Path:
        return Path(self.config.dispatch_keys_file or default_path(self.name))

    def settle_unfinished_dispatches(self) -> int:
        """Settle every dispatch key a dead process left mid-submit (a worker calls this when
        it starts); returns how many were settled. A site with no key file has none."""
        path = self._dispatch_keys_path()
        if not path.exists():
            return 0
        with DispatchMemory(path) as memory:
            return settle_unfinished(memory, self.providers, self.name)

    def _submit(self, request: JobRequest, plan: DispatchPlan) -> DispatchReceipt:
        req = request.requirements or Requirements()
        compute = req.compute
        nodes = compute.nodes or plan.nodes
        spec = JobSpec(
            name=_job_name(request),
            command=request.command,
            nodes=nodes,
            cores_per_node=compute.cores_per_node,
            gpus_per_node=compute.gpus_per_node or None,
            memory_gb_per_node=compute.memory_gb_per_node,
            walltime_s=compute.walltime_s,
            partition=plan.partition,
            workdir=request.workdir,
            environment=request.environment,
            dispatch_key=plan.idempotency_key,
        )
        # The node pseudo-partition of a site without a scheduler has no provider to name.
        known = {p.name for p in self.providers if isinstance(p, WorkloadProvider)}
        workload = self._workload(plan.provider if plan.provider in known else None)
        if plan.provider not in known:
            spec = spec.model_copy(update={"partition": None})
        session = ToolSession(self.providers, allowed=ToolKind.DISPATCH)
        evidence = session.call(workload, "submit_job", {"spec": spec.model_dump(mode="json")})
        if evidence.error:
            raise SiteDispatchError(
                f"site {self.name!r}: {workload.name} refused the job: {evidence.error}",
                transient=True,
            )
        result = SubmitResult.model_validate(evidence.result)
        log.info("site %s accepted job %s as %s", self.name, request.request_id, result.native_id)
        return DispatchReceipt(
            job_id=new_id(),
            request_id=request.request_id,
            site=self.name,
            native_id=result.native_id,
            provider=workload.name,
            state=JobState.QUEUED,
            script=result.script,
        )

    def _job_call(self, tool: str, native_id: str, provider: str | None) -> JobStatus:
        workload = self._workload(provider or None)
        session = ToolSession(self.providers, allowed=ToolKind.DISPATCH)
        evidence = session.call(workload, tool, {"native_id": native_id})
        if evidence.error:
            return JobStatus(
                site=self.name, native_id=native_id, state=JobState.UNKNOWN, message=evidence.error
            )
        status = JobStatus.model_validate(evidence.result)
        return status.model_copy(update={"site": self.name})

    def status(self, native_id: str, *, provider: str | None = None) -> JobStatus:
        """The job's state now (UNKNOWN with a message when the site cannot tell)."""
        return self._job_call("job_status", native_id, provider)

    def cancel(self, native_id: str, *, provider: str | None = None) -> JobStatus:
        """Cancel the job; returns its state afterwards (a finished job keeps its state)."""
        return self._job_call("cancel_job", native_id, provider)

    def output(
        self, native_id: str, *, provider: str | None = None, max_bytes: int = 65536
    ) -> JobOutput:
        """The end of the job's standard output and error, where the site can read them."""
        workload = self._workload(provider or None)
        session = ToolSession(self.providers, allowed=ToolKind.DISPATCH)
        args = {"native_id": native_id, "max_bytes": max_bytes}
        evidence = session.call(workload, "job_output", args)
        if evidence.error:
            return JobOutput(
                site=self.name, native_id=native_id, available=False, note=evidence.error
            )
        return JobOutput.model_validate(evidence.result).model_copy(update={"site": self.name})

    # -- description -------------------------------------------------------------------------

    def describe(self) -> SiteDescription:
        """Probe every provider (cached) and report what the site has and offers."""
        start = time.perf_counter()
        reports = tuple(probe_many(self.providers))
        session = ToolSession(self.providers, allowed=ToolKind.READ)
        tools = tuple(session.manifest())
        return SiteDescription(
            name=self.name,
            kind=self.info.kind,
            description=self.info.description,
            prices=self.info.prices,
            strategy=self.config.strategy,
            providers=reports,
            tools=tools,
            elapsed_s=round(time.perf_counter() - start, 6),
        )

    def export_state(self) -> SiteState:
        """This site as a state file (the paper's 'define a worker exactly')."""
        return export_state(self.info, self.providers)


def unreachable(site: str, request_id: str, why: str) -> Proposal:
    """The proposal a hub records for a site that did not answer."""
    return Proposal(site=site, request_id=request_id, verdict=Verdict.UNREACHABLE, reason=why)
