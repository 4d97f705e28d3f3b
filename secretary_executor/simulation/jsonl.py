"""JSON-lines files of the simulation (results, prompts, decisions): one object per line,
validated on the way back in so a damaged file names its bad line instead of failing later."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from secretary_executor.errors import ConfigurationError

T = TypeVar("T")


def write_lines(path: Path, lines: Iterable[str]) -> Path:
    """Each JSON text on its own line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line + "\n")
    return path


def read_lines(path: Path, parse: Callable[[str], T], what: str) -> list[T]:
    """Every non-empty line of ``path`` through ``parse`` (a pydantic validator).

    Raises:
        ConfigurationError: a line that is not a ``what`` (says which line).
    """
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rows.append(parse(line))
            except ValidationError as exc:
                raise ConfigurationError(
                    f"{path}:{n}: not a {what} ({exc.errors()[0]['msg']})"
                ) from None
    return rows
