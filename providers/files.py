"""Reading the small text files a person points the project at: configurations, state files,
fleets, token files.

Such a path can be anything: a FIFO (reading blocks forever), ``/dev/zero`` (reading never
ends), a binary file, a directory. Only regular files of a bounded size are read, as UTF-8, and
every problem is an ``OSError`` whose ``strerror`` says what was wrong and how to fix it, so the
callers' one-line error handling stays as it is. YAML nested past any sensible depth is a
``yaml.YAMLError``, never a ``RecursionError``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

MAX_TEXT_FILE_BYTES = 10 * 1024 * 1024
"""Larger than any configuration or state file; reading stops well before memory runs out."""


class FileReadError(OSError):
    """A file that cannot be read as a text document; ``strerror`` says why."""


def read_text_file(path: str | Path, limit: int = MAX_TEXT_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes.

    Raises:
        OSError: the file does not exist or cannot be opened (the system's reason), or
            :class:`FileReadError`: not a regular file, too large, or not UTF-8 text.
    """
    p = Path(path)
    info = p.stat()  # follows links: a link to a FIFO is a FIFO
    if not stat.S_ISREG(info.st_mode):
        raise FileReadError(0, "not a regular file (a directory, device, FIFO or socket)")
    if info.st_size > limit:
        raise FileReadError(0, f"{info.st_size:,} bytes, more than the {limit:,} allowed")
    with p.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileReadError(0, f"more than the {limit:,} bytes allowed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileReadError(0, f"not UTF-8 text (byte {exc.start}); is it a binary file?") from None


class _UniqueKeyLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses a key repeated in one mapping.

    Plain YAML keeps the last of two equal keys, so a file that sets ``timeout_s`` twice, or
    lists a site under the same name twice, is read without a word about the first value.
    """


def _mapping_without_repeats(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, Any] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            repeated = key in seen
        except TypeError:  # an unhashable key: the base constructor reports it
            break
        if repeated:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping",
                node.start_mark,
                f"the key {key!r} appears twice; keep one of them",
                key_node.start_mark,
            )
        seen[key] = None
    return loader.construct_mapping(node, deep=True)


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_without_repeats
)


def load_yaml(text: str) -> Any:
    """``yaml.safe_load``, refusing repeated keys, with nesting too deep to parse reported as a
    YAML error."""
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass
    except RecursionError:
        raise yaml.YAMLError("the document is nested too deeply to read") from None
    except yaml.YAMLError as exc:
        raise yaml.YAMLError(_where(exc)) from None


def _where(exc: yaml.YAMLError) -> str:
    """The parser's complaint and its position, without the snippet of the offending line that
    PyYAML appends: the line may hold a password, and these messages reach logs and terminals."""
    if not isinstance(exc, yaml.MarkedYAMLError):
        return "the document is not valid YAML"
    parts = [p for p in (exc.context, exc.problem) if p]
    mark = exc.problem_mark or exc.context_mark
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return "; ".join(parts or ["the document is not valid YAML"]) + where


def read_tail(path: Path, max_bytes: int) -> tuple[str, bool] | None:
    """The last ``max_bytes`` of a regular file as text, and whether it was cut; None if absent.

    Only the end is read (a job's output can be gigabytes). Bytes that are not UTF-8 are
    replaced, and a multi-byte character cut at the start is dropped.
    """
    if not path.is_file():  # checked first: opening a FIFO would block
        return None
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            start = max(0, size - max_bytes)
            handle.seek(start)
            data = handle.read(max_bytes)
    except (FileNotFoundError, IsADirectoryError):
        return None
    text = data.decode("utf-8", errors="replace")
    if start and text.startswith("\ufffd"):
        text = text.lstrip("\ufffd")
    return text, start > 0
