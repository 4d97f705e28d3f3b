"""Google's Gemini API through the ``google-genai`` client.

Functions go out as ``FunctionDeclaration(parameters_json_schema=...)`` with automatic
function calling disabled (the loop, not the SDK, runs tools, under the session's class
rule). The system prompt becomes ``system_instruction``; assistant turns are ``model``
contents holding ``function_call`` parts; tool results go back as ``function_response`` parts
in a ``user`` content, matched by function name (and id when the API sent one). The client's
own retries are off: the loop decides what a failure means.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from google import genai
from google.genai import errors as genai_errors
from google.genai import types

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

LOCAL_ID_PREFIX = "local-call-"
"""Ids we make up for calls the API sent without one; never sent back to the API."""


def _api_id(call_id: str | None) -> str | None:
    return None if not call_id or call_id.startswith(LOCAL_ID_PREFIX) else call_id


def _response_payload(content: str) -> dict[str, Any]:
    """A tool result as the object Gemini expects in a function response."""
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        return {"result": content}
    return value if isinstance(value, dict) else {"result": value}


def to_gemini_contents(messages: Sequence[Message]) -> tuple[str | None, list[types.Content]]:
    """The system instruction and the contents for a conversation.

    Consecutive tool results are grouped into one ``user`` content, as the API expects the
    answers to one model turn's function calls together.
    """
    system: list[str] = []
    contents: list[types.Content] = []
    for message in messages:
        if message.role == "system":
            system.append(message.content)
            continue
        if message.role == "tool":
            part = types.Part(
                function_response=types.FunctionResponse(
                    id=_api_id(message.tool_call_id),
                    name=message.name or "",
                    response=_response_payload(message.content),
                )
            )
            last = contents[-1] if contents else None
            if (
                last is not None
                and last.role == "user"
                and last.parts
                and all(p.function_response is not None for p in last.parts)
            ):
                last.parts.append(part)
            else:
                contents.append(types.Content(role="user", parts=[part]))
            continue
        parts: list[types.Part] = []
        if message.content:
            parts.append(types.Part(text=message.content))
        for call in message.tool_calls:
            parts.append(
                types.Part(
                    function_call=types.FunctionCall(
                        id=_api_id(call.id), name=call.name, args=call.arguments
                    )
                )
            )
        role = "model" if message.role == "assistant" else "user"
        contents.append(types.Content(role=role, parts=parts or [types.Part(text="")]))
    return ("\n\n".join(system) or None), contents


def _tool_config(choice: ToolChoice) -> types.ToolConfig:
    if choice == "auto":
        cfg = types.FunctionCallingConfig(mode=types.FunctionCallingConfigMode.AUTO)
    elif choice == "none":
        cfg = types.FunctionCallingConfig(mode=types.FunctionCallingConfigMode.NONE)
    elif choice == "required":
        cfg = types.FunctionCallingConfig(mode=types.FunctionCallingConfigMode.ANY)
    else:
        cfg = types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=[choice]
        )
    return types.ToolConfig(function_calling_config=cfg)


class GeminiBackend(ChatBackend):
    """``generateContent`` through the official ``google-genai`` client."""

    def __init__(self, config: LLMConfig, *, client_args: dict[str, Any] | None = None) -> None:
        super().__init__(config)
        options = types.HttpOptions(
            base_url=config.base_url,
            timeout=int(config.timeout_s * 1000),
            retry_options=types.HttpRetryOptions(attempts=1),
            client_args=client_args,
        )
        self._client = genai.Client(api_key=config.api_key.get_secret_value(), http_options=options)

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[FunctionSpec] = (),
        *,
        tool_choice: ToolChoice = "auto",
        response_schema: dict[str, Any] | None = None,
    ) -> ModelTurn:
        """One ``generateContent`` call (see :meth:`ChatBackend.complete`)."""
        system, contents = to_gemini_contents(messages)
        config = types.GenerateContentConfig(
            system_instruction=system,
            temperature=self.config.temperature,
            max_output_tokens=self.config.max_output_tokens,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )
        if tools:
            config.tools = [
                types.Tool(
                    function_declarations=[
                        types.FunctionDeclaration(
                            name=t.name,
                            description=t.description,
                            parameters_json_schema=t.parameters,
                        )
                        for t in tools
                    ]
                )
            ]
            config.tool_config = _tool_config(tool_choice)
        elif response_schema is not None:
            config.response_mime_type = "application/json"
            config.response_json_schema = response_schema
        try:
            response = self._client.models.generate_content(
                model=self.config.model, contents=contents, config=config
            )
        except genai_errors.APIError as exc:
            raise backend_error(exc, self.config, exc.code) from None
        except Exception as exc:  # noqa: BLE001 - every SDK failure becomes one typed error
            raise backend_error(exc, self.config) from None
        return self._turn(response)

    def _turn(self, response: types.GenerateContentResponse) -> ModelTurn:
        try:
            candidate = (response.candidates or [None])[0]
            if candidate is None:
                blocked = response.prompt_feedback
                raise ValueError(f"no candidate in the reply (prompt feedback: {blocked})")
            texts: list[str] = []
            calls: list[ToolCall] = []
            parts = candidate.content.parts if candidate.content else None
            for i, part in enumerate(parts or ()):
                if part.function_call is not None:
                    fc = part.function_call
                    calls.append(
                        decode_arguments(fc.id or f"{LOCAL_ID_PREFIX}{i}", fc.name or "", fc.args)
                    )
                elif part.text:
                    texts.append(part.text)
            meta = response.usage_metadata
            return ModelTurn(
                text="".join(texts),
                tool_calls=tuple(calls),
                usage=Usage(
                    prompt_tokens=(meta.prompt_token_count or 0) if meta else 0,
                    completion_tokens=(meta.candidates_token_count or 0) if meta else 0,
                ),
                finish_reason=str(candidate.finish_reason or ""),
            )
        except (AttributeError, IndexError, TypeError, ValueError) as exc:
            raise AgentBackendError(
                f"gemini model {self.config.model!r}: the reply cannot be read "
                f"({type(exc).__name__}: {exc})"
            ) from None

    def close(self) -> None:
        """Close the SDK's HTTP client."""
        self._client.close()
