"""Install the secretary functions on a Globus Compute endpoint: files, allow-list, registration.

An endpoint lives in ``ENDPOINT_DIR/NAME/`` (``~/.globus_compute/NAME/`` by default) once
``globus-compute-endpoint configure NAME`` has run. Installing adds, beside its ``config.yaml``:

* ``secretary-site.yaml``: the site configuration the secretary functions read (validated, with
  a relative ``state_file`` made absolute);
* ``secretary-functions.json``: the registered function ids (written by :func:`register`);

and lists those ids under ``allowed_functions`` in ``config.yaml``, so the endpoint runs the
secretary functions (and, if the list was empty before, *only* them and what else is listed).

The ``config.yaml`` edit is textual: only the top-level ``allowed_functions`` block is replaced
or appended, so comments and every other setting stay as the administrator wrote them. The
result is parsed again and compared with the intended document before anything is written.
Every step is idempotent; with ``dry_run`` nothing is written and the report says what would be.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict

from endpoint_plugins.config import load_site_config
from endpoint_plugins.errors import SiteError
from providers.commands import safe_name
from providers.errors import ProviderError
from providers.files import load_yaml

SITE_FILE = "secretary-site.yaml"
FUNCTIONS_FILE = "secretary-functions.json"
OPERATIONS = ("negotiate", "dispatch", "status", "cancel", "describe", "output")

_BLOCK = re.compile(r"^allowed_functions\s*:.*$", re.MULTILINE)


class EndpointInstallError(SiteError):
    """The endpoint cannot be set up as asked; the message says what to do."""


class CredentialsError(EndpointInstallError):
    """No Globus credentials on this machine."""


class Change(BaseModel):
    """One thing install or register did (or would do, on a dry run)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    action: str
    """``created``, ``updated``, ``unchanged``, ``skipped`` (or ``would create`` ...)."""
    detail: str = ""


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
) -> list[Change]:
    """Write the site configuration beside the endpoint and allow the registered functions.

    Postcondition: running it twice changes nothing the second time.

    Raises:
        EndpointInstallError: unknown endpoint, or an invalid site configuration (named).
    """
    folder = endpoint_folder(name, endpoint_dir)
    config = load_site_config(site_config)  # raises SiteConfigError, a SiteError
    text = yaml.safe_dump(config.model_dump(mode="json", exclude_defaults=True), sort_keys=False)
    changes = [_write(folder / SITE_FILE, text, dry_run, f"site {config.name!r}")]
    ids = registered_ids(folder)
    if ids:
        changes.append(
            allow_functions(
                folder / "config.yaml", ids.values(), dry_run=dry_run, restrict=restrict
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
    try:
        doc = load_yaml(original) or {}
    except yaml.YAMLError as exc:
        raise EndpointInstallError(f"{config_path} is not valid YAML: {exc}") from None
    if not isinstance(doc, dict):
        raise EndpointInstallError(f"{config_path}: expected a mapping of endpoint settings")
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
    updated = _replace_block(original, wanted)
    expected = {**doc, "allowed_functions": wanted}
    if yaml.safe_load(updated) != expected:  # a layout the text edit cannot handle
        updated = yaml.safe_dump(expected, sort_keys=False)
    change = _write(config_path, updated, dry_run, f"allowed_functions +{added}")
    return change


def _replace_block(text: str, ids: list[str]) -> str:
    block = "allowed_functions:\n" + "".join(f"  - {i}\n" for i in ids)
    match = _BLOCK.search(text)
    if match is None:
        return text + ("" if text.endswith("\n") or not text else "\n") + block
    lines = text[match.end() :].split("\n")
    rest_start = 0
    for i, line in enumerate(lines[1:], start=1):
        if line and not line[0].isspace() and not line.startswith("-"):
            rest_start = i
            break
    else:
        rest_start = len(lines)
    tail = "\n".join(lines[rest_start:])
    return text[: match.start()] + block + tail


def _write(path: Path, text: str, dry_run: bool, detail: str) -> Change:
    exists = path.is_file()
    if exists and path.read_text(encoding="utf-8") == text:
        return Change(path=str(path), action="unchanged", detail=detail)
    action = "updated" if exists else "created"
    if dry_run:
        return Change(path=str(path), action=f"would be {action}", detail=detail)
    # The replacement keeps the file's mode: an endpoint's config.yaml is often 0600, and a
    # rewrite must not widen it to the umask default.
    mode = path.stat().st_mode & 0o7777 if exists else 0o644
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        os.fchmod(handle.fileno(), mode)
        handle.write(text)
    tmp.replace(path)
    return Change(path=str(path), action=action, detail=detail)


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
            _write(
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
            allow_functions(
                folder / "config.yaml", known.values(), dry_run=dry_run, restrict=restrict
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
