"""Where the dashboard reads from: a running hub, or a ledger alone.

Both give the ledger (requests, proposals, selections, jobs); a hub adds what only a live
process knows: which sites are UP, when each worker last sent a heartbeat, the sites' own
descriptions and prices, and job output read at the site.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from endpoint_plugins.errors import SiteError
from endpoint_plugins.secretary import SiteDescription
from providers.errors import ProviderError
from providers.wire import JobOutput
from secretary_executor.errors import SecretaryError
from secretary_executor.hub.registry import WorkerState
from secretary_executor.ledger import Ledger

if TYPE_CHECKING:
    from secretary_executor.hub.server import Hub
    from secretary_executor.sites.fleet import Fleet

log = logging.getLogger(__name__)

OUTPUT_TAIL_BYTES = 8192
"""How much of the end of each stream the jobs view shows."""


@dataclass(frozen=True)
class LiveSite:
    """One site as the hub sees it now."""

    name: str
    up: bool
    worker: str | None
    seconds_since_heartbeat: float | None


class DashboardSource(ABC):
    """The data behind the dashboard.

    Args:
        name: shown in the page title (the hub's name, or the ledger's file name).
        ledger: read for every view.
    """

    live: bool = False

    def __init__(self, name: str, ledger: Ledger) -> None:
        self.name = name
        self.ledger = ledger

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, ledger={self.ledger!r})"

    @abstractmethod
    def sites(self) -> list[LiveSite]:
        """The sites a live hub knows (empty for a ledger alone)."""

    def descriptions(self) -> Mapping[str, SiteDescription]:
        """Site descriptions known now; a live source fetches missing ones in the background."""
        return {}

    async def output(self, job_id: str) -> JobOutput:
        """The end of a job's output. Raises UnknownJobError for a job the ledger lacks."""
        record = self.ledger.job(job_id)
        return JobOutput(
            site=record.site,
            native_id=record.native_id,
            available=False,
            note="this dashboard reads a ledger alone and cannot reach the site; "
            f"ask the hub (resource-ask logs {job_id})",
        )


class LedgerSource(DashboardSource):
    """A ledger file with no hub: what was asked, proposed, chosen and run."""

    def sites(self) -> list[LiveSite]:
        return []


class Descriptions:
    """Site descriptions fetched once per site (and again after ``refresh_s``), off the request.

    Why: a description is a call to the site (for a remote site, a round trip to its worker),
    so the fleet view must never wait for a thousand of them. A view asks :meth:`want` and shows
    what is known; the page's next poll shows the rest.
    """

    def __init__(self, fleet: Fleet, *, parallel: int = 4, refresh_s: float = 60.0) -> None:
        self.fleet = fleet
        self.refresh_s = refresh_s
        self.known: dict[str, SiteDescription] = {}
        self._asked: dict[str, float] = {}
        self._gate = asyncio.Semaphore(parallel)
        self._tasks: set[asyncio.Task[None]] = set()

    def want(self, names: list[str], clock: Callable[[], float] = time.monotonic) -> None:
        """Start fetching each site whose description is missing or stale."""
        now = clock()
        for name in names:
            asked = self._asked.get(name)
            if asked is not None and now - asked < self.refresh_s:
                continue
            self._asked[name] = now
            task = asyncio.get_running_loop().create_task(self._fetch(name))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _fetch(self, name: str) -> None:
        async with self._gate:
            try:
                self.known[name] = await self.fleet.get(name).describe()
            except (SecretaryError, SiteError, ProviderError) as exc:
                log.info("dashboard: no description of %s now: %s", name, exc.message)
            except asyncio.CancelledError:
                self._asked.pop(name, None)  # stopped, not refused: ask again next time
                raise


class HubSource(DashboardSource):
    """A running hub: its ledger plus its registry, sites and their workers."""

    live = True

    def __init__(self, hub: Hub) -> None:
        super().__init__(hub.config.name, hub.broker.ledger)
        self.hub = hub
        self._descriptions = Descriptions(hub.fleet)

    def sites(self) -> list[LiveSite]:
        status = self.hub.fleet_status()
        heard = {w.name: w.seconds_since_heartbeat for w in status.workers}
        return [
            LiveSite(
                name=s.name,
                up=s.state is WorkerState.UP,
                worker=s.worker,
                seconds_since_heartbeat=heard.get(s.worker) if s.worker else None,
            )
            for s in status.sites
        ]

    def descriptions(self) -> Mapping[str, SiteDescription]:
        up = [s.name for s in self.sites() if s.up]
        self._descriptions.want(up)
        return self._descriptions.known

    async def output(self, job_id: str) -> JobOutput:
        return await self.hub.broker.output(job_id, max_bytes=OUTPUT_TAIL_BYTES)
