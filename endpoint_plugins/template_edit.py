"""Textual edits of a user config template (``user_config_template.yaml.j2``), Jinja kept intact.

The template is Jinja around YAML, so it can be neither parsed as YAML nor round-tripped: the
edits here touch only the lines they own and leave every Jinja tag where it was.

* :func:`add_worker_setup` puts a marked block at the end of ``engine.provider.worker_init``
  (a literal block scalar), after whatever the template already does there, so it runs in the
  environment the workers will use: the default 4.x template activates a per-user ``uv``
  virtual environment in ``worker_init``, and the block installs ``secretary-executor`` into
  it when ``endpoint_plugins`` does not import yet. The block's first line names it, so a
  second install finds and replaces it instead of adding another.
* :func:`extend_allowed_functions` extends a top-level ``allowed_functions`` list written in
  the template (a per-user allow-list) when the list is plain YAML.

Both raise :class:`TemplateEditError` with what to do by hand when the template is shaped in a
way a line edit cannot handle safely. :func:`check_syntax` refuses a template that is not valid
Jinja before anything is edited.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from endpoint_plugins.endpoint_files import (
    EndpointInstallError,
    replace_list_block,
    top_level_block,
)

BEGIN = "# >>> secretary-executor: the workers run the secretary functions (endpoint_plugins)"
END = "# <<< secretary-executor"

_SPEC = re.compile(r"[A-Za-z0-9./][A-Za-z0-9._\-\[\],<>=!~+@:/ ]*")
"""A pip requirement or wheel path without shell or Jinja metacharacters."""
_HEADER = re.compile(r"\|(?P<a>[+-]?)(?P<digit>[1-9]?)(?P<b>[+-]?)(?P<rest>\s*(#.*)?)$")
_JINJA_TAG = re.compile(r"\s*\{[%#]")


class TemplateEditError(EndpointInstallError):
    """The template cannot be edited safely; the message says what to add by hand."""


def check_syntax(path: Path, text: str) -> None:
    """Refuse a template that is not valid Jinja, naming the line.

    Raises:
        TemplateEditError: a Jinja syntax error.
    """
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    try:
        SandboxedEnvironment(undefined=jinja2.StrictUndefined).parse(text)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateEditError(
            f"{path}, line {exc.lineno}: not a valid Jinja template ({exc.message}); fix it "
            "first (the endpoint could not render it either), then install again"
        ) from None


def worker_lines(package: str) -> list[str]:
    """The marked ``worker_init`` block that makes ``endpoint_plugins`` importable.

    Raises:
        TemplateEditError: ``package`` is not a plain requirement or wheel path.
    """
    if not _SPEC.fullmatch(package) or "  " in package:
        raise TemplateEditError(
            f"--worker-package {package!r}: expected a pip requirement such as "
            "'secretary-executor==0.1.0' or the path of a wheel"
        )
    spec = shlex.quote(package)
    command = (
        f"python3 -c 'import endpoint_plugins' 2>/dev/null || uv pip install --quiet {spec} "
        f"2>/dev/null || python3 -m pip install --quiet {spec} || echo 'secretary-executor: "
        "could not install the secretary functions into the worker environment' >&2"
    )
    return [BEGIN, command, END]


def add_worker_setup(text: str, lines: list[str]) -> str:
    """``text`` with ``lines`` at the end of ``engine.provider.worker_init`` (or replacing the
    marked block a previous install wrote there).

    Raises:
        TemplateEditError: no ``engine.provider`` mapping, or a ``worker_init`` that is not a
            literal block scalar (``|``).
    """
    rows = text.split("\n")
    marked = _marked_block(rows)
    if marked is not None:
        first, last, indent = marked
        return "\n".join(rows[:first] + [indent + line for line in lines] + rows[last + 1 :])
    provider = _child(rows, _top_level(rows, "engine"), "provider")
    key_indent = _indent_of_children(rows, provider)
    found = _find_key(rows, provider, key_indent, "worker_init")
    if found is None:
        pad = " " * key_indent
        added = [f"{pad}worker_init: |", *(f"{pad}  {line}" for line in lines)]
        return "\n".join(rows[: provider + 1] + added + rows[provider + 1 :])
    header = rows[found].split(":", 1)[1].strip()
    match = _HEADER.match(header)
    if match is None:
        raise TemplateEditError(
            "engine.provider.worker_init in the template is not a literal block (worker_init: "
            "|); add these lines to it by hand, after the lines that prepare the worker "
            "environment:\n" + "\n".join(lines)
        )
    last_content, content_indent = found, 0
    for i in range(found + 1, len(rows)):
        row = rows[i]
        if not row.strip() or _JINJA_TAG.match(row):
            continue
        depth = len(row) - len(row.lstrip(" "))
        if depth <= key_indent:
            break
        content_indent = content_indent or depth
        last_content = i
    if match["digit"]:
        content_indent = key_indent + int(match["digit"])
    content_indent = content_indent or key_indent + 2
    # An explicit indentation indicator: a rendered template may start the block with a
    # whitespace-only line deeper than the lines added here, which YAML's indentation
    # auto-detection would then reject.
    explicit = f"|{match['a']}{content_indent - key_indent}{match['b']}{match['rest']}"
    rows[found] = rows[found].split(":", 1)[0] + ": " + explicit.rstrip()
    pad = " " * content_indent
    return "\n".join(
        rows[: last_content + 1] + [pad + line for line in lines] + rows[last_content + 1 :]
    )


def has_provider(text: str) -> bool:
    """Whether the template's engine has a ``provider`` (workers started by a shell script)."""
    rows = text.split("\n")
    try:
        _child(rows, _top_level(rows, "engine"), "provider")
    except TemplateEditError:
        return False
    return True


def extend_allowed_functions(text: str, ids: list[str]) -> tuple[str, int] | None:
    """``text`` with ``ids`` added to its top-level ``allowed_functions`` list, and how many
    were added; None when the template has no such list.

    Raises:
        TemplateEditError: the list is built with Jinja or is not a list of ids.
    """
    span = top_level_block(text, "allowed_functions")
    if span is None:
        return None
    block = text[span[0] : span[1]]
    if "{" in block or "%" in block:
        raise TemplateEditError(
            "allowed_functions in the template is built with Jinja; add these ids to it by "
            "hand: " + ", ".join(ids)
        )
    current = (yaml.safe_load(block) or {}).get("allowed_functions") or []
    if not isinstance(current, list):
        raise TemplateEditError("allowed_functions in the template must be a list of ids")
    have = [str(x) for x in current]
    wanted = have + [i for i in ids if i not in set(have)]
    return replace_list_block(text, "allowed_functions", wanted), len(wanted) - len(have)


def _marked_block(rows: list[str]) -> tuple[int, int, str] | None:
    first = next((i for i, row in enumerate(rows) if row.strip() == BEGIN), None)
    if first is None:
        return None
    last = next((i for i in range(first, len(rows)) if rows[i].strip() == END), None)
    if last is None:
        raise TemplateEditError(
            f"the template has {BEGIN!r} without {END!r} after it: delete the partial block "
            "and install again"
        )
    row = rows[first]
    return first, last, row[: len(row) - len(row.lstrip(" "))]


def _top_level(rows: list[str], key: str) -> int:
    for i, row in enumerate(rows):
        if re.match(rf"{key}\s*:\s*(#.*)?$", row):
            return i
    raise TemplateEditError(f"the template has no top-level '{key}:' mapping")


def _indent_of_children(rows: list[str], parent: int) -> int:
    parent_depth = len(rows[parent]) - len(rows[parent].lstrip(" "))
    for row in rows[parent + 1 :]:
        if not row.strip() or row.lstrip().startswith("#") or _JINJA_TAG.match(row):
            continue
        depth = len(row) - len(row.lstrip(" "))
        return depth if depth > parent_depth else parent_depth + 2
    return parent_depth + 2


def _find_key(rows: list[str], parent: int, depth: int, key: str) -> int | None:
    parent_depth = len(rows[parent]) - len(rows[parent].lstrip(" "))
    for i in range(parent + 1, len(rows)):
        row = rows[i]
        if not row.strip() or _JINJA_TAG.match(row) or row.lstrip().startswith("#"):
            continue
        row_depth = len(row) - len(row.lstrip(" "))
        if row_depth <= parent_depth:
            return None
        if row_depth == depth and re.match(rf"\s*{key}\s*:", row):
            return i
    return None


def _child(rows: list[str], parent: int, key: str) -> int:
    found = _find_key(rows, parent, _indent_of_children(rows, parent), key)
    if found is None or not re.match(rf"\s*{key}\s*:\s*(#.*)?$", rows[found]):
        raise TemplateEditError(f"the template's {rows[parent].strip()} has no '{key}:' mapping")
    return found
