"""The LLM secretary agent: native tool calling over OpenAI-compatible and Gemini back ends.

* :class:`AgentNegotiator` (strategy ``agent``): a model calls the site's READ tools and gives
  a verdict, checked against its own checks and backed by the session's evidence.
* :class:`HybridNegotiator` (strategy ``hybrid``) and :func:`parse_with_llm` (with its cost:
  :func:`read_with_llm`): a model reads the request text into :class:`Requirements`; the
  rules judge.
* :class:`LLMConfig`: the endpoint, from the environment (:meth:`LLMConfig.from_env`).

See docs/agents.md for the configuration, the prompts and the tool schema the model sees.
"""

from __future__ import annotations

from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.agent.errors import AgentBackendError, AgentConfigError, AgentError
from endpoint_plugins.agent.factory import STRATEGIES, make_negotiator
from endpoint_plugins.agent.hybrid import HybridNegotiator, parse_with_llm, read_with_llm
from endpoint_plugins.agent.loop import AgentNegotiator
from endpoint_plugins.agent.schema import AgentCheck, AgentVerdict, SitePick

__all__ = [
    "STRATEGIES",
    "AgentBackendError",
    "AgentCheck",
    "AgentConfigError",
    "AgentError",
    "AgentNegotiator",
    "AgentVerdict",
    "HybridNegotiator",
    "LLMConfig",
    "SitePick",
    "make_negotiator",
    "parse_with_llm",
    "read_with_llm",
]
