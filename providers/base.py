"""The ``Provider`` base class: one kind of resource at a site, probed once and queried by tools.

Subclasses fill one hook, :meth:`Provider._probe`, which returns the provider's facts (or None
when the resource is absent here). The concrete :meth:`Provider.probe` owns the cross-cutting
work: caching with a time-to-live, catching errors, timing, and a typed :class:`ProbeReport`.
Tools are methods marked with :func:`providers.tools.secretary_tool` or
:func:`providers.tools.dispatch_tool`; they are collected once, when the class is defined.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, ClassVar

from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from providers.commands import CommandRunner
from providers.errors import (
    ProviderError,
    ToolArgumentError,
    ToolClassError,
    ToolNotFoundError,
)
from providers.tools import ToolKind, ToolManifest, ToolSpec, build_spec, tool_kind
from providers.wire.common import Category, WireModel


class ProbeReport(WireModel):
    """What a probe found: whether the resource exists here and its facts."""

    provider: str
    category: Category
    available: bool
    facts: dict[str, Any] | None = None
    error: str | None = None
    elapsed_s: float = 0.0
    probed_at: datetime


class ProviderInfo(WireModel):
    """Static description of a provider class: what it is and how it is detected."""

    name: str
    category: Category
    description: str
    detection: str
    tools: tuple[ToolManifest, ...] = ()


class Provider(ABC):
    """One resource of a site (a workload manager, a package manager, a GPU, ...).

    Class attributes:
        name: unique provider name (``slurm``, ``pip``, ``cpu``).
        category: one of the seven categories.
        description: one line for people and agents.
        detection: how the provider decides it is present (executable, variable, file).
        facts_model: the pydantic model that ``_probe`` returns.
        cache_ttl_s: how long a probe result is reused before probing again.

    Constructing a provider has no side effects: nothing runs before :meth:`probe`.
    """

    name: ClassVar[str]
    category: ClassVar[Category]
    description: ClassVar[str] = ""
    detection: ClassVar[str] = ""
    facts_model: ClassVar[type[WireModel]]
    cache_ttl_s: ClassVar[float] = 60.0
    _tool_specs: ClassVar[dict[str, ToolSpec]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        specs: dict[str, ToolSpec] = {}
        for klass in reversed(cls.__mro__):
            for attr, value in vars(klass).items():
                kind = tool_kind(value)
                if kind is not None:
                    specs[attr] = build_spec(value, kind)
                elif attr in specs and callable(value):
                    # an override of a tool stays a tool of the same class
                    specs[attr] = build_spec(value, specs[attr].kind)
        cls._tool_specs = specs

    def __init__(
        self,
        *,
        name: str | None = None,
        runner: CommandRunner | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        """Create a provider; nothing is probed yet.

        Args:
            name: instance name, when one class serves several providers (state files).
            runner: how commands are run (a recording or restricted runner in tests).
            options: provider-specific settings from the site configuration.
        """
        if name is not None:
            self.name = name  # type: ignore[misc]
        self.runner = runner or CommandRunner()
        self.options: dict[str, Any] = dict(options or {})
        self._lock = threading.Lock()
        self._report: ProbeReport | None = None
        self._facts: WireModel | None = None
        self._expires = 0.0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"

    # -- probing ---------------------------------------------------------------------------

    @abstractmethod
    def _probe(self) -> WireModel | None:
        """Look at the site and return this provider's facts, or None when it is absent.

        Raise :class:`providers.errors.ProviderError` for a provider that is present but
        cannot be read; :meth:`probe` turns that into an unavailable report with the error.
        """

    def probe(self, *, refresh: bool = False) -> ProbeReport:
        """Probe the site, reusing a cached result younger than ``cache_ttl_s``.

        Never raises for a failing probe: the report says ``available=False`` and why.
        After return, :meth:`facts` answers from the same probe without running anything.
        """
        with self._lock:
            now = time.monotonic()
            if self._report is not None and not refresh and now < self._expires:
                return self._report
            start = time.perf_counter()
            facts: WireModel | None = None
            error: str | None = None
            try:
                facts = self._probe()
                if facts is not None and not isinstance(facts, self.facts_model):
                    raise ProviderError(
                        f"{self.name}: _probe returned {type(facts).__name__}, "
                        f"expected {self.facts_model.__name__}"
                    )
            except ProviderError as exc:
                error = exc.message
            except (OSError, ValueError, ValidationError) as exc:
                error = f"{type(exc).__name__}: {exc}"
            self._facts = facts
            self._report = ProbeReport(
                provider=self.name,
                category=self.category,
                available=facts is not None,
                facts=facts.model_dump(mode="json") if facts is not None else None,
                error=error,
                elapsed_s=round(time.perf_counter() - start, 6),
                probed_at=datetime.now(UTC),
            )
            self._expires = now + self.cache_ttl_s
            return self._report

    @property
    def fresh(self) -> bool:
        """True while a cached probe result exists and is younger than ``cache_ttl_s``."""
        return self._report is not None and time.monotonic() < self._expires

    @property
    def available(self) -> bool:
        """True when the last (or a fresh) probe found the resource."""
        return self.probe().available

    def facts(self) -> Any:
        """The facts of the current probe.

        Raises:
            ProviderError: the provider is not available at this site.
        """
        report = self.probe()
        if self._facts is None:
            why = f": {report.error}" if report.error else ""
            raise ProviderError(f"provider {self.name!r} is not available here{why}")
        return self._facts

    def invalidate(self) -> None:
        """Forget the cached probe, e.g. after a dispatch changed the site's load."""
        with self._lock:
            self._expires = 0.0

    # -- tools -----------------------------------------------------------------------------

    @classmethod
    def tool_specs(cls) -> dict[str, ToolSpec]:
        """The tools of this class, by bare tool name."""
        return dict(cls._tool_specs)

    def manifest(self, kind: ToolKind | None = None) -> list[ToolManifest]:
        """Manifests of this provider's tools, optionally only one class of them."""
        return [
            spec.manifest(self.name)
            for spec in self._tool_specs.values()
            if kind is None or spec.kind is kind
        ]

    @classmethod
    def info(cls) -> ProviderInfo:
        """Static description of the class (no probing)."""
        return ProviderInfo(
            name=cls.name,
            category=cls.category,
            description=cls.description,
            detection=cls.detection,
            tools=tuple(spec.manifest(cls.name) for spec in cls._tool_specs.values()),
        )

    def call_tool(self, tool: str, arguments: Mapping[str, Any], *, allowed: ToolKind) -> Any:
        """Validate arguments, enforce the tool class, call the tool, return a JSON-able result.

        Raises:
            ToolNotFoundError: no such tool on this provider.
            ToolClassError: the tool's class is not ``allowed`` (e.g. submit while negotiating).
            ToolArgumentError: the arguments do not match the tool's schema.
            ProviderError: the tool itself failed (``transient`` says whether to retry).
        """
        spec = self._tool_specs.get(tool)
        if spec is None:
            known = ", ".join(sorted(self._tool_specs)) or "none"
            raise ToolNotFoundError(
                f"provider {self.name!r} has no tool {tool!r}; its tools are: {known}"
            )
        if spec.kind is not allowed:
            raise ToolClassError(
                f"tool {self.name}.{tool} is a {spec.kind.value} tool and cannot be called "
                f"while only {allowed.value} tools are allowed"
            )
        try:
            parsed = spec.args_model.model_validate(dict(arguments))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                for err in exc.errors()
            )
            raise ToolArgumentError(f"bad arguments for {self.name}.{tool}: {problems}") from None
        kwargs = {p: getattr(parsed, p) for p in spec.param_names}
        result = getattr(self, tool)(**kwargs)
        return to_jsonable_python(result)


def probe_many(providers: Iterable[Provider], *, max_workers: int = 8) -> list[ProbeReport]:
    """Probe several providers at once; cached results are reused, stale ones run in parallel.

    Probes mostly wait on subprocesses (``ompi_info``, ``podman info``, ``sinfo``), so running
    them side by side makes a site's cold start as slow as its slowest provider rather than
    the sum of all of them. Postcondition: one report per provider, in the given order.
    """
    items = list(providers)
    stale = [p for p in items if not p.fresh]
    if len(stale) > 1:
        with ThreadPoolExecutor(max_workers=min(max_workers, len(stale))) as pool:
            list(pool.map(lambda p: p.probe(), stale))
    return [p.probe() for p in items]
