"""``Site``: what the hub can ask any site, whatever carries the messages.

A :class:`Transport` moves one JSON envelope (see :mod:`endpoint_plugins.service`); it is the
only abstract part. :class:`Site` is concrete: it validates replies into wire models, applies
the per-site timeout, and turns a silent or failing site into an UNREACHABLE proposal or a
transient :class:`SiteUnavailableError`, so the hub's fan-out never waits on one bad site.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from typing import Any

from pydantic import ValidationError

from endpoint_plugins.secretary import DispatchPlan, SiteDescription, unreachable
from endpoint_plugins.service import Operation
from providers.wire import (
    DispatchReceipt,
    JobOutput,
    JobRequest,
    JobStatus,
    Proposal,
    Requirements,
)
from providers.wire.common import WireModel
from secretary_executor.errors import (
    DispatchError,
    DispatchUnsettledError,
    DispatchWithdrawnError,
    SiteUnavailableError,
)

_UNSETTLED = frozenset({"DispatchUnsettledError", "InternalError"})
"""Site error types after which a dispatch may or may not have been submitted."""


class Transport(ABC):
    """Carries one operation to a site and brings back its envelope."""

    @abstractmethod
    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        """Send ``payload`` for ``operation``; return the site's envelope.

        Raise any exception for a transport failure (connection refused, worker gone); the
        :class:`Site` turns it into an UNREACHABLE proposal or a transient error.
        """

    async def close(self) -> None:  # noqa: B027 - optional hook, most transports hold nothing
        """Release connections. The default has nothing to release."""

    def batch_key(self) -> object | None:
        """What sites must share to be negotiated in one call (e.g. their worker's session).

        None (the default): this transport carries one site per call. Transports that return a
        key also serve :func:`secretary_executor.sites.mcp.negotiate_batch`.
        """
        return None


class Site:
    """One site of a fleet.

    Args:
        name: the site's name in the fleet (unique).
        transport: how messages reach it.
        timeout_s: how long one operation may take before the site counts as unreachable.
    """

    def __init__(self, name: str, transport: Transport, *, timeout_s: float = 30.0) -> None:
        self.name = name
        self.transport = transport
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"Site(name={self.name!r}, transport={self.transport!r}, timeout_s={self.timeout_s})"

    async def _call(self, op: Operation, payload: WireModel | dict[str, Any]) -> dict[str, Any]:
        body = payload.model_dump(mode="json") if isinstance(payload, WireModel) else payload
        try:
            envelope = await asyncio.wait_for(self.transport.call(op, body), self.timeout_s)
        except TimeoutError:
            raise SiteUnavailableError(self.timed_out(op)) from None
        except Exception as exc:  # noqa: BLE001 - any transport failure means "unreachable"
            raise SiteUnavailableError(
                f"site {self.name!r} unreachable for {op.value}: {type(exc).__name__}: {exc}"
            ) from None
        if not isinstance(envelope, dict) or "ok" not in envelope:
            raise SiteUnavailableError(f"site {self.name!r} sent a malformed reply to {op.value}")
        return envelope

    async def _result(self, op: Operation, payload: Any, model: type[Any]) -> Any:
        envelope = await self._call(op, payload)
        if not envelope["ok"]:
            err = envelope.get("error") or {}
            message = f"site {self.name!r}: {err.get('message', 'unspecified error')}"
            transient = bool(err.get("transient"))
            if op is Operation.DISPATCH and err.get("type") in _UNSETTLED:
                raise DispatchUnsettledError(message, transient=transient)
            if op is Operation.DISPATCH and err.get("type") == "DispatchWithdrawnError":
                raise DispatchWithdrawnError(message)
            raise DispatchError(message, transient=transient)
        try:
            return model.model_validate(envelope["result"])
        except ValidationError as exc:
            raise SiteUnavailableError(
                f"site {self.name!r} sent a {op.value} reply that does not match the schema: "
                f"{exc.errors()[0]['msg']}"
            ) from None

    async def negotiate(self, requirements: Requirements, *, request_id: str = "") -> Proposal:
        """The site's proposal; UNREACHABLE (never an exception) when it fails or times out."""
        start = time.perf_counter()
        payload = {"request_id": request_id, "requirements": requirements.model_dump(mode="json")}
        try:
            envelope = await self._call(Operation.NEGOTIATE, payload)
        except SiteUnavailableError as exc:
            return self.unreachable(request_id, exc.message, start)
        return self.proposal_from(envelope, request_id)

    def unreachable(self, request_id: str, reason: str, start: float) -> Proposal:
        """The UNREACHABLE proposal for a call begun at ``start`` (``time.perf_counter()``)."""
        return unreachable(self.name, request_id, reason).model_copy(
            update={"elapsed_s": round(time.perf_counter() - start, 6)}
        )

    def timed_out(self, op: Operation) -> str:
        """Why the site counts as unreachable when ``op`` overran its timeout."""
        return f"site {self.name!r} did not answer {op.value} within {self.timeout_s:g} s"

    def proposal_from(self, envelope: dict[str, Any], request_id: str) -> Proposal:
        """The proposal in a negotiate envelope (per-site or one slot of a batch reply).

        A site error or a reply that is not a proposal gives UNREACHABLE with the reason.
        """
        if not envelope["ok"]:
            err = envelope.get("error") or {}
            return unreachable(self.name, request_id, f"site error: {err.get('message')}")
        try:
            proposal = Proposal.model_validate(envelope["result"])
        except ValidationError as exc:
            return unreachable(self.name, request_id, f"malformed proposal: {exc.errors()[0]}")
        # The fleet's name for the site is authoritative, whatever the site calls itself.
        return proposal.model_copy(update={"site": self.name})

    async def dispatch(
        self, request: JobRequest, plan: DispatchPlan | None = None
    ) -> DispatchReceipt:
        """Submit the job.

        Raises:
            DispatchError: the site refused; nothing runs there (``transient``: another site
                may take it).
            SiteUnavailableError: no answer, so the job may or may not be there; a
                :class:`DispatchUnsettledError` when the site said it cannot tell yet.
        """
        payload = {
            "request": request.model_dump(mode="json"),
            "plan": (plan or DispatchPlan()).model_dump(mode="json"),
        }
        receipt: DispatchReceipt = await self._result(Operation.DISPATCH, payload, DispatchReceipt)
        return receipt.model_copy(update={"site": self.name})

    async def status(self, native_id: str, *, provider: str | None = None) -> JobStatus:
        """The job's state at the site."""
        payload = {"native_id": native_id, "provider": provider}
        status: JobStatus = await self._result(Operation.STATUS, payload, JobStatus)
        return status.model_copy(update={"site": self.name})

    async def cancel(self, native_id: str, *, provider: str | None = None) -> JobStatus:
        """Cancel the job at the site; returns its state afterwards."""
        payload = {"native_id": native_id, "provider": provider}
        status: JobStatus = await self._result(Operation.CANCEL, payload, JobStatus)
        return status.model_copy(update={"site": self.name})

    async def output(
        self, native_id: str, *, provider: str | None = None, max_bytes: int = 65536
    ) -> JobOutput:
        """The end of the job's standard output and error at the site."""
        payload = {"native_id": native_id, "provider": provider, "max_bytes": max_bytes}
        output: JobOutput = await self._result(Operation.OUTPUT, payload, JobOutput)
        return output.model_copy(update={"site": self.name})

    async def describe(self) -> SiteDescription:
        """What the site has and which tools it offers."""
        return await self._result(Operation.DESCRIBE, {}, SiteDescription)

    async def close(self) -> None:
        await self.transport.close()
