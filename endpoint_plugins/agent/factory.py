"""Negotiators by strategy name, with the model configuration they need.

The Secretary builds its negotiator from ``SiteConfig.strategy``. ``rules`` needs nothing;
``agent`` and ``hybrid`` need an :class:`LLMConfig`, taken from the environment unless one is
given, so a site whose administrator chose an LLM strategy without configuring a model fails
at start-up with a clear message instead of answering UNKNOWN to every request.
"""

from __future__ import annotations

from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.agent.errors import AgentConfigError
from endpoint_plugins.agent.hybrid import HybridNegotiator
from endpoint_plugins.agent.loop import AgentNegotiator
from endpoint_plugins.negotiation.base import Negotiator
from endpoint_plugins.negotiation.rules import RulesNegotiator

STRATEGIES: tuple[str, ...] = ("rules", "agent", "hybrid")
"""Every negotiation strategy name, the default first."""


def make_negotiator(strategy: str, config: LLMConfig | None = None) -> Negotiator:
    """A new negotiator for ``strategy``.

    Args:
        strategy: one of :data:`STRATEGIES`.
        config: the model for ``agent``/``hybrid``; None reads :meth:`LLMConfig.from_env`.

    Raises:
        AgentConfigError: an unknown strategy, or an LLM strategy with no model configured;
            the message says what to set.
    """
    if strategy == "rules":
        return RulesNegotiator()
    if strategy not in STRATEGIES:
        raise AgentConfigError(
            f"unknown negotiation strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}"
        )
    config = config if config is not None else LLMConfig.from_env()
    if config is None:
        raise AgentConfigError(
            f"strategy {strategy!r} needs a language model: set SECRETARY_LLM_MODEL (and "
            "SECRETARY_LLM_BASE_URL for a local server; see docs/agents.md) or use strategy 'rules'"
        )
    if strategy == "agent":
        return AgentNegotiator(config)
    return HybridNegotiator(config)
