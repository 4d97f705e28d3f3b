"""How the site (or the hub) reaches a language model: back end, model, endpoint and key.

Configuration comes from the environment so that the same code runs against a paid API, a
self-hosted OpenAI-compatible server (vLLM, llama.cpp) or nothing at all. The key is a
``SecretStr``: it never appears in ``repr``, logs, JSON dumps or proposals.

Variables (see docs/agents.md):

* ``SECRETARY_LLM_MODEL``: the model name; setting it (or the base URL) turns the agent on.
* ``SECRETARY_LLM_BACKEND``: ``openai`` (default; any OpenAI-compatible server) or ``gemini``.
* ``SECRETARY_LLM_BASE_URL``: the API root, e.g. ``http://127.0.0.1:8080/v1``.
* ``SECRETARY_LLM_API_KEY``: the key; else ``OPENAI_API_KEY`` (openai) or ``GEMINI_API_KEY`` /
  ``GOOGLE_API_KEY`` (gemini).
* ``SECRETARY_LLM_TIMEOUT_S``, ``SECRETARY_LLM_MAX_LOOPS``, ``SECRETARY_LLM_TEMPERATURE``,
  ``SECRETARY_LLM_JSON_MODE`` (``json_schema`` or ``json_object``, see :attr:`LLMConfig.json_mode`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from endpoint_plugins.agent.errors import AgentConfigError
from providers.errors import validation_message

Backend = Literal["openai", "gemini"]

ENV_BACKEND = "SECRETARY_LLM_BACKEND"
ENV_MODEL = "SECRETARY_LLM_MODEL"
ENV_BASE_URL = "SECRETARY_LLM_BASE_URL"
ENV_API_KEY = "SECRETARY_LLM_API_KEY"
ENV_TIMEOUT = "SECRETARY_LLM_TIMEOUT_S"
ENV_MAX_LOOPS = "SECRETARY_LLM_MAX_LOOPS"
ENV_TEMPERATURE = "SECRETARY_LLM_TEMPERATURE"
ENV_JSON_MODE = "SECRETARY_LLM_JSON_MODE"

_KEY_FALLBACKS: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}
_FIELD_VARS = {
    "backend": ENV_BACKEND,
    "model": ENV_MODEL,
    "timeout_s": ENV_TIMEOUT,
    "max_loops": ENV_MAX_LOOPS,
    "temperature": ENV_TEMPERATURE,
    "json_mode": ENV_JSON_MODE,
}
_LOCAL_KEY = "not-needed"
"""Sent to a self-hosted server that checks no key (the SDKs refuse an empty one)."""


class LLMConfig(BaseModel):
    """One model endpoint and the agent's limits. Frozen: shared safely between requests."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    backend: Backend = "openai"
    model: str = Field(min_length=1, max_length=200)
    base_url: str | None = None
    """API root; None uses the SDK's default (the vendor's hosted API)."""
    api_key: SecretStr = SecretStr(_LOCAL_KEY)
    timeout_s: float = Field(default=60.0, gt=0, le=3600)
    """Per API call; the whole negotiation is bounded by ``max_loops`` calls."""
    max_loops: int = Field(default=10, ge=1, le=100)
    """Model calls per negotiation before the verdict becomes UNKNOWN (10, as in the paper)."""
    tool_output_budget_chars: int = Field(default=4000, ge=200)
    """A tool result longer than this is cut, with a note saying how much was dropped."""
    history_budget_chars: int = Field(default=24_000, ge=2000)
    """The conversation sent each turn is kept under this by dropping the oldest turns."""
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_output_tokens: int | None = Field(default=None, ge=16, le=1_000_000)
    """Cap on the tokens of one answer (None: the server's default). Bounds the time a small
    local model can spend on a reply; a requirements answer needs a few hundred."""
    json_mode: Literal["json_schema", "json_object"] = "json_schema"
    """How an OpenAI-compatible server is asked for JSON of a schema: ``json_schema`` (OpenAI,
    vLLM) or ``json_object`` with a ``schema`` key (llama.cpp's Python server)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig | None:
        """The configuration in the environment, or None when no model is configured.

        A model counts as configured when ``SECRETARY_LLM_MODEL`` or ``SECRETARY_LLM_BASE_URL``
        is set; a vendor key alone (``OPENAI_API_KEY``) does not turn the agent on.

        Raises:
            AgentConfigError: a half configuration (a base URL without a model, an unknown
                back end, a number that is not a number); the message names the variable.
        """
        env = os.environ if environ is None else environ
        model = env.get(ENV_MODEL, "").strip()
        base_url = env.get(ENV_BASE_URL, "").strip() or None
        if not model and not base_url:
            return None
        if not model:
            raise AgentConfigError(
                f"{ENV_BASE_URL} is set but {ENV_MODEL} is not: set the model name too, "
                f"e.g. {ENV_MODEL}=gpt-4o-mini"
            )
        backend = env.get(ENV_BACKEND, "openai").strip().lower() or "openai"
        if backend not in _KEY_FALLBACKS:
            raise AgentConfigError(
                f"{ENV_BACKEND}={backend!r} is not a back end; use 'openai' (any "
                "OpenAI-compatible server) or 'gemini'"
            )
        key = env.get(ENV_API_KEY, "").strip()
        for name in _KEY_FALLBACKS[backend]:
            key = key or env.get(name, "").strip()
        if not key and base_url is None:
            wanted = " or ".join((ENV_API_KEY, *_KEY_FALLBACKS[backend]))
            raise AgentConfigError(
                f"{ENV_MODEL} is set for the hosted {backend} API but no key is: set {wanted}, "
                f"or point {ENV_BASE_URL} at a local server"
            )
        fields: dict[str, object] = {
            "backend": backend,
            "model": model,
            "base_url": base_url,
            "api_key": SecretStr(key or _LOCAL_KEY),
        }
        for var, field in (
            (ENV_TIMEOUT, "timeout_s"),
            (ENV_MAX_LOOPS, "max_loops"),
            (ENV_TEMPERATURE, "temperature"),
            (ENV_JSON_MODE, "json_mode"),
        ):
            if env.get(var, "").strip():
                fields[field] = env[var].strip()
        try:
            return cls.model_validate(fields)
        except ValidationError as exc:
            field = str(exc.errors()[0]["loc"][0]) if exc.errors()[0]["loc"] else ""
            var = _FIELD_VARS.get(field, field)
            raise AgentConfigError(
                f"LLM configuration: {validation_message(exc, prefix='').replace(field, var, 1)}"
            ) from None
