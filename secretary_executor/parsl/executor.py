"""``SecretaryExecutor``: a Parsl executor that asks the sites' secretaries where tasks run.

For every task it builds the requirements (from ``@secretary_app`` and the task's resource
specification), negotiates with the fleet through :class:`~secretary_executor.broker.Broker`,
selects with the task's policy, and sends the function to the chosen site's
:class:`~secretary_executor.parsl.channels.ExecutionChannel`. If the site fails before the task
starts (a transient channel error), the task goes to the next-ranked proposal; any other error,
and the task's own exception, reach its AppFuture unchanged. The task's resource specification
(less the ``secretary_*`` keys) goes on to the channel in its engine's convention
(:mod:`~secretary_executor.parsl.keys`); a key the engine does not take fails the task at
submit.

Each task in flight holds a claim on the free capacity its site's proposal reported
(:mod:`~secretary_executor.parsl.claims`), given back when it ends: a ranked site with no room
left is passed over for the next one with room (``placement="pack"``, the default, or
``"spread"``), so a one-node site never gets twenty one-node tasks while another site has free
nodes. When no ranked site has room, ``when_full`` decides: ``"queue"`` (default: past capacity
where the task would start soonest), ``"wait"`` (held here until a claim is given back) or
``"renegotiate"`` (held until the cached proposals are stale, then asked afresh).

Why it is shaped like this:

* ``submit`` runs under the DataFlowKernel's ``submitter_lock``, so it never waits for a
  negotiation: negotiations run on a private asyncio loop thread and the returned future is
  completed later. Tasks with the same requirements and policy share one in-flight negotiation,
  and its outcome is cached for ``cache_ttl_s`` (keyed by ``Requirements.signature()``), so
  a burst of identical tasks costs one fan-out.
* A cache hit needs no event loop: ``submit`` takes a claim at the first site of the cached
  ranking with room (a few integer operations under one lock, no allocation) and hands the
  function to its channel on the caller's thread. A no-op task costs the
  DataFlowKernel and Parsl's ThreadPoolExecutor about 100 us, so every microsecond and every
  object kept alive per task shows (live objects make each garbage collection longer): when the
  channel's futures are final (a task it accepted cannot fail over), Parsl waits on the
  channel's future itself and a callback shared by all such tasks records the outcome; the
  executor makes a task object and a future of its own only where failover may still need them.
  Attempts reach the ledger in batches (:class:`~secretary_executor.parsl.records.LedgerWriter`)
  and become models only when ``placements`` is read.
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
from concurrent.futures import CancelledError, Future, InvalidStateError
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeAlias

from parsl.app.errors import RemoteExceptionWrapper
from parsl.executors.base import ParslExecutor
from parsl.monitoring.radios.base import RadioConfig
from parsl.monitoring.radios.udp import UDPRadio

from providers.wire import ComputeRequirement, Policy, Proposal, Requirements, Verdict
from secretary_executor.broker import Broker, NegotiationResult, no_choice_message
from secretary_executor.errors import (
    ConfigurationError,
    DispatchError,
    SecretaryError,
    SelectionError,
)
from secretary_executor.ledger import Ledger
from secretary_executor.parsl.channels import ExecutionChannel
from secretary_executor.parsl.claims import (
    HOLD,
    NONE_LEFT,
    Binding,
    Placement,
    Placer,
    WhenFull,
)
from secretary_executor.parsl.keys import forwarded
from secretary_executor.parsl.records import Attempt, AttemptRow, LedgerWriter, TaskPlacement
from secretary_executor.parsl.spec import TaskNeeds, split_spec
from secretary_executor.select.registry import SelectionOutcome
from secretary_executor.sites.fleet import Fleet, load_fleet

log = logging.getLogger(__name__)

DEFAULT_REQUIREMENTS = Requirements(compute=ComputeRequirement(cores_per_node=1))
"""What a task that states nothing is taken to need: one core."""


@dataclass(eq=False)  # compared and hashed by identity: one entry is one negotiation
class _Negotiated:
    result: NegotiationResult
    outcome: SelectionOutcome
    candidates: list[Proposal]
    expires: float
    binding: Binding
    """The candidates' pools and what each task of this negotiation claims there."""
    stale_at: float = 0.0
    """When ``when_full="renegotiate"`` no longer trusts this view of free capacity."""
    refreshed: bool = False
    """Negotiated again because held tasks found no room: if still none, they queue."""
    request_id: str = ""
    ranked: tuple[str, ...] = ()
    """The candidates' site names, in order (read on every dispatch)."""
    recorders: dict[tuple[int, str], _Recorder] = field(default_factory=dict)
    """(candidate index, function name) -> the shared done-callback of tasks sent there."""
    refresh_scheduled: bool = False

    def __post_init__(self) -> None:
        self.request_id = self.result.request.request_id
        self.ranked = tuple(p.site for p in self.candidates)


class _Recorder:
    """Done-callback shared by the cache-hit tasks of one function sent to one site.

    Such a task (the common case: cached ranking, first site takes it, final futures) needs no
    per-task state beyond its id, which its future carries as ``parsl_executor_task_id``; so
    it allocates nothing of the executor's while in flight, exactly like a task of Parsl's
    ``ThreadPoolExecutor``.
    """

    __slots__ = ("entry", "executor", "function", "index", "site")

    def __init__(
        self, executor: SecretaryExecutor, entry: _Negotiated, index: int, function: str
    ) -> None:
        self.executor = executor
        self.entry = entry
        self.index = index
        self.site = entry.ranked[index]
        self.function = function

    def __call__(self, attempt: Future[Any]) -> None:
        task_id: int = attempt.parsl_executor_task_id  # type: ignore[attr-defined]
        executor = self.executor
        executor._release(self.entry, self.index)
        executor._outcome(task_id, self.function, self.entry, self.site, True, (), attempt)


class _Task:
    """One task in flight. A plain slotted class: one is built per task, on the submit path.

    The task is also the done-callback of a final channel future Parsl waits on, so such an
    attempt allocates no closure: at thousands of tasks per second, every object that lives
    while a task is in flight adds to the garbage collector's work. Any other attempt reports
    to :meth:`done`, which completes the executor's own future.
    """

    __slots__ = (
        "args",
        "attempts",
        "cached",
        "executor",
        "fn",
        "future",
        "id",
        "kwargs",
        "needs",
        "negotiated",
        "site",
        "slot",
    )

    def __init__(
        self,
        executor: SecretaryExecutor,
        task_id: int,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        needs: TaskNeeds,
    ) -> None:
        self.executor = executor
        self.id = task_id
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.needs = needs
        self.future: Future[Any] | None = None
        """The future Parsl waits on, when it is ours (None while Parsl may get the channel's)."""
        self.negotiated: _Negotiated | None = None
        self.site = ""
        """The site of the current attempt."""
        self.slot = -1
        """The index, in ``negotiated``, of the candidate whose claim the task holds (or -1)."""
        self.cached = False
        self.attempts: tuple[AttemptRow, ...] = ()

    def __call__(self, attempt: Future[Any]) -> None:
        # Parsl waits on this channel future itself: the executor made none of its own.
        self.executor._ran(self, attempt)

    def done(self, value: Any, error: BaseException | None) -> None:
        """The outcome of the current attempt (``ExecutionChannel.submit_then``'s callback)."""
        self.executor._finished(self, value, error)


_Placed: TypeAlias = tuple[str, _Negotiated | None, str | None, bool, tuple[AttemptRow, ...]]
"""A finished task as ``placements`` needs it: function name, negotiation, site, cached,
attempts. Its function, data and future are not kept, so a long workflow holds no results."""


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
        claims: count each task in flight against its site's free capacity (the default).
            False places every cache hit at the first-ranked site, whatever runs there.
        placement: ``"pack"`` (default) sends a task to the best-ranked site that has room, so
            the policy's preference decides while capacity lasts; ``"spread"`` sends it to the
            site with room whose free capacity is least used.
        when_full: what happens to a task when no ranked site has room: ``"queue"`` (default)
            sends it past capacity to the site where it would start soonest (the proposal's
            estimated start, e.g. a BUSY site's queue wait, plus the time to drain what this
            executor already queued there, at the task's walltime, one hour if unstated);
            ``"wait"`` holds it in the executor until a task ends and gives room back (it
            queues instead when no release can ever make room); ``"renegotiate"`` holds it
            until the cached proposals are ``stale_after_s`` old, then asks the sites again and
            queues if the fresh answer has no room either.
        max_in_flight: tasks in flight per site: one number for every site, or site -> number
            (sites left out have no limit). None (default): only capacity limits. A site at its
            limit takes no more, even under ``when_full="queue"``: its tasks wait.
        stale_after_s: how old cached proposals are before ``when_full="renegotiate"`` asks
            again.

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
        claims: bool = True,
        placement: Placement = "pack",
        when_full: WhenFull = "queue",
        max_in_flight: int | Mapping[str, int] | None = None,
        stale_after_s: float = 30.0,
    ) -> None:
        super().__init__()
        # Bad placement options fail here, in the user's configuration, not at the first task.
        self._placer = Placer(
            enabled=claims, placement=placement, when_full=when_full, max_in_flight=max_in_flight
        )
        if stale_after_s < 0:
            raise ConfigurationError(f"stale_after_s must be >= 0 seconds, not {stale_after_s}")
        self.stale_after_s = stale_after_s
        self._held: list[_Task] = []
        self._hold_lock = threading.Lock()
        self._refused: dict[str, tuple[SelectionError, float]] = {}
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
        self._placed: dict[int, _Placed] = {}
        self._parsl_ids: dict[int, tuple[int, int]] = {}
        """Executor task id -> Parsl (task id, try id), while in flight with monitoring on."""
        self._ran_at: dict[str, tuple[AttemptRow, ...]] = {}
        self._shapes: dict[_Placed, _Placed] = {}
        self._default_needs: TaskNeeds | None = None
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
        # Tasks that state nothing (most of them) share one reading of the empty spec.
        self._default_needs = split_spec(
            None, default_requirements=self.default_requirements, default_policy=self.policy
        )

    def shutdown(self) -> None:
        """Stop negotiating, flush the ledger, shut the channels down (if owned). Idempotent."""
        self._default_needs = None  # refuse new tasks from here on
        with self._hold_lock:
            held, self._held = self._held, []
        for task in held:
            future = _own_future(task)
            if not future.done():
                self._place(task, None)
                future.set_exception(
                    SecretaryError(f"executor {self.label!r} shut down before a site had room")
                )
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

        A task whose needs are in the negotiation cache is handed to its site's channel right
        here, with no event-loop hop: selecting from a cached ranking is a dictionary lookup.
        If that channel's futures are final (``ThreadChannel``), Parsl gets the channel's own
        future; otherwise, and for tasks that wait for a negotiation, the executor's.

        Postcondition: the future ends with the function's result, or with a
        :class:`SecretaryError` (no site can run it, every ranked site failed, bad spec).
        """
        kwargs.pop("parsl_resource_specification", None)
        task_id = next(self._counter)
        needs = self._default_needs
        if needs is None:  # not started, or shut down
            error = SecretaryError(f"executor {self.label!r} is not started (or shut down)")
            return _failed_future(task_id, error)
        if resource_specification:
            try:
                needs = split_spec(
                    resource_specification,
                    default_requirements=self.default_requirements,
                    default_policy=self.policy,
                )
            except SecretaryError as exc:
                return _failed_future(task_id, exc)
        if kwargs:
            parsl_task = kwargs.get("_parsl_monitoring_task_id")
            if parsl_task is not None:  # monitoring is on: its ids key the placement rows
                self._parsl_ids[task_id] = (parsl_task, kwargs.get("_parsl_monitoring_try_id", 0))
        entry = self._cached(needs.key)
        if entry is not None:
            return self._submit_cached(entry, task_id, func, args, kwargs, needs)
        refused = self._refused.get(needs.key)
        if refused is not None and refused[1] >= time.monotonic():
            # No site could ever run these needs: a retry (Parsl's) gets the same answer
            # without asking the whole fleet again.
            self._parsl_ids.pop(task_id, None)
            return _failed_future(task_id, refused[0])
        task = _Task(self, task_id, func, args, kwargs, needs)
        future = _own_future(task)
        self._negotiation(needs).add_done_callback(partial(self._negotiated, task))
        return future

    def _submit_cached(
        self,
        entry: _Negotiated,
        task_id: int,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        needs: TaskNeeds,
    ) -> Future[Any]:
        """Dispatch a task from a cached ranking, on the caller's thread.

        The common cases go straight to the site that took the claim: a channel with final
        futures hands Parsl its own future, with a shared :class:`_Recorder`; any other
        channel gets a :class:`_Task` whose future the channel's outcome completes
        (:meth:`ExecutionChannel.submit_then`). No room, a refusal and failover go through
        :meth:`_launch`.
        """
        placer = self._placer
        index = placer.acquire(entry.binding) if placer.enabled else 0
        task: _Task | None = None
        if index >= 0:
            site = entry.ranked[index]
            channel = self.channels[site]
            final = channel.final_futures
            if not final:
                # Ready before the channel has the task: its outcome may arrive at once.
                task = _Task(self, task_id, func, args, kwargs, needs)
                task.cached = True
                task.negotiated = entry
                task.site = site
                task.slot = index
                future = _own_future(task)
            try:
                spec = needs.forward
                if spec:
                    spec = forwarded(spec, channel.accepted_keys, site)
                if task is None:
                    inner = channel.submit_task(func, args, kwargs, spec)
                else:
                    channel.submit_then(func, args, kwargs, spec, task.done)
                    return future  # task.done calls self._finished
            except Exception as exc:  # noqa: BLE001 - channels raise their own types
                self._release(entry, index)
                if task is None:
                    task = _Task(self, task_id, func, args, kwargs, needs)
                    task.cached = True
                    task.negotiated = entry
                task.slot = -1
                if not getattr(exc, "transient", False):
                    return self._refused_at(task, site, exc)
                self._failed(task, site, exc)
            else:
                function = _name(func)
                recorder = entry.recorders.get((index, function))
                if recorder is None:
                    recorder = _Recorder(self, entry, index, function)
                    entry.recorders[(index, function)] = recorder
                inner.parsl_executor_task_id = task_id  # type: ignore[attr-defined]
                inner.add_done_callback(recorder)
                return inner
        if task is None:
            task = _Task(self, task_id, func, args, kwargs, needs)
            task.cached = True
        direct = self._launch(task, entry)
        if direct is not None:
            direct.parsl_executor_task_id = task_id  # type: ignore[attr-defined]
            return direct
        return _own_future(task)

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
                if self.cache_ttl_s > 0 and not f.cancelled():
                    exc = f.exception()
                    if exc is None:
                        self._cache[needs.key] = f.result()
                    elif isinstance(exc, SelectionError) and not exc.transient:
                        self._refused[needs.key] = (exc, time.monotonic() + self.cache_ttl_s)
            if self._held:  # fresh capacity figures may make room for held tasks
                self._wake()

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
            # Not transient (Parsl's retries and the negotiation cache give up at once) unless
            # a site did not answer, which it may do next time.
            unanswered = any(
                p.verdict in (Verdict.UNREACHABLE, Verdict.UNKNOWN) for p in result.proposals
            )
            raise SelectionError(no_choice_message(result), transient=unanswered)
        ranked = [result.proposal(name) for name in outcome.ranked]
        candidates = [p for p in ranked if p is not None] or [outcome.chosen]
        binding = self._placer.bind(candidates, result.request.requirements)
        now = time.monotonic()
        return _Negotiated(
            result,
            outcome,
            candidates,
            now + self.cache_ttl_s,
            binding,
            stale_at=now + self.stale_after_s,
        )

    def _negotiated(self, task: _Task, f: Future[_Negotiated], refreshed: bool = False) -> None:
        exc = f.exception()
        if exc is not None:
            message = (
                exc.message if isinstance(exc, SecretaryError) else f"{type(exc).__name__}: {exc}"
            )
            self._place(task, None)
            _own_future(task).set_exception(
                exc if isinstance(exc, SecretaryError) else SelectionError(message)
            )
            return
        entry = f.result()
        if refreshed:
            entry.refreshed = True
            task.cached = False  # placed from the sites' fresh answers
        self._launch(task, entry)

    # -- dispatch with failover ------------------------------------------------------------

    def _launch(self, task: _Task, entry: _Negotiated) -> Future[Any] | None:
        """Send the task to the best untried candidate with room (see ``placement``).

        A channel that refuses the task with a transient error never started it: the claim is
        given back and the next candidate is tried. Any other refusal is the task's answer.

        Returns:
            The channel's future, when Parsl can wait on it as it is: the channel's futures
            are final and no future of the executor's was handed out for this task. Otherwise
            None, and ``task.future`` carries the outcome (failing over as needed).
        """
        task.negotiated = entry
        tried = {a[0] for a in task.attempts}
        placer = self._placer
        while True:
            releases = placer.releases
            index = placer.acquire(entry.binding, tried, refreshed=entry.refreshed)
            if index == NONE_LEFT:
                break
            if index == HOLD:
                _own_future(task)
                self._hold(task, releases)
                return None
            site = entry.ranked[index]
            channel = self.channels[site]
            direct = task.future is None and channel.final_futures
            if not direct:
                _own_future(task)
            # Set before the channel has the task: its outcome may arrive before submit returns.
            task.site = site
            task.slot = index
            try:
                spec = task.needs.forward
                if spec:
                    spec = forwarded(spec, channel.accepted_keys, site)
                if direct:
                    inner = channel.submit_task(task.fn, task.args, task.kwargs, spec)
                else:
                    channel.submit_then(task.fn, task.args, task.kwargs, spec, task.done)
            except Exception as exc:  # noqa: BLE001 - channels raise their own types
                task.slot = -1
                self._release(entry, index)
                if not getattr(exc, "transient", False):
                    self._refused_at(task, site, exc)
                    return None
                self._failed(task, site, exc)
                tried.add(site)
                continue
            if direct:
                inner.add_done_callback(task)  # calls self._ran
                return inner
            return None  # task.done calls self._finished
        errors = "; ".join(f"{site}: {message}" for site, _, message in task.attempts)
        self._place(task, None)
        _own_future(task).set_exception(
            DispatchError(
                f"task {task.id}: every ranked site failed: {errors or 'no candidate site'}"
            )
        )
        return None

    def _refused_at(self, task: _Task, site: str, exc: BaseException) -> Future[Any]:
        """A channel refused the task for good (e.g. a resource specification its executor
        rejects): no other site is tried, and the task fails with that very exception."""
        self._attempt(task, site, False, f"refused: {type(exc).__name__}: {exc}")
        self._place(task, site)
        future = _own_future(task)
        future.set_exception(exc)
        return future

    # -- claims: release, hold, wake -------------------------------------------------------

    def _release(self, entry: _Negotiated, index: int) -> None:
        """Give back a task's claim at candidate ``index``, and let held tasks try again."""
        placer = self._placer
        if not placer.enabled or index < 0:
            return
        placer.release(entry.binding, index)
        if self._held:
            self._wake()

    def _hold(self, task: _Task, releases: int) -> None:
        """Keep a task that found no room until a claim is given back (``when_full``).

        ``releases`` is the release count read before the task looked for room: if a claim
        was given back since, the room it made may have come too late for the look, and no
        later release may come, so the held tasks look again at once.
        """
        with self._hold_lock:
            self._held.append(task)
        entry = task.negotiated
        if self._placer.when_full == "renegotiate" and entry is not None:
            self._refresh_later(entry)
        if self._placer.releases != releases:
            self._wake()

    def _wake(self) -> None:
        """Let every held task look for room again, oldest first.

        Tasks of one negotiation that found no room are all alike: once one of them is held
        again, the others of that negotiation are kept without looking.
        """
        with self._hold_lock:
            waiting, self._held = self._held, []
        if not waiting:
            return
        full: set[int] = set()
        for task in waiting:
            future = task.future
            if future is not None and future.done():  # cancelled or failed meanwhile
                continue
            entry = task.negotiated
            assert entry is not None
            if id(entry) in full and not task.attempts:
                with self._hold_lock:
                    self._held.append(task)
                continue
            before = len(self._held)
            self._launch(task, entry)
            if len(self._held) > before and not task.attempts:
                full.add(id(entry))

    def _refresh_later(self, entry: _Negotiated) -> None:
        """Renegotiate for the tasks held on ``entry`` once its view of capacity is stale."""
        loop = self._loop
        if entry.refresh_scheduled or loop is None:
            return
        entry.refresh_scheduled = True
        delay = max(0.0, entry.stale_at - time.monotonic())
        try:
            loop.call_soon_threadsafe(loop.call_later, delay, self._refresh, entry)
        except RuntimeError:  # the loop is closed: the executor is shutting down
            pass

    def _refresh(self, entry: _Negotiated) -> None:
        with self._lock:
            for key, cached in list(self._cache.items()):
                if cached is entry:
                    self._cache.pop(key, None)
        with self._hold_lock:
            mine = [t for t in self._held if t.negotiated is entry]
            self._held = [t for t in self._held if t.negotiated is not entry]
        for task in mine:
            self._negotiation(task.needs).add_done_callback(
                partial(self._negotiated, task, refreshed=True)
            )

    def _failed(self, task: _Task, site: str, exc: BaseException) -> None:
        message = exc.message if isinstance(exc, SecretaryError) else f"{type(exc).__name__}: {exc}"
        self._attempt(task, site, False, f"not started: {message}")
        self._forget(site)

    def _ran(self, task: _Task, f: Future[Any]) -> None:
        """Record a task whose channel future Parsl waits on."""
        assert task.negotiated is not None
        self._release(task.negotiated, task.slot)
        task.slot = -1
        function = _name(task.fn)
        self._outcome(task.id, function, task.negotiated, task.site, task.cached, task.attempts, f)

    def _outcome(
        self,
        task_id: int,
        function: str,
        entry: _Negotiated,
        site: str,
        cached: bool,
        earlier: tuple[AttemptRow, ...],
        f: Future[Any],
    ) -> None:
        """Record the last attempt of a task whose channel future Parsl waits on.

        The outcome is already on that future, for Parsl to read; here the attempt goes to
        the ledger and the task to ``placements``. A Parsl app's function returns its
        exception wrapped (Parsl re-raises it from the wrapper), so a wrapped result is a
        failed attempt, not one that ran.
        """
        try:
            exc = f.exception()
        except CancelledError:  # the channel was shut down with cancel_futures: never started
            message = f"not started: {site}: the task was cancelled"
            self._record(entry, site, False, task_id, function, message)
            self._forget(site)
            attempts = (*earlier, (site, False, message))
            self._keep(task_id, (function, entry, None, cached, attempts))
            return
        if exc is None:
            result = f.result()
            if type(result) is not RemoteExceptionWrapper:
                attempts = self._ran_after(earlier, site)
                self._record(entry, site, True, task_id, function, "ran")
                self._keep(task_id, (function, entry, site, cached, attempts))
                return
            message = _raised(result)
            attempts = (*earlier, (site, False, message))
            self._record(entry, site, False, task_id, function, message)
        else:
            message = f"failed: {exc}"
            attempts = (*earlier, (site, False, message))
            self._record(entry, site, False, task_id, function, message)
        self._keep(task_id, (function, entry, site, cached, attempts))

    def _finished(self, task: _Task, result: Any, exc: BaseException | None) -> None:
        """Complete the executor's future with an attempt's outcome, or fail over.

        Called from the channel's own completion (for an engine channel, on the engine's
        thread, straight from its result callback). The claim is given back first, so a held
        task may take the room. A future someone else already ended (cancelled) is left as it
        is: the outcome is still recorded.
        """
        site = task.site
        future = task.future
        entry = task.negotiated
        assert future is not None and entry is not None
        self._release(entry, task.slot)
        task.slot = -1
        if exc is None:
            if type(result) is RemoteExceptionWrapper:  # the task raised: Parsl re-raises it
                self._attempt(task, site, False, _raised(result))
                self._place(task, site)
            else:
                function = _name(task.fn)
                attempts = task.attempts = self._ran_after(task.attempts, site)
                self._record(entry, site, True, task.id, function, "ran")
                self._keep(task.id, (function, entry, site, task.cached, attempts))
            try:
                future.set_result(result)
            except InvalidStateError:  # cancelled by its holder meanwhile
                pass
            return
        if getattr(exc, "transient", False):  # it never started, so it may go elsewhere
            self._failed(task, site, exc)
            if future.done():  # cancelled by its holder meanwhile: sent nowhere else
                self._place(task, None)
            else:
                self._launch(task, entry)
            return
        self._attempt(task, site, False, f"failed: {exc}")
        self._place(task, site)
        try:
            future.set_exception(exc)
        except InvalidStateError:  # cancelled by its holder meanwhile
            pass

    def _ran_after(self, earlier: tuple[AttemptRow, ...], site: str) -> tuple[AttemptRow, ...]:
        """The attempts of a task that ran at ``site`` after ``earlier`` failed ones."""
        if earlier:
            return (*earlier, (site, True, "ran"))
        # Most tasks run at the first site they try: one shared tuple per site for all of them.
        attempts = self._ran_at.get(site)
        if attempts is None:
            attempts = self._ran_at[site] = ((site, True, "ran"),)
        return attempts

    def _attempt(self, task: _Task, site: str, ok: bool, message: str) -> None:
        task.attempts += ((site, ok, message),)
        if task.negotiated is not None:
            self._record(task.negotiated, site, ok, task.id, _name(task.fn), message)

    def _record(
        self, entry: _Negotiated, site: str, ok: bool, task_id: int, function: str, message: str
    ) -> None:
        writer = self._writer
        if writer is not None:
            writer.attempt(entry.request_id, site, ok, self.label, task_id, function, message)
            if self._parsl_ids:
                ids = self._parsl_ids.get(task_id)
                if ids is not None:
                    writer.placement(
                        self.run_id or "", *ids, site, entry.request_id, ok, message, self.label
                    )

    def _forget(self, site: str) -> None:
        """Drop every cached negotiation that ranked ``site``."""
        with self._lock:
            for key in [k for k, e in self._cache.items() if site in e.ranked]:
                self._cache.pop(key, None)

    def _place(self, task: _Task, site: str | None) -> None:
        self._keep(task.id, (_name(task.fn), task.negotiated, site, task.cached, task.attempts))

    def _keep(self, task_id: int, placed: _Placed) -> None:
        """Remember a finished task for ``placements`` (models are built only when read).

        Tasks that ran at the first site they tried share one record per function,
        negotiation, site and cache use, so a long run adds one dict entry per task and no
        object for the garbage collector to walk. Other records are kept as they are.
        """
        if self._parsl_ids:
            self._parsl_ids.pop(task_id, None)
        attempts = placed[4]
        if len(attempts) == 1 and attempts[0][1]:
            placed = self._shapes.setdefault(placed, placed)
        self._placed[task_id] = placed

    @property
    def in_flight(self) -> dict[str, int]:
        """Site -> this executor's tasks in flight there now (empty with ``claims=False``)."""
        return self._placer.in_flight()

    @property
    def held(self) -> int:
        """Tasks held in the executor until a site has room (``when_full="wait"``...)."""
        return len(self._held)

    @property
    def placements(self) -> dict[int, TaskPlacement]:
        """Every finished task: where it ran, the chosen proposal's reason, its attempts."""
        return {tid: _placement(tid, placed) for tid, placed in list(self._placed.items())}


def _placement(task_id: int, placed: _Placed) -> TaskPlacement:
    function, entry, site, cached, attempts = placed
    proposal = entry.result.proposal(site) if entry is not None and site else None
    return TaskPlacement(
        task_id=task_id,
        function=function,
        request_id=entry.request_id if entry else "",
        site=site,
        verdict=proposal.verdict.value if proposal else None,
        reason=proposal.reason if proposal else "",
        cached=cached,
        attempts=tuple(Attempt(site=a, ok=ok, message=m) for a, ok, m in attempts),
    )


def _own_future(task: _Task) -> Future[Any]:
    """The executor's future for ``task``, made on first need."""
    future = task.future
    if future is None:
        future = task.future = Future()
        future.parsl_executor_task_id = task.id  # type: ignore[attr-defined]
    return future


def _failed_future(task_id: int, error: BaseException) -> Future[Any]:
    future: Future[Any] = Future()
    future.parsl_executor_task_id = task_id  # type: ignore[attr-defined]
    future.set_exception(error)
    return future


def _raised(wrapper: RemoteExceptionWrapper) -> str:
    """The attempt message of a task whose function raised."""
    return f"failed: {wrapper.e_type.__name__}: {wrapper.e_value}"


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", type(fn).__name__)
