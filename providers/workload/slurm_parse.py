"""Slurm output as data: pure parsers for the commands :mod:`providers.workload.slurm` runs.

Nothing here runs a command. Every function takes the text a Slurm client printed with the
fixed format options below and returns typed values, so each one is unit-tested on recorded
output. Output that does not have the expected shape raises :class:`SlurmOutputError` naming
the command and what was wrong: a scheduler we cannot read must make checks UNKNOWN, never
produce guessed capacity.

Formats (Slurm 22.05 and later; https://slurm.schedmd.com/sinfo.html, squeue.html,
scontrol.html):

* nodes: ``sinfo -h -N -o '%N|%P|%a|%l|%c|%m|%G|%T'``, one line per node and partition;
* jobs: ``squeue -h -r -a -o '%i|%P|%T'``, one line per job (array tasks expanded);
* one job: ``squeue -h --jobs=ID -o %T`` and ``scontrol -o show job ID`` (``Key=Value``);
* version: ``sinfo --version`` (``slurm 23.02.6`` or ``slurm-wlm 22.05.8``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from providers.errors import CommandError
from providers.facts import Partition
from providers.wire.jobs import JobState
from providers.workload.batch import parse_walltime, translate_state

MANAGER = "slurm"
SEP = "|"
NODE_FORMAT = SEP.join(["%N", "%P", "%a", "%l", "%c", "%m", "%G", "%T"])
NODES_ARGV: tuple[str, ...] = ("sinfo", "-h", "-N", "-o", NODE_FORMAT)
QUEUE_FORMAT = SEP.join(["%i", "%P", "%T"])
QUEUE_ARGV: tuple[str, ...] = ("squeue", "-h", "-r", "-a", "-o", QUEUE_FORMAT)
VERSION_ARGV: tuple[str, ...] = ("sinfo", "--version")
CONFIG_ARGV: tuple[str, ...] = ("scontrol", "show", "config")

NATIVE_ID_RE = re.compile(r"^\d+(_\d+)?\Z")
"""A Slurm job id, or ``JOBID_TASKID`` for one task of an array."""

_SUBMIT_RE = re.compile(r"^(\d+(?:_\d+)?)(?:;[A-Za-z0-9][A-Za-z0-9_.-]*)?$")

STATE_DOCS_URL = "https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES"

SLURM_JOB_STATES: dict[str, JobState] = {
    # long names (squeue %T, scontrol JobState, sacct State)
    "BOOT_FAIL": JobState.FAILED,
    "CANCELLED": JobState.CANCELLED,
    "COMPLETED": JobState.COMPLETED,
    "CONFIGURING": JobState.QUEUED,  # nodes allocated, still booting: not running yet
    "COMPLETING": JobState.RUNNING,  # some processes still ending
    "DEADLINE": JobState.TIMEOUT,
    "FAILED": JobState.FAILED,
    "NODE_FAIL": JobState.FAILED,
    "OUT_OF_MEMORY": JobState.FAILED,
    "PENDING": JobState.QUEUED,
    "PREEMPTED": JobState.FAILED,
    "RUNNING": JobState.RUNNING,
    "RESV_DEL_HOLD": JobState.QUEUED,
    "REQUEUE_FED": JobState.QUEUED,
    "REQUEUE_HOLD": JobState.QUEUED,
    "REQUEUED": JobState.QUEUED,
    "RESIZING": JobState.RUNNING,
    "REVOKED": JobState.CANCELLED,  # a federation sibling runs it instead
    "SIGNALING": JobState.RUNNING,
    "SPECIAL_EXIT": JobState.FAILED,
    "STAGE_OUT": JobState.RUNNING,
    "STOPPED": JobState.RUNNING,  # stopped but keeps its allocation
    "SUSPENDED": JobState.QUEUED,  # waiting to be resumed
    "TIMEOUT": JobState.TIMEOUT,
    # compact codes (squeue %t)
    "BF": JobState.FAILED,
    "CA": JobState.CANCELLED,
    "CD": JobState.COMPLETED,
    "CF": JobState.QUEUED,
    "CG": JobState.RUNNING,
    "DL": JobState.TIMEOUT,
    "F": JobState.FAILED,
    "NF": JobState.FAILED,
    "OOM": JobState.FAILED,
    "PD": JobState.QUEUED,
    "PR": JobState.FAILED,
    "R": JobState.RUNNING,
    "RD": JobState.QUEUED,
    "RF": JobState.QUEUED,
    "RH": JobState.QUEUED,
    "RQ": JobState.QUEUED,
    "RS": JobState.RUNNING,
    "RV": JobState.CANCELLED,
    "SI": JobState.RUNNING,
    "SE": JobState.FAILED,
    "SO": JobState.RUNNING,
    "ST": JobState.RUNNING,
    "S": JobState.QUEUED,
    "TO": JobState.TIMEOUT,
}
"""Slurm job state word -> common :class:`JobState` (see :data:`STATE_DOCS_URL`)."""

_FREE_SUFFIXES = {"", "~", "#"}
"""Node-state suffixes that still accept a new job now: none, powered down (cloud nodes are
powered up on demand), powering up. ``*`` (not responding), ``$`` (maintenance), ``@``
(reboot pending), ``!``/``%`` (powering down), ``-`` (planned for a waiting job) do not."""

_KEY_BOUNDARY = re.compile(r"\s+(?=[A-Za-z][A-Za-z0-9_:/.]*=)")


class SlurmOutputError(CommandError):
    """A Slurm command printed something that does not have the documented shape."""


def _fail(argv: Sequence[str], what: str, text: str = "") -> SlurmOutputError:
    return SlurmOutputError(f"{' '.join(argv)}: {what}", argv=list(argv), stdout=text)


def translate_job_state(raw: str) -> JobState:
    """The common state of a Slurm state word (``CANCELLED by 0`` reads as CANCELLED)."""
    word = raw.strip().split(" ", 1)[0] if raw.strip() else ""
    return translate_state(SLURM_JOB_STATES, word, MANAGER)


# -- small values ----------------------------------------------------------------------------


def parse_version(text: str) -> str:
    """``slurm-wlm 22.05.8`` -> ``22.05.8``.

    Raises:
        SlurmOutputError: no version number in the text.
    """
    match = re.search(r"\b(\d+\.\d+(?:\.\d+)?(?:[-.\w]*)?)\s*$", text.strip())
    if not match:
        raise _fail(VERSION_ARGV, f"no version number in {text.strip()[:80]!r}", text)
    return match.group(1)


def parse_cluster_name(text: str) -> str | None:
    """The ``ClusterName = x`` line of ``scontrol show config``, or None when absent."""
    match = re.search(r"^\s*ClusterName\s*=\s*(\S+)\s*$", text, re.MULTILINE)
    return match.group(1) if match else None


def parse_slurm_walltime(text: str) -> int | None:
    """Seconds in a Slurm time: ``30:00`` (MM:SS), ``1:00:00``, ``2-12``, ``1-00:00:00``, ``5``.

    Slurm writes minutes and seconds when the hours are zero, so ``30:00`` is 30 minutes
    (unlike PBS, where it would be 30 hours); the text is normalised to ``[D-]H:M:S`` and
    read by :func:`providers.workload.batch.parse_walltime`.

    Returns:
        The seconds, or None for ``INFINITE``/``UNLIMITED``/``NONE``/``n/a``.

    Raises:
        ValueError: text that is no Slurm time.
    """
    value = text.strip()
    if value.lower() in {"infinite", "unlimited", "none", "n/a", "partition_limit"}:
        return None
    match = re.fullmatch(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?", value)
    if not match:
        raise ValueError(f"{text!r} is not a Slurm time ([D-]HH:MM:SS, MM:SS, MM or INFINITE)")
    days, first, second, third = match.groups()
    if days is not None:  # days-hours[:minutes[:seconds]]
        hms = f"{first}:{second or 0}:{third or 0}"
    elif third is not None:  # hours:minutes:seconds
        hms = f"{first}:{second}:{third}"
    elif second is not None:  # minutes:seconds
        hms = f"0:{first}:{second}"
    else:  # minutes
        hms = f"0:{first}:0"
    seconds = parse_walltime(f"{days}-{hms}" if days is not None else hms)
    if seconds is None:  # pragma: no cover - the normalised form always parses
        raise ValueError(f"{text!r} is not a Slurm time")
    return seconds


def _split_top_level(text: str) -> list[str]:
    """Split at commas outside parentheses: ``gpu:a100:4(S:0,1),shard:8`` -> 2 items."""
    items, depth, current = [], 0, []
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if char == "," and depth == 0:
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    items.append("".join(current))
    return [i.strip() for i in items if i.strip()]


def parse_gres(text: str) -> tuple[int, str | None]:
    """GPUs per node and their model from a gres string.

    ``(null)`` -> (0, None); ``gpu:4`` -> (4, None); ``gpu:a100:4(S:0-1)`` -> (4, "a100");
    ``gpu:a100:2,gpu:v100:1`` -> (3, "a100") (the model with most devices); other resources
    (``shard``, ``mps``, licenses) are ignored.

    Raises:
        ValueError: a ``gpu`` entry whose count is not a number.
    """
    value = text.strip()
    if value.lower() in {"", "(null)", "n/a", "none"}:
        return 0, None
    counts: dict[str | None, int] = {}
    for item in _split_top_level(value):
        bare = re.sub(r"\(.*\)$", "", item)
        parts = bare.split(":")
        if parts[0] != "gpu":
            continue
        if len(parts) == 1:
            model, count_text = None, "1"
        elif len(parts) == 2:
            model, count_text = None, parts[1]
        else:
            model, count_text = parts[1] or None, parts[2]
        if not count_text.isdigit():
            # ``gpu:a100`` (no count) means one device; anything else is garbled
            if len(parts) == 2 and not count_text[:1].isdigit():
                model, count_text = count_text, "1"
            else:
                raise ValueError(f"gres entry {item!r} has no whole-number GPU count")
        counts[model] = counts.get(model, 0) + int(count_text)
    if not counts:
        return 0, None
    total = sum(counts.values())
    named = {m: c for m, c in counts.items() if m}
    model = max(sorted(named), key=lambda m: named[m]) if named else None
    return total, model


def split_node_state(text: str) -> tuple[str, str]:
    """``idle*`` -> (``idle``, ``*``); ``mixed`` -> (``mixed``, ``""``); long or short forms."""
    value = text.strip().lower()
    match = re.fullmatch(r"([a-z_+]+)([*~#!%$@^-]*)", value)
    if not match:
        raise ValueError(f"{text!r} is not a Slurm node state")
    return match.group(1), match.group(2)


def node_is_free(state: str) -> bool:
    """True for a node with no job that accepts one now (``idle``, not drained, responding)."""
    base, suffix = split_node_state(state)
    return base == "idle" and suffix in _FREE_SUFFIXES


# -- nodes and partitions --------------------------------------------------------------------


@dataclass(frozen=True)
class NodeRow:
    """One line of the node listing: a node as seen in one partition."""

    node: str
    partition: str
    default: bool
    partition_up: bool
    max_walltime_s: int | None
    cpus: int
    memory_mb: int
    gpus: int
    gpu_model: str | None
    state: str
    free: bool


def parse_node_rows(text: str) -> list[NodeRow]:
    """Read ``sinfo -h -N -o '%N|%P|%a|%l|%c|%m|%G|%T'``.

    Raises:
        SlurmOutputError: no lines at all, or a line without 8 readable fields (the line
            number and text are in the message).
    """
    rows: list[NodeRow] = []
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise _fail(NODES_ARGV, "printed no nodes (no partitions configured, or none visible)")
    for number, line in enumerate(lines, 1):
        fields = line.strip().split(SEP)
        if len(fields) != 8:
            raise _fail(
                NODES_ARGV, f"line {number} has {len(fields)} fields, expected 8: {line!r}", text
            )
        node, partition, avail, limit, cpus, memory, gres, state = (f.strip() for f in fields)
        try:
            gpus, model = parse_gres(gres)
            free = node_is_free(state)
            row = NodeRow(
                node=node,
                partition=partition.rstrip("*"),
                default=partition.endswith("*"),
                partition_up=avail.lower() == "up",
                max_walltime_s=parse_slurm_walltime(limit),
                cpus=int(cpus.rstrip("+")),
                memory_mb=int(memory.rstrip("+")),
                gpus=gpus,
                gpu_model=model,
                state=state,
                free=free,
            )
        except ValueError as exc:
            raise _fail(NODES_ARGV, f"line {number} {line!r}: {exc}", text) from None
        if not row.node or not row.partition or row.cpus < 1:
            raise _fail(NODES_ARGV, f"line {number} {line!r}: empty name or no CPUs", text)
        rows.append(row)
    return rows


@dataclass(frozen=True)
class QueueCounts:
    """Jobs of one partition: waiting (pending) and running."""

    pending: int = 0
    running: int = 0


_RUNNING_WORDS = {"RUNNING", "COMPLETING", "CONFIGURING", "STAGE_OUT", "SIGNALING", "RESIZING"}


def parse_queue(text: str) -> dict[str, QueueCounts]:
    """Read ``squeue -h -r -a -o '%i|%P|%T'`` into per-partition counts.

    A pending job submitted to several partitions (``debug,batch``) counts in each of them:
    it competes for all of them. Empty output is an empty queue.

    Raises:
        SlurmOutputError: a line without 3 fields or without a job id.
    """
    pending: dict[str, int] = {}
    running: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.strip().split(SEP)]
        if len(fields) != 3 or not re.match(r"^\d", fields[0]):
            raise _fail(QUEUE_ARGV, f"line {number} is not 'jobid|partition|state': {line!r}")
        _, partitions, state = fields
        word = state.split(" ", 1)[0].upper()
        target = pending if word == "PENDING" else running if word in _RUNNING_WORDS else None
        if target is None:
            continue
        for partition in partitions.split(","):
            if partition:
                target[partition] = target.get(partition, 0) + 1
    return {
        name: QueueCounts(pending.get(name, 0), running.get(name, 0))
        for name in sorted(pending.keys() | running.keys())
    }


def build_partitions(
    rows: Iterable[NodeRow],
    queue: Mapping[str, QueueCounts],
    only: Sequence[str] | None = None,
) -> list[Partition]:
    """Partition facts from node rows and queue counts, in the order Slurm listed them.

    The node shape is the smallest over the partition's nodes (every node offers at least
    ``cpus_per_node`` CPUs, ``memory_gb_per_node`` and ``gpus_per_node`` GPUs), so a request
    that fits the facts fits any node. Memory is converted with Slurm's own unit (1 GB = 1024
    MB, as in ``--mem=NG``). A partition that is not ``up`` has no free nodes.

    Args:
        rows: from :func:`parse_node_rows`.
        queue: from :func:`parse_queue`.
        only: keep only these partitions (in this order of preference: Slurm's order).
    """
    grouped: dict[str, list[NodeRow]] = {}
    for row in rows:
        if only is None or row.partition in only:
            grouped.setdefault(row.partition, []).append(row)
    partitions: list[Partition] = []
    for name, members in grouped.items():
        nodes = {r.node: r for r in members}.values()
        gpu_models = sorted({r.gpu_model for r in nodes if r.gpus and r.gpu_model})
        counts = queue.get(name, QueueCounts())
        up = all(r.partition_up for r in nodes)
        partitions.append(
            Partition(
                name=name,
                total_nodes=len(nodes),
                free_nodes=sum(1 for r in nodes if r.free) if up else 0,
                cpus_per_node=min(r.cpus for r in nodes),
                memory_gb_per_node=round(min(r.memory_mb for r in nodes) / 1024, 2),
                gpus_per_node=min(r.gpus for r in nodes),
                gpu_model=gpu_models[0] if len(gpu_models) == 1 else None,
                max_walltime_s=members[0].max_walltime_s,
                queue_depth=counts.pending,
                running_jobs=counts.running,
                default=any(r.default for r in nodes),
            )
        )
    return partitions


# -- one job ---------------------------------------------------------------------------------


def parse_key_values(line: str) -> dict[str, str]:
    """``scontrol -o show job|node|partition`` record -> {key: value}.

    Values may contain spaces (``OS=Linux 6.1 #1 SMP``, ``Reason=Not responding``): a new
    field starts only where a ``Key=`` follows whitespace. The first occurrence of a key wins.
    """
    record: dict[str, str] = {}
    for part in _KEY_BOUNDARY.split(line.strip()):
        key, sep, value = part.partition("=")
        if sep and key not in record:
            record[key] = value.strip()
    return record


def parse_exit_code(text: str) -> int | None:
    """``3:0`` -> 3; ``0:9`` (killed by signal 9) -> 137 as a shell reports it; else None."""
    match = re.fullmatch(r"\s*(\d+):(\d+)\s*", text or "")
    if not match:
        return None
    code, signal = int(match.group(1)), int(match.group(2))
    if code == 0 and signal:
        return 128 + signal
    return code


@dataclass(frozen=True)
class JobRecord:
    """What Slurm says about one job: its state word and, once finished, its exit code."""

    state: str
    exit_code: int | None = None
    reason: str = ""


def parse_job_record(text: str, argv: Sequence[str]) -> JobRecord:
    """Read ``scontrol -o show job ID`` (first record).

    Raises:
        SlurmOutputError: no ``JobState=`` in the output.
    """
    for line in text.splitlines():
        record = parse_key_values(line)
        if record.get("JobState"):
            reason = record.get("Reason", "")
            return JobRecord(
                state=record["JobState"],
                exit_code=parse_exit_code(record.get("ExitCode", "")),
                reason="" if reason in ("None", "(null)") else reason,
            )
    raise _fail(argv, "printed no JobState= field", text)


def parse_sacct(text: str) -> JobRecord | None:
    """Read ``sacct -n -P -X -j ID -o State,ExitCode``; None when it lists no job.

    ``CANCELLED by 0|0:0`` -> JobRecord("CANCELLED by 0", 0). Lines without ``|`` (such as
    "Slurm accounting storage is disabled") are not records.
    """
    for line in text.splitlines():
        if SEP not in line:
            continue
        state, _, exit_text = line.partition(SEP)
        if state.strip():
            return JobRecord(state=state.strip(), exit_code=parse_exit_code(exit_text))
    return None


def parse_submit_output(text: str, argv: Sequence[str]) -> str:
    """``sbatch --parsable`` prints ``ID`` or ``ID;cluster``; return the validated ID.

    Raises:
        SlurmOutputError: the last line is not a job id.
    """
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    match = _SUBMIT_RE.match(lines[-1]) if lines else None
    if not match:
        raise _fail(argv, f"expected a job id, got {text.strip()[:120]!r}", text)
    return match.group(1)
