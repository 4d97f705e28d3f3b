"""Tool calls for the rules negotiator: typed answers, scoped evidence, provider lookup.

The rules negotiator learns about a site only through provider tools called on the request's
:class:`providers.ToolSession`, so that every fact behind a verdict is recorded as evidence.
This module keeps that plumbing in one place: it finds the providers of a kind, calls a tool,
turns the JSON-able result back into the typed facts model, and slices out the evidence that
one check caused. A failing tool or an unreadable answer becomes a message, never an exception,
because a broken provider must make a check UNKNOWN rather than crash a negotiation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from providers.base import Provider
from providers.categories import provider_kind
from providers.errors import ProviderError
from providers.session import ToolSession
from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus, Evidence

T = TypeVar("T")


def providers_of_kind(session: ToolSession, kind: str) -> list[Provider]:
    """The session's providers of one kind (``software``, ``cpu``, ...) that exist, in order.

    Providers whose probe failed are included: their tools answer with the probe's error, so
    the check becomes UNKNOWN rather than "no such provider here".

    A provider class that derives from no kind base cannot be judged by the rules, so it is
    skipped here instead of raising: the other providers of the site still count.
    """
    found: list[Provider] = []
    for provider in session.present():
        try:
            if provider_kind(provider) == kind:
                found.append(provider)
        except ProviderError:
            continue
    return found


@dataclass(frozen=True)
class Answer(Generic[T]):
    """A typed tool answer: ``value`` when the call worked, else ``error`` says why not."""

    provider: str
    tool: str
    value: T | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when the tool answered and its answer was readable."""
        return self.error is None


def ask(
    session: ToolSession,
    provider: Provider,
    tool: str,
    adapter: TypeAdapter[T],
    arguments: dict[str, Any] | None = None,
) -> Answer[T]:
    """Call one tool through the session and validate its result against ``adapter``.

    The session records the call as evidence whatever happens. Postcondition: exactly one of
    ``value``/``error`` is meaningful; this function never raises for a provider problem.
    """
    evidence = session.call(provider, tool, arguments)
    if evidence.error is not None:
        return Answer(provider.name, tool, error=f"{provider.name}.{tool} failed: {evidence.error}")
    try:
        value = adapter.validate_python(evidence.result)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "result"
        return Answer(
            provider.name,
            tool,
            error=f"{provider.name}.{tool} returned an unreadable answer ({where}: {first['msg']})",
        )
    return Answer(provider.name, tool, value=value)


class EvidenceScope:
    """Marks where one check's tool calls begin in the session's evidence list.

    Checks run one after another on one session, so the evidence of a check is exactly the
    slice of ``session.evidence`` added since the scope was opened.

    Args:
        session: the request's session.
        redact: applied to each piece of evidence before it goes into a check, for facts the
            site does not disclose (partitions the administrator did not expose).
    """

    def __init__(
        self, session: ToolSession, redact: Callable[[Evidence], Evidence] | None = None
    ) -> None:
        self._session = session
        self._start = len(session.evidence)
        self._redact = redact

    def evidence(self) -> tuple[Evidence, ...]:
        """The evidence recorded since this scope was opened (redacted when asked)."""
        found = self._session.evidence[self._start :]
        if self._redact is not None:
            found = [self._redact(e) for e in found]
        return tuple(found)

    def check(
        self, requirement: str, category: Category, status: CheckStatus, detail: str
    ) -> Check:
        """Build the check for this scope, carrying the evidence of its calls."""
        return Check(
            requirement=requirement,
            category=category,
            status=status,
            detail=detail,
            evidence=self.evidence(),
        )


def join_names(names: list[str]) -> str:
    """``a, b, c`` for a detail line (``none`` for an empty list)."""
    return ", ".join(names) if names else "none"


def plural(count: int | float, word: str) -> str:
    """``1 node`` / ``2 nodes``: details are read by people."""
    shown = str(count) if isinstance(count, int) else f"{count:,.10g}"
    return f"{shown} {word}" if count == 1 else f"{shown} {word}s"
