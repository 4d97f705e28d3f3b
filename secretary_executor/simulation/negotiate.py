"""The negotiation experiment: every prompt, as text, against every simulated worker.

The real code paths are used end to end: each prompt's text goes through
:meth:`secretary_executor.broker.Broker.prepare` (the request parser), and the parsed
requirement fans out through :meth:`secretary_executor.sites.Fleet.negotiate` to one
:class:`endpoint_plugins.secretary.Secretary` per worker, behind an in-process transport that
still carries the JSON service envelope. Each proposal is then audited against a ground truth:
``independent`` (default, :mod:`.auditor`: the generator's intent against the raw state
document) or ``faithful`` (:mod:`.truth`: the paper's auditor rules over the fact models).
Both truths are recorded on every case; the chosen one is what the figures use.

When the parser does not give back the intended requirement, the prompt is negotiated a second
time with the intended requirement itself, so a parse error and a decision error are told
apart: every case carries the verdict on the parsed text and the verdict on the intent.

With ``transport="mcp"`` the same workers are written as state files and served by real
``secretary serve worker`` processes on loopback (:mod:`.mcp_fleet`); proposals then come back
through :class:`~secretary_executor.sites.mcp.McpTransport`, and are audited identically.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.config import SiteConfig
from endpoint_plugins.negotiation.base import Negotiator
from endpoint_plugins.secretary import Secretary
from providers.state import SiteState, providers_from_state
from providers.wire import Proposal, Requirements
from providers.wire.common import Category
from providers.wire.proposal import Verdict
from secretary_executor.broker import Broker
from secretary_executor.errors import ConfigurationError
from secretary_executor.simulation import auditor
from secretary_executor.simulation.audit import CaseResult, audit_case
from secretary_executor.simulation.catalogue import build_catalogue
from secretary_executor.simulation.generator import Worker, generate_fleet
from secretary_executor.simulation.intent import Intent
from secretary_executor.simulation.prompts import Prompt, generate_prompts
from secretary_executor.simulation.truth import SiteFacts, Truth, evaluate
from secretary_executor.sites import Fleet, InProcessTransport, Site

KIND_CATEGORY: dict[str, Category] = {
    "workload": Category.WORKLOAD,
    "software": Category.SOFTWARE,
    "container": Category.CONTAINER,
    "storage": Category.STORAGE,
    "network": Category.NETWORK,
    "cpu": Category.HARDWARE,
    "memory": Category.HARDWARE,
    "gpu": Category.HARDWARE,
    "mpi": Category.PARALLEL,
}

DEFAULT_PROCESSES = 4
"""Worker processes for ``--transport mcp``: a few, each hosting a share of the sites, as a
site administrator would run one worker per machine rather than one per site."""

TruthMode = Literal["independent", "faithful"]
TRUTH_MODES: tuple[TruthMode, ...] = ("independent", "faithful")
DEFAULT_SITE_TIMEOUT_S = 30.0
"""The per-site timeout of in-process sites (``Site``'s own default)."""
DEFAULT_MCP_SITE_TIMEOUT_S = 60.0
"""The hub's per-site timeout over MCP: a call crosses processes and HTTP."""

Ask = Callable[[Requirements, str], Awaitable[list[Proposal]]]
"""Negotiate one requirement (with its request id) with every site, in fleet order."""


class NegotiationSettings(BaseModel):
    """What a negotiation run is: the fleet, the prompts and how sites are reached."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    workers: int = Field(default=200, ge=1, le=100_000)
    prompts: int = Field(default=100, ge=1, le=100_000)
    seed: int = Field(default=0, ge=0)
    strategy: Literal["rules", "agent", "hybrid"] = "rules"
    transport: Literal["in-process", "mcp"] = "in-process"
    truth: TruthMode = "independent"
    site_timeout_s: float | None = Field(default=None, gt=0, le=86_400)
    """How long one site may take to answer before it counts as UNREACHABLE; None: 30 s in
    process, 60 s over MCP. A site on a local model answers in seconds to minutes, and sites
    asked at once share that model's server."""
    concurrency: int | None = Field(default=None, ge=1, le=100_000)
    """Sites asked at once (in process); None asks every site at once."""


@dataclass(frozen=True)
class NegotiationRun:
    """The outcome of a run: the fleet, the prompts and one audited case per pair."""

    settings: NegotiationSettings
    workers: list[Worker]
    prompts: list[Prompt]
    cases: list[CaseResult]
    elapsed_s: float
    parsed: dict[int, Requirements]
    """The parser's reading of each prompt's text, by prompt id."""


def present_categories(state: SiteState) -> set[Category]:
    """The categories the site has at least one provider for."""
    return {KIND_CATEGORY[p.kind] for p in state.providers}


def simulated_site(
    worker: Worker,
    strategy: str = "rules",
    *,
    llm: LLMConfig | None = None,
    guided: bool = False,
    timeout_s: float = DEFAULT_SITE_TIMEOUT_S,
) -> Site:
    """A fleet site for a generated worker: its Secretary built on state-backed providers.

    With ``agent`` or ``hybrid`` the model is ``llm``, or the environment's (docs/agents.md)
    when None. ``guided`` forces the agent's first calls (see :func:`guided_tools`).
    """
    info = worker.state.site
    config = SiteConfig(
        name=info.name,
        kind=info.kind,
        description=info.description,
        prices=info.prices,
        strategy=strategy,  # type: ignore[arg-type]
    )
    secretary = Secretary(
        config,
        providers=providers_from_state(worker.state),
        negotiator=_negotiator(worker, strategy, llm, guided),
    )
    # State-backed providers never block, so rules calls stay on the event loop; a model
    # call does block, so LLM strategies run in worker threads.
    transport = InProcessTransport(secretary, threaded=strategy != "rules")
    return Site(info.name, transport, timeout_s=timeout_s)


def guided_tools(state: SiteState) -> tuple[str, ...]:
    """The calls forced on a small model: the workload's partitions, then the answer (twice,
    so that an answer sent back once is still forced)."""
    workload = next((p.name for p in state.providers if p.kind == "workload"), None)
    look = (f"{workload}__list_partitions",) if workload else ()
    return (*look, "final_answer", "final_answer")


def _negotiator(
    worker: Worker, strategy: str, llm: LLMConfig | None, guided: bool
) -> Negotiator | None:
    """The negotiator for a model strategy run with its own configuration; None lets the
    Secretary build the site's usual one (rules, or a model from the environment)."""
    if strategy == "rules" or (llm is None and not guided):
        return None
    from endpoint_plugins.agent.factory import make_negotiator
    from endpoint_plugins.agent.loop import AgentNegotiator

    config = llm if llm is not None else LLMConfig.from_env()
    if config is None:
        raise ConfigurationError(
            f"strategy {strategy!r} needs a language model: pass --llm-model/--llm-base-url "
            "or set SECRETARY_LLM_MODEL (docs/agents.md)"
        )
    if strategy == "agent" and guided:
        return AgentNegotiator(config, forced_tools=guided_tools(worker.state))
    return make_negotiator(strategy, config)


def independent_truth(intent: Intent, site: auditor.Site) -> Truth:
    """The independent auditor's judgement in the audit's types."""
    j = auditor.judge(intent, site)
    return Truth(
        verdict=Verdict(j.verdict),
        unmet=j.unmet,
        failing=tuple(Category(c) for c in j.failing),
        needed=tuple(Category(c) for c in j.needed),
    )


def same_requirement(prompt: Prompt, parsed: object) -> bool:
    """True when the parser gave back the prompt's own requirement (text aside)."""
    want = prompt.requirements.model_dump(mode="json", exclude={"source_text", "requested_at"})
    got = parsed.model_dump(mode="json", exclude={"source_text", "requested_at"})  # type: ignore[attr-defined]
    return bool(want == got)


@asynccontextmanager
async def in_process_sites(
    workers: Sequence[Worker],
    settings: NegotiationSettings,
    llm: LLMConfig | None = None,
    guided: bool = False,
) -> AsyncIterator[Ask]:
    """Every worker as a Secretary in this process; all sites are asked at once unless
    ``settings.concurrency`` says how many."""
    sites = [
        simulated_site(
            w,
            settings.strategy,
            llm=llm,
            guided=guided,
            timeout_s=settings.site_timeout_s or DEFAULT_SITE_TIMEOUT_S,
        )
        for w in workers
    ]
    fleet = Fleet(sites, concurrency=settings.concurrency or max(1, len(sites)))

    async def ask(requirements: Requirements, request_id: str) -> list[Proposal]:
        return await fleet.negotiate(requirements, request_id=request_id)

    try:
        yield ask
    finally:
        await fleet.close()


@asynccontextmanager
async def mcp_sites(
    workers: Sequence[Worker],
    workdir: Path | None,
    processes: int = DEFAULT_PROCESSES,
    *,
    site_timeout_s: float = DEFAULT_MCP_SITE_TIMEOUT_S,
    ports: range | None = None,
) -> AsyncIterator[Ask]:
    """Every worker served over MCP by ``processes`` real worker processes on loopback.

    The hub and each worker listen on a port of ``ports`` (any free port when None); the hub
    waits ``site_timeout_s`` for each site. State files go to ``workdir/w0``, ``workdir/w1``,
    ... (a temporary folder when None), worker logs beside them. The fan-out asks every site
    at once, as in process, so the two runs differ only in the transport. Every process is
    stopped when the block exits, however it exits.

    Raises:
        FederationError: a worker process could not start or register (one line, with its log).
    """
    from secretary_executor.hub.fanout import FanOut
    from secretary_executor.simulation.mcp_fleet import LoopbackFederation, write_shares

    names = [w.state.site.name for w in workers]
    fanout = FanOut(mode="concurrent", concurrency=max(1, min(len(names), 4096)))
    with tempfile.TemporaryDirectory(prefix="secretary-sim-") as tmp:
        folder = workdir if workdir is not None else Path(tmp)
        documents = [(w.state.site.name, w.state.to_yaml()) for w in workers]
        dirs = write_shares(documents, folder, processes)
        async with LoopbackFederation(
            dirs, workdir=folder, fanout=fanout, site_timeout_s=site_timeout_s, ports=ports
        ) as federation:
            fleet = federation.fleet

            async def ask(requirements: Requirements, request_id: str) -> list[Proposal]:
                return await fleet.negotiate(requirements, request_id=request_id, only=names)

            yield ask


async def negotiate_all(
    settings: NegotiationSettings,
    on_prompt: Callable[[int], None] | None = None,
    *,
    workdir: Path | None = None,
    processes: int = DEFAULT_PROCESSES,
    on_ready: Callable[[], None] | None = None,
    llm: LLMConfig | None = None,
    guided: bool = False,
    ports: range | None = None,
) -> NegotiationRun:
    """Run the whole protocol; ``on_prompt(i)`` is called after each prompt (progress).

    ``llm`` is the model of ``agent`` and ``hybrid`` sites (the environment's when None) and
    ``guided`` forces a small model's first calls (:func:`guided_tools`); ``ports`` confines
    the MCP processes' ports.

    ``on_ready()`` is called once every site can be asked: with MCP, starting the worker
    processes takes a while, and a progress display should say so rather than look stuck.

    ``workdir`` and ``processes`` matter only with ``transport="mcp"``: where the workers'
    state files and logs go, and how many worker processes share the sites. The elapsed time
    includes starting and stopping those processes.

    Postcondition: ``len(cases) == workers * prompts``, in prompt order then fleet order.
    Never raises for a site problem: a failing site appears as an UNREACHABLE case.

    Raises:
        ConfigurationError: ``transport="mcp"`` with a model strategy (workers serve rules).
        FederationError: MCP worker processes could not be started.
    """
    if settings.transport == "mcp" and settings.strategy != "rules":
        raise ConfigurationError(
            f"--transport mcp serves sites with --strategy rules only (got {settings.strategy!r}); "
            "use --transport in-process for agent or hybrid"
        )
    start = time.perf_counter()
    workers = generate_fleet(settings.workers, settings.seed)
    prompts = generate_prompts(
        build_catalogue(w.state for w in workers), settings.prompts, settings.seed
    )
    sites = (
        mcp_sites(
            workers,
            workdir,
            processes,
            site_timeout_s=settings.site_timeout_s or DEFAULT_MCP_SITE_TIMEOUT_S,
            ports=ports,
        )
        if settings.transport == "mcp"
        else in_process_sites(workers, settings, llm, guided)
    )
    by_site = {w.state.site.name: w for w in workers}
    present = {w.worker_id: present_categories(w.state) for w in workers}
    facts = {w.worker_id: SiteFacts(w.state) for w in workers}
    documents = {w.worker_id: auditor.Site(w.state.model_dump(mode="json")) for w in workers}
    cases: list[CaseResult] = []
    parsed: dict[int, Requirements] = {}
    async with sites as ask:
        if on_ready is not None:
            on_ready()
        for i, prompt in enumerate(prompts):
            request = Broker.prepare(prompt.text)
            requirements = request.requirements
            assert requirements is not None  # prepare always parses the text
            parsed[prompt.prompt_id] = requirements
            parsed_ok = same_requirement(prompt, requirements)
            proposals = await ask(requirements, f"sim-{prompt.prompt_id}")
            intended = (
                proposals
                if parsed_ok
                else await ask(prompt.requirements, f"sim-{prompt.prompt_id}-intent")
            )
            on_intent = {p.site: p.verdict for p in intended}
            for proposal in proposals:
                worker = by_site[proposal.site]
                truths = {
                    "independent": independent_truth(prompt.intent, documents[worker.worker_id]),
                    "faithful": evaluate(prompt.requirements, facts[worker.worker_id]),
                }
                cases.append(
                    audit_case(
                        worker_id=worker.worker_id,
                        archetype=worker.archetype,
                        prompt=prompt,
                        parsed_ok=parsed_ok,
                        truth=truths[settings.truth],
                        proposal=proposal,
                        present=present[worker.worker_id],
                        verdict_intended=on_intent.get(proposal.site, Verdict.UNREACHABLE),
                        truths={k: t.verdict for k, t in truths.items()},
                    )
                )
            if on_prompt is not None:
                on_prompt(i)
    return NegotiationRun(settings, workers, prompts, cases, time.perf_counter() - start, parsed)


def run_negotiation(
    settings: NegotiationSettings,
    on_prompt: Callable[[int], None] | None = None,
    **options: Any,
) -> NegotiationRun:
    """:func:`negotiate_all` on a fresh event loop (for callers that are not async); ``options``
    are its keyword arguments."""
    return asyncio.run(negotiate_all(settings, on_prompt, **options))
