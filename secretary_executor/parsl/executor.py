"""``SecretaryExecutor``: a Parsl executor that asks the sites' secretaries where tasks run.

For every task it builds the requirements (from ``@secretary_app`` and the task's resource
specification), negotiates with the fleet through :class:`~secretary_executor.broker.Broker`,
selects with the task's policy, and sends the function to the chosen site's
:class:`~secretary_executor.parsl.channels.ExecutionChannel`. If the site fails before the task
starts (a transient channel error), the task goes to the next-ranked proposal.

Why it is shaped like this:

* ``submit`` runs under the DataFlowKernel's ``submitter_lock``, so it never waits for a
  negotiation: negotiations run on a private asyncio loop thread and the returned future is
  completed later. Tasks with the same requirements and policy share one in-flight negotiation,
  and its outcome is cached for ``cache_ttl_s`` (keyed by ``Requirements.signature()``), so
  a burst of identical tasks costs one fan-out.
* A cache entry is dropped as soon as one of its sites fails a task, so the next task with
  those needs renegotiates instead of trusting a stale READY.
* It is a plain ``ParslExecutor`` (not block-based): sites scale themselves, and Parsl's
  strategy never polls it. ``monitor_resources()`` is False; with monitoring on, tasks report
  through ``remote_monitoring_radio`` (UDP to 127.0.0.1 unless given).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from parsl.executors.base import ParslExecutor
from parsl.monitoring.radios.base import RadioConfig
from parsl.monitoring.radios.udp import UDPRadio

from providers.wire import ComputeRequirement, Policy, Proposal, Requirements
from secretary_executor.broker import Broker, NegotiationResult, no_choice_message
from secretary_executor.errors import (
    ConfigurationError,
    DispatchError,
    SecretaryError,
    SelectionError,
)
from secretary_executor.ledger import Ledger
from secretary_executor.parsl.channels import ExecutionChannel
from secretary_executor.parsl.records import Attempt, LedgerWriter, TaskPlacement
from secretary_executor.parsl.spec import TaskNeeds, split_spec
from secretary_executor.select.registry import SelectionOutcome
from secretary_executor.sites.fleet import Fleet, load_fleet

log = logging.getLogger(__name__)

DEFAULT_REQUIREMENTS = Requirements(compute=ComputeRequirement(cores_per_node=1))
"""What a task that states nothing is taken to need: one core."""


@dataclass
class _Negotiated:
    result: NegotiationResult
    outcome: SelectionOutcome
    candidates: list[Proposal]
    expires: float


@dataclass
class _Task:
    id: int
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    needs: TaskNeeds
    future: Future[Any]
    negotiated: _Negotiated | None = None
    cached: bool = False
    attempts: list[Attempt] = field(default_factory=list)


class SecretaryExecutor(ParslExecutor):
    """Places each Parsl task at the site whose secretary offers the best proposal.

    Args:
        fleet: the sites to negotiate with: a :class:`Fleet`, ``"demo"`` or a fleet file path
            (loaded in :meth:`start`).
        channels: site name -> the channel that runs Python functions there. Only sites with
            a channel are asked.
        label: the executor's Parsl label.
        policy: the default selection policy (an algorithm name or a :class:`Policy`).
        default_requirements: used for tasks that state no requirements at all.
        cache_ttl_s: how long a negotiation outcome is reused for equal requirements; 0 turns
            the cache off.
        ledger: a :class:`Ledger` or its path; default ``$SECRETARY_HOME/ledger.sqlite3``.
        remote_monitoring_radio: how tasks report to Parsl monitoring.
        shutdown_channels: shut the channels down with the executor.
        storage_access: Parsl staging providers, as for any executor.
        working_dir: Parsl's working directory for staged files.

    Nothing happens at construction: :meth:`start` (called by the DataFlowKernel) loads the
    fleet, opens the ledger, starts the channels and the negotiation loop.
    """

    def __init__(
        self,
        fleet: Fleet | str | os.PathLike[str] = "demo",
        channels: Mapping[str, ExecutionChannel] | None = None,
        *,
        label: str = "secretary",
        policy: Policy | str | None = None,
        default_requirements: Requirements = DEFAULT_REQUIREMENTS,
        cache_ttl_s: float = 60.0,
        ledger: Ledger | str | os.PathLike[str] | None = None,
        remote_monitoring_radio: RadioConfig | None = None,
        shutdown_channels: bool = True,
        storage_access: list[Any] | None = None,
        working_dir: str | None = None,
    ) -> None:
        super().__init__()
        self.label = label
        self.fleet_spec = fleet
        self.channels: dict[str, ExecutionChannel] = dict(channels or {})
        self.policy = Policy(algorithm=policy) if isinstance(policy, str) else (policy or Policy())
        self.default_requirements = default_requirements
        self.cache_ttl_s = cache_ttl_s
        self.ledger_spec = ledger
        self.remote_monitoring_radio = remote_monitoring_radio or UDPRadio(
            address="127.0.0.1", atexit_timeout=0
        )
        self.shutdown_channels = shutdown_channels
        self.storage_access = storage_access
        self.working_dir = working_dir
        self._placed: dict[int, tuple[_Task, str | None]] = {}
        self.broker: Broker | None = None
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._cache: dict[str, _Negotiated] = {}
        self._inflight: dict[str, Future[_Negotiated]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._writer: LedgerWriter | None = None
        self._owns_fleet = not isinstance(fleet, Fleet)

    def __repr__(self) -> str:
        return (
            f"SecretaryExecutor(label={self.label!r}, sites={sorted(self.channels)!r}, "
            f"policy={self.policy.algorithm!r})"
        )

    def monitor_resources(self) -> bool:
        return False

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Load the fleet, open the ledger, start channels and the negotiation loop.

        Raises:
            ConfigurationError: no channels, or a channel for a site the fleet lacks.
        """
        fleet = (
            self.fleet_spec if isinstance(self.fleet_spec, Fleet) else load_fleet(self.fleet_spec)
        )
        if not self.channels:
            raise ConfigurationError(
                "SecretaryExecutor has no execution channels: pass channels={site: channel} "
                "(see secretary_executor.parsl.demo_engine_fleet for a local set)"
            )
        unknown = sorted(set(self.channels) - set(fleet.names))
        if unknown:
            raise ConfigurationError(
                f"channels for sites the fleet does not have: {', '.join(unknown)}; "
                f"the fleet has: {', '.join(fleet.names)}"
            )
        ledger = (
            self.ledger_spec if isinstance(self.ledger_spec, Ledger) else Ledger(self.ledger_spec)
        )
        self.broker = Broker(fleet, ledger)
        self._writer = LedgerWriter(ledger)
        for channel in self.channels.values():
            channel.start()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name=f"{self.label}-negotiation", daemon=True
        )
        self._thread.start()

    def shutdown(self) -> None:
        """Stop negotiating, flush the ledger, shut the channels down (if owned). Idempotent."""
        loop, self._loop = self._loop, None
        if loop is not None:
            if self._owns_fleet and self.broker is not None:
                try:
                    asyncio.run_coroutine_threadsafe(self.broker.fleet.close(), loop).result(30)
                except Exception:
                    log.exception("closing the fleet failed")
            loop.call_soon_threadsafe(loop.stop)
            if self._thread is not None:
                self._thread.join(30)
            loop.close()
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self.shutdown_channels:
            for channel in self.channels.values():
                try:
                    channel.shutdown(wait=False)
                except Exception:
                    log.exception("shutting down channel %r failed", channel)
        super().shutdown()

    # -- submission ------------------------------------------------------------------------

    def submit(
        self,
        func: Callable[..., Any],
        resource_specification: dict[str, Any] | None,
        *args: Any,
        **kwargs: Any,
    ) -> Future[Any]:
        """Return a future at once; negotiation and dispatch happen off the caller's thread.

        Postcondition: the future ends with the function's result, or with a
        :class:`SecretaryError` (no site can run it, every ranked site failed, bad spec).
        """
        kwargs.pop("parsl_resource_specification", None)
        future: Future[Any] = Future()
        task_id = next(self._counter)
        future.parsl_executor_task_id = task_id  # type: ignore[attr-defined]
        if self._loop is None:
            future.set_exception(
                SecretaryError(f"executor {self.label!r} is not started (or shut down)")
            )
            return future
        try:
            needs = split_spec(
                resource_specification,
                default_requirements=self.default_requirements,
                default_policy=self.policy,
            )
        except SecretaryError as exc:
            future.set_exception(exc)
            return future
        task = _Task(task_id, func, args, kwargs, needs, future)
        entry = self._cached(needs.key)
        if entry is not None:
            task.cached = True
            self._launch(task, entry)
        else:
            self._negotiation(needs).add_done_callback(lambda f: self._negotiated(task, f))
        return future

    def _cached(self, key: str) -> _Negotiated | None:
        entry = self._cache.get(key)
        if entry is None:
            return None
        if entry.expires < time.monotonic():
            self._cache.pop(key, None)
            return None
        return entry

    def _negotiation(self, needs: TaskNeeds) -> Future[_Negotiated]:
        with self._lock:
            running = self._inflight.get(needs.key)
            if running is not None:
                return running
            assert self._loop is not None
            fut = asyncio.run_coroutine_threadsafe(self._negotiate(needs), self._loop)
            self._inflight[needs.key] = fut

        def settle(f: Future[_Negotiated]) -> None:
            with self._lock:
                self._inflight.pop(needs.key, None)
                if self.cache_ttl_s > 0 and not f.cancelled() and f.exception() is None:
                    self._cache[needs.key] = f.result()

        fut.add_done_callback(settle)
        return fut

    async def _negotiate(self, needs: TaskNeeds) -> _Negotiated:
        assert self.broker is not None
        request = self.broker.prepare(
            needs.text, requirements=needs.requirements, policy=needs.policy
        )
        result = await self.broker.negotiate(request, only=sorted(self.channels))
        outcome = self.broker.select(result)
        if outcome.chosen is None:
            raise SelectionError(no_choice_message(result))
        ranked = [result.proposal(name) for name in outcome.ranked]
        candidates = [p for p in ranked if p is not None] or [outcome.chosen]
        return _Negotiated(result, outcome, candidates, time.monotonic() + self.cache_ttl_s)

    def _negotiated(self, task: _Task, f: Future[_Negotiated]) -> None:
        exc = f.exception()
        if exc is not None:
            message = (
                exc.message if isinstance(exc, SecretaryError) else f"{type(exc).__name__}: {exc}"
            )
            self._place(task, None)
            task.future.set_exception(
                exc if isinstance(exc, SecretaryError) else SelectionError(message)
            )
            return
        self._launch(task, f.result())

    # -- dispatch with failover ------------------------------------------------------------

    def _launch(self, task: _Task, entry: _Negotiated) -> None:
        task.negotiated = entry
        tried = {a.site for a in task.attempts}
        for proposal in entry.candidates:
            if proposal.site in tried:
                continue
            channel = self.channels[proposal.site]
            try:
                inner = channel.submit_task(task.fn, task.args, task.kwargs, task.needs.forward)
            except Exception as exc:  # noqa: BLE001 - any refusal at submit means "not started"
                self._failed(task, proposal.site, exc)
                tried.add(proposal.site)
                continue
            inner.add_done_callback(lambda f, site=proposal.site: self._finished(task, site, f))
            return
        errors = "; ".join(f"{a.site}: {a.message}" for a in task.attempts) or "no candidate site"
        self._place(task, None)
        task.future.set_exception(
            DispatchError(f"task {task.id}: every ranked site failed: {errors}")
        )

    def _failed(self, task: _Task, site: str, exc: BaseException) -> None:
        message = exc.message if isinstance(exc, SecretaryError) else f"{type(exc).__name__}: {exc}"
        self._attempt(task, site, False, f"not started: {message}")
        self._forget(site)

    def _finished(self, task: _Task, site: str, f: Future[Any]) -> None:
        exc = f.exception()
        if exc is not None and getattr(exc, "transient", False):
            self._failed(task, site, exc)
            assert task.negotiated is not None
            self._launch(task, task.negotiated)
            return
        self._attempt(task, site, exc is None, "ran" if exc is None else f"failed: {exc}")
        self._place(task, site)
        if exc is None:
            task.future.set_result(f.result())
        else:
            task.future.set_exception(exc)

    def _attempt(self, task: _Task, site: str, ok: bool, message: str) -> None:
        task.attempts.append(Attempt(site=site, ok=ok, message=message))
        if self._writer is not None and task.negotiated is not None:
            request_id = task.negotiated.result.request.request_id
            self._writer.attempt(
                request_id,
                site,
                ok,
                f"parsl task {self.label}#{task.id} ({_name(task.fn)}): {message}",
            )

    def _forget(self, site: str) -> None:
        """Drop every cached negotiation that ranked ``site``."""
        with self._lock:
            for key in [
                k for k, e in self._cache.items() if any(p.site == site for p in e.candidates)
            ]:
                self._cache.pop(key, None)

    def _place(self, task: _Task, site: str | None) -> None:
        # Models are built only when someone reads ``placements``: off the per-task path.
        # The arguments are dropped so a long workflow does not keep every task's data alive.
        task.args, task.kwargs = (), {}
        self._placed[task.id] = (task, site)

    @property
    def placements(self) -> dict[int, TaskPlacement]:
        """Every finished task: where it ran, the chosen proposal's reason, its attempts."""
        return {tid: _placement(task, site) for tid, (task, site) in list(self._placed.items())}


def _placement(task: _Task, site: str | None) -> TaskPlacement:
    entry = task.negotiated
    proposal = entry.result.proposal(site) if entry is not None and site else None
    return TaskPlacement(
        task_id=task.id,
        function=_name(task.fn),
        request_id=entry.result.request.request_id if entry else "",
        site=site,
        verdict=proposal.verdict.value if proposal else None,
        reason=proposal.reason if proposal else "",
        cached=task.cached,
        attempts=tuple(task.attempts),
    )


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", type(fn).__name__)
