"""A tool session: the only way the rules engine, an agent or MCP calls provider tools.

A session is made per request and fixes the tool class allowed for its whole life (READ while
negotiating, DISPATCH while dispatching), so the read-only promise holds at call time, not only
in a prompt. Every call is recorded as :class:`providers.wire.Evidence`, failures included, and
no tool error escapes as an exception unless the caller asks for it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from providers.base import Provider
from providers.errors import ProviderError, ToolNotFoundError
from providers.tools import ToolKind, ToolManifest, qualified_name
from providers.wire.proposal import Evidence


class ToolSession:
    """Calls tools of one site's providers under one tool class, recording evidence.

    Args:
        providers: the site's providers (only available ones are offered).
        allowed: the tool class this session may call.
    """

    def __init__(self, providers: Iterable[Provider], *, allowed: ToolKind) -> None:
        self.allowed = allowed
        self._providers = {p.name: p for p in providers}
        self.evidence: list[Evidence] = []

    def providers(self) -> list[Provider]:
        """Providers of the site that are available here."""
        return [p for p in self._providers.values() if p.available]

    def present(self) -> list[Provider]:
        """Providers that exist at the site: available ones and those whose probe failed.

        A provider that is installed but cannot be read (its probe raised) answers every tool
        with that error, so a check that relies on it becomes UNKNOWN instead of treating the
        resource as absent (which could turn a broken scheduler into a false READY).
        """
        found: list[Provider] = []
        for provider in self._providers.values():
            report = provider.probe()
            if report.available or report.error is not None:
                found.append(provider)
        return found

    def manifest(self) -> list[ToolManifest]:
        """Manifests of every tool this session may call (only the allowed class)."""
        out: list[ToolManifest] = []
        for provider in self.providers():
            out.extend(provider.manifest(self.allowed))
        return out

    def resolve(self, qualified: str) -> tuple[Provider, str]:
        """Find the provider and bare tool name behind a qualified tool name."""
        for provider in self._providers.values():
            prefix = qualified_name(provider.name, "")
            if qualified.startswith(prefix):
                return provider, qualified[len(prefix) :]
        raise ToolNotFoundError(f"no tool named {qualified!r} at this site")

    def call(
        self, provider: Provider | str, tool: str, arguments: Mapping[str, Any] | None = None
    ) -> Evidence:
        """Call a tool and record the call. Never raises for a failing tool: see ``error``."""
        args = dict(arguments or {})
        prov_name = provider if isinstance(provider, str) else provider.name
        start = time.perf_counter()
        result: Any = None
        error: str | None = None
        try:
            target = self._providers.get(prov_name)
            if target is None:
                raise ToolNotFoundError(f"no provider named {prov_name!r} at this site")
            result = target.call_tool(tool, args, allowed=self.allowed)
        except ProviderError as exc:
            error = exc.message
        except Exception as exc:  # noqa: BLE001 - a buggy provider must not crash a negotiation
            error = f"{type(exc).__name__}: {exc}"
        evidence = Evidence(
            provider=prov_name,
            tool=tool,
            arguments=args,
            result=result,
            error=error,
            elapsed_s=round(time.perf_counter() - start, 6),
        )
        self.evidence.append(evidence)
        return evidence

    def call_qualified(
        self, qualified: str, arguments: Mapping[str, Any] | None = None
    ) -> Evidence:
        """Call a tool by its qualified name (``<provider>__<tool>``), as agents and MCP do."""
        try:
            provider, tool = self.resolve(qualified)
        except ToolNotFoundError as exc:
            evidence = Evidence(
                provider="?", tool=qualified, arguments=dict(arguments or {}), error=exc.message
            )
            self.evidence.append(evidence)
            return evidence
        return self.call(provider, tool, arguments)
