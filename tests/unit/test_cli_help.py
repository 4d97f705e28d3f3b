"""Every option and positional argument of both commands has help text, in plain words."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from secretary_executor.cli import resource_ask, secretary


def _actions(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction | argparse._VersionAction):
            yield path, action


@pytest.mark.parametrize(
    ("prog", "parser"), [("resource-ask", resource_ask._parser), ("secretary", secretary._parser)]
)
def test_every_argument_has_help_without_markup(prog: str, parser) -> None:
    missing = [
        f"{path} {action.dest}"
        for path, action in _actions(parser(), prog)
        if not action.help or "`" in action.help
    ]
    assert missing == []
