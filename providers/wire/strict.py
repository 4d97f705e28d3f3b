"""Structured input from people and agents: unknown fields are an error, never dropped.

Wire models ignore unknown fields so that a hub and a site of different releases still talk.
Requirements that a *person* or an *agent* writes are different: ``{"name": "python",
"version": ">=99"}`` (the field is ``constraints``) would otherwise lose its version silently and
make a site READY for a job it cannot run. Every door that takes structured requirements
(MCP, Parsl, Python) validates them with :func:`validate_user_input`, which names the unknown
field and the valid ones.
"""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


class UnknownFieldError(ValueError):
    """A field the model does not have; the message says where and which fields exist."""


def validate_user_input(model: type[M], data: Any) -> M:
    """``model.model_validate(data)`` after refusing unknown fields at any depth.

    Raises:
        UnknownFieldError: e.g. "unknown field 'software[0].version'; valid fields there:
            constraints, name, variants".
        pydantic.ValidationError: the data does not validate for another reason.
    """
    if not isinstance(data, model):
        _check(model, data, "")
    return model.model_validate(data)


def _check(model: type[BaseModel], data: Any, path: str) -> None:
    if not isinstance(data, dict):
        return
    fields = model.model_fields
    for key, value in data.items():
        where = f"{path}.{key}" if path else str(key)
        if key not in fields:
            valid = ", ".join(sorted(fields))
            raise UnknownFieldError(f"unknown field {where!r}; valid fields there: {valid}")
        _check_value(fields[key].annotation, value, where)


def _check_value(annotation: Any, value: Any, path: str) -> None:
    """Recurse into the models an annotation holds: ``Model``, ``Model | None``,
    ``tuple[Model, ...]``, ``list[Model]``."""
    for model in _models_in(annotation):
        if isinstance(value, dict):
            _check(model, value, path)
        elif isinstance(value, list | tuple):
            for i, item in enumerate(value):
                _check_value(annotation, item, f"{path}[{i}]")
            return


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, tuple, list):
        found: list[type[BaseModel]] = []
        for arg in typing.get_args(annotation):
            if arg is not Ellipsis:
                found.extend(_models_in(arg))
        return found
    return []
