"""Model back ends: one :class:`ChatBackend` per API family, chosen by :class:`LLMConfig`."""

from __future__ import annotations

from endpoint_plugins.agent.backends.base import ChatBackend
from endpoint_plugins.agent.config import LLMConfig


def make_backend(config: LLMConfig) -> ChatBackend:
    """A new back end for ``config`` (the SDK is imported only for the back end used)."""
    if config.backend == "gemini":
        from endpoint_plugins.agent.backends.gemini_backend import GeminiBackend

        return GeminiBackend(config)
    from endpoint_plugins.agent.backends.openai_backend import OpenAIBackend

    return OpenAIBackend(config)


__all__ = ["ChatBackend", "make_backend"]
