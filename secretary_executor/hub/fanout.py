"""How the hub asks its sites: all at once (bounded), one at a time, or in batches.

:class:`FederatedFleet` is a :class:`~secretary_executor.sites.fleet.Fleet` whose sites can
join and leave while the hub runs, and whose fan-out skips sites of DOWN workers (they are
reported UNREACHABLE at once, without a call). Whatever the mode, every asked site yields
exactly one proposal, in fleet order, and no site waits longer than its own timeout.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from endpoint_plugins.secretary import unreachable
from providers.wire import Proposal, Requirements
from secretary_executor.sites.base import Site
from secretary_executor.sites.fleet import Fleet


class FanOut(BaseModel):
    """The fan-out policy.

    ``concurrent`` (default): up to ``concurrency`` sites at once; fastest, the usual choice.
    ``serial``: one site after another; gentlest on sites and networks, slowest (sum of times).
    ``batched``: ``batch_size`` sites at a time, each batch finishing before the next starts;
    a middle ground when sites rate-limit bursts.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Literal["concurrent", "serial", "batched"] = "concurrent"
    concurrency: int = Field(default=32, ge=1, le=4096)
    batch_size: int = Field(default=16, ge=1, le=4096)

    async def run(
        self, sites: Sequence[Site], requirements: Requirements, request_id: str
    ) -> list[Proposal]:
        """One proposal per site, in order (UNREACHABLE for a silent or failing site)."""

        async def ask(site: Site) -> Proposal:
            return await site.negotiate(requirements, request_id=request_id)

        if self.mode == "serial":
            return [await ask(s) for s in sites]
        if self.mode == "batched":
            out: list[Proposal] = []
            for i in range(0, len(sites), self.batch_size):
                out += await asyncio.gather(*(ask(s) for s in sites[i : i + self.batch_size]))
            return out
        gate = asyncio.Semaphore(self.concurrency)

        async def gated(site: Site) -> Proposal:
            async with gate:
                return await ask(site)

        return list(await asyncio.gather(*(gated(s) for s in sites)))


class FederatedFleet(Fleet):
    """A fleet whose membership changes at run time.

    Args:
        sites: sites known at start (e.g. in-process sites of the hub's own fleet file).
        fanout: the fan-out policy.
        is_down: tells whether a site's worker is DOWN (skipped, reported UNREACHABLE).
    """

    def __init__(
        self,
        sites: Sequence[Site] = (),
        *,
        fanout: FanOut | None = None,
        is_down: Callable[[str], bool] = lambda _site: False,
    ) -> None:
        self.fanout = fanout or FanOut()
        super().__init__(sites, concurrency=self.fanout.concurrency)
        self.is_down = is_down

    def __repr__(self) -> str:
        return f"FederatedFleet(sites={self.names!r}, fanout={self.fanout!r})"

    def replace(self, sites: Sequence[Site]) -> list[Site]:
        """Add ``sites``, replacing same-named ones; returns the replaced sites (to close)."""
        new = {s.name: s for s in sites}
        old = [s for s in self.sites if s.name in new]
        kept = [s for s in self.sites if s.name not in new]
        self.sites = kept + list(sites)
        return old

    def remove(self, names: Iterable[str]) -> None:
        """Drop the sites named (a worker's sites it no longer serves, or a forgotten worker's)."""
        gone = set(names)
        self.sites = [s for s in self.sites if s.name not in gone]

    async def negotiate(
        self,
        requirements: Requirements,
        *,
        request_id: str = "",
        only: Iterable[str] | None = None,
    ) -> list[Proposal]:
        """As :meth:`Fleet.negotiate`, with the fan-out policy and DOWN sites skipped."""
        targets = self.sites if only is None else [self.get(n) for n in only]
        live = [s for s in targets if not self.is_down(s.name)]
        answers = {p.site: p for p in await self.fanout.run(live, requirements, request_id)}
        return [
            answers.get(s.name)
            or unreachable(s.name, request_id, "worker missed its heartbeats (marked down)")
            for s in targets
        ]
