"""From a Parsl task's resource specification to what the sites judge, and back.

A task reaches :class:`~secretary_executor.parsl.executor.SecretaryExecutor` with a resource
specification that may hold:

* ``secretary_request``: request text, e.g. ``"lammps >= 2023 on 2 GPUs"``;
* ``secretary_requirements``: a :class:`Requirements` (or its JSON form) that wins over the text;
* ``secretary_policy``: an algorithm name, a :class:`Policy` or its JSON form;
* Parsl's usual keys, read as requirements: ``cores`` (per node), ``num_nodes``, ``gpus``
  (per node), ``memory`` (MB, as Parsl's Work Queue executor takes it), ``walltime`` (s) and
  ``running_time_min`` (minutes).

The ``secretary_*`` keys are consumed here. Everything else, Parsl's keys included, goes on
in ``forward``: the executor hands it to the chosen site's channel in the convention of the
engine behind it (:mod:`~secretary_executor.parsl.keys`), where an MPI engine needs
``num_nodes`` as much as the secretaries did.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Policy, Requirements
from providers.wire.strict import UnknownFieldError, validate_user_input
from secretary_executor.errors import ConfigurationError

SECRETARY_KEYS = ("secretary_request", "secretary_requirements", "secretary_policy")
PARSL_KEYS = ("cores", "num_nodes", "gpus", "memory", "walltime", "running_time_min")
SECRETARY = frozenset(SECRETARY_KEYS)
CONSUMED = frozenset(SECRETARY_KEYS + PARSL_KEYS)
"""Keys read to build the requirements and policy."""


@dataclass(frozen=True)
class TaskNeeds:
    """What one task needs and how to choose, plus what goes on to the channel."""

    requirements: Requirements
    policy: Policy
    text: str
    forward: dict[str, Any]
    """The specification less the ``secretary_*`` keys, for the site's engine."""
    key: str
    """Negotiation cache key: equal keys get equal proposals (requirements signature + policy)."""


def split_spec(
    spec: dict[str, Any] | None, *, default_requirements: Requirements, default_policy: Policy
) -> TaskNeeds:
    """Read a task's resource specification (``None`` counts as empty).

    Postcondition: ``forward`` holds every key of ``spec`` but the ``secretary_*`` ones.

    Raises:
        ConfigurationError: a value of the wrong shape (the message names the key and the fix).
    """
    spec = spec or {}
    forward = {k: v for k, v in spec.items() if k not in SECRETARY}
    ours = {k: spec[k] for k in CONSUMED if k in spec}
    if not ours:
        return _default_needs(default_requirements, default_policy, forward)
    try:
        canonical = json.dumps(ours, sort_keys=True, default=_plain)
    except (TypeError, ValueError) as exc:
        raise ConfigurationError(f"resource specification: {exc}") from None
    requirements, policy, text, key = _needs(canonical, default_requirements, default_policy)
    return TaskNeeds(requirements, policy, text, forward, key)


def _default_needs(req: Requirements, policy: Policy, forward: dict[str, Any]) -> TaskNeeds:
    return TaskNeeds(req, policy, "", forward, _key(req, policy))


@lru_cache(maxsize=256)
def _key(requirements: Requirements, policy: Policy) -> str:
    return requirements.signature() + "|" + policy.model_dump_json()


def _plain(value: Any) -> Any:
    if isinstance(value, Requirements | Policy):
        return value.model_dump(mode="json")
    raise TypeError(f"cannot read a {type(value).__name__} in the resource specification")


@lru_cache(maxsize=1024)
def _needs(
    canonical: str, default_requirements: Requirements, default_policy: Policy
) -> tuple[Requirements, Policy, str, str]:
    # Parsing is deterministic, so equal specifications are read once, cache key included.
    spec: dict[str, Any] = json.loads(canonical)
    text = spec.get("secretary_request") or ""
    if not isinstance(text, str):
        raise ConfigurationError(
            "secretary_request must be request text, e.g. '4 cores, python >= 3.10'"
        )
    raw = spec.get("secretary_requirements")
    try:
        if raw is not None:
            requirements = validate_user_input(Requirements, raw)
        elif text:
            requirements = parse_requirements(text)
        else:
            requirements = Requirements()
    except UnknownFieldError as exc:
        raise ConfigurationError(f"secretary_requirements: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "requirements"
        raise ConfigurationError(f"secretary_requirements: {where}: {first['msg']}") from None
    requirements = _with_parsl_keys(requirements, spec)
    if requirements.is_empty():
        requirements = default_requirements
    policy = _policy(spec.get("secretary_policy"), default_policy)
    return requirements, policy, text, _key(requirements, policy)


def _with_parsl_keys(requirements: Requirements, spec: dict[str, Any]) -> Requirements:
    update: dict[str, Any] = {}
    for key, field, scale in (
        ("cores", "cores_per_node", 1.0),
        ("num_nodes", "nodes", 1.0),
        ("gpus", "gpus_per_node", 1.0),
        ("memory", "memory_gb_per_node", 1 / 1024),
        ("walltime", "walltime_s", 1.0),
        ("running_time_min", "walltime_s", 60.0),
    ):
        if spec.get(key) is None:
            continue
        value = spec[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ConfigurationError(
                f"resource specification {key!r} must be a non-negative number, not {value!r}"
            )
        scaled = value * scale
        update[field] = scaled if field == "memory_gb_per_node" else int(scaled)
    if not update:
        return requirements
    try:
        compute = requirements.compute.model_validate(
            {**requirements.compute.model_dump(), **update}
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ConfigurationError(
            f"resource specification: {first['loc'][0]}: {first['msg']}"
        ) from None
    return requirements.model_copy(update={"compute": compute})


def _policy(raw: Any, default: Policy) -> Policy:
    if raw is None:
        return default
    if isinstance(raw, str):
        return default.model_copy(update={"algorithm": raw})
    try:
        return Policy.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "policy"
        raise ConfigurationError(
            f"secretary_policy: {where}: {first['msg']} (give an algorithm name such as 'soonest')"
        ) from None
