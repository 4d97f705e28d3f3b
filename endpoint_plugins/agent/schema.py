"""JSON schemas as both APIs accept them, and the structured answers the model must give.

Pydantic puts nested models under ``$defs`` and points at them with ``$ref``. OpenAI accepts
that, but Gemini's function declarations and several self-hosted grammar engines do not, so
every schema sent to a model is made self-contained first (:func:`inline_refs`).
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

_MAX_DEPTH = 32


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` with every local ``$ref`` replaced by its definition.

    Postcondition: no ``$ref``/``$defs``/``definitions`` keys remain, and ``title`` keys are
    dropped (they are noise to a model and some back ends reject them). Recursive models are
    cut at a fixed depth and become ``{"type": "object"}``, so the function always returns.
    """
    defs = {**schema.get("definitions", {}), **schema.get("$defs", {})}

    def walk(node: Any, depth: int) -> Any:
        if isinstance(node, list):
            return [walk(item, depth) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            if depth >= _MAX_DEPTH:
                return {"type": "object"}
            target = defs.get(ref.rsplit("/", 1)[-1], {"type": "object"})
            merged = {**copy.deepcopy(target), **{k: v for k, v in node.items() if k != "$ref"}}
            return walk(merged, depth + 1)
        return {
            key: walk(value, depth)
            for key, value in node.items()
            if key not in ("$defs", "definitions", "title")
            or (key == "title" and isinstance(value, dict))
        }

    return walk(schema, 0)


_SIZE_KEYS = frozenset({"maxLength", "minLength", "maxItems", "minItems"})
"""Size bounds left out of what a model sees: grammar-constrained servers (llama.cpp) unroll
them into one rule per repetition, and a 2000-character bound exceeds their limits. The
pydantic model still enforces them when the answer is validated."""


def without_size_bounds(schema: Any) -> Any:
    """A copy of ``schema`` without length and item-count bounds (see :data:`_SIZE_KEYS`)."""
    if isinstance(schema, list):
        return [without_size_bounds(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: without_size_bounds(value)
        for key, value in schema.items()
        if key not in _SIZE_KEYS or isinstance(value, dict)
    }


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The schema a model is given for a pydantic model's answer.

    Self-contained (see :func:`inline_refs`) and without size bounds (see
    :func:`without_size_bounds`); validate the answer with the pydantic model itself.
    """
    return without_size_bounds(inline_refs(model.model_json_schema()))


class AgentCheck(BaseModel):
    """The agent's judgement of one requirement."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requirement: str = Field(description="the requirement, as listed in the request")
    status: Literal["satisfied", "wait", "unsatisfied", "unknown"] = Field(
        description="satisfied: met now; wait: met after a queue wait; unsatisfied: never "
        "here; unknown: the tools could not tell"
    )
    detail: str = Field(default="", max_length=2000, description="the facts behind the status")


class AgentVerdict(BaseModel):
    """The final answer the agent must give: verdict, reason and one check per requirement."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Literal["READY", "BUSY", "INCOMPATIBLE", "UNKNOWN"] = Field(
        description="READY: every requirement met and capacity free now; BUSY: it can run "
        "after a wait; INCOMPATIBLE: a requirement can never be met here; UNKNOWN: cannot tell"
    )
    reason: str = Field(min_length=1, max_length=2000, description="one or two sentences")
    checks: list[AgentCheck] = Field(default_factory=list, max_length=64)


class SitePick(BaseModel):
    """The answer of agentic selection: one of the offered sites and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    site: str = Field(min_length=1, max_length=200, description="exactly one offered site name")
    reason: str = Field(default="", max_length=2000)
