"""Job state changes, kept in the ledger and pushed to subscribed MCP clients.

The hub follows every job it dispatched: :class:`JobEvents` polls the job's site (through
:meth:`Broker.status`, which stores each state change as a ledger event) until the job is
terminal, and publishes a resource-updated event for ``jobs://{job_id}`` on each change. MCP
clients receive it by listening (``Client.listen(resource_subscriptions=["jobs://ID"])``) and
then read the resource. A site that cannot be reached is retried at the next poll; the job
stays followed until it ends or the hub stops.
"""

from __future__ import annotations

import asyncio
import logging

from mcp.server.subscriptions import ResourceUpdated, SubscriptionBus

from providers.wire import JobStatus
from providers.wire.common import WireModel
from secretary_executor.broker import Broker
from secretary_executor.errors import SecretaryError
from secretary_executor.ledger import JobEvent, JobRecord

log = logging.getLogger(__name__)


def job_uri(job_id: str) -> str:
    return f"jobs://{job_id}"


class JobView(WireModel):
    """A job as the hub knows it: the ledger record, the latest status, every state change."""

    record: JobRecord
    status: JobStatus | None = None
    events: tuple[JobEvent, ...] = ()


class JobEvents:
    """Follows dispatched jobs and publishes their state changes.

    Args:
        broker: the hub's broker (its ledger keeps the events).
        bus: the MCP server's subscription bus.
        poll_s: how often followed jobs are asked for their state.
    """

    def __init__(self, broker: Broker, bus: SubscriptionBus, *, poll_s: float = 1.0) -> None:
        self.broker = broker
        self.bus = bus
        self.poll_s = poll_s
        self.followed: set[str] = set()
        self._wake = asyncio.Event()

    def __repr__(self) -> str:
        return f"JobEvents(followed={len(self.followed)}, poll_s={self.poll_s})"

    def follow(self, job_id: str) -> None:
        self.followed.add(job_id)
        self._wake.set()

    async def publish(self, job_id: str) -> None:
        await self.bus.publish(ResourceUpdated(uri=job_uri(job_id)))

    async def refresh(self, job_id: str) -> JobView:
        """Ask the job's site now; publish if its state changed.

        Raises:
            UnknownJobError: no such job. DispatchError / SiteUnavailableError: site failure.
        """
        before = self.broker.ledger.job(job_id).state
        record, status = await self.broker.status(job_id)
        if record.state != before:
            await self.publish(job_id)
        if record.state.terminal:
            self.followed.discard(job_id)
        return self.view(job_id, status)

    def view(self, job_id: str, status: JobStatus | None = None) -> JobView:
        """The ledger's view of a job (no call to the site)."""
        return JobView(
            record=self.broker.ledger.job(job_id),
            status=status,
            events=tuple(self.broker.ledger.events(job_id)),
        )

    async def run(self) -> None:
        """Poll followed jobs until cancelled."""
        while True:
            for job_id in list(self.followed):
                try:
                    await self.refresh(job_id)
                except SecretaryError as exc:
                    log.info("job %s: status not available now: %s", job_id, exc.message)
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), self.poll_s)
            except TimeoutError:
                pass
