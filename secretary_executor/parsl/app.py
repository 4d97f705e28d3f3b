"""``@secretary_app`` and ``@secretary_bash_app``: Parsl apps that carry what they need.

They behave like ``@python_app`` / ``@bash_app`` (same call, same ``AppFuture``, same
dependency handling) and add the task's needs to its ``parsl_resource_specification``, which is
how Parsl hands per-task information to an executor::

    @secretary_app
    def f(x): ...

    @secretary_app(request="pytorch >= 2.0 on 1 GPU", policy="min-cost")
    def train(data): ...

    train(data, parsl_resource_specification={"cores": 8})   # per call: merged, and wins

Both forms (with and without arguments), and the bash variant, go through one factory,
:func:`_decorate`. By default the apps run on the executor labelled ``secretary``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from parsl.app.bash import BashApp
from parsl.app.python import PythonApp
from pydantic import ValidationError

from providers.wire import Policy, Requirements
from providers.wire.strict import UnknownFieldError, validate_user_input
from secretary_executor.errors import ConfigurationError

SPEC = "parsl_resource_specification"


class _SecretaryMixin:
    """Merges the decorator's needs into each call's resource specification."""

    secretary_spec: dict[str, Any]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        given = kwargs.get(SPEC)
        if given is None:
            given = getattr(self, "kwargs", {}).get(SPEC)
        if given or self.secretary_spec:
            kwargs[SPEC] = {**self.secretary_spec, **(given or {})}
        # With nothing to say, the keyword is left out: the executor reads a missing spec as
        # the default needs, and the DataFlowKernel then has one argument less to inspect for
        # staging on every call.
        return super().__call__(*args, **kwargs)  # type: ignore[misc]


class SecretaryPythonApp(_SecretaryMixin, PythonApp):
    """A ``PythonApp`` whose calls carry the secretary's request, requirements and policy."""


class SecretaryBashApp(_SecretaryMixin, BashApp):
    """A ``BashApp`` whose calls carry the secretary's request, requirements and policy."""


def secretary_spec(
    request: str | None = None,
    requirements: Requirements | dict[str, Any] | None = None,
    policy: Policy | str | dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The resource-specification entries for these needs (JSON-able, validated now).

    Raises:
        ConfigurationError: requirements or policy of the wrong shape (the message says why).
    """
    spec: dict[str, Any] = {}
    if request is not None:
        if not isinstance(request, str) or not request.strip():
            raise ConfigurationError(
                "request must be non-empty text, e.g. request='4 cores, python >= 3.10'"
            )
        spec["secretary_request"] = request
    try:
        if requirements is not None:
            spec["secretary_requirements"] = validate_user_input(
                Requirements, requirements
            ).model_dump(mode="json", exclude_defaults=True)
        if isinstance(policy, str):
            spec["secretary_policy"] = policy
        elif policy is not None:
            spec["secretary_policy"] = Policy.model_validate(policy).model_dump(mode="json")
    except UnknownFieldError as exc:
        raise ConfigurationError(f"@secretary_app: requirements: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "value"
        raise ConfigurationError(f"@secretary_app: {where}: {first['msg']}") from None
    return spec


def _decorate(
    app_cls: type[SecretaryPythonApp] | type[SecretaryBashApp],
    function: Callable[..., Any] | None,
    *,
    request: str | None,
    requirements: Requirements | dict[str, Any] | None,
    policy: Policy | str | dict[str, Any] | None,
    executors: Sequence[str] | Literal["all"],
    cache: bool,
    ignore_for_cache: Sequence[str] | None,
) -> Any:
    spec = secretary_spec(request, requirements, policy)
    labels: list[str] | Literal["all"] = executors if executors == "all" else list(executors)

    def wrap(func: Callable[..., Any]) -> Any:
        app = app_cls(func, executors=labels, cache=cache, ignore_for_cache=ignore_for_cache)
        app.secretary_spec = spec
        return app

    return wrap(function) if function is not None else wrap


def secretary_app(
    function: Callable[..., Any] | None = None,
    *,
    request: str | None = None,
    requirements: Requirements | dict[str, Any] | None = None,
    policy: Policy | str | dict[str, Any] | None = None,
    executors: Sequence[str] | Literal["all"] = ("secretary",),
    cache: bool = False,
    ignore_for_cache: Sequence[str] | None = None,
) -> Any:
    """Make a Python app whose tasks are placed by the sites' secretaries.

    Args:
        function: the decorated function (when used without parentheses).
        request: request text, parsed into requirements by the executor.
        requirements: structured requirements; they win over ``request``.
        policy: a selection algorithm name or a :class:`Policy`.
        executors: executor labels, as for ``python_app``.
        cache: Parsl memoization, as for ``python_app``.
        ignore_for_cache: as for ``python_app``.

    Raises:
        ConfigurationError: at decoration time, for requirements or a policy of the wrong shape.
    """
    return _decorate(
        SecretaryPythonApp,
        function,
        request=request,
        requirements=requirements,
        policy=policy,
        executors=executors,
        cache=cache,
        ignore_for_cache=ignore_for_cache,
    )


def secretary_bash_app(
    function: Callable[..., Any] | None = None,
    *,
    request: str | None = None,
    requirements: Requirements | dict[str, Any] | None = None,
    policy: Policy | str | dict[str, Any] | None = None,
    executors: Sequence[str] | Literal["all"] = ("secretary",),
    cache: bool = False,
    ignore_for_cache: Sequence[str] | None = None,
) -> Any:
    """Make a bash app (the function returns a command line) placed by the secretaries.

    Same arguments as :func:`secretary_app`; the command runs at the chosen site the way
    Parsl's ``@bash_app`` runs it.
    """
    return _decorate(
        SecretaryBashApp,
        function,
        request=request,
        requirements=requirements,
        policy=policy,
        executors=executors,
        cache=cache,
        ignore_for_cache=ignore_for_cache,
    )
