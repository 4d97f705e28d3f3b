"""What kind of Globus Compute endpoint a folder holds, told from its files alone.

Since globus-compute-endpoint 4.x, ``globus-compute-endpoint configure`` writes a *template*
endpoint: ``config.yaml`` describes the parent (core) endpoint and has no ``engine``; every
user endpoint process renders ``user_config_template.yaml.j2`` (validated against
``user_config_schema.json``) and that rendering holds the engine and its ``worker_init``. Run as
root (or with ``--multi-user true``) the same layout gains ``identity_mapping_config_path``: the
parent maps Globus identities to local accounts and each user's endpoint runs as that user.
Older single-user endpoints keep the engine in ``config.yaml`` itself, and very old ones have a
``config.py``, which the endpoint prefers to ``config.yaml`` whenever it exists.

The install steps differ by kind (where ``allowed_functions`` takes effect, where the worker
environment is set up, who reads the site file), so they ask :func:`detect` first.
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

from endpoint_plugins.endpoint_files import EndpointInstallError
from providers.files import load_yaml

TEMPLATE_FILE = "user_config_template.yaml.j2"
SCHEMA_FILE = "user_config_schema.json"
USER_ENVIRONMENT_FILE = "user_environment.yaml"


class LayoutError(EndpointInstallError):
    """The endpoint's files cannot be read as an endpoint; the message names the file."""


class EndpointKind(StrEnum):
    """How the endpoint is configured."""

    CONFIG_YAML = "config.yaml"
    """Everything in ``config.yaml`` (an engine, or no template beside it)."""
    TEMPLATE = "template"
    """Parent ``config.yaml`` plus a user config template, single user."""
    MULTI_USER = "multi-user"
    """A template endpoint that maps identities to local users (runs as root)."""
    CONFIG_PY = "config.py"
    """A Python configuration, which the endpoint prefers; it is not edited."""


class EndpointLayout(BaseModel):
    """An endpoint's kind and the files that matter for installing the secretary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: EndpointKind
    folder: Path
    config: Path
    template: Path | None = None
    schema_file: Path | None = None
    user_environment: Path | None = None
    parent: dict[str, object] = {}
    """``config.yaml`` as parsed."""

    @property
    def templated(self) -> bool:
        return self.kind in (EndpointKind.TEMPLATE, EndpointKind.MULTI_USER)


def detect(folder: Path) -> EndpointLayout:
    """The layout of the configured endpoint in ``folder``.

    Raises:
        LayoutError: ``config.yaml`` is not a YAML mapping.
    """
    config = folder / "config.yaml"
    parent = read_mapping(config)
    if (folder / "config.py").is_file():
        return EndpointLayout(
            kind=EndpointKind.CONFIG_PY, folder=folder, config=config, parent=parent
        )
    template = _template_path(folder, parent)
    if "engine" in parent or template is None:
        return EndpointLayout(
            kind=EndpointKind.CONFIG_YAML, folder=folder, config=config, parent=parent
        )
    schema = Path(str(parent.get("user_config_schema_path") or folder / SCHEMA_FILE))
    kind = (
        EndpointKind.MULTI_USER
        if parent.get("identity_mapping_config_path")
        else (EndpointKind.TEMPLATE)
    )
    return EndpointLayout(
        kind=kind,
        folder=folder,
        config=config,
        template=template,
        schema_file=schema if schema.is_file() else None,
        user_environment=folder / USER_ENVIRONMENT_FILE,
        parent=parent,
    )


def read_mapping(path: Path) -> dict[str, object]:
    """A YAML file that must hold a mapping (an empty file is an empty mapping).

    Raises:
        LayoutError: unreadable, not YAML, or not a mapping.
    """
    try:
        doc = load_yaml(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise LayoutError(f"{path} is unreadable: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise LayoutError(f"{path} is not valid YAML: {exc}") from None
    if not isinstance(doc, dict):
        raise LayoutError(f"{path}: expected a mapping of endpoint settings")
    return doc


def _template_path(folder: Path, parent: dict[str, object]) -> Path | None:
    """Where the endpoint reads its template, as ``Endpoint.user_config_template_path`` and
    ``load_user_config_template`` decide: a configured path, else the ``.j2`` file, else the
    same name without ``.j2``."""
    configured = parent.get("user_config_template_path")
    path = Path(str(configured)) if configured else folder / TEMPLATE_FILE
    if path.is_file():
        return path
    plain = Path(re.sub(r"\.j2$", "", str(path)))
    return plain if plain.is_file() else None
