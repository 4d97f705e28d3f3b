"""Slurm as a workload provider: partitions and load from the real cluster, and real jobs.

Probing runs three read-only client commands (``sinfo --version``, a node listing and the job
queue, plus ``scontrol show config`` for the cluster name) and turns their fixed-format output
into :class:`providers.facts.WorkloadFacts` with the pure parsers of
:mod:`providers.workload.slurm_parse`. Dispatch renders a ``#SBATCH`` script in which every
value from the request is validated or quoted (:func:`render_batch_script`), submits it with
``sbatch --parsable`` and reads job states with ``squeue``/``scontrol`` (and ``sacct`` once
the controller has forgotten the job).

Options (site configuration, ``providers.options.slurm``):
    slurm_conf: path of a ``slurm.conf``; set as ``SLURM_CONF`` for every command, to talk to
        another cluster than the client's default.
    partitions: only these partitions are reported and accepted for jobs.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from providers.categories import WorkloadProvider
from providers.commands import CommandResult, CommandRunner, safe_name
from providers.errors import CommandError, ProviderError, UnsafeValueError
from providers.facts import WorkloadFacts
from providers.jobspec import JobSpec, SubmitResult
from providers.wire.jobs import JobOutput, JobState, JobStatus
from providers.workload.batch import (
    BatchScript,
    directive_value,
    format_walltime,
    job_folder,
    script_path,
)
from providers.workload.output_files import output_from_files
from providers.workload.slurm_keys import (
    QUEUE_BY_COMMENT_ARGV,
    job_with_comment,
    key_comment,
    parse_min_job_age,
    sbatch_in_flight,
)
from providers.workload.slurm_parse import (
    CONFIG_ARGV,
    MANAGER,
    NATIVE_ID_RE,
    NODES_ARGV,
    QUEUE_ARGV,
    VERSION_ARGV,
    JobRecord,
    build_partitions,
    parse_cluster_name,
    parse_job_record,
    parse_node_rows,
    parse_queue,
    parse_sacct,
    parse_submit_output,
    parse_version,
    translate_job_state,
)

COMMAND_TIMEOUT_S = 20.0
"""Time allowed to each Slurm client command (a busy controller can take seconds)."""
CANCEL_SETTLE_S = 10.0
"""How long :meth:`SlurmProvider.cancel_job` waits for the job to reach a final state."""
_TRANSIENT_MARKERS = (
    "unable to contact slurm controller",
    "socket timed out",
    "temporarily unable",
    "zero bytes were transmitted",
    "connection refused",
    "slurm_persist_conn",
)
"""stderr fragments meaning "the controller is not answering now", worth a retry elsewhere."""


class SlurmOptions(BaseModel):
    """The Slurm provider's site options, validated once when the provider is built."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    slurm_conf: str | None = None
    partitions: tuple[str, ...] | None = None

    @field_validator("slurm_conf")
    @classmethod
    def _absolute(cls, value: str | None) -> str | None:
        if value is not None and not Path(value).is_absolute():
            raise ValueError(f"must be an absolute path to a slurm.conf, got {value!r}")
        return value

    @field_validator("partitions")
    @classmethod
    def _names(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None:
            for name in value:
                safe_name(name, "partition")
        return value


def output_paths(native_id: str, folder: Path | None = None) -> tuple[Path, Path]:
    """Where a job submitted by this provider writes its stdout and stderr."""
    base = folder if folder is not None else job_folder(MANAGER)
    return base / f"slurm-{native_id}.out", base / f"slurm-{native_id}.err"


def _mem_directive(gb: float) -> str:
    """``--mem`` value: whole GB as ``NG``, otherwise rounded up to MB (Slurm: 1 GB = 1024 MB)."""
    if float(gb).is_integer():
        return f"{int(gb)}G"
    return f"{math.ceil(gb * 1024)}M"


def render_batch_script(spec: JobSpec, output_dir: Path | None = None) -> str:
    """The ``sbatch`` script for ``spec``.

    Every directive value goes through :func:`providers.workload.batch.directive_value`, the
    environment is exported with quoted values and the command is one quoted argument vector,
    so nothing from the request can become shell syntax or another directive. Cores map to one
    task per node with ``--cpus-per-task`` cores: the command runs once, on the first node, and
    an MPI launcher inside it (``srun``, ``mpirun``) places its own ranks.

    Args:
        spec: the job.
        output_dir: folder for the ``slurm-<id>.out``/``.err`` files (default: the provider's
            job folder under ``$SECRETARY_HOME``).

    Raises:
        UnsafeValueError: a value that cannot go into a directive (a partition with shell
            syntax, a relative or odd working folder).
    """
    script = BatchScript("#SBATCH")
    script.add(f"--job-name={directive_value(spec.name, 'job name')}")
    if spec.dispatch_key:
        script.add(f"--comment={directive_value(key_comment(spec.dispatch_key), 'dispatch key')}")
    script.add(f"--nodes={spec.nodes}")
    if spec.cores_per_node:
        script.add("--ntasks-per-node=1")
        script.add(f"--cpus-per-task={spec.cores_per_node}")
    if spec.gpus_per_node:
        script.add(f"--gres={directive_value(f'gpu:{spec.gpus_per_node}', 'GPU request')}")
    if spec.memory_gb_per_node:
        script.add(f"--mem={directive_value(_mem_directive(spec.memory_gb_per_node), 'memory')}")
    if spec.walltime_s:
        script.add(f"--time={directive_value(format_walltime(spec.walltime_s), 'walltime')}")
    if spec.partition:
        partition = directive_value(safe_name(spec.partition, "partition"), "partition")
        script.add(f"--partition={partition}")
    if spec.workdir:
        if not Path(spec.workdir).is_absolute():
            raise UnsafeValueError(
                f"workdir {spec.workdir!r} must be an absolute path on the cluster"
            )
        script.add(f"--chdir={directive_value(spec.workdir, 'workdir')}")
    folder = output_dir if output_dir is not None else job_folder(MANAGER)
    folder_text = directive_value(str(folder), "output folder")
    # %j is Slurm's own job-id pattern, appended to the validated folder
    script.add(f"--output={folder_text}/slurm-%j.out")
    script.add(f"--error={folder_text}/slurm-%j.err")
    script.environment = dict(spec.environment)
    script.command = tuple(spec.command)
    return script.render()


class SlurmProvider(WorkloadProvider):
    """A Slurm cluster reached through its client commands."""

    name: ClassVar[str] = "slurm"
    description: ClassVar[str] = (
        "Slurm workload manager: partitions with node shape (CPUs, memory, GPUs from gres), "
        "free nodes, queue depth and walltime limits; submits, tracks and cancels batch jobs."
    )
    detection: ClassVar[str] = (
        "the 'sinfo' client on PATH; present but failing (controller down, bad slurm.conf) "
        "makes the provider unavailable with the error, never 'absent'. Option slurm_conf "
        "selects another cluster (SLURM_CONF); option partitions limits what is reported"
    )

    def __init__(
        self,
        *,
        name: str | None = None,
        runner: CommandRunner | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        """Create the provider; nothing runs yet. Bad options are reported at first use.

        Args:
            name: instance name (default ``slurm``).
            runner: command runner; a copy with ``SLURM_CONF`` added is used when the
                ``slurm_conf`` option is set, so the caller's runner is not changed.
            options: ``slurm_conf`` and ``partitions`` (see the module docstring).
        """
        super().__init__(name=name, runner=runner, options=options)
        self._options_error: str | None = None
        self.settings = SlurmOptions()
        try:
            self.settings = SlurmOptions.model_validate(self.options)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'options'}: "
                f"{err['msg'].removeprefix('Value error, ')}"
                for err in exc.errors()
            )
            self._options_error = f"slurm provider options are invalid: {problems}"
        except UnsafeValueError as exc:  # pragma: no cover - pydantic wraps validator errors
            self._options_error = exc.message
        if self.settings.slurm_conf:
            self.runner = copy.copy(self.runner)
            self.runner.env = {**self.runner.env, "SLURM_CONF": self.settings.slurm_conf}

    def __repr__(self) -> str:
        return f"SlurmProvider(name={self.name!r}, options={self.options!r})"

    # -- commands --------------------------------------------------------------------------

    def _check_options(self) -> None:
        if self._options_error:
            raise ProviderError(self._options_error)
        conf = self.settings.slurm_conf
        if conf and not Path(conf).is_file():
            raise ProviderError(
                f"slurm_conf {conf!r} does not exist: point the option at the cluster's "
                "slurm.conf, or remove it to use the client's default"
            )

    def _run(self, argv: list[str] | tuple[str, ...], *, check: bool = True) -> CommandResult:
        """Run a Slurm client; a controller that does not answer is a transient error."""
        try:
            return self.runner.run(list(argv), timeout_s=COMMAND_TIMEOUT_S, check=check)
        except CommandError as exc:
            text = (exc.stderr or exc.message).lower()
            if not exc.transient and any(m in text for m in _TRANSIENT_MARKERS):
                raise CommandError(
                    exc.message,
                    argv=exc.argv,
                    returncode=exc.returncode,
                    stdout=exc.stdout,
                    stderr=exc.stderr,
                    transient=True,
                ) from None
            raise

    # -- probing ---------------------------------------------------------------------------

    def _probe(self) -> WorkloadFacts | None:
        """Read version, cluster name, partitions and queue from the live cluster.

        Returns None when ``sinfo`` is not on PATH (Slurm is not here).

        Raises:
            ProviderError: bad options, a command that failed, or output of the wrong shape
                (the message names the command); ``transient`` when the controller did not
                answer.
        """
        if self.runner.which("sinfo") is None:
            return None
        self._check_options()
        version = parse_version(self._run(VERSION_ARGV).stdout)
        rows = parse_node_rows(self._run(NODES_ARGV).stdout)
        queue = parse_queue(self._run(QUEUE_ARGV).stdout)
        config = self._run(CONFIG_ARGV, check=False)
        cluster = parse_cluster_name(config.stdout) if config.returncode == 0 else None
        only = self.settings.partitions
        partitions = build_partitions(rows, queue, only)
        if only is not None and not partitions:
            known = ", ".join(sorted({r.partition for r in rows}))
            raise ProviderError(
                f"none of the configured partitions ({', '.join(only)}) exists in Slurm "
                f"cluster {cluster or '(unnamed)'}; it has: {known}"
            )
        return WorkloadFacts(
            manager=MANAGER, version=version, cluster=cluster, partitions=tuple(partitions)
        )

    # -- dispatch --------------------------------------------------------------------------

    def _submit(self, spec: JobSpec) -> SubmitResult:
        """Render the script, write it (mode 0600: it may hold credentials), ``sbatch`` it.

        Postcondition: Slurm accepted the job; ``native_id`` is its job id and ``script`` the
        submitted text.

        Raises:
            UnsafeValueError: a value that cannot go into the script.
            ProviderError: a partition outside the configured ``partitions``, or sbatch refused
                the job (``transient`` when the controller did not answer).
        """
        self._check_options()
        only = self.settings.partitions
        if only is not None and spec.partition is not None and spec.partition not in only:
            raise ProviderError(
                f"partition {spec.partition!r} is not offered here; use one of: {', '.join(only)}"
            )
        if only is not None and spec.partition is None:
            spec = spec.model_copy(update={"partition": only[0]})
        text = render_batch_script(spec)
        path = script_path(MANAGER, spec.name)
        path.touch(mode=0o600)
        path.write_text(text, encoding="utf-8")
        argv = ["sbatch", "--parsable", str(path)]
        result = self._run(argv)
        native_id = parse_submit_output(result.stdout, argv)
        return SubmitResult(native_id=native_id, script=text)

    def _find_job(self, dispatch_key: str, since: float) -> str | None:
        """The job whose comment carries ``dispatch_key`` (see :mod:`.slurm_keys`).

        Raises:
            ProviderError: an ``sbatch`` with the key still runs (transient), the controller
                may have forgotten a job that old, or a Slurm command failed.
        """
        self._check_options()
        comment = key_comment(dispatch_key)
        if sbatch_in_flight(comment):
            raise ProviderError(
                "an sbatch for this dispatch is still running; ask again shortly", transient=True
            )
        found = job_with_comment(self._run(QUEUE_BY_COMMENT_ARGV).stdout, comment)
        if found is not None:
            return found
        config = self._run(CONFIG_ARGV, check=False)
        min_age = parse_min_job_age(config.stdout) if config.returncode == 0 else None
        age = time.time() - since
        if min_age is not None and age < min_age:
            return None
        raise ProviderError(
            f"no job with comment {comment!r} in the Slurm queue, but the dispatch is "
            f"{age:.0f} s old and the controller forgets finished jobs after MinJobAge "
            f"({'unknown' if min_age is None else f'{min_age:g} s'}); look in the job "
            "accounting before running it again"
        )

    def _check_id(self, native_id: str) -> str:
        if not isinstance(native_id, str) or not NATIVE_ID_RE.match(native_id):
            raise UnsafeValueError(
                f"native id {native_id!r} is not a Slurm job id: digits, or digits_digits for "
                "one task of an array"
            )
        return native_id

    def _status_from(self, native_id: str, record: JobRecord, source: str) -> JobStatus:
        state = translate_job_state(record.state)
        message = f"Slurm {source}: {record.state}"
        if record.reason:
            message += f" ({record.reason})"
        exit_code = record.exit_code if state.terminal else None
        if state is JobState.COMPLETED and exit_code is None:
            exit_code = 0
        return JobStatus(
            site=self.name, native_id=native_id, state=state, exit_code=exit_code, message=message
        )

    def _finished_record(self, native_id: str) -> tuple[JobRecord, str] | None:
        """The job's record from the controller, else from accounting; None if neither knows."""
        argv = ["scontrol", "-o", "show", "job", native_id]
        result = self._run(argv, check=False)
        if result.returncode == 0:
            return parse_job_record(result.stdout, argv), "scontrol"
        if "invalid job id" not in (result.stderr + result.stdout).lower():
            self._run(argv)  # raises with the command's own error
        if self.runner.which("sacct") is None:
            return None
        sacct = self._run(
            ["sacct", "-n", "-P", "-X", "-j", native_id, "-o", "State,ExitCode"], check=False
        )
        record = parse_sacct(sacct.stdout) if sacct.returncode == 0 else None
        return (record, "sacct") if record is not None else None

    def _status(self, native_id: str) -> JobStatus:
        """The job's state: ``squeue`` while it is queued or running, then ``scontrol``/``sacct``.

        Returns UNKNOWN (with a message) for a job id Slurm does not know, or no longer
        remembers and has no accounting record of.

        Raises:
            UnsafeValueError: ``native_id`` is not a Slurm job id.
            ProviderError: a Slurm command failed (``transient`` when the controller is down).
        """
        self._check_options()
        self._check_id(native_id)
        result = self._run(["squeue", "-h", f"--jobs={native_id}", "-o", "%T"], check=False)
        word = result.stdout.strip().splitlines()[0].strip() if result.stdout.strip() else ""
        if result.returncode == 0 and word:
            state = translate_job_state(word)
            if not state.terminal:
                return JobStatus(
                    site=self.name, native_id=native_id, state=state, message=f"Slurm: {word}"
                )
        found = self._finished_record(native_id)
        if found is None:
            return JobStatus(
                site=self.name,
                native_id=native_id,
                state=JobState.UNKNOWN,
                message=(
                    f"Slurm does not know job {native_id}: never submitted to this cluster, or "
                    "finished longer ago than MinJobAge and accounting (sacct) has no record"
                ),
            )
        return self._status_from(native_id, *found)

    def _output(self, native_id: str, max_bytes: int) -> JobOutput:
        """The ends of the ``slurm-ID.out`` / ``.err`` files this provider asked Slurm to write
        (on a shared filesystem they are readable here whichever node ran the job)."""
        out_path, err_path = output_paths(self._check_id(native_id))
        return output_from_files(
            self.name,
            native_id,
            out_path,
            err_path,
            max_bytes,
            f"no output files yet ({out_path.name}): the job has not started, or it was not "
            "submitted by this site",
        )

    def _cancel(self, native_id: str) -> JobStatus:
        """``scancel`` the job, then report its state once final (or after a short wait).

        A job that already finished keeps its state; an unknown id reports UNKNOWN.

        Raises:
            UnsafeValueError: ``native_id`` is not a Slurm job id.
            ProviderError: scancel failed for another reason than an unknown job.
        """
        self._check_options()
        self._check_id(native_id)
        result = self._run(["scancel", native_id], check=False)
        if result.returncode != 0:
            text = (result.stderr + result.stdout).lower()
            if "invalid job id" not in text and "already completing or completed" not in text:
                self._run(["scancel", native_id])  # raises with scancel's own error
        deadline = time.monotonic() + CANCEL_SETTLE_S
        status = self._status(native_id)
        while not status.state.terminal and status.state is not JobState.UNKNOWN:
            if time.monotonic() >= deadline:
                break
            time.sleep(0.2)
            status = self._status(native_id)
        return status
