"""The one interface a model back end implements: one chat call in the neutral format.

A back end does not loop, retry or call tools: it translates a conversation to its API, makes
exactly one call, and translates the answer back. Everything that can go wrong in that call
becomes an :class:`AgentBackendError` with ``transient`` set, so the loop can answer UNKNOWN
with the reason instead of letting an SDK exception reach the hub.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.agent.errors import AgentBackendError
from endpoint_plugins.agent.messages import FunctionSpec, Message, ModelTurn, ToolCall, ToolChoice

TRANSIENT_STATUS = frozenset({408, 409, 425, 429})
"""HTTP statuses worth retrying later (plus every 5xx)."""


def is_transient_status(status: int | None) -> bool:
    """True for HTTP statuses that may pass on a retry: 408, 409, 425, 429 and 5xx."""
    return status is not None and (status in TRANSIENT_STATUS or status >= 500)


def decode_arguments(call_id: str, name: str, raw: Any) -> ToolCall:
    """A :class:`ToolCall` from arguments sent as a JSON string or an object.

    Never raises: arguments that are not a JSON object set ``arguments_error`` instead, which
    the loop reports back to the model as a mistake to repair.
    """
    if raw is None or raw == "":
        return ToolCall(id=call_id, name=name)
    if isinstance(raw, dict):
        return ToolCall(id=call_id, name=name, arguments=dict(raw))
    try:
        value = json.loads(raw, strict=False) if isinstance(raw, str | bytes) else raw
    except json.JSONDecodeError as exc:
        return ToolCall(
            id=call_id, name=name, arguments_error=f"arguments are not valid JSON: {exc.msg}"
        )
    if not isinstance(value, dict):
        return ToolCall(
            id=call_id,
            name=name,
            arguments_error=f"arguments must be a JSON object, got {type(value).__name__}",
        )
    return ToolCall(id=call_id, name=name, arguments=value)


class ChatBackend(ABC):
    """One model endpoint. Made from an :class:`LLMConfig`; holds no conversation state."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(model={self.config.model!r}, base_url={self.config.base_url!r})"
        )

    @abstractmethod
    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[FunctionSpec] = (),
        *,
        tool_choice: ToolChoice = "auto",
        response_schema: dict[str, Any] | None = None,
    ) -> ModelTurn:
        """Make one call and return the model's turn.

        Args:
            messages: the conversation; the first may be a system message.
            tools: functions the model may call.
            tool_choice: ``auto``, ``required``, ``none`` or the name of one function to force.
            response_schema: when given (and no tools), ask for a JSON answer of this schema.

        Raises:
            AgentBackendError: the call failed or its answer cannot be read; ``transient``
                says whether a retry may succeed. The message never contains the API key.
        """

    def close(self) -> None:
        """Release the HTTP client. Safe to call twice."""
        return None


def backend_error(
    exc: BaseException, config: LLMConfig, status: int | None = None
) -> AgentBackendError:
    """Turn any SDK exception into an :class:`AgentBackendError`, scrubbing the key.

    Transient: HTTP 408/409/425/429/5xx, timeouts and connection errors (recognised by the
    exception's class name, since each SDK has its own hierarchy).
    """
    kind = type(exc).__name__
    text = str(exc).replace("\n", " ")
    secret = config.api_key.get_secret_value()
    if secret:
        text = text.replace(secret, "***")
    text = text[:300]
    network = any(word in kind for word in ("Timeout", "Connect", "Network", "Transport"))
    transient = network or is_transient_status(status)
    where = f"{config.backend} model {config.model!r}"
    what = f"HTTP {status}" if status is not None else kind
    return AgentBackendError(
        f"{where}: {what}: {text}" if text else f"{where}: {what}",
        transient=transient,
        status=status,
    )
