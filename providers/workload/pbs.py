"""PBS Professional / OpenPBS as a workload provider: queues, nodes, load, and running jobs.

Everything is read from the JSON forms of the PBS commands (``-F json``, PBS Pro 18+ and
OpenPBS), so no column layout is guessed:

* ``qstat --version`` must say ``pbs_version`` (Torque's ``qstat`` says ``Version:``);
* ``qstat -B -f -F json``: server name and default queue (optional: a failure leaves them out);
* ``qstat -Q -f -F json``: execution queues and their ``resources_max.walltime``;
* ``pbsnodes -a -F json``: nodes (``resources_available.ncpus/mem/ngpus``, state, and queue
  membership through the node's ``queue`` attribute or a ``resources_available.Qlist``);
* ``qstat -f -F json``: jobs, counted per queue by ``job_state``.

Jobs are submitted as a script file in ``$SECRETARY_HOME/pbs/`` (``qsub PATH``), followed with
``qstat -x -f -F json ID`` and cancelled with ``qdel ID``. Parsing is in pure functions so the
tests can feed them recorded output.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, ClassVar

from providers.categories import WorkloadProvider
from providers.errors import CommandError, ProviderError
from providers.facts import Partition, WorkloadFacts
from providers.jobspec import JobSpec, SubmitResult
from providers.wire.jobs import JobState, JobStatus
from providers.workload.batch import (
    BatchScript,
    directive_value,
    format_walltime,
    parse_walltime,
    script_path,
    translate_state,
)
from providers.workload.scheduler_io import (
    SUBMIT_TIMEOUT_S,
    NodeRecord,
    as_int,
    cancel_unless_finished,
    check_native_id,
    find_version,
    parse_size_gb,
    partition_of,
    present,
    run_json_object,
    run_stdout,
    version_banner,
    write_private,
)

MANAGER = "pbs"
QSTAT_VERSION = ("qstat", "--version")
QSTAT_SERVER = ("qstat", "-B", "-f", "-F", "json")
QSTAT_QUEUES = ("qstat", "-Q", "-f", "-F", "json")
PBSNODES = ("pbsnodes", "-a", "-F", "json")
QSTAT_JOBS = ("qstat", "-f", "-F", "json")

PBS_STATES_URL = "https://github.com/openpbs/openpbs/blob/master/doc/man1/qstat.1B"
"""Where the job state letters are documented (qstat(1B), "Job states")."""
PBS_STATES: dict[str, JobState] = {
    "Q": JobState.QUEUED,  # queued, eligible to run
    "H": JobState.QUEUED,  # held
    "W": JobState.QUEUED,  # waiting for its requested execution time
    "T": JobState.QUEUED,  # being moved to a new location
    "M": JobState.QUEUED,  # moved to another server
    "S": JobState.QUEUED,  # suspended by the scheduler: resumes when resources free up
    "U": JobState.QUEUED,  # suspended because the workstation became busy
    "R": JobState.RUNNING,
    "B": JobState.RUNNING,  # array job: at least one subjob has started
    "E": JobState.RUNNING,  # exiting after having run
    "X": JobState.COMPLETED,  # subjob finished (refined by its exit status)
    "F": JobState.COMPLETED,  # finished (refined by its exit status)
}
"""PBS job state letter -> common state (see :data:`PBS_STATES_URL`)."""
WAITING = frozenset({"Q", "H", "W", "T"})
RUNNING = frozenset({"R", "B", "E"})

NATIVE_ID = re.compile(r"\d{1,12}(\[\d{0,12}\])?(\.[A-Za-z0-9][A-Za-z0-9.-]{0,127})?")
_WALLTIME_KILLED = re.compile(r"walltime\s+\d+\s+exceeded", re.IGNORECASE)


# -- parsing (pure) --------------------------------------------------------------------------


def pbs_walltime(value: Any) -> int | None:
    """Seconds of a PBS duration ``[[hours:]minutes:]seconds[.fraction]`` (or an integer).

    Returns None for anything else (callers read None as "no limit known").
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return None
    parts = value.strip().split(":")
    if not 1 <= len(parts) <= 3 or not all(re.fullmatch(r"\d+(\.\d*)?", p) for p in parts):
        return None
    if len(parts) == 3 and "." not in value:
        return parse_walltime(value)  # HH:MM:SS, the form PBS prints
    total = 0  # PBS reads one part as seconds and two as MM:SS (unlike Slurm)
    for part in parts:
        total = total * 60 + int(float(part))
    return total


def _split_list(value: Any) -> set[str]:
    if not isinstance(value, str):
        return set()
    return {v.strip() for v in value.split(",") if v.strip()}


def parse_pbs_nodes(data: dict[str, Any]) -> list[NodeRecord]:
    """Nodes of ``pbsnodes -a -F json``.

    A node is free when its state is exactly ``free`` and it runs no job (no ``jobs`` and no
    assigned CPUs): PBS says ``free`` for a partly used shared node too. Its queues are its
    ``queue`` attribute plus ``resources_available.Qlist``; None when it names neither.
    """
    nodes = data.get("nodes")
    if not isinstance(nodes, dict):
        raise ProviderError(
            f"{MANAGER}: `pbsnodes -a -F json` has no 'nodes' object; is this PBS Pro/OpenPBS?"
        )
    found: list[NodeRecord] = []
    for name, node in sorted(nodes.items()):
        if not isinstance(node, dict):
            continue
        avail = node.get("resources_available") or {}
        assigned = node.get("resources_assigned") or {}
        states = _split_list(node.get("state"))
        busy = bool(node.get("jobs")) or as_int(assigned.get("ncpus")) > 0
        queues = _split_list(avail.get("Qlist")) | _split_list(node.get("queue"))
        found.append(
            NodeRecord(
                name=str(name),
                cpus=as_int(avail.get("ncpus"), as_int(node.get("pcpus"))),
                memory_gb=parse_size_gb(avail.get("mem"), "b") or 0.0,
                gpus=as_int(avail.get("ngpus")),
                free=states == {"free"} and not busy,
                queues=frozenset(queues) if queues else None,
            )
        )
    return found


def count_pbs_jobs(data: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """(waiting, running) jobs per queue from ``qstat -f -F json`` (no ``Jobs``: none)."""
    counts: dict[str, tuple[int, int]] = {}
    jobs = data.get("Jobs") or {}
    if not isinstance(jobs, dict):
        raise ProviderError(f"{MANAGER}: `qstat -f -F json` has a 'Jobs' that is not an object")
    for job in jobs.values():
        if not isinstance(job, dict):
            continue
        queue = str(job.get("queue", ""))
        state = str(job.get("job_state", "")).upper()
        waiting, running = counts.get(queue, (0, 0))
        counts[queue] = (waiting + (state in WAITING), running + (state in RUNNING))
    return counts


def _queue_members(queue: str, attrs: dict[str, Any], nodes: list[NodeRecord]) -> list[NodeRecord]:
    """Nodes of a queue: its ``default_chunk.Qlist`` value, else nodes naming it, else the
    nodes that name no queue at all (PBS gives unassigned nodes to queues without nodes)."""
    chunk = attrs.get("default_chunk") or {}
    wanted = _split_list(chunk.get("Qlist")) or {queue}
    named = [n for n in nodes if n.queues is not None and n.queues & wanted]
    if named:
        return named
    if _split_list(chunk.get("Qlist")):
        return []
    return [n for n in nodes if n.queues is None]


def pbs_facts(
    *,
    version: str | None,
    server: dict[str, Any] | None,
    queues: dict[str, Any],
    nodes: dict[str, Any],
    jobs: dict[str, Any],
) -> WorkloadFacts:
    """Facts from the four JSON documents (``server`` may be None when it could not be read).

    Only enabled execution queues with at least one node become partitions; a queue that is
    enabled but not started keeps its nodes but reports none free (it does not start jobs).

    Raises:
        ProviderError: a document lacks the part PBS always prints (``Queue``, ``nodes``).
    """
    queue_map = queues.get("Queue")
    if not isinstance(queue_map, dict):
        raise ProviderError(
            f"{MANAGER}: `qstat -Q -f -F json` has no 'Queue' object; is this PBS Pro/OpenPBS?"
        )
    node_list = parse_pbs_nodes(nodes)
    counts = count_pbs_jobs(jobs)
    default_queue = None
    server_name = queues.get("pbs_server")
    if server and isinstance(server.get("Server"), dict):
        for name, attrs in server["Server"].items():
            server_name = server_name or name
            if isinstance(attrs, dict):
                default_queue = attrs.get("default_queue", default_queue)
    partitions: list[Partition] = []
    for name, attrs in sorted(queue_map.items()):
        if not isinstance(attrs, dict):
            continue
        if str(attrs.get("queue_type", "")).lower() != "execution":
            continue
        if str(attrs.get("enabled", "True")).lower() != "true":
            continue
        waiting, running = counts.get(name, (0, 0))
        limits = attrs.get("resources_max") or {}
        part = partition_of(
            name,
            _queue_members(name, attrs, node_list),
            queued=waiting,
            running=running,
            max_walltime_s=pbs_walltime(limits.get("walltime")),
            default=name == default_queue,
        )
        if part is None:
            continue
        if str(attrs.get("started", "True")).lower() != "true":
            part = part.model_copy(update={"free_nodes": 0})
        partitions.append(part)
    return WorkloadFacts(
        manager=MANAGER,
        version=version or queues.get("pbs_version"),
        cluster=str(server_name) if server_name else None,
        partitions=tuple(partitions),
    )


def pbs_job_status(record: dict[str, Any]) -> tuple[JobState, int | None, str]:
    """State, exit status and message of one job record of ``qstat -x -f -F json``.

    A finished job (F or X) is COMPLETED with exit status 0, TIMEOUT when PBS's comment says
    the walltime was exceeded, and FAILED otherwise (including PBS's negative start errors).
    """
    raw = str(record.get("job_state", ""))
    state = translate_state(PBS_STATES, raw, MANAGER)
    comment = str(record.get("comment", ""))
    exit_code: int | None = None
    if "Exit_status" in record:
        exit_code = as_int(record.get("Exit_status"), -1)
    if state is JobState.COMPLETED:
        if _WALLTIME_KILLED.search(comment):
            state = JobState.TIMEOUT
        elif exit_code != 0:
            state = JobState.FAILED
    return state, exit_code, comment or f"job_state {raw}"


# -- job scripts -----------------------------------------------------------------------------


def pbs_memory(gb: float) -> str:
    """A PBS size for ``gb`` GB: whole gigabytes as ``Ngb``, else rounded up to ``Nmb``."""
    if float(gb).is_integer():
        return f"{int(gb)}gb"
    return f"{math.ceil(gb * 1024)}mb"


def render_pbs_script(spec: JobSpec, *, output_stem: str | Path | None = None) -> str:
    """The PBS job script for ``spec``.

    The environment is exported inside the script (``-V`` is not used, so the submitter's
    environment does not leak into the job). ``output_stem`` puts stdout/stderr at
    ``<stem>.out`` / ``<stem>.err``.

    Raises:
        UnsafeValueError: a queue, name or path that could break out of a directive line.
    """
    script = BatchScript("#PBS", environment=dict(spec.environment), workdir=spec.workdir)
    script.command = tuple(spec.command)
    script.add("-N", directive_value(spec.name, "job name"))
    chunk = [str(spec.nodes)]
    if spec.cores_per_node:
        chunk.append(f"ncpus={spec.cores_per_node}")
    if spec.gpus_per_node:
        chunk.append(f"ngpus={spec.gpus_per_node}")
    if spec.memory_gb_per_node:
        chunk.append(f"mem={pbs_memory(spec.memory_gb_per_node)}")
    script.add("-l", "select=" + ":".join(chunk))
    if spec.nodes > 1:
        script.add("-l", "place=scatter")
    if spec.walltime_s:
        script.add("-l", f"walltime={format_walltime(spec.walltime_s)}")
    if spec.partition:
        script.add("-q", directive_value(spec.partition, "queue"))
    if output_stem is not None:
        script.add("-o", directive_value(f"{output_stem}.out", "output path"))
        script.add("-e", directive_value(f"{output_stem}.err", "error path"))
    return script.render()


def parse_qsub_output(text: str) -> str:
    """The job id ``qsub`` printed (``1234.server``).

    Raises:
        ProviderError: the output is not one job id.
    """
    native_id = text.strip()
    if not NATIVE_ID.fullmatch(native_id):
        raise ProviderError(
            f"{MANAGER}: qsub printed {native_id[:120]!r}, expected a job id like '1234.server'"
        )
    return native_id


# -- the provider ----------------------------------------------------------------------------


class PBSProvider(WorkloadProvider):
    """PBS Professional or OpenPBS: queues as partitions, and jobs submitted with qsub."""

    name: ClassVar[str] = "pbs"
    description: ClassVar[str] = (
        "PBS Professional / OpenPBS: execution queues with node shape, free nodes, queued and "
        "running jobs, max walltime; submits, follows and cancels jobs."
    )
    detection: ClassVar[str] = (
        "qstat and pbsnodes on PATH and `qstat --version` printing pbs_version; facts from "
        "qstat -B/-Q/-f -F json and pbsnodes -a -F json"
    )

    def _probe(self) -> WorkloadFacts | None:
        """Read queues, nodes and jobs; None when PBS Pro/OpenPBS is not installed here.

        Raises:
            ProviderError: PBS is installed but a command failed or printed something else
                than its documented JSON (the message names the command).
        """
        if not present(self.runner, "qstat", "pbsnodes"):
            return None
        banner = version_banner(self.runner, QSTAT_VERSION)
        if banner is None or "pbs_version" not in banner:
            return None  # another scheduler's qstat (Torque, Grid Engine)
        try:
            server: dict[str, Any] | None = run_json_object(self.runner, MANAGER, QSTAT_SERVER)
        except ProviderError:
            server = None  # only the default queue and server name come from here
        jobs = run_json_object(self.runner, MANAGER, QSTAT_JOBS)
        return pbs_facts(
            version=find_version(banner),
            server=server,
            queues=run_json_object(self.runner, MANAGER, QSTAT_QUEUES),
            nodes=run_json_object(self.runner, MANAGER, PBSNODES),
            jobs=jobs,
        )

    def _submit(self, spec: JobSpec) -> SubmitResult:
        """Write the script into ``$SECRETARY_HOME/pbs/`` and run ``qsub PATH``.

        Postcondition: PBS accepted the job; ``native_id`` is the id qsub printed.

        Raises:
            UnsafeValueError: a value that cannot go into a directive.
            CommandError: qsub refused the job or timed out (``transient`` on timeout).
        """
        path = script_path(MANAGER, spec.name)
        text = render_pbs_script(spec, output_stem=path.with_suffix(""))
        write_private(path, text)
        out = run_stdout(self.runner, MANAGER, ("qsub", str(path)), timeout_s=SUBMIT_TIMEOUT_S)
        return SubmitResult(native_id=parse_qsub_output(out), script=text)

    def _status(self, native_id: str) -> JobStatus:
        """The job's state from ``qstat -x -f -F json ID`` (finished jobs included).

        Raises:
            UnsafeValueError: ``native_id`` is not a PBS job id.
            CommandError: qstat failed for another reason than an unknown job.
        """
        check_native_id(native_id, NATIVE_ID, MANAGER, "1234.server")
        argv = ("qstat", "-x", "-f", "-F", "json", native_id)
        try:
            data = run_json_object(self.runner, MANAGER, argv)
        except CommandError as exc:
            if "unknown job" in (exc.stderr + exc.stdout).lower():
                return self._job_state(native_id, JobState.UNKNOWN, None, "PBS does not know it")
            raise
        jobs = data.get("Jobs") or {}
        record = jobs.get(native_id) if isinstance(jobs, dict) else None
        if record is None and isinstance(jobs, dict):
            short = native_id.split(".", 1)[0]
            record = next((v for k, v in jobs.items() if str(k).split(".", 1)[0] == short), None)
        if not isinstance(record, dict):
            return self._job_state(native_id, JobState.UNKNOWN, None, "not in qstat -x output")
        state, exit_code, message = pbs_job_status(record)
        return self._job_state(native_id, state, exit_code, message)

    def _cancel(self, native_id: str) -> JobStatus:
        """``qdel ID`` unless the job already finished; finished jobs keep their state.

        Postcondition: PBS accepted the deletion (CANCELLED) or the job had ended.
        """
        return cancel_unless_finished(
            native_id,
            status=self._status,
            runner=self.runner,
            manager=MANAGER,
            argv=("qdel", native_id),
        )

    def _job_state(
        self, native_id: str, state: JobState, exit_code: int | None, message: str
    ) -> JobStatus:
        return JobStatus(
            site=self.name, native_id=native_id, state=state, exit_code=exit_code, message=message
        )
