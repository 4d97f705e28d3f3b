"""Execution channels: how a user's Python function reaches the site that was chosen for it.

The secretary functions decide *where*; a channel carries the task *there*. Each channel is a
:class:`concurrent.futures.Executor` for one site, with one extra promise the executor's
failover depends on: every failure is a :class:`~secretary_executor.errors.SecretaryError`
whose ``transient`` flag is True exactly when the task never started at the site (the site was
down, refused it, or the service never accepted it), so running it elsewhere cannot repeat any
of its effects.

* :class:`EngineChannel`: a Globus Compute endpoint engine here (the offline stand-in).
* :class:`GlobusChannel`: a ``globus_compute_sdk.Executor`` bound to the site's endpoint.
* :class:`ParslChannel`: any Parsl executor (HTEX to a cluster, a ThreadPoolExecutor...).
* :class:`ThreadChannel`: threads in this process, no serialization (a site that is this
  machine; also isolates the executor's own overhead in benchmarks).

Only a transient error moves a task to another site. Anything else a channel raises at submit
(a resource specification the site's executor rejects, say Parsl's
``InvalidResourceSpecification``) is permanent: the executor hands that very exception to the
task's AppFuture, and the next site is not tried, since it would only hide a mistake in the
request. An exception without a ``transient`` attribute counts as permanent.

A channel whose futures are *final* (:attr:`ExecutionChannel.final_futures`: once it accepted a
task, the future ends with the task's own outcome, never with "not started") lets the executor
hand that future to Parsl as it is, instead of making a second future per task and copying the
outcome across. Any other channel's outcome reaches the executor's own future through
:meth:`ExecutionChannel.submit_then`, a callback; :class:`EngineChannel` calls it straight from
the engine's result callback, so such a task still has one future, not two.
"""

from __future__ import annotations

import os
import threading
from abc import abstractmethod
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from functools import partial
from typing import Any

from parsl.executors.base import ParslExecutor
from parsl.executors.errors import BadStateException, ScalingFailed
from parsl.executors.status_handling import BlockProviderExecutor
from parsl.jobs.job_status_poller import JobStatusPoller

from secretary_executor.errors import SecretaryError
from secretary_executor.parsl.keys import (
    GLOBUS_SDK_KEYS,
    NO_KEYS,
    engine_keys,
    parsl_executor_keys,
)
from secretary_executor.sites.engine import Done, EngineRunner, EngineTaskError


class ChannelError(SecretaryError):
    """A task failed in a channel; ``transient`` is True when it never started."""


class ExecutionChannel(Executor):
    """Runs Python callables at one site.

    Subclasses implement :meth:`submit_task`; ``submit(fn, *args, **kwargs)`` (the
    ``concurrent.futures`` form) calls it with an empty resource specification.
    """

    name: str = "channel"
    final_futures: bool = False
    """True when a future from :meth:`submit_task` never ends with a transient error: a task
    the channel accepted runs (or fails) there. The executor then returns that future to Parsl
    directly, since no outcome can send the task elsewhere. False (the safe default) when a
    task can still be lost before it starts, e.g. an engine or a web service between here and
    the site; the executor then keeps its own future, so it can fail the task over."""

    accepted_keys: frozenset[str] = NO_KEYS
    """Resource-specification keys the engine behind the channel takes (see
    :mod:`~secretary_executor.parsl.keys`). The executor forwards these, and fails a task at
    submit with any other key it does not read for placement itself."""

    def start(self) -> None:
        """Prepare the channel (idempotent). The default needs nothing."""

    @abstractmethod
    def submit_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
    ) -> Future[Any]:
        """Send ``fn(*args, **kwargs)`` to the site.

        Returns:
            A future that ends with the function's value or a :class:`SecretaryError`
            (``transient`` True when the task never started).

        Raises:
            SecretaryError: the channel cannot take the task now (``transient`` True).
            Exception: any other error is permanent: the task fails with it, unchanged.
        """

    def submit_then(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
        done: Done,
    ) -> None:
        """Send ``fn(*args, **kwargs)`` to the site and call ``done(value, error)`` once.

        What the executor uses when it completes a future of its own (a channel whose futures
        are not final): the outcome needs no future of the channel's in between. ``error`` is
        None when the function returned ``value``; otherwise what the channel's future would
        have ended with (a cancelled task: a transient :class:`ChannelError`). ``done`` may be
        called on any thread, and before this returns.

        The default goes through :meth:`submit_task`; a channel that learns the outcome from a
        callback of its own (:class:`EngineChannel`) overrides it to skip that future.

        Raises:
            As :meth:`submit_task`; ``done`` is then never called.
        """
        inner = self.submit_task(fn, args, kwargs, resource_specification)
        inner.add_done_callback(partial(_tell, done, self.name))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.submit_task(fn, tuple(args), dict(kwargs), {})


def _tell(done: Done, name: str, f: Future[Any]) -> None:
    """Tell ``done`` how a channel's future ended."""
    if f.cancelled():  # it never ran, so it may run elsewhere
        done(None, ChannelError(f"{name}: the task was cancelled", transient=True))
        return
    error = f.exception()
    done(None if error is not None else f.result(), error)


class EngineChannel(ExecutionChannel):
    """A site's Globus Compute engine, run here through an :class:`EngineRunner`.

    Args:
        runner: the runner (shared with the site's :class:`LocalEngineTransport`).
        name: a name for messages.
        accepted_keys: the resource-specification keys the engine takes; by default what its
            kind takes: the MPI keys for GlobusMPIEngine, ``priority`` for
            GlobusComputeEngine, none for Thread- and ProcessPoolEngine.
    """

    def __init__(
        self,
        runner: EngineRunner,
        *,
        name: str = "engine",
        accepted_keys: frozenset[str] | None = None,
    ) -> None:
        self.runner = runner
        self.name = name
        self.accepted_keys = (
            engine_keys(runner.engine) if accepted_keys is None else frozenset(accepted_keys)
        )

    def __repr__(self) -> str:
        return f"EngineChannel({self.name!r}, {self.runner!r})"

    def start(self) -> None:
        self.runner.start()

    def submit_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
    ) -> Future[Any]:
        # EngineTaskError already carries transient = "never started".
        return self.runner.submit(fn, args, kwargs, resource_specification=resource_specification)

    def submit_then(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
        done: Done,
    ) -> None:
        # Straight from the engine's result callback: no future of the runner's per task.
        self.runner.submit_then(
            fn, args, kwargs, done, resource_specification=resource_specification
        )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.runner.shutdown()


class ThreadChannel(ExecutionChannel):
    """Runs functions in a thread pool in this process (no serialization, no engine).

    Args:
        max_workers: threads in the pool.
        name: a name for messages.

    After :meth:`shutdown`, submissions fail with a transient :class:`ChannelError`.

    Its futures are the pool's own and :attr:`final_futures`: a task the pool took runs here,
    so Parsl waits on the pool's future directly, as with Parsl's ``ThreadPoolExecutor``. The
    one way such a future ends without running is ``shutdown(cancel_futures=True)``; Parsl then
    sees it cancelled (nothing ran, so its retries may run it again).
    """

    final_futures = True

    def __init__(self, max_workers: int = 4, *, name: str = "threads") -> None:
        self.name = name
        self.max_workers = max_workers
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ThreadChannel({self.name!r}, max_workers={self.max_workers})"

    def start(self) -> None:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.max_workers, thread_name_prefix=self.name)

    def submit_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
    ) -> Future[Any]:
        pool = self._pool
        if pool is None:
            raise ChannelError(f"{self.name}: the channel is not started", transient=True)
        try:
            return pool.submit(fn, *args, **kwargs)
        except RuntimeError as exc:  # "cannot schedule new futures after shutdown"
            raise ChannelError(f"{self.name}: {exc}", transient=True) from None

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


class GlobusChannel(ExecutionChannel):
    """A Globus Compute endpoint through the SDK's ``Executor``.

    Args:
        executor: a ``globus_compute_sdk.Executor`` whose ``endpoint_id`` is the site's endpoint.
        name: a name for messages.
        accepted_keys: the keys the endpoint takes; by default the MPI keys, ``priority`` and
            ``user_endpoint_config`` (the endpoint's engine is not known here).

    ``user_endpoint_config`` in a task's resource specification is sent as the endpoint's
    user configuration (templated multi-user endpoints); the rest as its
    ``resource_specification``, as Parsl's ``GlobusComputeExecutor`` does. A task whose
    submission the service never acknowledged (no ``task_id``: network, auth, rate limit)
    fails with a transient :class:`ChannelError`.
    """

    def __init__(
        self,
        executor: Any,
        *,
        name: str = "globus",
        accepted_keys: frozenset[str] | None = None,
    ) -> None:
        self.executor = executor
        self.name = name
        self.accepted_keys = GLOBUS_SDK_KEYS if accepted_keys is None else frozenset(accepted_keys)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"GlobusChannel({self.name!r}, endpoint={self.executor.endpoint_id})"

    def submit_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
    ) -> Future[Any]:
        spec = dict(resource_specification)
        uep = spec.pop("user_endpoint_config", None)
        with self._lock:
            saved = (self.executor.resource_specification, self.executor.user_endpoint_config)
            try:
                self.executor.resource_specification = spec or None
                self.executor.user_endpoint_config = uep
                inner = self.executor.submit(fn, *args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - SDK and network errors vary
                raise ChannelError(
                    f"{self.name}: the Globus Compute executor refused the task: {exc}",
                    transient=True,
                ) from None
            finally:
                self.executor.resource_specification, self.executor.user_endpoint_config = saved
        return _mapped(inner, self.name)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.executor.shutdown(wait=wait, cancel_futures=cancel_futures)


def _mapped(inner: Future[Any], name: str) -> Future[Any]:
    out: Future[Any] = Future()

    def done(f: Future[Any]) -> None:
        if f.cancelled():
            out.set_exception(ChannelError(f"{name}: the task was cancelled", transient=True))
            return
        exc = f.exception()
        if exc is None:
            out.set_result(f.result())
        elif isinstance(exc, SecretaryError):
            out.set_exception(exc)
        else:
            accepted = getattr(f, "task_id", None) is not None
            out.set_exception(
                ChannelError(f"{name}: {type(exc).__name__}: {exc}", transient=not accepted)
            )

    inner.add_done_callback(done)
    return out


class ParslChannel(ExecutionChannel):
    """Any Parsl executor, driven directly (it is not registered with the DataFlowKernel).

    Args:
        executor: the Parsl executor; ``start`` gives it ``run_dir`` and starts it.
        run_dir: where it keeps its files.
        name: a name for messages.
        accepted_keys: the keys the executor takes; by default what its kind validates: the
            MPI keys for ``MPIExecutor`` (HTEX in MPI mode), ``priority`` for HTEX, ``cores``,
            ``memory``, ``disk``, ``gpus``, ``running_time_min``, ``priority`` for Work Queue
            and TaskVine, none for a ThreadPoolExecutor.
        strategy: the scaling strategy for a block-based executor (HTEX, ``MPIExecutor``...):
            the DataFlowKernel never sees this executor, so without a poller of the channel's
            own it would never start its ``init_blocks`` nor scale. None: no poller.
        strategy_period_s: how often that strategy runs.
        max_idletime_s: how long a block may idle before the strategy scales it in.

    An exception from the executor's ``submit`` that says it cannot take work now (a bad
    state, a failed scale-out, a connection error, shut down) is a transient
    :class:`ChannelError`: it took nothing, so another site may. Any other (e.g.
    ``InvalidResourceSpecification``, ``UnsupportedFeatureError``) is permanent and raised as
    it is. Failures on its futures reach the task unchanged and are not transient, since the
    task may have run; only a cancelled future (never run) is.
    """

    def __init__(
        self,
        executor: ParslExecutor,
        *,
        run_dir: str | os.PathLike[str],
        name: str = "parsl",
        accepted_keys: frozenset[str] | None = None,
        strategy: str | None = "simple",
        strategy_period_s: float = 5.0,
        max_idletime_s: float = 120.0,
    ) -> None:
        self.executor = executor
        self.accepted_keys = (
            parsl_executor_keys(executor) if accepted_keys is None else frozenset(accepted_keys)
        )
        self.strategy = strategy
        self.strategy_period_s = strategy_period_s
        self.max_idletime_s = max_idletime_s
        self._poller: JobStatusPoller | None = None
        self.run_dir = str(run_dir)
        self.name = name
        self._started = False

    def __repr__(self) -> str:
        return f"ParslChannel({self.name!r}, {type(self.executor).__name__})"

    def start(self) -> None:
        if self._started:
            return
        os.makedirs(self.run_dir, exist_ok=True)
        self.executor.run_dir = self.run_dir
        provider = getattr(self.executor, "provider", None)
        if provider is not None and getattr(provider, "script_dir", "") is None:
            # Batch providers write their submit scripts here (the DataFlowKernel's default).
            provider.script_dir = os.path.join(self.run_dir, "submit_scripts")
            os.makedirs(provider.script_dir, exist_ok=True)
        self.executor.start()
        self._started = True
        executor = self.executor
        if (
            self.strategy is not None
            and isinstance(executor, BlockProviderExecutor)
            and executor.provider is not None
        ):
            # What the DataFlowKernel does for the executors it knows: start init_blocks, then
            # scale with the load (as GlobusComputeEngine does for the HTEX it wraps).
            self._poller = JobStatusPoller(
                strategy=self.strategy,
                max_idletime=self.max_idletime_s,
                strategy_period=self.strategy_period_s,
            )
            self._poller.add_executors([executor])

    def submit_task(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        resource_specification: dict[str, Any],
    ) -> Future[Any]:
        try:
            inner = self.executor.submit(fn, resource_specification, *args, **kwargs)
        except _NOT_NOW as exc:
            raise ChannelError(
                f"{self.name}: {type(exc).__name__}: {exc}", transient=True
            ) from None
        return _mapped_parsl(inner, self.name)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._poller is not None:
            self._poller.close()  # also cancels the blocks it started
            self._poller = None
        if self._started:
            self.executor.shutdown()


_NOT_NOW = (BadStateException, ScalingFailed, ConnectionError, TimeoutError, RuntimeError)
"""What a Parsl executor's ``submit`` raises when it cannot take work now, rather than never:
a bad state, a failed scale-out, a lost connection, or ``RuntimeError`` once shut down."""


def _mapped_parsl(inner: Future[Any], name: str) -> Future[Any]:
    out: Future[Any] = Future()

    def done(f: Future[Any]) -> None:
        if f.cancelled():
            out.set_exception(ChannelError(f"{name}: the task was cancelled", transient=True))
            return
        exc = f.exception()
        if exc is None:
            out.set_result(f.result())
        else:
            out.set_exception(exc)  # the task's own failure (or its executor's), unchanged

    inner.add_done_callback(done)
    return out


__all__ = [
    "ChannelError",
    "EngineChannel",
    "EngineTaskError",
    "ExecutionChannel",
    "GlobusChannel",
    "ParslChannel",
    "ThreadChannel",
]
