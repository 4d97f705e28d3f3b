"""The hub's flow in one place: request -> requirements -> fan-out -> selection -> dispatch.

The command line, the Parsl executor and the MCP facade all drive this class, so the five
stages behave the same whichever door a request comes through. Every stage is written to the
ledger as it happens.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from pydantic import ValidationError

from endpoint_plugins.parsing import parse_requirements, split_command
from endpoint_plugins.parsing.parser import MAX_INPUT_CHARS as MAX_REQUEST_CHARS
from endpoint_plugins.secretary import DispatchPlan
from providers.failpoints import failpoint
from providers.wire import (
    DispatchReceipt,
    JobOutput,
    JobRequest,
    JobState,
    JobStatus,
    Policy,
    Proposal,
    Requirements,
    Verdict,
)
from providers.wire.common import WireModel
from providers.wire.request import new_id
from secretary_executor.errors import (
    ConfigurationError,
    DispatchError,
    DispatchUnsettledError,
    DispatchWithdrawnError,
    LedgerError,
    SecretaryError,
    SelectionError,
    SiteUnavailableError,
)
from secretary_executor.ledger import JobRecord, Ledger
from secretary_executor.select.registry import SelectionOutcome, get_selector, select_with_fallback
from secretary_executor.sites.fleet import Fleet, OnAnswer

_VERDICT_ORDER = [
    Verdict.READY,
    Verdict.BUSY,
    Verdict.NEEDS_INFORMATION,
    Verdict.UNKNOWN,
    Verdict.INCOMPATIBLE,
    Verdict.UNREACHABLE,
]


class NegotiationResult(WireModel):
    """All proposals for one request, and the best verdict among them."""

    request: JobRequest
    proposals: tuple[Proposal, ...]
    verdict: Verdict
    """The best verdict of any site (READY > BUSY > NEEDS_INFORMATION > ...)."""
    missing: tuple[str, ...] = ()
    elapsed_s: float = 0.0

    def proposal(self, site: str) -> Proposal | None:
        return next((p for p in self.proposals if p.site == site), None)


def best_verdict(proposals: Sequence[Proposal]) -> Verdict:
    """The most useful verdict in a list (UNREACHABLE for an empty list)."""
    found = {p.verdict for p in proposals}
    return next((v for v in _VERDICT_ORDER if v in found), Verdict.UNREACHABLE)


class Broker:
    """Runs requests through the fleet and keeps the ledger.

    Args:
        fleet: the sites to negotiate with.
        ledger: where to record everything; a default ledger under ``$SECRETARY_HOME``.
    """

    def __init__(self, fleet: Fleet, ledger: Ledger | None = None) -> None:
        self.fleet = fleet
        self.ledger = ledger if ledger is not None else Ledger()

    def __repr__(self) -> str:
        return f"Broker(fleet={self.fleet!r}, ledger={self.ledger!r})"

    # -- stage 1: request -> requirements --------------------------------------------------

    @staticmethod
    def prepare(
        text: str = "",
        *,
        requirements: Requirements | None = None,
        command: Sequence[str] = (),
        policy: Policy | None = None,
        workdir: str | None = None,
        parser: Callable[[str], Requirements] | None = None,
    ) -> JobRequest:
        """Build a request: a command in backticks is taken out of the text, the rest parsed.

        Structured ``requirements`` win over the text; an explicit ``command`` wins over one
        in backticks. Never raises for odd text: what is not understood is in
        ``requirements.unparsed``; text beyond ``MAX_REQUEST_CHARS`` is cut, with a note there.
        ``parser`` replaces the deterministic parser, e.g.
        ``lambda t: parse_with_llm(t, config)[0]`` for the hybrid strategy (which itself falls
        back to the deterministic parser when the model fails).
        """
        if policy is not None:
            # An unknown algorithm fails here, before any site is asked, not at selection.
            for name in (policy.algorithm, *policy.fallback):
                get_selector(name)
        remaining, from_text = split_command(text)
        if requirements is None:
            requirements = (parser or parse_requirements)(remaining)
        if len(text) > MAX_REQUEST_CHARS:
            # The parser read (and noted) only the first MAX_REQUEST_CHARS; the request keeps
            # the same text, so what sites see matches what was read.
            text = text[:MAX_REQUEST_CHARS]
        return JobRequest(
            text=text,
            requirements=requirements,
            command=tuple(command) or tuple(from_text),
            policy=policy or Policy(),
            workdir=workdir,
        )

    # -- stages 2-3: fan-out and negotiation -----------------------------------------------

    async def negotiate(
        self,
        request: JobRequest,
        *,
        only: Sequence[str] | None = None,
        on_answer: OnAnswer | None = None,
    ) -> NegotiationResult:
        """Ask every site concurrently and record the proposals (``on_answer`` is told them as
        they arrive, e.g. to report progress)."""
        requirements = request.requirements or parse_requirements(request.text)
        if request.requirements is None:
            request = request.model_copy(update={"requirements": requirements})
        self.ledger.record_request(request)
        start = time.perf_counter()
        proposals = await self.fleet.negotiate(
            requirements, request_id=request.request_id, only=only, on_answer=on_answer
        )
        self.ledger.record_proposals(request.request_id, proposals)
        return NegotiationResult(
            request=request,
            proposals=tuple(proposals),
            verdict=best_verdict(proposals),
            missing=tuple(requirements.missing()),
            elapsed_s=round(time.perf_counter() - start, 6),
        )

    # -- stage 4: selection ----------------------------------------------------------------

    def select(self, result: NegotiationResult, algorithm: str | None = None) -> SelectionOutcome:
        """Choose a proposal with the request's policy (or ``algorithm``), falling back in order.

        Raises:
            ConfigurationError: an unknown algorithm name.
        """
        policy = result.request.policy
        if algorithm is not None:
            policy = policy.model_copy(update={"algorithm": algorithm})
        outcome = select_with_fallback(list(result.proposals), result.request.requirements, policy)
        self.ledger.record_selection(
            result.request.request_id,
            outcome.algorithm,
            outcome.chosen.site if outcome.chosen else None,
            outcome.model_dump(mode="json", exclude={"chosen"}),
        )
        return outcome

    # -- stage 5: dispatch -----------------------------------------------------------------

    async def dispatch(
        self,
        request: JobRequest,
        site: str,
        proposal: Proposal | None = None,
        *,
        force: bool = False,
        key: str | None = None,
    ) -> DispatchReceipt:
        """Send the job to one named site, writing it to the ledger first.

        The job is recorded PENDING under a hub job id *before* it is sent, with an idempotency
        key the site remembers. So a job can never run without a ledger row, and sending the
        same key again (after a lost reply, a timeout or a hub restart) returns the first
        receipt instead of starting a second job. ``key`` defaults to a fresh one per call;
        give your own to make your retries of one dispatch safe: a key already accepted
        returns its receipt without asking the site, a key still PENDING is sent again.

        A site whose ``proposal`` says the job cannot run there (INCOMPATIBLE, UNKNOWN,
        NEEDS_INFORMATION) is refused unless ``force`` is set, as ``resource-ask dispatch``
        refuses without ``--force``.

        Raises:
            ConfigurationError: no such site in the fleet, or a malformed ``key``.
            DispatchError: the proposal says the job cannot run there (permanent), or the site
                refused (``transient`` True: another site may work). Nothing runs there.
            SiteUnavailableError: the site did not answer, so the job may be there: it stays
                PENDING (never sent elsewhere) until :meth:`status` settles it.
        """
        self.fleet.get(site)
        if proposal is not None and not proposal.verdict.compatible and not force:
            raise DispatchError(
                f"{site} says {proposal.verdict.value}: {proposal.reason} "
                "(dispatch with force to run it there anyway)"
            )
        if self.ledger.request(request.request_id) is None:
            self.ledger.record_request(request)
        job_id = new_id()
        try:
            plan = DispatchPlan(
                provider=proposal.metrics.provider if proposal else None,
                partition=proposal.metrics.partition if proposal else None,
                idempotency_key=key or f"job:{job_id}",
            )
        except ValidationError:
            raise ConfigurationError(
                f"bad dispatch key {key!r}: use 8 to 128 letters, digits or . _ : @ -"
            ) from None
        record = self.ledger.begin_dispatch(
            job_id, request.request_id, site, plan.idempotency_key or "", plan.model_dump_json()
        )
        if record.state is not JobState.PENDING:
            if not record.native_id:
                raise DispatchWithdrawnError(
                    f"key {key!r} was withdrawn ({record.site} never received it): use a new key"
                )
            if record.site != site:
                raise DispatchError(
                    f"key {key!r} already dispatched job {record.job_id} to {record.site}; "
                    "use a new key for a new job"
                )
            return self.ledger.receipt(record.job_id)
        return await self._send(request, record.job_id, site, plan)

    async def _send(
        self, request: JobRequest, job_id: str, site: str, plan: DispatchPlan
    ) -> DispatchReceipt:
        """Send a PENDING job and record what became of it."""
        rid = request.request_id
        failpoint("hub.dispatch.written")
        try:
            receipt = await self.fleet.get(site).dispatch(request, plan)
        except SiteUnavailableError as exc:
            self.ledger.record_attempt(rid, site, False, exc.message)
            raise DispatchUnsettledError(
                f"{exc.message}; job {job_id} stays PENDING, and asking its status settles "
                "it without running it twice",
                transient=exc.transient,
            ) from None
        except DispatchWithdrawnError as exc:
            self.ledger.record_attempt(rid, site, False, exc.message)
            self.ledger.record_status(
                job_id,
                JobStatus(site=site, native_id="", state=JobState.FAILED, message=exc.message),
            )
            raise
        except SecretaryError as exc:
            self.ledger.record_attempt(rid, site, False, exc.message)
            self.ledger.drop_dispatch(job_id)  # refused: the job does not exist there
            raise
        failpoint("hub.dispatch.replied")
        receipt = _hub_receipt(receipt, request, site, job_id)
        try:
            self.ledger.record_attempt(rid, site, True, receipt.native_id)
            self.ledger.complete_dispatch(receipt, request.environment)
        except LedgerError as exc:
            raise DispatchUnsettledError(
                f"{site} accepted job {job_id} as {receipt.native_id}, but {exc.message}; the "
                "job stays PENDING until its status is asked with a writable ledger"
            ) from None
        return receipt

    async def settle(self, job_id: str) -> JobRecord:
        """Find out what became of a PENDING dispatch, without ever running it twice.

        The site is asked about the dispatch's key only (the ledger keeps environment values
        out, so it cannot send the job again as it was): a key the site accepted fills in the
        job's native id, a key it never saw is withdrawn there (so a late copy cannot run) and
        the job becomes FAILED, and a site that cannot tell yet leaves it PENDING.
        """
        record = self.ledger.job(job_id)
        if record.state is not JobState.PENDING:
            return record
        plan_json = self.ledger.dispatch_plan(job_id)
        request = self.ledger.request(record.request_id)
        if plan_json is None or request is None:
            return record
        plan = DispatchPlan.model_validate_json(plan_json).model_copy(update={"settle_only": True})
        try:
            await self._send(request, job_id, record.site, plan)
        except (SiteUnavailableError, DispatchError):
            pass  # the ledger already says what the attempt showed
        return self.ledger.job(job_id)

    async def settle_pending(self) -> list[JobRecord]:
        """:meth:`settle` every PENDING dispatch (a hub calls this after a restart)."""
        return [await self.settle(record.job_id) for record, _, _ in self.ledger.pending()]

    def recall(self, request_id: str) -> NegotiationResult | None:
        """A negotiation as the ledger recorded it: its request and proposals, after a restart.

        None when the ledger has no such request or no proposals for it.
        """
        request = self.ledger.request(request_id)
        proposals = self.ledger.proposals(request_id)
        if request is None or not proposals:
            return None
        requirements = request.requirements or Requirements()
        return NegotiationResult(
            request=request,
            proposals=tuple(proposals),
            verdict=best_verdict(proposals),
            missing=tuple(requirements.missing()),
        )

    async def submit(
        self, request: JobRequest, *, algorithm: str | None = None
    ) -> tuple[NegotiationResult, SelectionOutcome, DispatchReceipt]:
        """All five stages; on a transient dispatch failure the next-ranked proposal is tried.

        Raises:
            SelectionError: no site can run the request (the message says why).
            DispatchError: every ranked site refused.
        """
        result = await self.negotiate(request)
        outcome = self.select(result, algorithm)
        if outcome.chosen is None:
            raise SelectionError(no_choice_message(result))
        ranked = [result.proposal(name) for name in outcome.ranked]
        candidates = [p for p in ranked if p is not None] or [outcome.chosen]
        errors: list[str] = []
        for proposal in candidates:
            try:
                receipt = await self.dispatch(result.request, proposal.site, proposal)
            except DispatchError as exc:
                errors.append(exc.message)
                if not exc.transient:
                    raise
                continue
            return result, outcome, receipt
        raise DispatchError("every ranked site refused the job: " + "; ".join(errors))

    # -- tracking --------------------------------------------------------------------------

    async def status(self, job_id: str) -> tuple[JobRecord, JobStatus]:
        """Ask the job's site for its state and record it.

        Raises:
            UnknownJobError: the ledger has no such job.
        """
        record = self.ledger.job(job_id)
        if record.state is JobState.PENDING:
            record = await self.settle(job_id)
        if record.state is JobState.PENDING or record.state.terminal:
            status = JobStatus(
                site=record.site,
                native_id=record.native_id,
                state=record.state,
                exit_code=record.exit_code,
                message=(
                    f"not settled: {record.site} has not said yet whether it has the job"
                    if record.state is JobState.PENDING
                    else ""
                ),
            )
            return record, status
        site = self.fleet.get(record.site)
        status = await site.status(record.native_id, provider=record.provider)
        # Which job this is, is the hub's to say: a reply naming another site or native id
        # is still about the job that was asked for.
        status = status.model_copy(update={"site": record.site, "native_id": record.native_id})
        self.ledger.record_status(job_id, status)
        return self.ledger.job(job_id), status

    async def cancel(self, job_id: str) -> JobStatus:
        """Cancel a job; a finished job keeps its final state.

        Raises:
            DispatchUnsettledError: the job's dispatch is PENDING and its site cannot yet say
                whether it has the job (ask again later).
        """
        record = self.ledger.job(job_id)
        if record.state is JobState.PENDING:
            record = await self.settle(job_id)
            if record.state is JobState.PENDING:
                raise DispatchUnsettledError(
                    f"job {job_id}: {record.site} has not said yet whether it has the job; "
                    "cancel again once its status is no longer PENDING"
                )
        if record.state.terminal:
            return JobStatus(
                site=record.site,
                native_id=record.native_id,
                state=record.state,
                exit_code=record.exit_code,
                message="already finished",
            )
        status = await self.fleet.get(record.site).cancel(
            record.native_id, provider=record.provider
        )
        status = status.model_copy(update={"site": record.site, "native_id": record.native_id})
        self.ledger.record_status(job_id, status)
        return status

    async def output(self, job_id: str, *, max_bytes: int = 65536) -> JobOutput:
        """The end of the job's standard output and error, read at its site.

        Raises:
            UnknownJobError: the ledger has no such job.
        """
        record = self.ledger.job(job_id)
        if record.state is JobState.PENDING:
            record = await self.settle(job_id)
        if not record.native_id:
            return JobOutput(
                site=record.site,
                native_id="",
                available=False,
                note=f"job {job_id} never started at {record.site} ({record.state.value})",
            )
        site = self.fleet.get(record.site)
        output = await site.output(record.native_id, provider=record.provider, max_bytes=max_bytes)
        return output.model_copy(update={"site": record.site, "native_id": record.native_id})

    async def wait(
        self, job_id: str, *, timeout_s: float = 600.0, poll_s: float = 0.2
    ) -> JobStatus:
        """Poll until the job reaches a terminal state or the timeout passes.

        Postcondition: the returned status is terminal unless the timeout expired first.
        """
        deadline = time.monotonic() + timeout_s
        delay = poll_s
        while True:
            _, status = await self.status(job_id)
            if status.state.terminal or time.monotonic() >= deadline:
                return status
            await asyncio.sleep(min(delay, max(0.0, deadline - time.monotonic())))
            delay = min(delay * 1.5, 2.0)

    async def close(self) -> None:
        await self.fleet.close()


_STATES_AT_DISPATCH = frozenset({JobState.QUEUED, JobState.RUNNING})


def _hub_receipt(
    receipt: DispatchReceipt, request: JobRequest, site: str, job_id: str
) -> DispatchReceipt:
    """The receipt as the hub records it. The job id is the hub's own, and the request and site
    are the ones the hub dispatched, whatever the site's reply says: a site's ids could collide
    with another job's or name another request. Only the native id and the script are the
    site's. A job just handed over is QUEUED or RUNNING; anything the site claims beyond that
    is learnt by polling, like every other state change."""
    state = receipt.state if receipt.state in _STATES_AT_DISPATCH else JobState.QUEUED
    return receipt.model_copy(
        update={
            "job_id": job_id,
            "request_id": request.request_id,
            "site": site,
            "state": state,
        }
    )


def no_choice_message(result: NegotiationResult) -> str:
    """Why nothing could be selected, for the person who sent the request."""
    if result.verdict is Verdict.NEEDS_INFORMATION:
        return "the request is too vague to judge; add " + " ".join(result.missing)
    reasons = [f"{p.site}: {p.verdict.value} ({p.reason})" for p in result.proposals]
    return "no site can run this request: " + "; ".join(reasons)
