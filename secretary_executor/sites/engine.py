"""Sites served by a real Globus Compute endpoint engine in this process (no web service).

A Globus Compute endpoint receives a messagepack ``Task`` whose buffer packs the serialized
function, args and kwargs, hands it to its engine (``ThreadPoolEngine``, ``ProcessPoolEngine``,
``GlobusComputeEngine``...) and sends the engine's messagepack ``Result`` back.
:class:`EngineRunner` does exactly that, with the real ``ComputeSerializer``,
``Task``/``Result`` types and engines; only the hosted web service and its AMQP result queue
are left out. It is the offline stand-in for a Globus Compute site in tests and the demo, and
it exercises the same serialization, engine and error paths a real endpoint does.

:class:`LocalEngineTransport` calls the registered secretary functions
(:mod:`endpoint_plugins.functions`) through a runner, and :class:`LocalEngineSite` bundles a
runner, the site configuration file those functions read, and a :class:`Site`.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias

import yaml
from globus_compute_common.messagepack import pack, unpack
from globus_compute_common.messagepack.message_types import Result, Task
from globus_compute_common.tasks import ActorName
from globus_compute_endpoint.engines import GCFuture
from globus_compute_endpoint.engines.base import GlobusComputeEngineBase
from globus_compute_sdk.serialize import ComputeSerializer

from endpoint_plugins.functions import FUNCTIONS
from endpoint_plugins.service import Operation
from providers.paths import private_home
from secretary_executor.errors import SecretaryError
from secretary_executor.sites.base import Site, Transport

FUNCTION_CACHE = 256
"""How many serialized functions an :class:`EngineRunner` keeps."""


class EngineTaskError(SecretaryError):
    """A task sent through an engine came back as an error ``Result``.

    Args:
        message: the engine's message (a remote traceback when the function ran).
        code: ``error_details.code`` (``RemoteExecutionError``, ``FUNCTION_NOT_ALLOWED``...).
        started: True when a worker began running the function. A task that never started
            is ``transient``: running it elsewhere cannot repeat any of its effects.
    """

    def __init__(self, message: str, *, code: str = "", started: bool = True) -> None:
        super().__init__(message, transient=not started)
        self.code = code
        self.started = started


Done: TypeAlias = Callable[[Any, BaseException | None], None]
"""Told a task's outcome once: ``done(value, None)`` when it returned, ``done(None, error)``
otherwise."""


def _settle(out: Future[Any], value: Any, error: BaseException | None) -> None:
    """Complete ``out`` with an outcome (the :data:`Done` behind :meth:`EngineRunner.submit`)."""
    if error is None:
        out.set_result(value)
    else:
        out.set_exception(error)


class EngineRunner:
    """Runs Python callables through one endpoint engine, as an endpoint would.

    Args:
        engine: an engine instance, not yet started.
        run_dir: the engine's run directory (task working folders go below it).
        serializer: the client-side serializer; the engine checks its own allow-list.

    ``start`` must be called before ``submit``; ``shutdown`` stops the engine (its workers too).

    A function is serialized once and its bytes reused for every later task of the same
    function object (the last :data:`FUNCTION_CACHE` functions are kept), as the Globus
    Compute SDK registers a function once and then sends only arguments: serializing a
    function costs about a millisecond, most of a no-op task's whole cost through an engine.
    Empty ``args`` and ``kwargs`` are serialized once too.
    """

    def __init__(
        self,
        engine: GlobusComputeEngineBase,
        *,
        run_dir: str | os.PathLike[str],
        serializer: ComputeSerializer | None = None,
    ) -> None:
        self.engine = engine
        self.run_dir = Path(run_dir)
        self.serializer = serializer or ComputeSerializer()
        self.endpoint_id = uuid.uuid4()
        self._started = False
        self._closed = False
        self._lock = threading.Lock()
        self._functions: dict[Callable[..., Any], str] = {}
        self._functions_lock = threading.Lock()
        self._no_args = self.serializer.serialize(())
        self._no_kwargs = self.serializer.serialize({})

    def __repr__(self) -> str:
        return f"EngineRunner({type(self.engine).__name__}, run_dir={str(self.run_dir)!r})"

    @property
    def closed(self) -> bool:
        return self._closed

    def start(self) -> None:
        """Start the engine once (idempotent). Raises whatever the engine raises."""
        with self._lock:
            if self._started or self._closed:
                return
            self.run_dir.mkdir(parents=True, exist_ok=True)
            self.engine.start(endpoint_id=self.endpoint_id, run_dir=str(self.run_dir))
            self._started = True

    def submit(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
        *,
        resource_specification: dict[str, Any] | None = None,
    ) -> Future[Any]:
        """Send ``fn(*args, **kwargs)`` to the engine; the future resolves to its value.

        Postcondition: the future ends with the function's return value, or with an
        :class:`EngineTaskError` (``transient`` when no worker ever started the task).

        Raises:
            EngineTaskError: (transient) the runner is closed or not started, or the
                function cannot be serialized here; nothing was sent.
        """
        out: Future[Any] = Future()
        self.submit_then(
            fn, args, kwargs, partial(_settle, out), resource_specification=resource_specification
        )
        return out

    def submit_then(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any] | None,
        done: Done,
        *,
        resource_specification: dict[str, Any] | None = None,
    ) -> None:
        """Send ``fn(*args, **kwargs)`` to the engine and call ``done(value, error)`` once.

        :meth:`submit` without its future: ``done`` is called straight from the engine's own
        result callback (on the engine's thread, possibly before this returns), so a caller
        that completes a future of its own from there (the Parsl executor) pays for one
        future per task, not two. ``error`` is None when the function returned ``value``,
        else an :class:`EngineTaskError` (``transient`` when no worker started the task).

        Raises:
            EngineTaskError: (transient) as for :meth:`submit`; ``done`` is then never called.
        """
        if self._closed or not self._started:
            state = "shut down" if self._closed else "not started"
            raise EngineTaskError(f"engine {self!r} is {state}", code="EngineDown", started=False)
        serde = self.serializer
        try:
            buffer = serde.pack_buffers(
                [
                    self._function_bytes(fn),
                    serde.serialize(tuple(args)) if args else self._no_args,
                    serde.serialize(kwargs) if kwargs else self._no_kwargs,
                ]
            )
        except Exception as exc:  # noqa: BLE001 - serializers raise many types
            raise EngineTaskError(
                f"cannot serialize {getattr(fn, '__name__', fn)!r} for the engine: {exc}",
                code="SerializationError",
                started=False,
            ) from None
        task_id = uuid.uuid4()
        gc_future = GCFuture(task_id)
        gc_future.add_done_callback(partial(self._resolve, done))
        try:
            self.engine.submit(
                gc_future,
                pack(Task(task_id=task_id, task_buffer=buffer)),
                resource_specification or {},
            )
        except Exception as exc:  # noqa: BLE001 - an engine that cannot accept work
            if gc_future.done():  # it reported its refusal as the task's result: done was told
                return
            raise EngineTaskError(
                f"engine refused the task: {type(exc).__name__}: {exc}",
                code="EngineDown",
                started=False,
            ) from None

    def _function_bytes(self, fn: Callable[..., Any]) -> str:
        """``fn`` serialized, from the cache when this function object was sent before."""
        functions = self._functions
        try:
            return functions[fn]
        except KeyError:
            pass
        except TypeError:  # an unhashable callable: serialized every time
            return self.serializer.serialize(fn)
        data = self.serializer.serialize(fn)
        with self._functions_lock:
            if len(functions) >= FUNCTION_CACHE:
                functions.pop(next(iter(functions)))  # the oldest
            functions[fn] = data
        return data

    def _resolve(self, done: Done, gc_future: Future[Any]) -> None:
        """Read the engine's messagepack ``Result`` and tell ``done`` the outcome."""
        try:
            result = unpack(gc_future.result())
            assert isinstance(result, Result)
        except Exception as exc:  # noqa: BLE001 - a garbled result is the engine's failure
            done(None, EngineTaskError(f"unreadable engine result: {exc}", started=True))
            return
        if result.is_error:
            started = any(t.actor == ActorName.WORKER for t in (result.task_statuses or ()))
            code = result.error_details.code if result.error_details else ""
            done(None, EngineTaskError(str(result.data), code=code, started=started))
            return
        try:
            value = self.serializer.deserialize(result.data)
        except Exception as exc:  # noqa: BLE001 - the result's serializer is unknown here
            done(None, EngineTaskError(f"cannot deserialize the result: {exc}"))
            return
        done(value, None)

    def shutdown(self) -> None:
        """Stop the engine; later submissions fail with a transient error. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._started:
                self.engine.shutdown()


class LocalEngineTransport(Transport):
    """Calls the site's secretary functions through an :class:`EngineRunner`.

    The functions and their arguments travel exactly as they would to a Globus Compute
    endpoint: ``(site_config_path, payload)`` in, a JSON envelope out.

    Args:
        runner: the engine runner (started by the owner).
        site_config_path: the site configuration file the functions read.
    """

    def __init__(self, runner: EngineRunner, site_config_path: str | os.PathLike[str]) -> None:
        self.runner = runner
        self.site_config_path = str(site_config_path)

    def __repr__(self) -> str:
        return f"LocalEngineTransport({self.runner!r}, {self.site_config_path!r})"

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        self.runner.start()  # idempotent: the site answers even if no channel started it
        fn = FUNCTIONS[operation.value]
        future = self.runner.submit(fn, (self.site_config_path, payload))
        envelope: dict[str, Any] = await asyncio.wrap_future(future)
        return envelope


def engine_site_config(workdir: str | os.PathLike[str], name: str, doc: dict[str, Any]) -> Path:
    """Write an engine site's configuration under ``SECRETARY_HOME/engine-sites`` and return it.

    The secretary functions read configurations only from allowed folders (the endpoints folder
    and ``SECRETARY_HOME`` unless ``SECRETARY_SITE_CONFIG_ROOTS`` says otherwise), so a site run
    by this process keeps its file in this user's private home, in a folder per ``workdir``.
    """
    tag = hashlib.sha256(str(Path(workdir).resolve()).encode()).hexdigest()[:12]
    folder = private_home() / "engine-sites" / tag / name
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    config = folder / "secretary-site.yaml"
    config.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return config


class LocalEngineSite:
    """A site whose Secretary and user tasks run in one real endpoint engine here.

    Args:
        name: the site's name in the fleet.
        engine: the engine (not started); ``ThreadPoolEngine(max_workers=4)`` is the cheapest.
        site_config_path: the site configuration YAML the secretary functions read; it must
            lie in a folder they may read (:func:`engine_site_config` writes one there).
        run_dir: the engine's run directory.
        timeout_s: the per-operation timeout of the :class:`Site`.
    """

    def __init__(
        self,
        name: str,
        engine: GlobusComputeEngineBase,
        site_config_path: str | os.PathLike[str],
        *,
        run_dir: str | os.PathLike[str],
        timeout_s: float = 30.0,
    ) -> None:
        self.name = name
        self.runner = EngineRunner(engine, run_dir=run_dir)
        self.site_config_path = Path(site_config_path)
        self.site = Site(
            name, LocalEngineTransport(self.runner, self.site_config_path), timeout_s=timeout_s
        )

    def __repr__(self) -> str:
        return f"LocalEngineSite({self.name!r}, {self.runner!r})"

    @classmethod
    def from_state_file(
        cls,
        name: str,
        engine: GlobusComputeEngineBase,
        state_file: str | os.PathLike[str],
        *,
        workdir: str | os.PathLike[str],
        timeout_s: float = 30.0,
    ) -> LocalEngineSite:
        """A simulated site: its engine runs in ``WORKDIR/NAME``, and its configuration (naming
        the state file) is written where the secretary functions may read it: see
        :func:`engine_site_config`."""
        folder = Path(workdir) / name
        folder.mkdir(parents=True, exist_ok=True)
        doc = {"name": name, "state_file": str(Path(state_file).resolve())}
        config = engine_site_config(workdir, name, doc)
        return cls(name, engine, config, run_dir=folder / "engine", timeout_s=timeout_s)

    def start(self) -> None:
        self.runner.start()

    def shutdown(self) -> None:
        self.runner.shutdown()
