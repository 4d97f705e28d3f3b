"""Prove an edited user config template still works, with the endpoint's own code.

Before an edited template is written, it is rendered the way the parent endpoint renders it
for a user (``render_config_user_template``: the sandboxed Jinja environment, the schema check,
the JSON-quoting of user options, ``_GC.user_runtime``) and the result is loaded with
``load_config_yaml``, which builds the real engine. Both renderings are made: once with the
runtime of this Python (the default 4.x template then prepares a per-user ``uv`` environment)
and once without one (it then uses the endpoint's own environment). Each must differ from the
unedited template's rendering only where the edit meant to change it.

A template that needs user options this machine cannot guess (a required ``account``, say)
cannot be rendered unedited either; then only its Jinja syntax is checked, and the result says
so, unless the administrator passes sample options.
"""

from __future__ import annotations

import json
import os
import pwd
import uuid
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import yaml

from endpoint_plugins.endpoint_layout import EndpointLayout
from endpoint_plugins.template_edit import BEGIN, END, TemplateEditError


def verify(
    layout: EndpointLayout,
    original: str,
    edited: str,
    *,
    user_options: Mapping[str, Any] | None = None,
    worker_lines: list[str] | None = None,
    allowed: list[str] | None = None,
) -> str:
    """Render ``original`` and ``edited`` for a user and compare; return what was proven.

    Raises:
        TemplateEditError: the edited template renders to something the endpoint would
            reject, or differs from the original beyond the edit.
    """
    from globus_compute_endpoint.version import __version__

    proven = 0
    skipped: list[str] = []
    for runtime in (_this_runtime(), {}):
        try:
            before = yaml.safe_load(render(layout, original, user_options, runtime))
        except Exception as exc:  # noqa: BLE001 - Jinja, schema and YAML errors alike
            skipped.append(_first_line(exc))
            continue
        try:
            text = render(layout, edited, user_options, runtime)
            _load_with_engine(text)
        except Exception as exc:  # noqa: BLE001 - whatever the endpoint would fail with
            raise TemplateEditError(
                f"{layout.template}: the edited template would not load "
                f"({_first_line(exc)}); the file was left unchanged"
            ) from None
        _compare(layout, before, yaml.safe_load(text), worker_lines, allowed)
        proven += 1
    if proven:
        return f"rendered and loaded by globus-compute-endpoint {__version__}"
    return (
        f"Jinja syntax checked; not rendered ({skipped[0]}): pass --user-options FILE with "
        "sample options to render it"
    )


def render(
    layout: EndpointLayout,
    template: str,
    user_options: Mapping[str, Any] | None,
    runtime: dict[str, Any],
) -> str:
    """The template rendered for the current local user, as the parent endpoint renders it."""
    from globus_compute_endpoint.endpoint.config.utils import (
        load_config_yaml,
        load_user_config_schema,
        render_config_user_template,
    )
    from globus_compute_endpoint.endpoint.identity_mapper import MappedPosixIdentity

    assert layout.template is not None
    parent = load_config_yaml(layout.config.read_text(encoding="utf-8"))
    schema = load_user_config_schema(layout.schema_file) if layout.schema_file else None
    identity = MappedPosixIdentity(
        local_user_record=pwd.getpwuid(os.getuid()),
        matched_identity=uuid.UUID(int=0),
        globus_identity_candidates=[],
    )
    return render_config_user_template(
        parent_config=parent,  # type: ignore[arg-type]
        user_config_template=template,
        user_config_template_path=layout.template,
        mapped_identity=identity,
        user_config_schema=schema,
        user_opts=dict(user_options or {}),
        user_runtime=runtime,
    )


def _this_runtime() -> dict[str, Any]:
    from globus_compute_sdk.sdk.batch import create_user_runtime

    # As the SDK sends it: JSON values only.
    return json.loads(json.dumps(asdict(create_user_runtime())))


def _load_with_engine(text: str) -> None:
    from globus_compute_endpoint.endpoint.config.config import UserEndpointConfig
    from globus_compute_endpoint.endpoint.config.utils import load_config_yaml

    doc = yaml.safe_load(text)
    engine = doc.get("engine") if isinstance(doc, dict) else None
    if isinstance(engine, dict) and "address" not in engine and "provider" in engine:
        # Without an address the engine scans every network interface of this host (and
        # Parsl leaves a socket open doing so); the check needs none, so it pins one.
        text = yaml.safe_dump({**doc, "engine": {**engine, "address": "127.0.0.1"}})
    config = load_config_yaml(text)
    if not isinstance(config, UserEndpointConfig):
        raise TemplateEditError("the rendered template has no engine")
    config.engine.shutdown()


def _compare(
    layout: EndpointLayout,
    before: Any,
    after: Any,
    worker_lines: list[str] | None,
    allowed: list[str] | None,
) -> None:
    old_init, old_allowed = _split(before)
    new_init, new_allowed = _split(after)
    problems = []
    if before != after:
        problems.append("settings other than worker_init and allowed_functions changed")
    if worker_lines is not None:
        new = _lines(new_init)
        ours = [i for i in range(len(new)) if new[i : i + len(worker_lines)] == worker_lines]
        if not ours or ours[0] + len(worker_lines) != len(new):
            problems.append("worker_init does not end with the secretary block")
        elif _unmarked(new) != _unmarked(_lines(old_init)):
            problems.append("worker_init changed beyond the secretary block")
    if allowed is not None and not set(allowed) <= {str(x) for x in new_allowed or []}:
        problems.append("allowed_functions does not list the secretary functions")
    if worker_lines is None and _lines(new_init) != _lines(old_init):
        problems.append("worker_init changed")
    if allowed is None and old_allowed != new_allowed:
        problems.append("allowed_functions changed")
    if problems:
        raise TemplateEditError(
            f"{layout.template}: after the edit, {'; '.join(problems)}; the file was left unchanged"
        )


def _split(doc: Any) -> tuple[str, Any]:
    """Pop (in place) ``engine.provider.worker_init`` and ``allowed_functions``."""
    if not isinstance(doc, dict):
        return "", None
    provider = (doc.get("engine") or {}).get("provider") or {}
    init = provider.pop("worker_init", "") if isinstance(provider, dict) else ""
    return str(init or ""), doc.pop("allowed_functions", None)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _unmarked(lines: list[str]) -> list[str]:
    """``lines`` without a secretary block (the one a previous install wrote, say)."""
    if BEGIN not in lines or END not in lines:
        return lines
    return lines[: lines.index(BEGIN)] + lines[lines.index(END) + 1 :]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__
