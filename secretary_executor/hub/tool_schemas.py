"""Typed parameters for the hub's tools: JSON Schemas from the wire models, with descriptions.

An agent sees the full shape of ``requirements`` and ``policy`` (every field, its type and its
description) in the tool's input schema, instead of an untyped object and a pointer to a CLI it
cannot run. The parameters stay plain JSON objects for the SDK, and the hub validates them
itself (``validate_user_input``) so an unknown field is refused with the valid names.

The model's definitions are written out in place (the wire models hold no recursion), so the
parameter's schema holds no ``$ref`` and the tool's input schema is valid and self-contained.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, WithJsonSchema

from providers.wire import Policy, Requirements
from secretary_executor.hub.views import DETAIL_LEVELS, Detail


def _inline(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    if depth > 32:
        raise ValueError("a wire model refers to itself; its schema cannot be written out")
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = _inline(defs[ref.removeprefix("#/$defs/")], defs, depth + 1)
            rest = {k: _inline(v, defs, depth) for k, v in node.items() if k != "$ref"}
            return {**target, **rest}
        return {k: _inline(v, defs, depth) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs, depth) for v in node]
    return node


def _object_schema(model: type[BaseModel], description: str) -> dict[str, Any]:
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    schema.pop("title", None)
    body = _inline(schema, defs)
    return {"anyOf": [body, {"type": "null"}], "description": description}


RequirementsArg = Annotated[
    dict[str, Any] | None,
    WithJsonSchema(
        _object_schema(
            Requirements,
            "What the job needs, as structured fields (wins over `text`). Unknown fields are "
            "refused with the valid names.",
        )
    ),
    Field(default=None),
]
"""The ``requirements`` parameter of ``negotiate_job``."""

PolicyArg = Annotated[
    dict[str, Any] | None,
    WithJsonSchema(
        _object_schema(
            Policy,
            "How to choose among the proposals: `algorithm` (see list_selection_algorithms), "
            "fallbacks and limits.",
        )
    ),
    Field(default=None),
]
"""The ``policy`` parameter of ``negotiate_job``."""

RequestIdArg = Annotated[str, Field(description="`request_id` from negotiate_job's result.")]
AlgorithmArg = Annotated[
    str | None,
    Field(
        default=None,
        description="A selection algorithm (list_selection_algorithms); "
        "default: the request's policy.",
    ),
]
JobIdArg = Annotated[str, Field(description="`job_id` from dispatch_job's receipt.")]


def _detail_schema(description: str) -> dict[str, Any]:
    return {
        "type": "string",
        "enum": list(DETAIL_LEVELS),
        "default": Detail.SUMMARY.value,
        "description": description,
    }


# A ``detail`` parameter is a plain string for the SDK, shown to agents as an enum, so that the
# hub itself refuses an unknown level with an invalid-params error naming the valid ones (see
# :func:`~secretary_executor.hub.views.detail_level`) instead of a generic validation failure.
DetailArg = Annotated[
    str,
    WithJsonSchema(
        _detail_schema(
            "How much to return: `summary` (per site the verdict, a short reason, start, cost, "
            "free nodes), `checks` (plus each requirement's check) or `evidence` (everything, "
            "with the tool calls behind each check)."
        )
    ),
    Field(default=Detail.SUMMARY.value),
]
"""The ``detail`` parameter of ``negotiate_job`` and ``select_proposal``."""

SiteDetailArg = Annotated[
    str,
    WithJsonSchema(
        _detail_schema(
            "How much to return: `summary` (the providers found and the tools' names), `checks` "
            "(plus each probe's facts and each tool's description) or `evidence` (the whole "
            "manifest, with tool schemas)."
        )
    ),
    Field(default=Detail.SUMMARY.value),
]
"""The ``detail`` parameter of ``describe_site``."""
