"""This machine as a one-node workload manager that really runs jobs.

Each job gets a folder ``$SECRETARY_HOME/jobs/<native id>/`` (``SECRETARY_HOME`` defaults to
``~/.secretary`` and is read at every call) and a detached runner process
(:mod:`providers.workload.local_runner`) that runs the command and records the outcome there.
All job state lives on disk, so :meth:`LocalMachineProvider.job_status` answers from any
process, including one started after the submitter exited.
"""

from __future__ import annotations

import atexit
import json
import os
import platform
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import ClassVar

import psutil

import providers
from providers.categories import WorkloadProvider
from providers.errors import ProviderError, UnsafeValueError
from providers.facts import Partition, WorkloadFacts
from providers.hardware.memory import to_gb
from providers.jobspec import JobSpec, SubmitResult
from providers.paths import secretary_home
from providers.wire.jobs import JobOutput, JobState, JobStatus
from providers.workload.local_runner import (
    EXIT_CODE_FILE,
    MESSAGE_FILE,
    PID_FILE,
    PYTHONPATH_ENV,
    RUNNER_ERR_FILE,
    RUNNER_OUT_FILE,
    RUNNER_PID_FILE,
    SPEC_FILE,
    STATE_FILE,
    STDERR_FILE,
    STDOUT_FILE,
    signal_group,
    write_atomic,
)
from providers.workload.output_files import output_from_files

RUNNER_MODULE = "providers.workload.local_runner"
PARTITION = "local"
NATIVE_ID_RE = re.compile(r"^local-[0-9a-f]{12}\Z")
CANCEL_WAIT_S = 5.0
"""How long a cancellation waits for the runner to record CANCELLED before killing it."""
BUSY_LOAD_OPTION = "busy_load_fraction"
"""Site option: 1-minute load per logical CPU from which the machine counts as busy (unset: the
load of other processes is not considered)."""


class _RunnerProcess(subprocess.Popen[bytes]):
    """A job runner started by this process, which may outlive it on purpose.

    Popen warns ("subprocess N is still running") when an object whose child has not been
    waited for is collected, because that child could become a zombie. A runner still working
    when this process exits is the exception: it belongs to its job, and once this process is
    gone init adopts and reaps it. :func:`_release_runners` marks such runners ``detached`` so
    that their collection at exit stays silent; every other case keeps Popen's warning.
    """

    detached: bool = False

    def __del__(self) -> None:
        if not self.detached:
            super().__del__()


_RUNNERS: dict[int, _RunnerProcess] = {}
"""Runner processes started by this process, kept so they can be reaped (no zombies)."""
_RUNNERS_LOCK = threading.Lock()


def jobs_root() -> Path:
    """The folder holding one sub-folder per local job."""
    return secretary_home() / "jobs"


def _reap() -> None:
    """Collect runners of this process that have exited, so none lingers as a zombie."""
    with _RUNNERS_LOCK:
        for pid, proc in list(_RUNNERS.items()):
            if proc.poll() is not None:
                del _RUNNERS[pid]


def _release_runners() -> None:
    """At interpreter exit, reap the runners that have ended and let the others run on alone.

    Jobs keep running after the submitting process exits, so nothing is waited for or stopped
    here: a runner that has ended is collected now (it would otherwise be reported as still
    running), and one that is still working is marked ``detached`` (see :class:`_RunnerProcess`).
    """
    with _RUNNERS_LOCK:
        for proc in _RUNNERS.values():
            if proc.poll() is None:
                proc.detached = True
        _RUNNERS.clear()


atexit.register(_release_runners)


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _read_int(path: Path) -> int | None:
    text = _read(path)
    try:
        return int(text) if text else None
    except ValueError:
        return None


def runner_process(job_dir: Path) -> psutil.Process | None:
    """The job's runner if it is still alive, else None.

    The start time recorded next to the pid guards against the pid having been reused by an
    unrelated process since (e.g. after a reboot); a zombie counts as dead.
    """
    fields = (_read(job_dir / RUNNER_PID_FILE) or "").split()
    if len(fields) != 2:
        return None
    try:
        pid, created = int(fields[0]), float(fields[1])
        proc = psutil.Process(pid)
        if abs(proc.create_time() - created) > 1.0 or proc.status() == psutil.STATUS_ZOMBIE:
            return None
    except (ValueError, psutil.Error):
        return None
    return proc


def _runner_environment() -> dict[str, str]:
    """The submitter's environment, with the folder holding ``providers`` on PYTHONPATH."""
    env = dict(os.environ)
    package_root = str(Path(providers.__file__).resolve().parent.parent)
    original = env.get("PYTHONPATH")
    env[PYTHONPATH_ENV] = json.dumps(original)
    env["PYTHONPATH"] = package_root + (os.pathsep + original if original else "")
    return env


class LocalMachineProvider(WorkloadProvider):
    """The local machine: one partition of one node, running jobs as detached processes."""

    name: ClassVar[str] = "local"
    description: ClassVar[str] = (
        "This machine as a one-node workload manager (partition 'local'): runs jobs as "
        "detached local processes with walltime, status and cancellation."
    )
    detection: ClassVar[str] = (
        "always present; node shape from psutil (logical CPUs, memory), load from "
        "os.getloadavg(), jobs from the folders under $SECRETARY_HOME/jobs"
    )

    # -- probing ---------------------------------------------------------------------------

    def _probe(self) -> WorkloadFacts:
        """Describe the one partition and its load.

        ``free_nodes`` is 1 while fewer secretary jobs run here than there are logical CPUs.
        This machine has no admission queue: a submitted job starts at once, so "free" means
        our own jobs do not already hold every CPU. The load of other processes is a noisy
        signal (a test suite or a compile makes it spike) and is only considered when the site
        sets the ``busy_load_fraction`` option (e.g. 0.95 on a shared workstation).
        """
        threads = psutil.cpu_count(logical=True) or os.cpu_count() or 1
        running = self.running_jobs()
        spare = running < threads
        limit = self.options.get(BUSY_LOAD_OPTION)
        if limit is not None:
            try:
                load = os.getloadavg()[0]
            except OSError:
                load = 0.0
            spare = spare and load < float(limit) * threads
        partition = Partition(
            name=PARTITION,
            total_nodes=1,
            free_nodes=1 if spare else 0,
            cpus_per_node=threads,
            memory_gb_per_node=to_gb(psutil.virtual_memory().total),
            gpus_per_node=0,
            queue_depth=0,
            running_jobs=running,
            default=True,
        )
        return WorkloadFacts(
            manager="machine",
            version=f"{platform.system()} {platform.release()}".strip() or None,
            cluster=socket.gethostname() or None,
            partitions=(partition,),
        )

    def running_jobs(self) -> int:
        """Jobs of ``$SECRETARY_HOME/jobs`` whose runner is alive and has no final state yet."""
        _reap()
        root = jobs_root()
        if not root.is_dir():
            return 0
        return sum(
            1
            for job_dir in root.iterdir()
            if NATIVE_ID_RE.match(job_dir.name)
            and not (job_dir / STATE_FILE).exists()
            and runner_process(job_dir) is not None
        )

    # -- dispatch --------------------------------------------------------------------------

    def _check_fits(self, spec: JobSpec) -> None:
        """Refuse, before anything starts, a job this machine can never run."""
        problems: list[str] = []
        if spec.partition not in (None, PARTITION):
            problems.append(f"partition {spec.partition!r} does not exist (only {PARTITION!r})")
        if spec.nodes > 1:
            problems.append(f"{spec.nodes} nodes requested, this machine is one node")
        if spec.gpus_per_node:
            problems.append("GPUs requested, but the local machine offers none")
        threads = psutil.cpu_count(logical=True) or os.cpu_count() or 1
        if spec.cores_per_node and spec.cores_per_node > threads:
            problems.append(f"{spec.cores_per_node} cores requested, this machine has {threads}")
        memory = to_gb(psutil.virtual_memory().total)
        if spec.memory_gb_per_node and spec.memory_gb_per_node > memory:
            problems.append(f"{spec.memory_gb_per_node:g} GB requested, this machine has {memory}")
        if spec.workdir is not None:
            workdir = Path(spec.workdir)
            if not workdir.is_absolute() or not workdir.is_dir():
                problems.append(f"workdir {spec.workdir!r} is not an existing absolute folder")
        if problems:
            raise ProviderError("local machine cannot run this job: " + "; ".join(problems))

    def _submit(self, spec: JobSpec) -> SubmitResult:
        """Create the job folder, write ``spec.json`` and start the detached runner.

        Postcondition: the runner is started (its pid recorded in ``runner.pid``) and the job
        is QUEUED or further along; the native id is ``local-`` plus 12 hex digits.

        Raises:
            ProviderError: the job cannot fit this machine, or the runner could not start.
        """
        self._check_fits(spec)
        root = jobs_root()
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        native_id = f"local-{secrets.token_hex(6)}"
        job_dir = root / native_id
        job_dir.mkdir(mode=0o700)  # private: spec.environment may hold credentials
        script = spec.model_dump_json(indent=2)
        write_atomic(job_dir / SPEC_FILE, script + "\n")
        argv = [sys.executable, "-m", RUNNER_MODULE, str(job_dir)]
        with (
            open(job_dir / RUNNER_OUT_FILE, "wb") as out,
            open(job_dir / RUNNER_ERR_FILE, "wb") as err,
        ):
            try:
                proc = _RunnerProcess(  # a Popen: fixed argument list, never a shell
                    argv,
                    cwd=job_dir,
                    env=_runner_environment(),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,
                    close_fds=True,
                )
            except OSError as exc:
                write_atomic(job_dir / MESSAGE_FILE, f"cannot start the job runner: {exc}\n")
                write_atomic(job_dir / STATE_FILE, JobState.FAILED.value + "\n")
                raise ProviderError(
                    f"cannot start the local job runner: {exc}", transient=True
                ) from None
        with _RUNNERS_LOCK:
            _RUNNERS[proc.pid] = proc
        try:
            created = psutil.Process(proc.pid).create_time()
        except psutil.Error:  # already gone: status will report what it left
            created = 0.0
        write_atomic(job_dir / RUNNER_PID_FILE, f"{proc.pid} {created}\n")
        return SubmitResult(native_id=native_id, script=script)

    def _find_job(self, dispatch_key: str, since: float) -> str | None:
        """The job whose ``spec.json`` carries ``dispatch_key``.

        A submit here happens inside the submitting process (the folder and its ``spec.json``
        are written before the runner starts), so once that process is gone no such job can
        still appear: a job without a folder holding the key was never started. A folder
        without ``spec.json`` (killed between the two) never got a runner either, and one
        whose runner could not start (a state but no ``runner.pid``) was refused, which
        released the key for a later submit.
        """
        root = jobs_root()
        if not root.is_dir():
            return None
        for job_dir in sorted(root.iterdir()):
            if not NATIVE_ID_RE.match(job_dir.name):
                continue
            if (job_dir / STATE_FILE).exists() and not (job_dir / RUNNER_PID_FILE).exists():
                continue  # refused: the runner never started
            text = _read(job_dir / SPEC_FILE)
            try:
                found = json.loads(text).get("dispatch_key") if text else None
            except (ValueError, AttributeError):
                found = None
            if found == dispatch_key:
                return job_dir.name
        return None

    def _job_dir(self, native_id: str) -> Path:
        if not isinstance(native_id, str) or not NATIVE_ID_RE.match(native_id):
            raise UnsafeValueError(
                f"native id {native_id!r} is not a local job id (local- and 12 hex digits)"
            )
        return jobs_root() / native_id

    def _status_of(
        self, native_id: str, state: JobState, message: str = "", exit_code: int | None = None
    ) -> JobStatus:
        return JobStatus(
            site=self.name, native_id=native_id, state=state, exit_code=exit_code, message=message
        )

    def _final(self, job_dir: Path, native_id: str) -> JobStatus | None:
        """The recorded final status, or None while the runner has not written one."""
        text = _read(job_dir / STATE_FILE)
        if text is None:
            return None
        try:
            state = JobState(text)
        except ValueError:
            return self._status_of(native_id, JobState.UNKNOWN, f"unreadable state file: {text!r}")
        return self._status_of(
            native_id,
            state,
            _read(job_dir / MESSAGE_FILE) or "",
            _read_int(job_dir / EXIT_CODE_FILE),
        )

    def _output(self, native_id: str, max_bytes: int) -> JobOutput:
        """The ends of the job's ``stdout.txt`` and ``stderr.txt`` (from any process)."""
        job_dir = self._job_dir(native_id)
        return output_from_files(
            self.name,
            native_id,
            job_dir / STDOUT_FILE,
            job_dir / STDERR_FILE,
            max_bytes,
            "no output yet: the job has not started, or its folder is gone",
        )

    def _status(self, native_id: str) -> JobStatus:
        """Read the job's state from its folder (works from any process).

        Raises:
            UnsafeValueError: ``native_id`` is not of the form ``local-<12 hex digits>``.
        """
        job_dir = self._job_dir(native_id)
        _reap()
        if not job_dir.is_dir():
            return self._status_of(
                native_id,
                JobState.UNKNOWN,
                f"no job folder {job_dir}: not submitted with this SECRETARY_HOME, or removed",
            )
        final = self._final(job_dir, native_id)
        if final is not None:
            return final
        if runner_process(job_dir) is not None:
            if (job_dir / PID_FILE).exists():
                return self._status_of(native_id, JobState.RUNNING, "running")
            return self._status_of(native_id, JobState.QUEUED, "starting")
        # the runner may have recorded its result between the two looks
        final = self._final(job_dir, native_id)
        if final is not None:
            return final
        return self._status_of(
            native_id, JobState.FAILED, f"runner died without recording a result (see {job_dir})"
        )

    def _cancel(self, native_id: str) -> JobStatus:
        """Stop a queued or running job; a finished or unknown job is reported unchanged.

        SIGTERM goes to the runner's process group; the runner stops the command's group and
        records CANCELLED. If it has not done so within :data:`CANCEL_WAIT_S` (or died before
        its handler was installed), the runner and the command are killed and CANCELLED is
        recorded here.
        """
        status = self._status(native_id)
        if status.state.terminal or status.state is JobState.UNKNOWN:
            return status
        job_dir = self._job_dir(native_id)
        runner = runner_process(job_dir)
        if runner is not None:
            signal_group(runner.pid, signal.SIGTERM)
            deadline = time.monotonic() + CANCEL_WAIT_S
            while not (job_dir / STATE_FILE).exists():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    runner.wait(timeout=min(0.1, remaining))
                    break
                except psutil.TimeoutExpired:
                    continue
                except psutil.Error:
                    break
        _reap()
        final = self._final(job_dir, native_id)
        if final is not None:
            return final
        if runner is not None and runner.is_running():
            signal_group(runner.pid, signal.SIGKILL)
        child = _read_int(job_dir / PID_FILE)
        if child is not None:
            signal_group(child, signal.SIGKILL)
        write_atomic(
            job_dir / MESSAGE_FILE,
            "cancelled; the runner recorded no result, so its processes were killed\n",
        )
        write_atomic(job_dir / STATE_FILE, JobState.CANCELLED.value + "\n")
        _reap()
        return self._final(job_dir, native_id) or status
