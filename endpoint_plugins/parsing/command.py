"""The command a request wants run, written in backticks: "run `python -c 'print(1)'` on 1 node".

The command is split into an argument vector with :func:`shlex.split` and is never handed to a
shell. It is also cut out of the text before requirement parsing, so "python" inside a command
line is not mistaken for a request for Python, and flags such as ``-n 4`` are not read as counts.
"""

from __future__ import annotations

import re
import shlex

_COMMAND_RE = re.compile(
    r"```[ \t]*(?:[a-z]+[ \t]*\n)?(?P<fenced>.*?)```|`(?P<inline>[^`]*)`", re.DOTALL
)


def split_command(text: str) -> tuple[str, tuple[str, ...]]:
    """Split a request into its text and the command it names.

    Only the first backtick span (inline or fenced with three backticks) is the command. The
    span is replaced by a space, so the words on either side stay apart.

    Returns:
        ``(remaining_text, argv)``. ``argv`` is empty when there is no backtick span, when it is
        blank, or when its quoting is broken (an unclosed quote): a command that cannot be
        split safely is not guessed at.
    """
    match = _COMMAND_RE.search(text)
    if match is None:
        return text, ()
    remaining = text[: match.start()] + " " + text[match.end() :]
    command = match.group("fenced") if match.group("fenced") is not None else match.group("inline")
    return remaining, _argv(command or "")


_ALLOCATION_RE = re.compile(r"\s*(?:salloc|sbatch|qsub|bsub)(?:\s+-[^`]*)?\s*$")
"""A scheduler's allocation command and its flags only, no program: the shape of the job."""


def requirement_text(text: str) -> str:
    """The text the requirements are read from: the request with its command cut out.

    An allocation command in backticks ("I usually do `salloc -N1 --mem=64G -t 4:00:00`;
    please give me the equivalent") runs nothing: its flags are the resources asked for, so its
    words stay to be read. Any other command is cut out (see :func:`split_command`).
    """
    match = _COMMAND_RE.search(text)
    if match is not None and match.group("inline") is not None:
        if _ALLOCATION_RE.match(match.group("inline")):
            return text[: match.start()] + " " + match.group("inline") + " " + text[match.end() :]
    return split_command(text)[0]


def extract_command(text: str) -> tuple[str, ...]:
    """The argument vector of the command in backticks, or ``()`` (see :func:`split_command`)."""
    return split_command(text)[1]


def _argv(command: str) -> tuple[str, ...]:
    command = command.strip()
    if not command:
        return ()
    try:
        return tuple(shlex.split(command, comments=False, posix=True))
    except ValueError:
        return ()
