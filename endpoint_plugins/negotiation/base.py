"""The negotiator interface: requirements in, a proposal out, every tool call recorded.

A negotiator never talks to the machine directly: it calls provider tools through a
:class:`providers.ToolSession` opened for READ tools only, so every fact behind a verdict is
evidence in the proposal, and nothing a negotiator does can submit or cancel work.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from providers.session import ToolSession
from providers.state import Prices
from providers.wire import Proposal, Requirements
from providers.wire.common import WireModel


class NegotiationContext(WireModel):
    """What a negotiator knows about the site besides its providers."""

    site: str
    request_id: str = ""
    prices: Prices = Prices()
    default_walltime_s: int = 3600
    """Walltime assumed for cost estimates when the request gives none."""
    exposed_partitions: tuple[str, ...] | None = None
    """Only these partitions may be proposed (None: all)."""


class Negotiator(ABC):
    """Judges one request at one site.

    Postcondition of :meth:`evaluate`: the proposal has exactly one check per requirement (in
    the order of the requirements), each with the evidence of the tool calls behind it, and
    ``site``/``request_id`` taken from the context. It never raises for a site problem: a tool
    that fails gives an UNKNOWN check, not an exception.
    """

    name: ClassVar[str]

    @abstractmethod
    def evaluate(
        self, requirements: Requirements, session: ToolSession, context: NegotiationContext
    ) -> Proposal:
        """Return the site's proposal for ``requirements``."""
