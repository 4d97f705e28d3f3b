"""The install steps only template and multi-user endpoints need.

* :func:`worker_setup`: the workers of a template endpoint run in the environment its
  ``worker_init`` prepares (the default 4.x template builds a fresh per-user ``uv`` virtual
  environment holding only ``globus-compute-endpoint``), so the secretary functions, which
  import ``endpoint_plugins``, would fail there unless ``worker_init`` installs this package.
* :func:`edit_template`: every template edit is checked as Jinja before and after, rendered and
  loaded with the endpoint's own code, and only then written (mode kept).
* :func:`site_roots_for_users`: on a multi-user endpoint each user's endpoint process runs as
  the mapped local user, whose ``~/.globus_compute`` is not this folder, so the functions
  would refuse the site file written here; ``user_environment.yaml`` (the variables the parent
  gives every user endpoint process) names this folder in ``SECRETARY_SITE_CONFIG_ROOTS``.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from endpoint_plugins.endpoint_files import Change, top_level_block, write_keeping_mode
from endpoint_plugins.endpoint_layout import EndpointLayout, read_mapping
from endpoint_plugins.functions import ROOTS_ENV
from endpoint_plugins.template_edit import (
    add_worker_setup,
    check_syntax,
    has_provider,
    worker_lines,
)
from endpoint_plugins.template_render import verify

PACKAGE = "secretary-executor"


def default_worker_package() -> str:
    """This package pinned to the version installed here, so workers match the host."""
    try:
        return f"{PACKAGE}=={metadata.version(PACKAGE)}"
    except metadata.PackageNotFoundError:
        return PACKAGE


def worker_setup(
    layout: EndpointLayout,
    package: str,
    dry_run: bool,
    user_options: Mapping[str, Any] | None = None,
) -> Change:
    """Make the template's ``worker_init`` install ``package`` where the workers run.

    Raises:
        TemplateEditError: invalid Jinja, or a template shaped so that the edit is unsafe.
    """
    assert layout.template is not None
    original = layout.template.read_text(encoding="utf-8")
    check_syntax(layout.template, original)
    if not has_provider(original):
        return Change(
            path=str(layout.template),
            action="skipped",
            detail="the engine has no provider: its workers run in the endpoint's own Python, "
            f"so install {PACKAGE} there",
        )
    lines = worker_lines(package)
    return edit_template(
        layout,
        add_worker_setup(original, lines),
        dry_run,
        f"worker_init installs {package}",
        user_options=user_options,
        worker=lines,
    )


def edit_template(
    layout: EndpointLayout,
    edited: str,
    dry_run: bool,
    detail: str,
    *,
    user_options: Mapping[str, Any] | None = None,
    worker: list[str] | None = None,
    allowed: list[str] | None = None,
) -> Change:
    """Write ``edited`` over the template once it has been proven to render and load."""
    assert layout.template is not None
    original = layout.template.read_text(encoding="utf-8")
    if edited == original:
        return Change(path=str(layout.template), action="unchanged", detail=detail)
    check_syntax(layout.template, edited)
    proof = verify(
        layout, original, edited, user_options=user_options, worker_lines=worker, allowed=allowed
    )
    return write_keeping_mode(layout.template, edited, dry_run, f"{detail}; {proof}")


def site_roots_for_users(layout: EndpointLayout, *, dry_run: bool) -> Change:
    """Name the endpoint folder in ``SECRETARY_SITE_CONFIG_ROOTS`` for user endpoints."""
    path = layout.user_environment or layout.folder / "user_environment.yaml"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    current = str(read_mapping(path).get(ROOTS_ENV) or "") if text.strip() else ""
    folder = str(layout.folder)
    roots = [p for p in current.split(os.pathsep) if p]
    warning = _unreachable(layout.folder)
    if folder in roots:
        return Change(path=str(path), action="unchanged", detail=f"{ROOTS_ENV}{warning}")
    line = f"{ROOTS_ENV}: {json.dumps(os.pathsep.join([*roots, folder]))}\n"
    span = top_level_block(text, ROOTS_ENV)
    if span is None:
        updated = text + ("" if text.endswith("\n") or not text else "\n") + line
    else:
        updated = text[: span[0]] + line + text[span[1] :]
    return write_keeping_mode(
        path, updated, dry_run, f"{ROOTS_ENV} += {folder}{warning}", new_mode=0o600
    )


def _unreachable(folder: Path) -> str:
    """A warning when other local users cannot reach the site file in ``folder``."""
    for part in [folder, *folder.parents]:
        try:
            mode = part.stat().st_mode
        except OSError:
            continue
        if not mode & stat.S_IXOTH:
            return (
                f"; WARNING: {part} is not searchable by other users, so mapped users cannot "
                "read the site file (see docs/endpoint-admin.md, multi-user endpoints)"
            )
    return ""
