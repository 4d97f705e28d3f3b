"""IBM Spectrum LSF as a workload provider: queues, hosts, load, and running jobs.

Read with LSF's own machine-readable forms where they exist (``-o ... -json``, LSF 10.1+):

* ``lsid``: version and cluster name (LSF is present when ``lsid`` and ``bqueues`` are);
* ``bparams``: the default queue (optional: a failure leaves it unknown);
* ``bqueues -o "queue_name status max njobs pend run" -json``: queues and their load;
* ``bhosts -o "host_name status max njobs run ngpus" -json``: hosts, slots and GPUs;
* ``lshosts -w``: cores (``ncpus``) and memory (``maxmem``) of each host.

``bqueues -o`` has no host list, so every queue is taken to reach every host, and no run
limit, so ``max_walltime_s`` stays unknown (see the provider's ``detection``).

Jobs are submitted by giving the script to ``bsub`` on standard input (the documented
``bsub < script`` form, without a shell), followed with ``bjobs -o "jobid stat exit_code"
-json ID`` and cancelled with ``bkill ID``.
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
from providers.workload.batch import BatchScript, directive_value, script_path, translate_state
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
    write_private,
)

MANAGER = "lsf"
LSID = ("lsid",)
BPARAMS = ("bparams",)
BQUEUES = ("bqueues", "-o", "queue_name status max njobs pend run", "-json")
BHOSTS = ("bhosts", "-o", "host_name status max njobs run ngpus", "-json")
LSHOSTS = ("lshosts", "-w")

LSF_STATES_URL = "https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=bjobs-job-state"
"""Where the STAT values of bjobs are documented ("Job state")."""
LSF_STATES: dict[str, JobState] = {
    "PEND": JobState.QUEUED,
    "PROV": JobState.QUEUED,  # waiting for provisioned hosts
    "PSUSP": JobState.QUEUED,  # suspended by its owner while pending
    "WAIT": JobState.QUEUED,  # chunk job member waiting to run
    "RUN": JobState.RUNNING,
    "USUSP": JobState.RUNNING,  # suspended while running: keeps its hosts
    "SSUSP": JobState.RUNNING,  # suspended by LSF while running: keeps its hosts
    "DONE": JobState.COMPLETED,
    "EXIT": JobState.FAILED,
    "UNKWN": JobState.UNKNOWN,
    "ZOMBI": JobState.UNKNOWN,
}
"""bjobs STAT -> common state (see :data:`LSF_STATES_URL`)."""

NATIVE_ID = re.compile(r"\d{1,12}(\[\d{1,12}\])?")
_SUBMITTED = re.compile(r"Job <(\d{1,12})> is submitted")
_TERMINATED_BY_WALLTIME = re.compile(r"TERM_RUNLIMIT", re.IGNORECASE)


# -- parsing (pure) --------------------------------------------------------------------------


def parse_lsid(text: str) -> tuple[str | None, str | None]:
    """(version, cluster) from ``lsid``: "IBM Spectrum LSF Standard 10.1.0.13, ..." and
    "My cluster name is NAME"."""
    cluster = re.search(r"My cluster name is\s+(\S+)", text)
    first = text.strip().splitlines()[0] if text.strip() else ""
    return find_version(first), cluster.group(1) if cluster else None


def parse_bparams(text: str) -> str | None:
    """The first default queue from ``bparams`` ("Default Queues:  normal  short")."""
    m = re.search(r"Default Queues:\s*(\S+)", text)
    return m.group(1) if m else None


def _records(data: dict[str, Any], command: str) -> list[dict[str, Any]]:
    records = data.get("RECORDS")
    if not isinstance(records, list):
        raise ProviderError(f"{MANAGER}: `{command}` JSON has no RECORDS list")
    return [r for r in records if isinstance(r, dict)]


def parse_lshosts(text: str) -> dict[str, tuple[int, float]]:
    """host -> (ncpus, maxmem GB) from ``lshosts -w`` ("-" values read as 0)."""
    hosts: dict[str, tuple[int, float]] = {}
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or not lines[0].split() or lines[0].split()[0] != "HOST_NAME":
        raise ProviderError(f"{MANAGER}: `lshosts -w` printed no HOST_NAME header")
    header = lines[0].split()
    try:
        at_cpus, at_mem = header.index("ncpus"), header.index("maxmem")
    except ValueError:
        raise ProviderError(f"{MANAGER}: `lshosts -w` has no ncpus/maxmem columns") from None
    for line in lines[1:]:
        cells = line.split()
        if len(cells) <= max(at_cpus, at_mem):
            continue
        hosts[cells[0]] = (as_int(cells[at_cpus]), parse_size_gb(cells[at_mem], "mb") or 0.0)
    return hosts


def parse_bhosts(data: dict[str, Any], shapes: dict[str, tuple[int, float]]) -> list[NodeRecord]:
    """Hosts of ``bhosts -o ... -json`` with their shape from ``lshosts``.

    A host is free when its STATUS is ``ok`` and it runs no job. Cores come from ``lshosts``
    (``ncpus``), else from the host's slot limit ``MAX``.
    """
    nodes: list[NodeRecord] = []
    for rec in _records(data, command_of(BHOSTS)):
        name = str(rec.get("HOST_NAME", ""))
        if not name:
            continue
        cpus, memory = shapes.get(name, (0, 0.0))
        nodes.append(
            NodeRecord(
                name=name,
                cpus=cpus or as_int(rec.get("MAX")),
                memory_gb=memory,
                gpus=as_int(rec.get("NGPUS")),
                free=str(rec.get("STATUS", "")).lower() == "ok"
                and as_int(rec.get("NJOBS")) == 0
                and as_int(rec.get("RUN")) == 0,
            )
        )
    return nodes


def command_of(argv: tuple[str, ...]) -> str:
    return " ".join(argv)


def lsf_facts(
    *,
    lsid: str,
    default_queue: str | None,
    queues: dict[str, Any],
    hosts: dict[str, Any],
    lshosts: str,
) -> WorkloadFacts:
    """Facts from the LSF outputs. Open queues become partitions over every host.

    An open but inactive queue (``Open:Inact``) accepts jobs without starting them, so it
    reports no free host.

    Raises:
        ProviderError: an output lacks what LSF always prints.
    """
    version, cluster = parse_lsid(lsid)
    nodes = parse_bhosts(hosts, parse_lshosts(lshosts))
    partitions: list[Partition] = []
    for rec in _records(queues, command_of(BQUEUES)):
        name = str(rec.get("QUEUE_NAME", ""))
        status = str(rec.get("STATUS", ""))
        if not name or not status.lower().startswith("open"):
            continue
        part = partition_of(
            name,
            nodes,
            queued=as_int(rec.get("PEND")),
            running=as_int(rec.get("RUN")),
            default=name == default_queue,
        )
        if part is None:
            continue
        if "inact" in status.lower():
            part = part.model_copy(update={"free_nodes": 0})
        partitions.append(part)
    return WorkloadFacts(
        manager=MANAGER, version=version, cluster=cluster, partitions=tuple(partitions)
    )


def lsf_job_status(record: dict[str, Any]) -> tuple[JobState, int | None, str]:
    """State, exit code and message of one ``bjobs -o "jobid stat exit_code" -json`` record."""
    raw = str(record.get("STAT", ""))
    state = translate_state(LSF_STATES, raw, MANAGER)
    exit_text = str(record.get("EXIT_CODE", "")).strip()
    exit_code = as_int(exit_text, -1) if exit_text and exit_text != "-" else None
    if state is JobState.COMPLETED and exit_code is None:
        exit_code = 0
    reason = str(record.get("EXIT_REASON", ""))
    if state is JobState.FAILED and _TERMINATED_BY_WALLTIME.search(reason):
        state = JobState.TIMEOUT
    return state, exit_code, f"STAT {raw}" + (f": {reason}" if reason else "")


def parse_bsub_output(text: str) -> str:
    """The job id from "Job <1234> is submitted to queue <normal>."

    Raises:
        ProviderError: bsub printed no such line.
    """
    m = _SUBMITTED.search(text)
    if not m:
        raise ProviderError(
            f"{MANAGER}: bsub printed {text.strip()[:120]!r}, expected 'Job <ID> is submitted'"
        )
    return m.group(1)


# -- job scripts -----------------------------------------------------------------------------


def render_lsf_script(spec: JobSpec, *, output_stem: str | Path | None = None) -> str:
    """The LSF job script for ``spec``.

    ``spec.nodes`` hosts with ``cores_per_node`` tasks each become ``-n NODES*CORES`` and
    ``span[ptile=CORES]`` (one task per host when cores are not given); memory is reserved per
    host (``rusage[mem=MB/host]``, LSF 10.1.0.9+), GPUs per host (``-gpu "num=G"``), and the
    walltime is ``-W HH:MM`` rounded up to the minute. The environment is exported in the
    script.

    Raises:
        UnsafeValueError: a queue, name or path that could break out of a directive line.
    """
    script = BatchScript("#BSUB", environment=dict(spec.environment), workdir=spec.workdir)
    script.command = tuple(spec.command)
    script.add("-J", directive_value(spec.name, "job name"))
    ptile = spec.cores_per_node or 1
    script.add("-n", str(spec.nodes * ptile))
    script.add("-R", f'"span[ptile={ptile}]"')
    if spec.gpus_per_node:
        script.add("-gpu", f'"num={spec.gpus_per_node}"')
    if spec.memory_gb_per_node:
        script.add("-R", f'"rusage[mem={math.ceil(spec.memory_gb_per_node * 1024)}/host]"')
    if spec.walltime_s:
        minutes = math.ceil(spec.walltime_s / 60)
        script.add("-W", f"{minutes // 60:02d}:{minutes % 60:02d}")
    if spec.partition:
        script.add("-q", directive_value(spec.partition, "queue"))
    if output_stem is not None:
        script.add("-o", directive_value(f"{output_stem}.out", "output path"))
        script.add("-e", directive_value(f"{output_stem}.err", "error path"))
    return script.render()


# -- the provider ----------------------------------------------------------------------------


class LSFProvider(WorkloadProvider):
    """IBM Spectrum LSF: queues as partitions, and jobs submitted with bsub."""

    name: ClassVar[str] = "lsf"
    description: ClassVar[str] = (
        "IBM Spectrum LSF: open queues with host shape, free hosts, pending and running jobs; "
        "submits, follows and cancels jobs."
    )
    detection: ClassVar[str] = (
        "lsid and bqueues on PATH; facts from lsid, bparams, bqueues/bhosts -o ... -json and "
        "lshosts -w (every queue is taken to reach every host; max walltime not reported)"
    )

    def _probe(self) -> WorkloadFacts | None:
        """Read LSF; None when ``lsid``/``bqueues`` are not installed here.

        Raises:
            ProviderError: LSF is installed but a command failed or printed something else
                than its documented format (the message names the command).
        """
        if not present(self.runner, "lsid", "bqueues"):
            return None
        lsid = run_stdout(self.runner, MANAGER, LSID)
        if not lsid.strip():
            raise ProviderError(f"{MANAGER}: `lsid` printed nothing")
        try:
            default_queue = parse_bparams(run_stdout(self.runner, MANAGER, BPARAMS))
        except CommandError:
            default_queue = None
        return lsf_facts(
            lsid=lsid,
            default_queue=default_queue,
            queues=run_json_object(self.runner, MANAGER, BQUEUES),
            hosts=run_json_object(self.runner, MANAGER, BHOSTS),
            lshosts=run_stdout(self.runner, MANAGER, LSHOSTS),
        )

    def _submit(self, spec: JobSpec) -> SubmitResult:
        """Write the script into ``$SECRETARY_HOME/lsf/`` (for audit) and give it to ``bsub``
        on standard input.

        Postcondition: LSF accepted the job; ``native_id`` is its numeric job id.

        Raises:
            UnsafeValueError: a value that cannot go into a directive.
            CommandError: bsub refused the job or timed out (``transient`` on timeout).
        """
        path = script_path(MANAGER, spec.name)
        text = render_lsf_script(spec, output_stem=path.with_suffix(""))
        write_private(path, text)
        out = run_stdout(
            self.runner, MANAGER, ("bsub",), timeout_s=SUBMIT_TIMEOUT_S, input_text=text
        )
        return SubmitResult(native_id=parse_bsub_output(out), script=text)

    def _status(self, native_id: str) -> JobStatus:
        """The job's state from ``bjobs -o "jobid stat exit_code exit_reason" -json ID``.

        Raises:
            UnsafeValueError: ``native_id`` is not an LSF job id.
            CommandError: bjobs itself failed.
        """
        check_native_id(native_id, NATIVE_ID, MANAGER, "1234")
        argv = ("bjobs", "-o", "jobid stat exit_code exit_reason", "-json", native_id)
        try:
            data = run_json_object(self.runner, MANAGER, argv)
        except CommandError as exc:
            if "not found" in (exc.stdout + exc.stderr).lower():
                return self._job_state(native_id, JobState.UNKNOWN, None, "LSF does not know it")
            raise
        records = data.get("RECORDS") if isinstance(data.get("RECORDS"), list) else []
        record = next((r for r in records if isinstance(r, dict)), None)
        if record is None or "ERROR" in record or not record.get("STAT"):
            why = str(record.get("ERROR", "")) if isinstance(record, dict) else ""
            return self._job_state(native_id, JobState.UNKNOWN, None, why or "LSF does not know it")
        state, exit_code, message = lsf_job_status(record)
        return self._job_state(native_id, state, exit_code, message)

    def _cancel(self, native_id: str) -> JobStatus:
        """``bkill ID`` unless the job already finished; finished jobs keep their state."""
        return cancel_unless_finished(
            native_id,
            status=self._status,
            runner=self.runner,
            manager=MANAGER,
            argv=("bkill", native_id),
        )

    def _job_state(
        self, native_id: str, state: JobState, exit_code: int | None, message: str
    ) -> JobStatus:
        return JobStatus(
            site=self.name, native_id=native_id, state=state, exit_code=exit_code, message=message
        )
