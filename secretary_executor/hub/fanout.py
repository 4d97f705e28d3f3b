"""How the hub asks its sites: all at once (bounded), one at a time, or in batches.

:class:`FederatedFleet` is a :class:`~secretary_executor.sites.fleet.Fleet` whose sites can
join and leave while the hub runs, and whose fan-out skips sites of DOWN workers (they are
reported UNREACHABLE at once, without a call). Whatever the mode, every asked site yields
exactly one proposal, in fleet order, and no site waits longer than its own timeout.

Sites that share a worker session are asked together: one ``ask_secretaries`` call carries a
group of them and the worker answers the group concurrently
(:func:`~secretary_executor.sites.mcp.negotiate_batch`), so a fan-out costs a round trip per
group instead of one per site. Groups never break the policy:

- ``concurrent``: calls of at most ``concurrency`` sites of one worker. The ``concurrency``
  budget is shared among the calls: a call of ``k`` sites holds ``min(k, share)`` of it,
  ``share`` being the budget divided by the number of calls (at least 1), and its worker
  answers at most that many of its sites at once. So no more than ``concurrency`` sites are
  being answered at any moment, as with one call per site, while the calls overlap (one
  worker encodes a reply while the hub reads another).
- ``batched``: ``batch_size`` sites at a time as before; within a batch, one call per worker.
- ``serial``: one site per call, one after another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from endpoint_plugins.mcp_batch import MAX_BATCH_SITES
from endpoint_plugins.secretary import unreachable
from providers.wire import Proposal, Requirements
from secretary_executor.sites.base import Site
from secretary_executor.sites.fleet import Fleet, OnAnswer
from secretary_executor.sites.mcp import negotiate_batch


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

    @property
    def largest_group(self) -> int:
        """The most sites one call to a worker may carry under this policy."""
        if self.mode == "serial":
            return 1
        return min(
            self.concurrency if self.mode == "concurrent" else self.batch_size, MAX_BATCH_SITES
        )

    async def run(
        self,
        sites: Sequence[Site],
        requirements: Requirements,
        request_id: str,
        on_answer: OnAnswer | None = None,
    ) -> list[Proposal]:
        """One proposal per site, in order (UNREACHABLE for a silent or failing site);
        ``on_answer`` is told each call's proposals as the call returns."""

        async def ask(group: list[Site], at_once: int) -> list[Proposal]:
            if len(group) == 1:
                answers = [await group[0].negotiate(requirements, request_id=request_id)]
            else:
                answers = await negotiate_batch(
                    group, requirements, request_id, concurrency=at_once
                )
            if on_answer is not None:
                await on_answer(answers)
            return answers

        if self.mode == "serial":
            return [(await ask([s], 1))[0] for s in sites]
        if self.mode == "batched":
            out: list[Proposal] = []
            for i in range(0, len(sites), self.batch_size):
                part = sites[i : i + self.batch_size]
                calls = groups(part, self.batch_size)
                out += _in_order(part, await asyncio.gather(*(ask(g, len(g)) for g in calls)))
            return out
        calls = groups(sites, self.largest_group)
        share = max(1, self.concurrency // max(1, len(calls)))
        permits = _Permits(self.concurrency)

        async def gated(group: list[Site]) -> list[Proposal]:
            at_once = min(len(group), share)
            async with permits.take(at_once):
                return await ask(group, at_once)

        return _in_order(sites, await asyncio.gather(*(gated(g) for g in calls)))


def groups(sites: Sequence[Site], size: int) -> list[list[Site]]:
    """``sites`` split into calls: sites sharing a batch key (one worker session) go together,
    at most ``size`` per group, in fleet order; every other site is a group of its own."""
    out: list[list[Site]] = []
    open_groups: dict[object, list[Site]] = {}
    for site in sites:
        key = site.transport.batch_key() if size > 1 else None
        if key is None:
            out.append([site])
            continue
        group = open_groups.get(key)
        if group is None or len(group) >= size:
            group = open_groups[key] = []
            out.append(group)
        group.append(site)
    return out


def _in_order(sites: Sequence[Site], answers: Iterable[list[Proposal]]) -> list[Proposal]:
    by_site = {p.site: p for group in answers for p in group}
    return [by_site[s.name] for s in sites]


class _Permits:
    """A counting gate where one holder may take several permits (a group of sites).

    Takers queue in arrival order (one at a time acquires), so a large group cannot be starved
    by a stream of small ones, and no two takers can deadlock holding part of what they need.
    """

    def __init__(self, total: int) -> None:
        self.total = total
        self.free = total
        self._turn = asyncio.Lock()
        self._changed = asyncio.Condition()

    def take(self, n: int) -> _Held:
        return _Held(self, min(n, self.total))


class _Held:
    def __init__(self, permits: _Permits, n: int) -> None:
        self.permits = permits
        self.n = n

    async def __aenter__(self) -> None:
        p = self.permits
        async with p._turn, p._changed:
            await p._changed.wait_for(lambda: p.free >= self.n)
            p.free -= self.n

    async def __aexit__(self, *exc: object) -> None:
        p = self.permits
        async with p._changed:
            p.free += self.n
            p._changed.notify_all()


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
        on_answer: OnAnswer | None = None,
    ) -> list[Proposal]:
        """As :meth:`Fleet.negotiate`, with the fan-out policy and DOWN sites skipped (they
        are told to ``on_answer`` first: their answer is known without a call)."""
        targets = self.sites if only is None else [self.get(n) for n in only]
        live = [s for s in targets if not self.is_down(s.name)]
        down = {
            s.name: unreachable(s.name, request_id, "worker missed its heartbeats (marked down)")
            for s in targets
            if self.is_down(s.name)
        }
        if down and on_answer is not None:
            await on_answer(list(down.values()))
        found = await self.fanout.run(live, requirements, request_id, on_answer)
        answers = {**down, **{p.site: p for p in found}}
        return [answers[s.name] for s in targets]
