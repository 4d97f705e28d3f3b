"""Shared pieces for batch workload managers: scripts, walltimes, state tables, job folders.

Every scheduler provider renders a job script from a :class:`providers.jobspec.JobSpec` and
parses the scheduler's output as data. What they all need is here, once:

* :class:`BatchScript` builds a script from directive lines and the job's argument vector;
  every value that came from a request is quoted with :func:`shlex.quote`, so a command such as
  ``["echo", "x; rm -rf ~"]`` is one literal argument, never shell syntax.
* :func:`translate_state` maps a scheduler's state word to the common :class:`JobState`
  through a module-level table, logging and returning UNKNOWN for words it does not know.
* :func:`parse_walltime` / :func:`format_walltime` read and write ``[D-]HH:MM:SS`` forms.
* :func:`job_folder` gives each manager its folder under ``$SECRETARY_HOME`` for scripts and
  output files.
"""

from __future__ import annotations

import logging
import re
import secrets
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from providers.errors import UnsafeValueError
from providers.paths import secretary_home
from providers.wire.jobs import JobState

log = logging.getLogger(__name__)

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
_WALLTIME = re.compile(r"^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?\Z")
_UNLIMITED = {"unlimited", "infinite", "none", "", "n/a", "-", "inf"}


def quote_command(argv: Iterable[str]) -> str:
    """One shell-safe line that runs ``argv`` exactly as given."""
    args = list(argv)
    if not args:
        raise UnsafeValueError("a job needs a command: an argument vector such as ['hostname']")
    return " ".join(shlex.quote(a) for a in args)


def directive_value(value: str, what: str) -> str:
    """A value for a ``#SBATCH``/``#PBS``/``#BSUB`` line: no newlines, no shell syntax.

    Raises:
        UnsafeValueError: the value could end the directive line or smuggle in another one.
    """
    if not re.fullmatch(r"[A-Za-z0-9._:/@+=,-]{1,256}", value):
        raise UnsafeValueError(
            f"{what} {value!r} is not allowed in a job script directive: use letters, digits "
            "and . _ : / @ + = , - only"
        )
    return value


@dataclass
class BatchScript:
    """A bash job script: directives, environment, working folder, then the command.

    Args:
        prefix: the directive marker, e.g. ``#SBATCH``, ``#PBS``, ``#BSUB``.
    """

    prefix: str
    directives: list[str] = field(default_factory=list)
    environment: dict[str, str] = field(default_factory=dict)
    workdir: str | None = None
    command: tuple[str, ...] = ()

    def add(self, *parts: str) -> None:
        """Add one directive line made of already-validated parts (see directive_value)."""
        self.directives.append(" ".join(parts))

    def render(self) -> str:
        """The script text. Values from the request are quoted; directives were validated."""
        lines = ["#!/bin/bash"]
        lines += [f"{self.prefix} {d}" for d in self.directives]
        lines.append("set -e")
        for key, value in sorted(self.environment.items()):
            if not _ENV_NAME.match(key):
                raise UnsafeValueError(f"environment variable name {key!r} is not allowed")
            lines.append(f"export {key}={shlex.quote(value)}")
        if self.workdir:
            lines.append(f"cd {shlex.quote(self.workdir)}")
        lines.append(quote_command(self.command))
        return "\n".join(lines) + "\n"


def parse_walltime(text: str | None) -> int | None:
    """Seconds in ``[D-]HH:MM:SS``, ``HH:MM``, ``MM`` or a bare number of minutes.

    Returns None for "unlimited"-style values and for text it cannot read (callers treat None
    as "no limit known").
    """
    if text is None:
        return None
    value = text.strip().lower()
    if value in _UNLIMITED:
        return None
    m = _WALLTIME.match(value)
    if not m:
        return None
    days = int(m.group(1) or 0)
    parts = [int(p) for p in m.groups()[1:] if p is not None]
    if len(parts) == 1:  # minutes only (Slurm convention)
        h, mi, s = 0, parts[0], 0
    elif len(parts) == 2:  # HH:MM for PBS-style, MM:SS for Slurm; callers pass D-HH:MM:SS
        h, mi, s = parts[0], parts[1], 0
    else:
        h, mi, s = parts
    return ((days * 24 + h) * 60 + mi) * 60 + s


def format_walltime(seconds: int) -> str:
    """``HH:MM:SS`` (hours may exceed 24), understood by Slurm, PBS, LSF (as H:M) and others."""
    seconds = max(1, int(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


def translate_state(table: Mapping[str, JobState], raw: str, manager: str) -> JobState:
    """Map a scheduler's state word through ``table``; unknown words are logged as UNKNOWN."""
    key = raw.strip().upper()
    state = table.get(key)
    if state is None:
        log.warning("%s: unknown job state %r, reported as UNKNOWN", manager, raw)
        return JobState.UNKNOWN
    return state


def job_folder(manager: str) -> Path:
    """``$SECRETARY_HOME/<manager>/``, created, for job scripts and output files."""
    folder = secretary_home() / manager
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def script_path(manager: str, name: str, suffix: str = ".sh") -> Path:
    """A fresh path for one job script (the random part keeps concurrent submits apart)."""
    return job_folder(manager) / f"{name}-{secrets.token_hex(4)}{suffix}"
