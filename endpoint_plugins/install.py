"""Install the secretary functions on a Globus Compute endpoint: files, allow-list, registration.

An endpoint lives in ``ENDPOINT_DIR/NAME/`` (``~/.globus_compute/NAME/`` by default) once
``globus-compute-endpoint configure NAME`` has run. Installing adds, beside its ``config.yaml``:

* ``secretary-site.yaml``: the site configuration the secretary functions read (validated, with
  a relative ``state_file`` made absolute);
* ``secretary-functions.json``: the registered function ids (written by :func:`register`);

and lists those ids under ``allowed_functions`` where the endpoint reads them, so it runs the
secretary functions (an open endpoint, with no list, runs them already and is only closed with
``restrict``).

What else changes depends on the endpoint's kind (:mod:`endpoint_plugins.endpoint_layout`):

* ``config.yaml`` endpoints: only ``config.yaml``.
* template endpoints (what ``globus-compute-endpoint configure`` writes since 4.x): the
  parent's ``config.yaml`` list applies to every user and overrides a list in the template, so
  the ids go there when it has one, else into a list the template has. ``worker_init`` in the
  template gets a marked block that installs ``secretary-executor`` into the worker
  environment (:mod:`endpoint_plugins.template_edit`); every template edit is rendered and
  loaded with the endpoint's own code before it is written
  (:mod:`endpoint_plugins.template_render`).
* multi-user endpoints, besides: each user's endpoint runs as that user with its own home, so
  ``user_environment.yaml`` names this endpoint's folder in ``SECRETARY_SITE_CONFIG_ROOTS`` for
  the functions to accept the site file there.

Edits are textual (comments, Jinja and every other setting stay as the administrator wrote
them) and keep each file's mode. Every step is idempotent; with ``dry_run`` nothing is written
and the report says what would be.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from endpoint_plugins.config import load_site_config
from endpoint_plugins.endpoint_files import (
    Change,
    EndpointInstallError,
    replace_list_block,
    write_keeping_mode,
)
from endpoint_plugins.endpoint_layout import EndpointKind, EndpointLayout, detect, read_mapping
from endpoint_plugins.template_edit import check_syntax, extend_allowed_functions
from endpoint_plugins.template_install import (
    default_worker_package,
    edit_template,
    site_roots_for_users,
    worker_setup,
)
from providers.commands import safe_name
from providers.errors import ProviderError

SITE_FILE = "secretary-site.yaml"
FUNCTIONS_FILE = "secretary-functions.json"
OPERATIONS = ("negotiate", "dispatch", "status", "cancel", "describe", "output")


class CredentialsError(EndpointInstallError):
    """No Globus credentials on this machine."""


def default_endpoint_dir() -> Path:
    """``$GLOBUS_COMPUTE_USER_DIR`` if set, else ``~/.globus_compute`` (as the SDK decides)."""
    return Path(os.environ.get("GLOBUS_COMPUTE_USER_DIR") or Path.home() / ".globus_compute")


def endpoint_folder(name: str, endpoint_dir: str | os.PathLike[str] | None = None) -> Path:
    """The configured endpoint's folder.

    Raises:
        EndpointInstallError: a name that is not a plain name, or an endpoint that has not
            been configured (no ``config.yaml``).
    """
    try:
        safe_name(name, "endpoint name")
    except ProviderError as exc:
        raise EndpointInstallError(exc.message) from None
    folder = Path(endpoint_dir or default_endpoint_dir()).expanduser() / name
    if not (folder / "config.yaml").is_file():
        raise EndpointInstallError(
            f"no endpoint {name!r} in {folder.parent}: run 'globus-compute-endpoint configure "
            f"{name}' first (or pass --endpoint-dir)"
        )
    return folder


def install(
    name: str,
    site_config: str | os.PathLike[str],
    *,
    endpoint_dir: str | os.PathLike[str] | None = None,
    dry_run: bool = False,
    restrict: bool = False,
    worker_package: str | None = "",
    user_options: Mapping[str, Any] | None = None,
) -> list[Change]:
    """Write the site configuration beside the endpoint and allow the registered functions.

    Args:
        worker_package: what a template endpoint's ``worker_init`` installs when the workers
            cannot import ``endpoint_plugins``; ``""`` means this package at this version,
            None leaves ``worker_init`` alone.
        user_options: sample user options to render the template with when it needs some.

    Postcondition: running it twice changes nothing the second time.

    Raises:
        EndpointInstallError: unknown endpoint, an invalid site configuration (named), or a
            template that is not valid Jinja or cannot be edited safely.
    """
    folder = endpoint_folder(name, endpoint_dir)
    layout = detect(folder)
    config = load_site_config(site_config)  # raises SiteConfigError, a SiteError
    text = yaml.safe_dump(config.model_dump(mode="json", exclude_defaults=True), sort_keys=False)
    detail = f"site {config.name!r} ({layout.kind} endpoint)"
    changes = [write_keeping_mode(folder / SITE_FILE, text, dry_run, detail)]
    if layout.kind is EndpointKind.MULTI_USER:
        changes.append(site_roots_for_users(layout, dry_run=dry_run))
    if layout.templated and worker_package is not None:
        changes.append(
            worker_setup(layout, worker_package or default_worker_package(), dry_run, user_options)
        )
    ids = registered_ids(folder)
    if ids:
        changes.append(
            allow(
                layout,
                list(ids.values()),
                dry_run=dry_run,
                restrict=restrict,
                user_options=user_options,
            )
        )
    else:
        changes.append(
            Change(
                path=str(folder / "config.yaml"),
                action="skipped",
                detail=f"no function ids yet: run 'secretary endpoint register {name}'",
            )
        )
    return changes


def registered_ids(folder: Path) -> dict[str, str]:
    """The ids in ``secretary-functions.json`` (empty when not registered yet)."""
    path = folder / FUNCTIONS_FILE
    if not path.is_file():
        return {}
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise EndpointInstallError(
            f"{path} is unreadable ({exc}); delete it and register again"
        ) from None
    functions = doc.get("functions") if isinstance(doc, dict) else None
    if not isinstance(functions, dict):
        raise EndpointInstallError(
            f"{path} has no 'functions' mapping; delete it and register again"
        )
    return {str(k): str(v) for k, v in functions.items()}


def allow(
    layout: EndpointLayout,
    ids: list[str],
    *,
    dry_run: bool = False,
    restrict: bool = False,
    user_options: Mapping[str, Any] | None = None,
) -> Change:
    """Allow ``ids`` where this kind of endpoint reads its allow-list.

    A template endpoint's parent list (``config.yaml``) applies to all users and replaces any
    list in the template; only without it does a list in the template decide, and then it is
    that list which must grow. With neither, the endpoint is open (see
    :func:`allow_functions`).
    """
    if layout.kind is EndpointKind.CONFIG_PY:
        return Change(
            path=str(layout.folder / "config.py"),
            action="skipped",
            detail="config.py overrides config.yaml: add these ids to allowed_functions there "
            "by hand: " + ", ".join(ids),
        )
    if layout.templated and layout.parent.get("allowed_functions") is None:
        assert layout.template is not None
        original = layout.template.read_text(encoding="utf-8")
        check_syntax(layout.template, original)
        extended = extend_allowed_functions(original, ids)
        if extended is not None:
            return edit_template(
                layout,
                extended[0],
                dry_run,
                f"allowed_functions +{extended[1]} (per-user list in the template)",
                user_options=user_options,
                allowed=ids,
            )
    return allow_functions(layout.config, ids, dry_run=dry_run, restrict=restrict)


def allow_functions(
    config_path: Path, ids: Iterable[str], *, dry_run: bool = False, restrict: bool = False
) -> Change:
    """Add ``ids`` to ``allowed_functions`` in an endpoint ``config.yaml``, keeping the rest.

    An endpoint with no ``allowed_functions`` runs any function, including the secretary
    functions and its users' own tasks. Adding a list would shut every other function out, so
    that happens only with ``restrict``; otherwise the file is left as it is and the change says
    so. A list that already exists is extended.

    Raises:
        EndpointInstallError: the file is not a YAML mapping, or ``allowed_functions`` is
            not a list.
    """
    original = config_path.read_text(encoding="utf-8")
    doc = read_mapping(config_path)
    current = doc.get("allowed_functions")
    if current is None and not restrict:
        return Change(
            path=str(config_path),
            action="skipped",
            detail="open endpoint (no allowed_functions): it already runs the secretary functions; "
            "--restrict would allow only listed functions, refusing every other task",
        )
    current = current or []
    if not isinstance(current, list):
        raise EndpointInstallError(
            f"{config_path}: allowed_functions must be a list of function ids"
        )
    wanted = [str(x) for x in current] + [i for i in ids if i not in {str(x) for x in current}]
    added = len(wanted) - len(current)
    if not added:
        return Change(
            path=str(config_path), action="unchanged", detail=f"{len(wanted)} allowed function(s)"
        )
    updated = replace_list_block(original, "allowed_functions", wanted)
    expected = {**doc, "allowed_functions": wanted}
    if yaml.safe_load(updated) != expected:  # a layout the text edit cannot handle
        updated = yaml.safe_dump(expected, sort_keys=False)
    return write_keeping_mode(config_path, updated, dry_run, f"allowed_functions +{added}")


# -- registration -------------------------------------------------------------------------


def credentials_available() -> bool:
    """True when the Globus Compute SDK can authenticate without asking anyone.

    Client credentials in the environment, or tokens stored by a previous login. Nothing is
    created or sent over the network to find out.

    Raises:
        CredentialsError: only one of the two client-credential variables is set.
    """
    client_id = os.environ.get("GLOBUS_COMPUTE_CLIENT_ID")
    secret = os.environ.get("GLOBUS_COMPUTE_CLIENT_SECRET")
    if client_id and secret:
        return True
    if secret and not client_id:
        raise CredentialsError(
            "GLOBUS_COMPUTE_CLIENT_SECRET is set but GLOBUS_COMPUTE_CLIENT_ID is not: set both "
            "(headless login) or unset the secret and run 'globus-compute-endpoint login'"
        )
    storage = default_endpoint_dir() / "storage.db"
    if not storage.is_file():
        return False
    from globus_compute_sdk.sdk.auth.token_storage import get_token_storage

    try:
        return bool(get_token_storage().get_token_data_by_resource_server())
    except Exception:  # noqa: BLE001 - an unreadable store means "not logged in"
        return False


def register(
    name: str,
    *,
    endpoint_dir: str | os.PathLike[str] | None = None,
    client_factory: Callable[[], Any] | None = None,
    dry_run: bool = False,
    restrict: bool = False,
    user_options: Mapping[str, Any] | None = None,
) -> list[Change]:
    """Register the secretary functions with the Globus Compute service and allow them.

    Functions are registered by source text (``PureSourceTextInspect``) so the administrator
    can audit exactly what runs; their ids go to ``secretary-functions.json`` and the endpoint's
    ``allowed_functions``. Already registered ids are reused (idempotent).

    Raises:
        EndpointInstallError: unknown endpoint.
        CredentialsError: no Globus credentials; the message says how to log in.
        EndpointInstallError: the service refused (its message included).
    """
    folder = endpoint_folder(name, endpoint_dir)
    layout = detect(folder)  # an unreadable config.yaml stops here, before the service is asked
    known = registered_ids(folder)
    missing = [op for op in OPERATIONS if op not in known]
    changes: list[Change] = []
    if missing and not dry_run:
        if client_factory is None and not credentials_available():
            raise CredentialsError(
                "no Globus credentials found: log in with 'globus-compute-endpoint login', or for "
                "headless use set GLOBUS_COMPUTE_CLIENT_ID and GLOBUS_COMPUTE_CLIENT_SECRET; then "
                f"run 'secretary endpoint register {name}' again"
            )
        known.update(_register_functions(missing, client_factory))
        doc = {
            "endpoint": name,
            "registered_at": datetime.now(UTC).isoformat(),
            "functions": {op: known[op] for op in OPERATIONS if op in known},
        }
        changes.append(
            write_keeping_mode(
                folder / FUNCTIONS_FILE,
                json.dumps(doc, indent=2) + "\n",
                False,
                f"{len(missing)} registered",
            )
        )
    elif missing:
        changes.append(
            Change(
                path=str(folder / FUNCTIONS_FILE),
                action="would be updated",
                detail=f"register {', '.join(missing)}",
            )
        )
    else:
        changes.append(
            Change(
                path=str(folder / FUNCTIONS_FILE),
                action="unchanged",
                detail="all functions registered",
            )
        )
    if known:
        changes.append(
            allow(
                layout,
                list(known.values()),
                dry_run=dry_run,
                restrict=restrict,
                user_options=user_options,
            )
        )
    return changes


def _register_functions(
    operations: list[str], client_factory: Callable[[], Any] | None
) -> dict[str, str]:
    from endpoint_plugins.functions import FUNCTIONS

    try:
        if client_factory is not None:
            client = client_factory()
        else:
            from globus_compute_sdk import Client
            from globus_compute_sdk.serialize import PureSourceTextInspect

            client = Client(code_serialization_strategy=PureSourceTextInspect())
        ids = {}
        for op in operations:
            fn = FUNCTIONS[op]
            ids[op] = str(client.register_function(fn, description=f"secretary-executor: {op}"))
    except EndpointInstallError:
        raise
    except Exception as exc:  # noqa: BLE001 - SDK, auth and network errors alike
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise EndpointInstallError(
            f"the Globus Compute service refused the registration: {type(exc).__name__}: {first}",
            transient=True,
        ) from None
    return ids
