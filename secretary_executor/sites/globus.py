"""Sites behind Globus Compute endpoints: the secretary functions called by their registered ids.

The site's administrator registers the functions of :mod:`endpoint_plugins.functions`, allows
them on the endpoint (``secretary endpoint install`` / ``register``) and hands the hub the
endpoint id and the function ids (``secretary-functions.json``). The hub then calls
``Executor.submit_to_registered_function(function_id, args=(site_config_path, payload))``:
no code travels from the hub, and the endpoint only runs functions its administrator allowed.

Batching and rate limits: the SDK ``Executor`` coalesces up to ``batch_size`` queued tasks into
one web request and, after ``api_burst_limit`` requests within ``api_burst_window_s`` seconds,
spaces further requests ``window / limit`` seconds apart (allowed ranges: limit 1-8, window
1-32 s). A fleet-wide negotiation is one task per site, so the defaults (128, 4, 16 s) rarely
throttle; a hub that negotiates thousands of distinct requests per minute should raise
``batch_size`` and lean on the executor's negotiation cache instead of raising the burst limit.

One SDK ``Executor`` is kept per endpoint (:func:`executor_for`), created on first use, and
shared with any :class:`~secretary_executor.parsl.channels.GlobusChannel` for that endpoint.
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from endpoint_plugins.service import Operation
from secretary_executor.errors import ConfigurationError, SecretaryError
from secretary_executor.sites.base import Site, Transport

ExecutorFactory = Callable[[str], Any]
"""endpoint id -> a ``globus_compute_sdk.Executor`` (or a subclass) for that endpoint."""

_executors: dict[str, Any] = {}
_executors_lock = threading.Lock()


class GlobusTransportError(SecretaryError):
    """A Globus Compute call failed. Network, service and auth failures are transient."""


def executor_for(
    endpoint_id: str,
    *,
    factory: ExecutorFactory | None = None,
    batch_size: int = 128,
    api_burst_limit: int = 4,
    api_burst_window_s: int = 16,
) -> Any:
    """The shared SDK ``Executor`` for an endpoint, created on first use.

    Raises:
        GlobusTransportError: the SDK cannot build an executor (no credentials, bad id).
    """
    with _executors_lock:
        executor = _executors.get(endpoint_id)
        if executor is not None and not getattr(executor, "_stopped", False):
            return executor
        try:
            if factory is not None:
                executor = factory(endpoint_id)
            else:
                from globus_compute_sdk import Executor

                from endpoint_plugins.install import credentials_available

                # Without credentials the SDK would stop to print a login prompt on stdout
                # (breaking --json output, or hanging a service): say what to do instead.
                if not credentials_available():
                    raise GlobusTransportError(
                        f"no Globus credentials on this machine to reach endpoint {endpoint_id}: "
                        "run 'globus-compute-endpoint login', or set GLOBUS_COMPUTE_CLIENT_ID "
                        "and GLOBUS_COMPUTE_CLIENT_SECRET",
                        transient=True,
                    )

                executor = Executor(
                    endpoint_id=endpoint_id,
                    batch_size=batch_size,
                    api_burst_limit=api_burst_limit,
                    api_burst_window_s=api_burst_window_s,
                )
        except GlobusTransportError:
            raise
        except Exception as exc:  # noqa: BLE001 - the SDK raises many types here
            raise GlobusTransportError(
                f"cannot create a Globus Compute executor for endpoint {endpoint_id}: {exc}; "
                "log in with 'globus-compute-endpoint login' or set GLOBUS_COMPUTE_CLIENT_ID "
                "and GLOBUS_COMPUTE_CLIENT_SECRET",
                transient=True,
            ) from None
        _executors[endpoint_id] = executor
        return executor


def forget_executor(endpoint_id: str) -> None:
    """Shut down and drop the shared executor of an endpoint (idempotent)."""
    with _executors_lock:
        executor = _executors.pop(endpoint_id, None)
    if executor is not None:
        executor.shutdown(wait=False, cancel_futures=True)


class GlobusComputeTransport(Transport):
    """Calls a site's registered secretary functions on its Globus Compute endpoint.

    Args:
        endpoint_id: the endpoint's UUID.
        function_ids: operation name (``negotiate``, ``dispatch``, ``status``, ``cancel``,
            ``describe``) -> registered function UUID.
        site_config_path: the site configuration's path *on the endpoint host*.
        factory: builds the SDK executor (tests pass a loop-back); default the real SDK.
        batch_size, api_burst_limit, api_burst_window_s: passed to the SDK executor.

    Raises:
        ConfigurationError: an endpoint or function id that is not a UUID.
    """

    def __init__(
        self,
        endpoint_id: str,
        function_ids: Mapping[str, str],
        site_config_path: str,
        *,
        factory: ExecutorFactory | None = None,
        batch_size: int = 128,
        api_burst_limit: int = 4,
        api_burst_window_s: int = 16,
    ) -> None:
        self.endpoint_id = _uuid(endpoint_id, "endpoint id")
        self.function_ids = {
            op: _uuid(fid, f"function id for {op}") for op, fid in function_ids.items()
        }
        self.site_config_path = site_config_path
        self._factory = factory
        self._options = {
            "batch_size": batch_size,
            "api_burst_limit": api_burst_limit,
            "api_burst_window_s": api_burst_window_s,
        }

    def __repr__(self) -> str:
        functions = sorted(self.function_ids)
        return f"GlobusComputeTransport(endpoint={self.endpoint_id}, functions={functions})"

    @property
    def executor(self) -> Any:
        """The endpoint's shared SDK executor (created lazily)."""
        return executor_for(self.endpoint_id, factory=self._factory, **self._options)

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        function_id = self.function_ids.get(operation.value)
        if function_id is None:
            raise GlobusTransportError(
                f"no registered function for {operation.value!r} on endpoint {self.endpoint_id}; "
                "run 'secretary endpoint register' on the endpoint host and pass its "
                "secretary-functions.json"
            )
        try:
            future = self.executor.submit_to_registered_function(
                function_id, args=(self.site_config_path, payload)
            )
            envelope = await asyncio.wrap_future(future)
        except SecretaryError:
            raise
        except Exception as exc:  # noqa: BLE001 - SDK, network and remote errors alike
            raise GlobusTransportError(
                _explain(exc, function_id, self.endpoint_id), transient=True
            ) from None
        if not isinstance(envelope, dict):
            raise GlobusTransportError(
                f"endpoint {self.endpoint_id} returned {type(envelope).__name__}, not an envelope"
            )
        return envelope

    async def close(self) -> None:
        forget_executor(self.endpoint_id)


def _explain(exc: Exception, function_id: str, endpoint_id: str) -> str:
    text = f"{type(exc).__name__}: {exc}"
    if "FUNCTION_NOT_ALLOWED" in text or "not permitted" in text:
        return (
            f"function {function_id} is not allowed on endpoint {endpoint_id}; add it to "
            "allowed_functions with 'secretary endpoint install' and restart the endpoint"
        )
    return text


def _uuid(value: str, what: str) -> str:
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        raise ConfigurationError(f"{what} {value!r} is not a UUID") from None


def load_function_ids(path: str | Path) -> dict[str, str]:
    """Read ``secretary-functions.json`` (written by ``secretary endpoint register``).

    Raises:
        ConfigurationError: unreadable, not JSON, or without a ``functions`` mapping.
    """
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigurationError(f"cannot read {str(p)!r}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ConfigurationError(f"{p}: not valid JSON: {exc.msg}") from None
    functions = doc.get("functions") if isinstance(doc, dict) else None
    if not isinstance(functions, dict) or not all(isinstance(v, str) for v in functions.values()):
        raise ConfigurationError(f"{p}: expected {{'functions': {{operation: function id}}}}")
    return dict(functions)


def globus_site(
    name: str,
    endpoint_id: str,
    function_ids: Mapping[str, str],
    site_config_path: str,
    *,
    timeout_s: float = 60.0,
    factory: ExecutorFactory | None = None,
) -> Site:
    """A :class:`Site` reached through Globus Compute."""
    transport = GlobusComputeTransport(endpoint_id, function_ids, site_config_path, factory=factory)
    return Site(name, transport, timeout_s=timeout_s)
