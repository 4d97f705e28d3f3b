"""The neutral conversation format every back end translates to and from.

The loop speaks only these types, so adding a back end means writing one translation, and a
test can check the loop without any SDK. They are frozen pydantic models: a turn recorded in a
proposal or a log cannot be changed afterwards.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolCall(_Frozen):
    """One function call the model asked for. ``arguments`` is already decoded JSON.

    ``arguments_error`` is set (and ``arguments`` empty) when the model sent arguments that
    are not a JSON object; the loop reports that back instead of calling anything.
    """

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    arguments_error: str | None = None


class Message(_Frozen):
    """One entry of the conversation.

    ``role="tool"`` carries a tool result: ``tool_call_id`` and ``name`` say which call it
    answers (OpenAI matches by id, Gemini by name).
    """

    role: Literal["system", "user", "assistant", "tool"]
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def size(self) -> int:
        """Characters this message costs in the prompt (for the history budget)."""
        calls = sum(len(c.name) + len(str(c.arguments)) for c in self.tool_calls)
        return len(self.content) + calls


class FunctionSpec(_Frozen):
    """A function the model may call: name, description, JSON schema of the arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


class Usage(_Frozen):
    """Tokens the API reported for one call (0 when it reported none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
        )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class ModelTurn(_Frozen):
    """What the model answered in one call."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = Usage()
    finish_reason: str = ""
    """The API's own finish reason, as sent (``stop``, ``tool_calls``, ``STOP`` ...)."""

    def as_message(self) -> Message:
        """The turn as an assistant message, to append to the history."""
        return Message(role="assistant", content=self.text, tool_calls=self.tool_calls)


ToolChoice = Literal["auto", "required", "none"] | str
"""``auto``, ``required`` (some function), ``none``, or the name of one function to force."""
