"""Helpers the MPI providers share: finding programs, reading versions, naming launchers.

Several MPI implementations can be installed side by side (Debian installs Open MPI and MPICH
together, with ``mpirun`` pointing to one of them through alternatives), so a launcher counts
for an implementation only when it really belongs to it: a launcher is identified by the
program a symbolic link finally resolves to, never by its name alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from providers.commands import CommandRunner
from providers.errors import CommandError, ProviderError

VERSION_TIMEOUT_S = 20.0
"""Time allowed to a ``--version``-style command (some start a runtime first)."""


def find_program(
    runner: CommandRunner, names: Iterable[str], folder: str | None = None
) -> str | None:
    """Full path of the first of ``names`` found in ``folder`` (if given) or on PATH."""
    for name in names:
        if folder is not None:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
            continue
        found = runner.which(name)
        if found:
            return found
    return None


def real_name(path: str) -> str:
    """Base name of the file ``path`` finally points to (``/usr/bin/mpirun`` -> ``orterun``)."""
    return os.path.basename(os.path.realpath(path))


def launchers_on_path(
    runner: CommandRunner, names: Iterable[str], *, targets: Iterable[str] | None = None
) -> list[str]:
    """Those of ``names`` found on PATH, optionally only when they resolve to ``targets``."""
    wanted = set(targets) if targets is not None else None
    found: list[str] = []
    for name in names:
        path = runner.which(name)
        if path is None:
            continue
        if wanted is not None and real_name(path) not in wanted:
            continue
        found.append(name)
    return found


def run_text(runner: CommandRunner, argv: list[str], *, what: str) -> str:
    """stdout and stderr of a version command, together.

    Raises:
        ProviderError: the command failed or timed out (``transient`` then).
    """
    try:
        result = runner.run(argv, timeout_s=VERSION_TIMEOUT_S, check=False)
    except CommandError as exc:
        raise ProviderError(f"{what}: {exc.message}", transient=exc.transient) from None
    return f"{result.stdout}\n{result.stderr}"


def search(pattern: str, text: str) -> str | None:
    """First group of ``pattern`` in ``text`` (multi-line), or None."""
    found = re.search(pattern, text, re.MULTILINE)
    return found.group(1).strip() if found else None


def parse_ompi_info(text: str) -> dict[str, str]:
    """``ompi_info --parsable`` as ``{key: value}`` for the single-valued keys.

    Lines look like ``ompi:version:full:4.1.4`` or ``mca:plm:slurm:version:"component:4.1.4"``;
    the key is everything before the last colon outside quotes. Repeated keys keep the first.
    """
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or ":" not in line:
            continue
        head = line.split('"', 1)[0]
        cut = head.rfind(":")
        if cut <= 0:
            continue
        key, value = line[:cut], line[cut + 1 :].strip().strip('"')
        values.setdefault(key, value)
    return values


def ompi_components(text: str, framework: str) -> set[str]:
    """Component names of one MCA framework (``plm`` -> {``rsh``, ``slurm``, ...})."""
    prefix = f"mca:{framework}:"
    return {
        line[len(prefix) :].split(":", 1)[0]
        for line in text.splitlines()
        if line.startswith(prefix)
    }
