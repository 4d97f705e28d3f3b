"""HTCondor as a workload provider: slots, pools and the queue, and jobs submitted to it.

Everything HTCondor prints is read as JSON ClassAds (``-json``), through pure module-level
functions, so that the parsing is tested against documented output without a pool:

* ``condor_status -json``: one ad per slot (``Machine``, ``State``, ``Cpus``, ``Memory`` in MB,
  ``GPUs``, ``PartitionableSlot`` / ``DynamicSlot``, ``TotalSlotCpus`` ...);
* ``condor_q -json -allusers``: one ad per job (``JobStatus`` 1 idle, 2 running, ...);
* ``condor_version``: ``$CondorVersion: 23.0.3 2024-01-04 BuildID: ... $``.

A *node* is one execute machine (``Machine``), whatever its slot layout. Slots are grouped into
one partition per pool, or into one partition per value of a machine attribute named by the
``partition_attribute`` option (e.g. ``OpSysAndVer`` or a site-defined ``NodePool``).

Jobs are vanilla-universe submit descriptions rendered by :func:`render_submit_description`;
every value that came from the request is quoted with HTCondor's own rules (the "new" quoted
syntax of ``arguments`` and ``environment``) and ``$`` is written as ``$(DOLLAR)``, so that no
request text can become a submit command, a macro or a match-time substitution.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, ClassVar

from providers.categories import WorkloadProvider
from providers.errors import CommandError, ProviderError, UnsafeValueError
from providers.facts import Partition, WorkloadFacts
from providers.jobspec import JobSpec, SubmitResult
from providers.wire.jobs import JobState, JobStatus
from providers.workload.batch import job_folder, script_path, translate_state
from providers.workload.scheduler_io import cancel_then_status

MANAGER = "htcondor"
NATIVE_ID_RE = re.compile(r"^\d{1,12}\.\d{1,9}\Z")
_ATTRIBUTE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}\Z")
_PARTITION_RE = re.compile(r"[^A-Za-z0-9._-]+")
_TERSE_RE = re.compile(r"^\s*(\d+)\.(\d+)\s*-\s*(\d+)\.(\d+)\s*\Z")
_VERSION_RE = re.compile(r"\$CondorVersion:\s*(\S+)")
DEFAULT_TIMEOUT_S = 30.0
ENV_LAUNCHER = "/usr/bin/env"
"""Runs a bare command name through the execute node's PATH (see render_submit_description)."""

# HTCondor JobStatus codes, from the job ClassAd attribute reference:
# https://htcondor.readthedocs.io/en/latest/classad-attributes/job-classad-attributes.html
# (JobStatus). Held (5) waits for a person or a policy to release it, so it is still queued;
# Removed (3) is refined to TIMEOUT when our walltime policy removed it (see job_state_of).
JOB_STATUS_TABLE: dict[str, JobState] = {
    "0": JobState.QUEUED,  # Unexpanded (old pools)
    "1": JobState.QUEUED,  # Idle
    "2": JobState.RUNNING,  # Running
    "3": JobState.CANCELLED,  # Removed
    "4": JobState.COMPLETED,  # Completed (refined by ExitCode)
    "5": JobState.QUEUED,  # Held
    "6": JobState.RUNNING,  # Transferring Output
    "7": JobState.RUNNING,  # Suspended
}

_BUSY_SLOT_STATES = frozenset({"Claimed", "Matched", "Preempting", "Owner", "Drained"})


# -- parsing ----------------------------------------------------------------------------------


def parse_ads(text: str, what: str) -> list[dict[str, Any]]:
    """Read the JSON array of ClassAds that an HTCondor ``-json`` command printed.

    HTCondor prints nothing at all when no ad matches, so empty output is an empty list.

    Raises:
        ProviderError: the output is not a JSON array of objects (names the command).
    """
    if not text.strip():
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProviderError(f"{what} printed output that is not JSON ({exc.msg})") from None
    if not isinstance(data, list) or not all(isinstance(ad, dict) for ad in data):
        raise ProviderError(f"{what} printed JSON that is not a list of ClassAds")
    return data


def parse_condor_version(text: str) -> str | None:
    """The version number from ``condor_version`` output, or None when it has none."""
    m = _VERSION_RE.search(text)
    return m.group(1) if m else None


def _int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int | float) and math.isfinite(value):
        return int(value)
    return default


def partition_name(value: Any) -> str:
    """A partition name usable in a job request: other characters become ``-``."""
    text = _PARTITION_RE.sub("-", str(value)).strip("-._")
    return text[:64] or "unnamed"


@dataclass
class _Machine:
    """One execute machine, summed over its slots."""

    partition: str
    cpus: int = 0
    memory_mb: int = 0
    gpus: int = 0
    gpu_model: str | None = None
    busy: bool = False


def _machines(slots: Sequence[Mapping[str, Any]], attribute: str | None, pool: str) -> dict:
    """Sum each machine's slots; a machine is busy when any slot is taken or carved out.

    Dynamic slots are children of a partitionable slot whose ``TotalSlot*`` already counts
    them, so they only mark the machine busy. A partitionable slot with less ``Cpus`` left than
    ``TotalSlotCpus`` has handed part of itself out, so its machine is busy too.
    """
    machines: dict[str, _Machine] = {}
    for slot in slots:
        name = str(slot.get("Machine") or slot.get("Name") or "")
        if not name:
            continue
        group = partition_name(slot.get(attribute, "unset")) if attribute else pool
        machine = machines.setdefault(name, _Machine(partition=group))
        state = str(slot.get("State", ""))
        if state in _BUSY_SLOT_STATES:
            machine.busy = True
        if slot.get("DynamicSlot") is True or slot.get("SlotType") == "Dynamic":
            machine.busy = True
            continue
        cpus = _int(slot.get("TotalSlotCpus"), _int(slot.get("Cpus")))
        machine.cpus += cpus
        machine.memory_mb += _int(slot.get("TotalSlotMemory"), _int(slot.get("Memory")))
        machine.gpus += _int(slot.get("TotalSlotGPUs"), _int(slot.get("GPUs")))
        model = slot.get("GPUs_DeviceName") or slot.get("CUDADeviceName")
        if isinstance(model, str) and model:
            machine.gpu_model = model
        if _int(slot.get("Cpus"), cpus) < cpus:
            machine.busy = True
    return machines


def _machine_of(host: Any) -> str:
    """``slot1_2@node7.example.org`` -> ``node7.example.org``."""
    text = str(host or "")
    return text.rsplit("@", 1)[-1]


def partitions_from_ads(
    slots: Sequence[Mapping[str, Any]],
    jobs: Sequence[Mapping[str, Any]],
    *,
    attribute: str | None = None,
    pool: str = "condor",
) -> tuple[Partition, ...]:
    """Group slots into partitions and count the queue against them.

    Rules: a node is one machine; it is free when every slot is Unclaimed and no partitionable
    slot has handed out resources. ``cpus_per_node`` / ``memory_gb_per_node`` /
    ``gpus_per_node`` are those of the largest machine of the partition. A running job counts
    in the partition of the machine it runs on (``RemoteHost``); an idle job counts in the
    partition its own ad names through ``attribute`` when it names one, else in the default
    partition (the one with the most machines), since HTCondor matches it pool-wide.

    Raises:
        ProviderError: no slot names its machine (the pool has no execute machines).
    """
    machines = _machines(slots, attribute, partition_name(pool))
    if not machines:
        raise ProviderError(
            "condor_status reported no execute slots: the pool has no machines reporting to "
            "its collector (check condor_status -any)"
        )
    groups: dict[str, list[_Machine]] = {}
    for machine in machines.values():
        groups.setdefault(machine.partition, []).append(machine)
    names = sorted(groups)
    default = max(names, key=lambda n: (len(groups[n]), -names.index(n)))
    queued = dict.fromkeys(names, 0)
    running = dict.fromkeys(names, 0)
    for job in jobs:
        status = _int(job.get("JobStatus"), -1)
        if status == 2:
            found = machines.get(_machine_of(job.get("RemoteHost")))
            running[found.partition if found else default] += 1
        elif status == 1:
            wanted = partition_name(job.get(attribute)) if attribute and job.get(attribute) else ""
            queued[wanted if wanted in queued else default] += 1
    result = []
    for name in names:
        members = groups[name]
        biggest = max(members, key=lambda m: (m.cpus, m.memory_mb, m.gpus))
        models = [m.gpu_model for m in members if m.gpu_model]
        result.append(
            Partition(
                name=name,
                total_nodes=len(members),
                free_nodes=sum(1 for m in members if not m.busy),
                cpus_per_node=max(1, biggest.cpus),
                memory_gb_per_node=round(max(m.memory_mb for m in members) / 1024, 2),
                gpus_per_node=max(m.gpus for m in members),
                gpu_model=models[0] if models else None,
                queue_depth=queued[name],
                running_jobs=running[name],
                default=name == default,
            )
        )
    return tuple(result)


def parse_submit_terse(text: str) -> str:
    """The job id from ``condor_submit -terse`` (``1234.0 - 1234.0``) for a one-job cluster.

    Raises:
        ProviderError: the output is not one first-last range of one cluster.
    """
    for line in text.splitlines():
        m = _TERSE_RE.match(line)
        if m:
            return f"{m.group(1)}.{m.group(2)}"
    raise ProviderError(
        f"condor_submit -terse printed no job id range (expected 'N.P - N.P'): {text.strip()!r}"
    )


def job_state_of(ad: Mapping[str, Any]) -> tuple[JobState, int | None, str]:
    """The common state, exit code and a message from one job ad (queue or history)."""
    raw = str(ad.get("JobStatus", "")).strip()
    state = translate_state(JOB_STATUS_TABLE, raw, MANAGER)
    exit_code = ad.get("ExitCode") if isinstance(ad.get("ExitCode"), int) else None
    message = ""
    if raw == "5":
        message = f"held: {ad.get('HoldReason', 'no reason given')}"
    elif raw == "3":
        message = str(ad.get("RemoveReason", "removed"))
        if "PeriodicRemove" in message or "MaxRuntime" in message:
            state = JobState.TIMEOUT
    elif raw == "4":
        if ad.get("ExitBySignal") is True:
            state = JobState.FAILED
            message = f"killed by signal {ad.get('ExitSignal', '?')}"
        elif exit_code not in (None, 0):
            state = JobState.FAILED
            message = f"exited with status {exit_code}"
        elif exit_code is None:
            state = JobState.UNKNOWN
            message = "completed without an ExitCode in its ad"
    elif state is JobState.UNKNOWN:
        message = f"unknown JobStatus {raw!r}"
    return state, exit_code, message


# -- rendering --------------------------------------------------------------------------------


def _plain(value: str, what: str) -> str:
    """Reject characters that would end a submit line or start a macro."""
    if any(c in value for c in "\n\r\0"):
        raise UnsafeValueError(f"{what} {value!r} contains a line break; remove it")
    return value


def _dollar(text: str) -> str:
    return text.replace("$", "$(DOLLAR)")


def quote_argument(value: str) -> str:
    """One argument in HTCondor's new quoted syntax: ``'...'`` with ``'`` and ``"`` doubled.

    ``$`` becomes ``$(DOLLAR)`` so that condor_submit's macro expansion gives back a literal
    ``$``. Line breaks cannot be represented in a submit description and are refused.

    Raises:
        UnsafeValueError: the value contains a line break or NUL.
    """
    _plain(value, "argument")
    inner = value.replace('"', '""').replace("'", "''")
    return "'" + _dollar(inner) + "'"


def render_arguments(argv: Sequence[str]) -> str:
    """The value of ``arguments =``: every element single-quoted inside one double-quoted string."""
    return '"' + " ".join(quote_argument(a) for a in argv) + '"'


def render_environment(env: Mapping[str, str]) -> str:
    """The value of ``environment =`` in the new syntax: ``"NAME='value' ..."``, sorted."""
    parts = []
    for key in sorted(env):
        if not _ATTRIBUTE_RE.match(key):
            raise UnsafeValueError(f"environment variable name {key!r} is not allowed")
        parts.append(f"{key}={quote_argument(env[key])}")
    return '"' + " ".join(parts) + '"'


def _path_value(value: str, what: str) -> str:
    if not PurePosixPath(value).is_absolute():
        raise UnsafeValueError(f"{what} {value!r} must be an absolute path")
    if not re.fullmatch(r"[A-Za-z0-9._/+@=,:~-]+", value):
        raise UnsafeValueError(
            f"{what} {value!r} is not allowed in a submit description: use letters, digits "
            "and . _ / + @ = , : ~ - only"
        )
    return value


def render_submit_description(spec: JobSpec, *, partition_attribute: str | None = None) -> str:
    """Render a vanilla-universe submit description that runs ``spec.command`` exactly.

    An absolute ``command[0]`` is the executable; a bare name runs through ``/usr/bin/env`` so
    that the execute node's PATH finds it (the executable is never transferred). Output, error
    and the job event log go to ``$SECRETARY_HOME/htcondor/<name>.$(Cluster).$(Process).*``.
    A walltime becomes ``+MaxRuntime`` plus a ``periodic_remove`` that removes a job running
    longer (reported as TIMEOUT). ``spec.partition`` becomes a ``requirements`` expression on
    ``partition_attribute`` when one is configured.

    Raises:
        UnsafeValueError: a value cannot be written safely (line breaks, relative workdir),
            or the job asks for more than one node (vanilla jobs run on one machine).
    """
    if spec.nodes != 1:
        raise UnsafeValueError(
            f"{spec.nodes} nodes requested: HTCondor vanilla jobs run on one machine; "
            "ask for 1 node (multi-node jobs need the parallel universe, not offered here)"
        )
    argv = list(spec.command)
    first = _plain(argv[0], "command")
    if first.startswith("/"):
        executable, arguments = _path_value(first, "executable"), argv[1:]
    else:
        if first.startswith("-") or "=" in first:
            raise UnsafeValueError(
                f"command {first!r} must not start with '-' or contain '=': give a program "
                "name or an absolute path"
            )
        executable, arguments = ENV_LAUNCHER, argv
    folder = str(job_folder(MANAGER))
    stem = f"{folder}/{spec.name}.$(Cluster).$(Process)"
    lines = [
        f"# secretary job {spec.name}",
        "universe = vanilla",
        f"executable = {executable}",
        "transfer_executable = false",
    ]
    if arguments:
        lines.append(f"arguments = {render_arguments(arguments)}")
    lines += [
        f"batch_name = {spec.name}",
        f"initialdir = {_path_value(spec.workdir, 'workdir') if spec.workdir else folder}",
        f"output = {stem}.out",
        f"error = {stem}.err",
        f"log = {stem}.log",
        "should_transfer_files = IF_NEEDED",
        "when_to_transfer_output = ON_EXIT",
    ]
    if spec.cores_per_node:
        lines.append(f"request_cpus = {spec.cores_per_node}")
    if spec.memory_gb_per_node:
        lines.append(f"request_memory = {math.ceil(spec.memory_gb_per_node * 1024)}")
    if spec.gpus_per_node:
        lines.append(f"request_gpus = {spec.gpus_per_node}")
    if spec.walltime_s:
        lines += [
            f"+MaxRuntime = {spec.walltime_s}",
            "periodic_remove = (JobStatus == 2) && ((time() - EnteredCurrentStatus) > MaxRuntime)",
        ]
    if spec.partition and partition_attribute:
        if not _ATTRIBUTE_RE.match(partition_attribute):
            raise UnsafeValueError(
                f"partition_attribute {partition_attribute!r} is not a ClassAd attribute name"
            )
        lines.append(f'requirements = (TARGET.{partition_attribute} == "{spec.partition}")')
    if spec.environment:
        lines.append(f"environment = {render_environment(spec.environment)}")
    lines.append("queue 1")
    return "\n".join(lines) + "\n"


# -- the provider -----------------------------------------------------------------------------


class HTCondorProvider(WorkloadProvider):
    """An HTCondor pool seen from a submit machine.

    Options:
        partition_attribute: a machine ClassAd attribute whose values become partitions
            (default: one partition for the whole pool).
        pool: the partition name of the whole pool (default: the collector host, else
            ``condor``).
        timeout_s: timeout of each HTCondor command (default 30 s).
    """

    name: ClassVar[str] = "htcondor"
    description: ClassVar[str] = (
        "HTCondor pool: execute machines grouped into partitions, idle and running jobs, and "
        "vanilla-universe jobs submitted with condor_submit."
    )
    detection: ClassVar[str] = (
        "condor_status on PATH; facts from condor_status -json, condor_q -json -allusers and "
        "condor_version"
    )

    @property
    def _timeout(self) -> float:
        return float(self.options.get("timeout_s", DEFAULT_TIMEOUT_S))

    @property
    def _attribute(self) -> str | None:
        value = self.options.get("partition_attribute")
        if value is None:
            return None
        if not isinstance(value, str) or not _ATTRIBUTE_RE.match(value):
            raise ProviderError(
                f"htcondor option partition_attribute {value!r} is not a ClassAd attribute "
                "name (letters, digits and _, e.g. OpSysAndVer)"
            )
        return value

    def _run(self, argv: list[str]) -> str:
        return self.runner.run(argv, timeout_s=self._timeout).stdout

    def _probe(self) -> WorkloadFacts | None:
        """Read slots, the queue and the version.

        Returns None when ``condor_status`` is not on PATH. Raises ProviderError when HTCondor
        is installed but its output cannot be read (empty pool, garbled JSON, failing command).
        """
        if self.runner.which("condor_status") is None:
            return None
        attribute = self._attribute
        slots = parse_ads(self._run(["condor_status", "-json"]), "condor_status -json")
        jobs = parse_ads(self._run(["condor_q", "-json", "-allusers"]), "condor_q -json")
        try:
            version = parse_condor_version(self._run(["condor_version"]))
        except CommandError:
            version = None
        collector = next(
            (str(s["CollectorHost"]) for s in slots if s.get("CollectorHost")),
            "",
        )
        pool = str(self.options.get("pool") or collector.split(":", 1)[0] or "condor")
        return WorkloadFacts(
            manager=MANAGER,
            version=version,
            cluster=pool,
            partitions=partitions_from_ads(slots, jobs, attribute=attribute, pool=pool),
        )

    # -- dispatch ---------------------------------------------------------------------------

    def _submit(self, spec: JobSpec) -> SubmitResult:
        """Write the submit description and run ``condor_submit -terse``.

        Postcondition: the job is in the schedd's queue and its ``Cluster.Proc`` id returned.

        Raises:
            UnsafeValueError: the job cannot be written safely (see render_submit_description).
            ProviderError: condor_submit refused or failed (transient: the schedd may recover).
        """
        attribute = self._attribute
        if spec.partition and attribute is None:
            known = {p.name for p in self.facts().partitions}
            if spec.partition not in known:
                raise ProviderError(
                    f"partition {spec.partition!r} does not exist here; "
                    f"partitions are: {', '.join(sorted(known))}"
                )
        text = render_submit_description(spec, partition_attribute=attribute)
        path = script_path(MANAGER, spec.name, ".sub")
        path.write_text(text)
        try:
            out = self._run(["condor_submit", "-terse", str(path)])
        except CommandError as exc:
            raise ProviderError(f"condor_submit failed: {exc.message}", transient=True) from None
        return SubmitResult(native_id=parse_submit_terse(out), script=text)

    def _checked(self, native_id: str) -> str:
        if not isinstance(native_id, str) or not NATIVE_ID_RE.match(native_id):
            raise UnsafeValueError(
                f"native id {native_id!r} is not an HTCondor job id (Cluster.Proc, e.g. 1234.0)"
            )
        return native_id

    def _status(self, native_id: str) -> JobStatus:
        """The job's state from the queue, else from the history (finished jobs).

        Raises:
            UnsafeValueError: ``native_id`` is not ``Cluster.Proc``.
            ProviderError: condor_q or condor_history failed or printed garbage.
        """
        job_id = self._checked(native_id)
        ads = parse_ads(self._run(["condor_q", "-json", job_id]), "condor_q -json")
        if not ads:
            ads = parse_ads(
                self._run(["condor_history", "-json", "-limit", "1", job_id]),
                "condor_history -json",
            )
        if not ads:
            return JobStatus(
                site=self.name,
                native_id=job_id,
                state=JobState.UNKNOWN,
                message=f"job {job_id} is in neither the queue nor the history of this schedd",
            )
        state, exit_code, message = job_state_of(ads[0])
        return JobStatus(
            site=self.name, native_id=job_id, state=state, exit_code=exit_code, message=message
        )

    def _cancel(self, native_id: str) -> JobStatus:
        """``condor_rm`` a queued or running job; a finished or unknown job is left as it is."""
        return cancel_then_status(
            native_id,
            status=self._status,
            run=self._run,
            argv=["condor_rm", native_id],
            what="condor_rm",
        )
