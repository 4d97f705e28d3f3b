"""Any OpenAI-compatible chat-completions API: OpenAI itself, vLLM, llama.cpp's server.

Functions go out as ``tools=[{"type": "function", "function": {...}}]`` with self-contained
schemas; tool results come back as ``role="tool"`` messages matched by ``tool_call_id``. The
SDK's own retries are off (``max_retries=0``): the loop decides what a failure means.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import openai

from endpoint_plugins.agent.backends.base import ChatBackend, backend_error, decode_arguments
from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.agent.errors import AgentBackendError
from endpoint_plugins.agent.messages import (
    FunctionSpec,
    Message,
    ModelTurn,
    ToolCall,
    ToolChoice,
    Usage,
)


def to_openai_message(message: Message) -> dict[str, Any]:
    """One neutral message in the chat-completions format."""
    if message.role == "tool":
        return {
            "role": "tool",
            "tool_call_id": message.tool_call_id or "",
            "content": message.content,
        }
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
                for call in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}


def to_openai_tool_choice(choice: ToolChoice) -> Any:
    """``auto``/``required``/``none`` as is; a function name as the forced-function object."""
    if choice in ("auto", "required", "none"):
        return choice
    return {"type": "function", "function": {"name": choice}}


class OpenAIBackend(ChatBackend):
    """Chat completions through the official ``openai`` client (any compatible server)."""

    def __init__(self, config: LLMConfig, *, http_client: Any = None) -> None:
        super().__init__(config)
        self._client = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key.get_secret_value(),
            timeout=config.timeout_s,
            max_retries=0,
            http_client=http_client,
        )

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[FunctionSpec] = (),
        *,
        tool_choice: ToolChoice = "auto",
        response_schema: dict[str, Any] | None = None,
    ) -> ModelTurn:
        """One chat-completions call (see :meth:`ChatBackend.complete`)."""
        kwargs: dict[str, Any] = {
            "model": self.config.model,
            "messages": [to_openai_message(m) for m in messages],
            "temperature": self.config.temperature,
        }
        if self.config.max_output_tokens is not None:
            kwargs["max_tokens"] = self.config.max_output_tokens
        if tools:
            kwargs["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.parameters,
                    },
                }
                for t in tools
            ]
            kwargs["tool_choice"] = to_openai_tool_choice(tool_choice)
        elif response_schema is not None:
            if self.config.json_mode == "json_object":
                kwargs["response_format"] = {"type": "json_object", "schema": response_schema}
            else:
                kwargs["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": "answer", "schema": response_schema},
                }
        try:
            response = self._client.chat.completions.create(**kwargs)
        except openai.APIStatusError as exc:
            raise backend_error(exc, self.config, exc.status_code) from None
        except Exception as exc:  # noqa: BLE001 - every SDK failure becomes one typed error
            raise backend_error(exc, self.config) from None
        return self._turn(response)

    def _turn(self, response: Any) -> ModelTurn:
        try:
            choice = response.choices[0]
            message = choice.message
            calls: list[ToolCall] = []
            for i, call in enumerate(message.tool_calls or ()):
                fn = call.function
                calls.append(decode_arguments(call.id or f"call_{i}", fn.name, fn.arguments))
            usage = response.usage
            return ModelTurn(
                text=message.content or "",
                tool_calls=tuple(calls),
                usage=Usage(
                    prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
                    completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
                ),
                finish_reason=str(choice.finish_reason or ""),
            )
        except (AttributeError, IndexError, TypeError, ValueError) as exc:
            raise AgentBackendError(
                f"openai model {self.config.model!r}: the reply is not a chat completion "
                f"({type(exc).__name__}: {exc})"
            ) from None

    def close(self) -> None:
        """Close the SDK's HTTP client."""
        self._client.close()
