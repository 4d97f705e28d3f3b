"""A loop-back for the Globus Compute SDK: the real ``Executor``, with the web service replaced.

What is real: ``globus_compute_sdk.Executor`` with its ``Client`` (constructed offline with a
``NullAuthorizer``), its ``submit`` / ``submit_to_registered_function``, its TaskSubmitter
thread that batches tasks and applies the API rate limit, its ``ComputeFuture`` objects; and on
the endpoint side a real engine fed messagepack ``Task`` s built with the real
``ComputeSerializer`` (:class:`~secretary_executor.sites.engine.EngineRunner`).

What is replaced, and why: the hosted web service (``POST /v3/endpoints/{id}/submit``, function
registration) and the AMQP queue that streams results back. The service is proprietary and the
result channel needs a RabbitMQ broker, so neither can exist offline. The single boundary
method, ``Executor._submit_tasks`` (the one that calls ``Client.batch_run`` and hands futures to
the AMQP result watcher), is overridden to deliver each batch to the endpoint's engine and
complete the futures from its results; ``register_function`` stores the function in
:class:`LoopbackService` and returns a fresh UUID, as the service would. The service also
enforces each endpoint's ``allowed_functions`` as the real one does.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from typing import Any

import globus_sdk
from globus_compute_sdk import Client, Executor

from secretary_executor.sites.engine import EngineRunner


class LoopbackService:
    """The registrations and endpoints a loop-back executor talks to.

    An endpoint added with ``allowed_functions`` runs only those functions; one added without
    runs any registered function.
    """

    def __init__(self) -> None:
        self.functions: dict[str, Callable[..., Any]] = {}
        self.endpoints: dict[str, EngineRunner] = {}
        self.allowed: dict[str, frozenset[str]] = {}
        self.batches: list[int] = []
        """Size of every batch received (the SDK's batching, observable)."""
        self._lock = threading.Lock()

    def register_function(self, fn: Callable[..., Any]) -> str:
        function_id = str(uuid.uuid4())
        with self._lock:
            self.functions[function_id] = fn
        return function_id

    def add_endpoint(
        self, runner: EngineRunner, *, allowed_functions: Iterable[str] | None = None
    ) -> str:
        """Serve an engine as an endpoint; returns its endpoint id."""
        endpoint_id = str(runner.endpoint_id)
        with self._lock:
            self.endpoints[endpoint_id] = runner
            if allowed_functions is not None:
                self.allowed[endpoint_id] = frozenset(str(f) for f in allowed_functions)
        return endpoint_id

    def executor(self, endpoint_id: str, **kwargs: Any) -> LoopbackExecutor:
        """A real SDK executor bound to this service (the ``factory`` of the transport)."""
        return LoopbackExecutor(self, endpoint_id=endpoint_id, **kwargs)


class LoopbackExecutor(Executor):
    """``globus_compute_sdk.Executor`` whose web-service boundary is :class:`LoopbackService`."""

    def __init__(self, service: LoopbackService, **kwargs: Any) -> None:
        self.service = service
        client = Client(authorizer=globus_sdk.NullAuthorizer(), do_version_check=False)
        super().__init__(client=client, **kwargs)

    def register_function(
        self, fn: Callable[..., Any], function_id: str | None = None, **kw: Any
    ) -> str:
        key = self._fn_cache_key(fn)
        if key in self._function_registry:
            return self._function_registry[key]
        fid = function_id or self.service.register_function(fn)
        self._function_registry[key] = fid
        return fid

    def _submit_tasks(  # type: ignore[override]
        self,
        taskgroup_uuid: uuid.UUID | None,
        endpoint_uuid: uuid.UUID,
        resource_specification: dict[str, Any] | None,
        user_endpoint_config: dict[str, Any] | None,
        result_serializers: list[str] | None,
        futs: list[Any],
        tasks: list[Any],
    ) -> None:
        service = self.service
        service.batches.append(len(tasks))
        runner = service.endpoints.get(str(endpoint_uuid))
        allowed = service.allowed.get(str(endpoint_uuid))
        for fut, task in zip(futs, tasks, strict=True):
            fid = str(task.function_uuid)
            if runner is None:
                fut.set_exception(
                    RuntimeError(f"endpoint {endpoint_uuid} is not known to the service")
                )
                continue
            if allowed is not None and fid not in allowed:
                fut.set_exception(
                    RuntimeError(
                        f"FUNCTION_NOT_ALLOWED: Function {fid} not permitted on endpoint "
                        f"{endpoint_uuid}"
                    )
                )
                continue
            fn = service.functions.get(fid)
            if fn is None:
                fut.set_exception(RuntimeError(f"function {fid} is not registered"))
                continue
            try:
                inner = runner.submit(
                    fn,
                    tuple(task.args),
                    dict(task.kwargs),
                    resource_specification=resource_specification,
                )
            except Exception as exc:  # noqa: BLE001 - the endpoint refused: not accepted
                fut.set_exception(exc)
                continue
            # task_id is set only when the result arrives, so the SDK never hands the future
            # to its AMQP result watcher (which cannot exist offline).
            inner.add_done_callback(lambda f, fut=fut: _complete(fut, f))


def _complete(fut: Any, inner: Future[Any]) -> None:
    fut.task_id = str(uuid.uuid4())
    exc = inner.exception()
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(inner.result())
