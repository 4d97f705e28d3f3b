"""Injection: every string argument of every tool of every provider, with hostile values.

The prototype spliced tool arguments into shell strings; here a value must never run as a
command, become an option, or read outside what a provider allows. For each discovered
provider and each tool, every string parameter gets each payload in turn (the other parameters
get harmless values), through the same ToolSession the negotiator and agents use. No marker
file may appear, and no answer may contain the contents of /etc/passwd.
"""

from __future__ import annotations

import inspect
import typing
from pathlib import Path
from typing import Any

import pytest

from providers.base import Provider
from providers.registry import discover
from providers.session import ToolSession

PAYLOADS = [
    "x; touch {marker}",
    "$(touch {marker})",
    "`touch {marker}`",
    "x && touch {marker}",
    "x | touch {marker}",
    "x\ntouch {marker}",
    "--output={marker}",
    "-rf",
    "../../../../../../etc/passwd",
    "/etc/passwd",
    "%s%s%s%n",
    "'\"; touch {marker}; echo \"'",
]

_HARMLESS: dict[Any, Any] = {int: 1, float: 1.0, bool: False}


def _is_str(annotation: Any) -> bool:
    if annotation is str:
        return True
    args = typing.get_args(annotation)
    return bool(args) and str in args and all(a in (str, type(None)) for a in args)


def _cases() -> list[tuple[str, type[Provider], str, str]]:
    cases = []
    for name, cls in sorted(discover().classes.items()):
        for tool, spec in cls.tool_specs().items():
            hints = typing.get_type_hints(getattr(cls, tool))
            for param in spec.param_names:
                if _is_str(hints[param]):
                    cases.append((name, cls, tool, param))
    return cases


CASES = _cases()


def _arguments(cls: type[Provider], tool: str, target: str, value: str) -> dict[str, Any] | None:
    fn = getattr(cls, tool)
    hints = typing.get_type_hints(fn)
    args: dict[str, Any] = {}
    for pname, param in inspect.signature(fn).parameters.items():
        if pname == "self":
            continue
        if pname == target:
            args[pname] = value
        elif param.default is not inspect.Parameter.empty:
            continue
        elif _is_str(hints[pname]):
            args[pname] = "x"
        elif hints[pname] in _HARMLESS:
            args[pname] = _HARMLESS[hints[pname]]
        else:
            return None  # a structured argument (a job spec): covered by the dispatch tests
    return args


def test_there_are_string_arguments_to_attack():
    assert len(CASES) >= 5


@pytest.mark.parametrize(
    ("provider", "cls", "tool", "param"), CASES, ids=[f"{c[0]}.{c[2]}.{c[3]}" for c in CASES]
)
def test_hostile_strings_never_run_or_escape(provider, cls, tool, param, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "MARKER"
    instance = cls()
    spec = cls.tool_specs()[tool]
    session = ToolSession([instance], allowed=spec.kind)
    for payload in PAYLOADS:
        args = _arguments(cls, tool, param, payload.format(marker=marker))
        if args is None:
            pytest.skip(f"{provider}.{tool} needs a structured argument")
        evidence = session.call(instance, tool, args)
        assert not marker.exists(), f"{provider}.{tool}({param}={payload!r}) ran a command"
        assert "root:x:0:0" not in str(evidence.result), f"{provider}.{tool} read /etc/passwd"
    assert not Path("MARKER").exists()
