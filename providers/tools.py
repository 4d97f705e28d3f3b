"""Tool decorators and manifests.

A *tool* is a provider method that an agent, the rules engine or an MCP client may call. Two
classes exist and are enforced at call time (see :mod:`providers.session`):

* ``@secretary_tool``: read-only; offered during negotiation.
* ``@dispatch_tool``: may change the site (submit, cancel); offered only during dispatch.

The decorators register the function and return it unchanged. The manifest (name, description,
JSON schema of the parameters and of the result) is derived once from the signature and the
Google-style docstring, so one manifest serves the rules engine, an LLM and MCP.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from providers.wire.common import WireModel

F = TypeVar("F", bound=Callable[..., Any])

_TOOL_ATTR = "__secretary_tool_kind__"
_TOOL_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,47}\Z")


class ToolKind(StrEnum):
    """The class of a tool, enforced when it is called."""

    READ = "read"
    """Read-only: may be called during negotiation."""
    DISPATCH = "dispatch"
    """Changes the site (submit, cancel): only during dispatch."""


def _mark(kind: ToolKind, fn: F | None) -> Any:
    def register(func: F) -> F:
        if not callable(func):
            raise TypeError(f"@{kind.value} tool decorator applied to a non-callable: {func!r}")
        if not _TOOL_NAME_RE.match(func.__name__):
            raise TypeError(
                f"tool name {func.__name__!r} must be lower_snake_case, at most 48 characters"
            )
        if not inspect.getdoc(func):
            raise TypeError(
                f"tool {func.__qualname__} has no docstring: agents choose tools by description"
            )
        setattr(func, _TOOL_ATTR, kind)
        return func

    if fn is None:
        return register
    return register(fn)


def secretary_tool(fn: F | None = None) -> Any:
    """Mark a provider method as a read-only tool (``@secretary_tool`` or ``@secretary_tool()``)."""
    return _mark(ToolKind.READ, fn)


def dispatch_tool(fn: F | None = None) -> Any:
    """Mark a provider method as a dispatch tool (``@dispatch_tool`` or ``@dispatch_tool()``)."""
    return _mark(ToolKind.DISPATCH, fn)


def tool_kind(fn: Any) -> ToolKind | None:
    """The class a function was registered with, or None for a plain method."""
    return getattr(fn, _TOOL_ATTR, None)


class ToolManifest(WireModel):
    """What an agent sees of one tool."""

    name: str
    """Qualified name, ``<provider>__<tool>``, unique within a site."""
    provider: str
    tool: str
    kind: ToolKind
    description: str
    parameters: dict[str, Any]
    """JSON schema (object) of the arguments."""
    returns: dict[str, Any] = {}
    """JSON schema of the result."""


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the provider class knows it: its function and the validator of its arguments."""

    tool: str
    kind: ToolKind
    description: str
    args_model: type[BaseModel]
    returns: TypeAdapter[Any]
    param_names: tuple[str, ...] = field(default=())

    def manifest(self, provider: str) -> ToolManifest:
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        try:
            returns = self.returns.json_schema()
        except Exception:  # noqa: BLE001 - an exotic return type still gets a usable manifest
            returns = {}
        return ToolManifest(
            name=qualified_name(provider, self.tool),
            provider=provider,
            tool=self.tool,
            kind=self.kind,
            description=self.description,
            parameters=schema,
            returns=returns,
        )


def qualified_name(provider: str, tool: str) -> str:
    """The site-wide name of a provider's tool (valid for OpenAI, Gemini and MCP)."""
    return f"{provider.replace('.', '-')}__{tool}"


_SECTION_HEADER = re.compile(r"^([A-Z][A-Za-z ]*):\s*\Z")
_ARG_LINE = re.compile(r"^(\w+)(?:\s*\([^)]*\))?:\s*(.*)\Z")
_ARG_SECTIONS = {"Args", "Arguments", "Parameters"}


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its description and per-argument descriptions.

    The description is everything before the first section header (``Args:``, ``Returns:``,
    ``Raises:`` ...); argument descriptions may continue on more-indented lines.
    """
    summary: list[str] = []
    args: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    args_indent = 0
    for line in doc.splitlines():
        header = _SECTION_HEADER.match(line)
        if header and not line[:1].isspace():
            section, current = header.group(1), None
            continue
        if section is None:
            summary.append(line)
            continue
        if section not in _ARG_SECTIONS or not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        match = _ARG_LINE.match(line.strip())
        if match and (current is None or indent <= args_indent):
            current, args_indent = match.group(1), indent
            args[current] = match.group(2).strip()
        elif current is not None:
            args[current] = f"{args[current]} {line.strip()}".strip()
    return "\n".join(summary).strip(), args


def build_spec(fn: Callable[..., Any], kind: ToolKind) -> ToolSpec:
    """Derive a tool's argument model and result adapter from its signature and docstring."""
    sig = inspect.signature(fn)
    hints = typing.get_type_hints(fn)
    description, arg_docs = parse_docstring(inspect.getdoc(fn) or "")
    fields: dict[str, Any] = {}
    for pname, param in sig.parameters.items():
        if pname == "self":
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"tool {fn.__qualname__} may not take *args or **kwargs")
        annotation = hints.get(pname)
        if annotation is None:
            raise TypeError(f"tool {fn.__qualname__}: parameter {pname!r} has no type hint")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (annotation, Field(default, description=arg_docs.get(pname)))
    args_model = create_model(  # type: ignore[call-overload]
        f"{fn.__name__}_arguments",
        __config__=ConfigDict(extra="forbid", frozen=True),
        **fields,
    )
    returns = TypeAdapter(hints.get("return", Any))
    return ToolSpec(
        tool=fn.__name__,
        kind=kind,
        description=description,
        args_model=args_model,
        returns=returns,
        param_names=tuple(fields),
    )
