"""The Secretary as plain functions, for Globus Compute endpoints to run.

A site administrator registers these functions with the Globus Compute service and lists their
ids under ``allowed_functions`` in the endpoint's ``config.yaml``; the hub then calls them by id
(``Executor.submit_to_registered_function``). Each takes the path of the site configuration on
the endpoint host and the operation's JSON payload, and returns the JSON envelope of
:func:`endpoint_plugins.service.handle`: plain dicts, lists, strings and numbers only, so the
restrictive ``JSONData`` result serializer works and no pickled object ever crosses the wire.

Each public function is self-contained (its body imports what it needs), so it can be
registered by source text (``PureSourceTextInspect``) as well as by reference, and audited by
the administrator line by line.

Building a :class:`~endpoint_plugins.secretary.Secretary` probes providers, so Secretaries are
cached per worker process, keyed by the configuration's path and modification time: editing the
file takes effect on the next call without restarting the endpoint.

Postconditions (all functions): an envelope is always returned; a bad path, an unreadable or
invalid configuration, or a payload of the wrong shape is an ``{"ok": false, ...}`` envelope
whose message says what to fix. Nothing raises.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

ROOTS_ENV = "SECRETARY_SITE_CONFIG_ROOTS"
"""``os.pathsep``-separated folders a site configuration must lie in. Unset, the allowed folders
are the Globus Compute endpoints folder (``$GLOBUS_COMPUTE_USER_DIR`` or ``~/.globus_compute``),
where ``secretary endpoint install`` writes ``secretary-site.yaml``, and this user's private
``SECRETARY_HOME``, where engine sites run by this project keep theirs: a caller can never point
the functions at any other file, through ``../`` or a symbolic link, unless the administrator
names more folders here."""

_SUFFIXES = (".yaml", ".yml")
_cache: dict[str, tuple[int, Any]] = {}
_cache_lock = threading.Lock()


def secretary_negotiate(site_config_path: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Judge a request's requirements at this site (read-only: never submits anything).

    Args:
        site_config_path: the site configuration YAML on the endpoint host.
        payload: ``{"request_id": str, "requirements": Requirements as JSON}``.

    Returns:
        The service envelope; on success ``result`` is a ``Proposal`` as JSON.
    """
    from endpoint_plugins.functions import call_secretary

    return call_secretary(site_config_path, "negotiate", payload)


def secretary_dispatch(site_config_path: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Submit a request's command to this site's workload manager.

    Args:
        site_config_path: the site configuration YAML on the endpoint host.
        payload: ``{"request": JobRequest as JSON, "plan": DispatchPlan as JSON}``.

    Returns:
        The service envelope; on success ``result`` is a ``DispatchReceipt`` as JSON. A
        refusal carries ``transient`` so the hub knows whether to try another site.
    """
    from endpoint_plugins.functions import call_secretary

    return call_secretary(site_config_path, "dispatch", payload)


def secretary_status(site_config_path: str, payload: dict[str, Any]) -> dict[str, Any]:
    """A dispatched job's state at this site.

    Args:
        site_config_path: the site configuration YAML on the endpoint host.
        payload: ``{"native_id": str, "provider": str | None}``.

    Returns:
        The service envelope; on success ``result`` is a ``JobStatus`` as JSON.
    """
    from endpoint_plugins.functions import call_secretary

    return call_secretary(site_config_path, "status", payload)


def secretary_cancel(site_config_path: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Cancel a dispatched job at this site; a finished job keeps its final state.

    Args:
        site_config_path: the site configuration YAML on the endpoint host.
        payload: ``{"native_id": str, "provider": str | None}``.

    Returns:
        The service envelope; on success ``result`` is a ``JobStatus`` as JSON.
    """
    from endpoint_plugins.functions import call_secretary

    return call_secretary(site_config_path, "cancel", payload)


def secretary_describe(
    site_config_path: str, payload: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What this site has and which tools it offers.

    Args:
        site_config_path: the site configuration YAML on the endpoint host.
        payload: ignored beyond validation; ``{}`` or None.

    Returns:
        The service envelope; on success ``result`` is a ``SiteDescription`` as JSON.
    """
    from endpoint_plugins.functions import call_secretary

    return call_secretary(site_config_path, "describe", payload or {})


def secretary_output(site_config_path: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The end of a dispatched job's standard output and error at this site.

    Args:
        site_config_path: the site configuration YAML on the endpoint host.
        payload: ``{"native_id": str, "provider": str | None, "max_bytes": int}``.

    Returns:
        The service envelope; on success ``result`` is a ``JobOutput`` as JSON.
    """
    from endpoint_plugins.functions import call_secretary

    return call_secretary(site_config_path, "output", payload)


FUNCTIONS = {
    "negotiate": secretary_negotiate,
    "dispatch": secretary_dispatch,
    "status": secretary_status,
    "cancel": secretary_cancel,
    "describe": secretary_describe,
    "output": secretary_output,
}
"""Operation name -> the function an administrator registers for it."""


def call_secretary(site_config_path: str, operation: str, payload: Any) -> dict[str, Any]:
    """Run one operation on the (cached) Secretary of a site configuration file.

    Postcondition: always an envelope (see the module docstring); never raises.
    """
    from endpoint_plugins.errors import SiteError
    from endpoint_plugins.service import error_envelope, handle

    if not isinstance(payload, dict):
        return error_envelope(
            "BadRequest",
            f"{operation}: the payload must be a JSON object, not {type(payload).__name__}",
        )
    try:
        secretary = secretary_for(site_config_path)
    except SiteError as exc:
        return error_envelope(type(exc).__name__, exc.message, transient=exc.transient)
    return handle(secretary, operation, payload)


def secretary_for(site_config_path: str) -> Any:
    """The Secretary for a configuration file, rebuilt when the file changes.

    Raises:
        SiteConfigError: the path is not an allowed, readable YAML file, or the configuration
            is invalid (the message names the field and the fix).
    """
    from endpoint_plugins.config import load_site_config
    from endpoint_plugins.secretary import Secretary

    path = _checked_path(site_config_path)
    mtime = path.stat().st_mtime_ns
    key = str(path)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] == mtime:
            return hit[1]
    secretary = Secretary(load_site_config(path))
    with _cache_lock:
        _cache[key] = (mtime, secretary)
    return secretary


def clear_cache() -> None:
    """Forget every cached Secretary (tests; an administrator's reload)."""
    with _cache_lock:
        _cache.clear()


def _checked_path(value: Any) -> Path:
    from endpoint_plugins.errors import SiteConfigError
    from providers.commands import safe_path
    from providers.errors import ProviderError

    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise SiteConfigError(
            "site_config_path must be the path of the site configuration YAML on the endpoint"
        )
    path = Path(value).expanduser()
    if path.suffix not in _SUFFIXES:
        raise SiteConfigError(
            f"site configuration {value!r} must be a .yaml or .yml file "
            "(the one 'secretary endpoint install' wrote)"
        )
    from endpoint_plugins.install import default_endpoint_dir
    from providers.paths import secretary_home

    roots = [r for r in os.environ.get(ROOTS_ENV, "").split(os.pathsep) if r]
    where = f"set by {ROOTS_ENV}"
    if not roots:
        roots = [str(default_endpoint_dir()), str(secretary_home())]
        where = (
            "the endpoints folder 'secretary endpoint install' writes to, and SECRETARY_HOME; "
            f"{ROOTS_ENV} names others"
        )
    try:
        path = safe_path(path, roots)
    except ProviderError as exc:
        raise SiteConfigError(f"{exc.message} ({where})") from None
    if not path.is_file():
        raise SiteConfigError(
            f"no site configuration at {str(path)!r}; run 'secretary endpoint install' on the "
            "endpoint host or fix the path in the hub's fleet file"
        )
    return path
