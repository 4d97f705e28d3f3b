"""Reading batch schedulers' command output as data: shared by the PBS, Torque, LSF, Cobalt,
Moab and OAR providers (and, for cancelling jobs, by Flux and HTCondor).

Every scheduler provider runs a few read-only commands and turns their output into
:class:`providers.facts.WorkloadFacts`. The parts they all need live here, once:

* :func:`run_stdout` runs one command through the provider's
  :class:`providers.commands.CommandRunner` and re-raises a failure with the command named, so
  an unavailable report always says which command broke.
* :func:`load_json` / :func:`load_xml` parse output and raise a clear
  :class:`providers.errors.ProviderError` (never ``json.JSONDecodeError`` or ``ParseError``);
  :func:`run_json_object` / :func:`run_xml` run a command and parse what it printed.
* :func:`version_banner` asks a client which scheduler it belongs to (``qstat`` is PBS's,
  Torque's and Cobalt's), where a failure only means "not this one".
* :func:`cancel_unless_finished` (PBS, LSF) and :func:`cancel_then_status` (Flux, HTCondor)
  are the two cancellation flows: both leave a finished or unknown job alone.
* :func:`parse_size_gb` reads ``263842960kb``, ``257.6G``, ``64000`` (with a default unit).
* :class:`NodeRecord` and :func:`partition_of` fold per-node records into one
  :class:`providers.facts.Partition` with a conservative node shape.
* :func:`check_native_id` validates a job id before it reaches an argument list.
* :func:`parse_table` reads the fixed-width tables of Cobalt and LSF text commands.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from providers.commands import CommandRunner
from providers.errors import CommandError, ProviderError, UnsafeValueError
from providers.facts import Partition
from providers.hardware.memory import to_gb
from providers.wire.jobs import JobState, JobStatus

PROBE_TIMEOUT_S = 20.0
"""Timeout of one read-only scheduler command: schedulers under load answer slowly."""
SUBMIT_TIMEOUT_S = 30.0
"""Timeout of a submit or cancel command."""
VERSION_TIMEOUT_S = 10.0
"""Timeout of a ``--version`` command: it only prints, so a slow answer means a hung client."""

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtpe]?)(i?)(b|w)?\s*$", re.IGNORECASE)
_UNIT_POWER = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}
_VERSION = re.compile(r"\d+(?:\.\d+)+(?:[-.]\w+)?")


def command_text(argv: Sequence[str]) -> str:
    """The command as a person would type it, for error messages (never executed)."""
    return " ".join(argv)


def present(runner: CommandRunner, *programs: str) -> bool:
    """True when every program is on the PATH the runner's commands see."""
    return all(runner.which(p) is not None for p in programs)


def run_stdout(
    runner: CommandRunner,
    manager: str,
    argv: Sequence[str],
    *,
    timeout_s: float = PROBE_TIMEOUT_S,
    input_text: str | None = None,
) -> str:
    """Run a scheduler command and return its standard output.

    Raises:
        CommandError: the command failed; the message starts with ``manager`` and the command,
            and ``transient`` is kept from the runner (a timeout may succeed later).
    """
    try:
        return runner.run(list(argv), timeout_s=timeout_s, input_text=input_text).stdout
    except CommandError as exc:
        raise CommandError(
            f"{manager}: `{command_text(argv)}` failed: {exc.message}",
            argv=list(argv),
            returncode=exc.returncode,
            stdout=exc.stdout,
            stderr=exc.stderr,
            transient=exc.transient,
        ) from None


def version_banner(runner: CommandRunner, argv: Sequence[str]) -> str | None:
    """What a scheduler client's version command prints, or None when it fails.

    Several schedulers ship a client of the same name (``qstat`` belongs to PBS Pro, Torque and
    Cobalt), so a provider reads the banner to tell whether the installed one is its own. A
    failing banner is therefore no error: it only means "not this scheduler" (or an unknown
    version), which each caller decides.
    """
    try:
        return runner.run(list(argv), timeout_s=VERSION_TIMEOUT_S).stdout
    except CommandError:
        return None


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat[:80] + ("..." if len(flat) > 80 else "")


def load_json(text: str, manager: str, argv: Sequence[str]) -> Any:
    """Parse a command's JSON output.

    Raises:
        ProviderError: empty output or not JSON; the message names the command and shows the
            start of what it printed.
    """
    if not text.strip():
        raise ProviderError(f"{manager}: `{command_text(argv)}` printed nothing (expected JSON)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProviderError(
            f"{manager}: `{command_text(argv)}` did not print valid JSON ({exc.msg} at line "
            f"{exc.lineno}): {_excerpt(text)!r}"
        ) from None


def load_json_object(text: str, manager: str, argv: Sequence[str]) -> dict[str, Any]:
    """Like :func:`load_json`, but the top level must be an object."""
    data = load_json(text, manager, argv)
    if not isinstance(data, dict):
        raise ProviderError(
            f"{manager}: `{command_text(argv)}` printed JSON {type(data).__name__}, "
            "expected an object"
        )
    return data


def load_xml(text: str, manager: str, argv: Sequence[str]) -> ET.Element:
    """Parse a command's XML output and return the root element.

    The output comes from the site's own scheduler, and Python's expat refuses entity-expansion
    bombs, so the standard parser is adequate here.

    Raises:
        ProviderError: empty output or not well-formed XML, naming the command.
    """
    if not text.strip():
        raise ProviderError(f"{manager}: `{command_text(argv)}` printed nothing (expected XML)")
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        raise ProviderError(
            f"{manager}: `{command_text(argv)}` did not print well-formed XML ({exc}): "
            f"{_excerpt(text)!r}"
        ) from None


def run_json_object(runner: CommandRunner, manager: str, argv: Sequence[str]) -> dict[str, Any]:
    """Run a read-only scheduler command and return the JSON object it printed.

    Raises:
        CommandError: the command failed (see :func:`run_stdout`).
        ProviderError: the output is not a JSON object (see :func:`load_json_object`).
    """
    return load_json_object(run_stdout(runner, manager, argv), manager, argv)


def run_xml(runner: CommandRunner, manager: str, argv: Sequence[str]) -> ET.Element:
    """Run a read-only scheduler command and return the root of the XML it printed.

    Raises:
        CommandError: the command failed (see :func:`run_stdout`).
        ProviderError: the output is not well-formed XML (see :func:`load_xml`).
    """
    return load_xml(run_stdout(runner, manager, argv), manager, argv)


def as_int(value: Any, default: int = 0) -> int:
    """An integer from JSON/XML/text values (``"64"``, ``64``, ``"64.0"``); ``default`` else."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        if re.fullmatch(r"-?\d+\.\d*", text):
            return int(float(text))
    return default


def parse_size_gb(text: Any, default_unit: str = "b") -> float | None:
    """Decimal GB from a scheduler size: ``263842960kb``, ``257.6G``, ``64gb``, ``64000``.

    Units are binary multiples (``kb`` = 1024 bytes), as PBS, Torque, LSF and Moab print them;
    ``w`` (words) counts 8 bytes. A bare number takes ``default_unit`` (``"b"``, ``"kb"``,
    ``"mb"``...). Returns None for text that is not a size.
    """
    if isinstance(text, int | float) and not isinstance(text, bool):
        text = f"{text}{default_unit}"
    if not isinstance(text, str):
        return None
    m = _SIZE.match(text)
    if not m:
        return None
    number, prefix, _binary, suffix = m.groups()
    if not prefix and not suffix:
        unit = _SIZE.match(f"1{default_unit}")
        if unit is None:
            return None
        _, prefix, _binary, suffix = unit.groups()
    n_bytes = float(number) * 1024 ** _UNIT_POWER[prefix.lower()]
    if (suffix or "").lower() == "w":
        n_bytes *= 8
    return to_gb(n_bytes)


def find_version(text: str) -> str | None:
    """The first dotted version number in ``text`` (``19.1.3``, ``10.1.0.13``), or None."""
    m = _VERSION.search(text)
    return m.group(0) if m else None


def check_native_id(value: Any, pattern: re.Pattern[str], manager: str, example: str) -> str:
    """Return ``value`` if it is a job id of this scheduler, else raise.

    Raises:
        UnsafeValueError: anything else (``1234.server; rm -rf /``, options, paths), with the
            expected form.
    """
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise UnsafeValueError(
            f"{manager} job id {value!r} is not allowed: expected a {manager} job id such as "
            f"{example!r}"
        )
    return value


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to a new file readable by its owner only (scripts may hold secrets)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


# -- nodes to partitions ---------------------------------------------------------------------


@dataclass(frozen=True)
class NodeRecord:
    """One compute node as a scheduler reports it.

    ``free`` means up and running no job at all (``Partition.free_nodes`` counts exclusive
    nodes); ``queues`` is the set of queues the node serves, or None for "any queue".
    """

    name: str
    cpus: int
    memory_gb: float = 0.0
    gpus: int = 0
    free: bool = False
    queues: frozenset[str] | None = None


def partition_of(
    name: str,
    nodes: Iterable[NodeRecord],
    *,
    queued: int = 0,
    running: int = 0,
    max_walltime_s: int | None = None,
    default: bool = False,
) -> Partition | None:
    """Fold the nodes of one queue into a :class:`Partition`; None when it has no usable node.

    The node shape is the *smallest* over the queue's nodes (cores, memory, GPUs), so a job
    that fits the partition fits every node of it: a mixed queue can make a site look smaller
    than it is, never larger (a false READY is the costlier mistake).
    """
    members = [n for n in nodes if n.cpus >= 1]
    if not members:
        return None
    return Partition(
        name=name,
        total_nodes=len(members),
        free_nodes=sum(1 for n in members if n.free),
        cpus_per_node=min(n.cpus for n in members),
        memory_gb_per_node=min(n.memory_gb for n in members),
        gpus_per_node=min(n.gpus for n in members),
        max_walltime_s=max_walltime_s,
        queue_depth=max(0, queued),
        running_jobs=max(0, running),
        default=default,
    )


def serves(node: NodeRecord, queue: str) -> bool:
    """True when ``node`` takes jobs of ``queue``."""
    return node.queues is None or queue in node.queues


# -- fixed-width text tables -----------------------------------------------------------------


def parse_table(text: str) -> list[dict[str, str]]:
    """Rows of a fixed-width table with a header line (optionally underlined by ``===``/``---``).

    Columns are cut at the header words' start positions, so values may be empty or contain
    spaces; a row that is shorter than the header leaves the missing cells empty.
    """
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    header = lines[0]
    starts = [m.start() for m in re.finditer(r"\S+", header)]
    names = header.split()
    rows: list[dict[str, str]] = []
    for line in lines[1:]:
        if re.fullmatch(r"[=\-\s]+", line):
            continue
        cells: dict[str, str] = {}
        for i, (name, start) in enumerate(zip(names, starts, strict=True)):
            end = starts[i + 1] if i + 1 < len(starts) else len(line)
            cells[name] = line[start:end].strip() if start < len(line) else ""
        rows.append(cells)
    return rows


# -- cancellation ----------------------------------------------------------------------------


def _settled(status: JobStatus) -> bool:
    """True when cancelling cannot change the job: it ended, or the scheduler does not know it."""
    return status.state.terminal or status.state is JobState.UNKNOWN


def cancel_unless_finished(
    native_id: str,
    *,
    status: Callable[[str], JobStatus],
    runner: CommandRunner,
    manager: str,
    argv: Sequence[str],
) -> JobStatus:
    """Run the cancel command ``argv`` for an active job and report CANCELLED once accepted.

    The job is looked up first, so a finished or unknown job keeps the state the scheduler
    reports instead of being called cancelled. When the cancel command fails, the job is looked
    up again: it may have ended between the two calls, which is not an error.

    Args:
        native_id: the job id (already part of ``argv``).
        status: the provider's status lookup for a job id.
        runner: runs ``argv``.
        manager: the scheduler's name, for error messages.
        argv: the cancel command, e.g. ``("qdel", "1234.server")``.

    Raises:
        CommandError: the cancel command failed and the job is still active.
    """
    before = status(native_id)
    if _settled(before):
        return before
    try:
        run_stdout(runner, manager, argv, timeout_s=SUBMIT_TIMEOUT_S)
    except CommandError:
        after = status(native_id)
        if after.state.terminal:
            return after
        raise
    return JobStatus(
        site=before.site,
        native_id=native_id,
        state=JobState.CANCELLED,
        exit_code=None,
        message=f"{argv[0]} accepted",
    )


def cancel_then_status(
    native_id: str,
    *,
    status: Callable[[str], JobStatus],
    run: Callable[[list[str]], object],
    argv: list[str],
    what: str,
) -> JobStatus:
    """Run the cancel command ``argv`` for an active job and report the job's state after it.

    For schedulers whose status lookup already tells a removed job apart (Flux, HTCondor), the
    state after the command is the answer; a finished or unknown job is left as it is.

    Args:
        native_id: the job id (already part of ``argv``).
        status: the provider's status lookup for a job id.
        run: the provider's way of running a command (its own timeout).
        argv: the cancel command, e.g. ``["condor_rm", "1234.0"]``.
        what: the command's name in the error message (``flux cancel``).

    Raises:
        ProviderError: the cancel command failed (``transient``: the scheduler may recover).
    """
    before = status(native_id)
    if _settled(before):
        return before
    try:
        run(argv)
    except CommandError as exc:
        raise ProviderError(f"{what} failed: {exc.message}", transient=True) from None
    return status(native_id)
