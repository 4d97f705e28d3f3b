"""Extra hub tools, prompts and resources named in the config as ``module:function``.

The administrator lists the modules that may be imported (``allowed_modules``); each reference
is checked against that list and imported with :func:`importlib.import_module` when the hub
starts, so a typo or a forbidden module stops the hub with a clear message instead of failing
later. Nothing is ever built from strings with ``exec`` or ``eval``.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable
from typing import Any

from mcp.server import MCPServer
from pydantic import BaseModel, ConfigDict

from secretary_executor.errors import ConfigurationError

_REF = re.compile(
    r"^(?P<module>[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*):(?P<attr>[A-Za-z_][A-Za-z0-9_]*)$"
)


class ResourceExtension(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    uri: str
    function: str


class ExtensionSpec(BaseModel):
    """What the config adds to the hub's MCP surface."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    allowed_modules: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    prompts: tuple[str, ...] = ()
    resources: tuple[ResourceExtension, ...] = ()


def resolve(ref: str, allowed: tuple[str, ...]) -> Callable[..., Any]:
    """The callable named by ``module:function``, if its module is allowed.

    A module is allowed when it is listed, or lies inside a listed package.

    Raises:
        ConfigurationError: malformed reference, module not allowed, import failure, not callable.
    """
    match = _REF.match(ref)
    if match is None:
        raise ConfigurationError(f"extension {ref!r} is not of the form 'package.module:function'")
    module = match["module"]
    if not _inside(module, allowed):
        listed = ", ".join(allowed) or "(none)"
        raise ConfigurationError(
            f"extension {ref!r}: module {module!r} is not in extensions.allowed_modules "
            f"({listed}); an administrator must add it there"
        )
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise ConfigurationError(f"extension {ref!r}: cannot import {module!r}: {exc}") from None
    fn = getattr(mod, match["attr"], None)
    if not callable(fn):
        raise ConfigurationError(
            f"extension {ref!r}: {match['attr']!r} is not a function of {module}"
        )
    # The allow-list names modules, so the object must be one of theirs: a name that a listed
    # module merely imports (``from os import system``) would otherwise expose anything.
    home = getattr(fn, "__module__", None)
    if not inspect.isfunction(fn) or home is None or not _inside(home, allowed):
        raise ConfigurationError(
            f"extension {ref!r}: {match['attr']!r} is defined in {home or 'an unknown module'}, "
            f"not in an allowed module; define the function in {module} itself"
        )
    return fn


def _inside(module: str, allowed: tuple[str, ...]) -> bool:
    return any(module == a or module.startswith(a + ".") for a in allowed)


def install(mcp: MCPServer, spec: ExtensionSpec) -> list[str]:
    """Register every extension on ``mcp``; returns what was added (``tool:name`` ...).

    Raises:
        ConfigurationError: the first bad reference (nothing is half-installed on error).
    """
    tools = [resolve(r, spec.allowed_modules) for r in spec.tools]
    prompts = [resolve(r, spec.allowed_modules) for r in spec.prompts]
    resources = [(r.uri, resolve(r.function, spec.allowed_modules)) for r in spec.resources]
    added = []
    for fn in tools:
        mcp.add_tool(fn)
        added.append(f"tool:{fn.__name__}")
    for fn in prompts:
        mcp.prompt()(fn)
        added.append(f"prompt:{fn.__name__}")
    for uri, fn in resources:
        mcp.resource(uri)(fn)
        added.append(f"resource:{uri}")
    return added
