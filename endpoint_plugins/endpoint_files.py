"""Careful edits of an endpoint's files: one report type, one writer, one list-block rewrite.

An administrator's endpoint files carry comments, ordering and, for templates, Jinja that a
YAML round trip would destroy, and are often private (0600). Every edit made by
``secretary endpoint install``/``register`` is therefore textual and goes through
:func:`write_keeping_mode`, which never widens a file's mode and never writes identical text.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from endpoint_plugins.errors import SiteError


class EndpointInstallError(SiteError):
    """The endpoint cannot be set up as asked; the message says what to do."""


class Change(BaseModel):
    """One thing install or register did (or would do, on a dry run)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    action: str
    """``created``, ``updated``, ``unchanged``, ``skipped`` (or ``would be created`` ...)."""
    detail: str = ""


def write_keeping_mode(
    path: Path, text: str, dry_run: bool, detail: str, *, new_mode: int = 0o644
) -> Change:
    """Write ``text`` to ``path`` atomically, keeping an existing file's mode.

    A new file gets ``new_mode``. Identical text is not rewritten (``unchanged``).
    """
    exists = path.is_file()
    if exists and path.read_text(encoding="utf-8") == text:
        return Change(path=str(path), action="unchanged", detail=detail)
    action = "updated" if exists else "created"
    if dry_run:
        return Change(path=str(path), action=f"would be {action}", detail=detail)
    # The replacement keeps the file's mode: an endpoint's config.yaml is often 0600, and a
    # rewrite must not widen it to the umask default.
    mode = path.stat().st_mode & 0o7777 if exists else new_mode
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        os.fchmod(handle.fileno(), mode)
        handle.write(text)
    tmp.replace(path)
    return Change(path=str(path), action=action, detail=detail)


def top_level_block(text: str, key: str) -> tuple[int, int] | None:
    """The character span of the top-level ``key:`` entry: its line and the indented or
    ``-`` lines under it (blank lines after it stay outside)."""
    lines = text.splitlines(keepends=True)
    pattern = re.compile(rf"{re.escape(key)}\s*:")
    first = next((i for i, line in enumerate(lines) if pattern.match(line)), None)
    if first is None:
        return None
    last = first
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if line.strip() and not line[0].isspace() and not line.startswith("-"):
            break
        if line.strip():
            last = i
    start = sum(len(line) for line in lines[:first])
    return start, start + sum(len(line) for line in lines[first : last + 1])


def replace_list_block(text: str, key: str, items: list[str]) -> str:
    """``text`` with the top-level ``key:`` list set to ``items`` (appended when absent)."""
    block = f"{key}:\n" + "".join(f"  - {i}\n" for i in items)
    span = top_level_block(text, key)
    if span is None:
        return text + ("" if text.endswith("\n") or not text else "\n") + block
    start, end = span
    if end == len(text) and not text.endswith("\n"):
        block = block[:-1]
    return text[:start] + block + text[end:]
