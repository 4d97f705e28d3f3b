"""The detached process that runs one local job and records its outcome in the job folder.

Started by :class:`providers.workload.local.LocalMachineProvider` as
``python -m providers.workload.local_runner <job folder>`` in its own session, so it outlives
the process that submitted the job. Everything it knows and leaves is in the job folder, which
is what lets a fresh process report the job's state after a restart:

* reads ``spec.json`` (a :class:`providers.jobspec.JobSpec`);
* writes ``pid`` once the command has started (its absence means "queued");
* streams the command's output to ``stdout.txt`` and ``stderr.txt``;
* writes ``exit_code`` and ``message``, then ``state`` last (each atomically, temp file plus
  ``os.replace``), so a reader that sees ``state`` also sees the rest.

The command is an argument vector run without a shell, in a process group of its own, so a
walltime expiry or a cancellation (SIGTERM to the runner) stops every process of the job: first
SIGTERM, then SIGKILL after :data:`KILL_GRACE_S`. Exit codes follow the shell's convention:
127 program not found, 126 cannot execute, 128+N killed by signal N.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from types import FrameType

from providers.jobspec import JobSpec
from providers.wire.jobs import JobState

SPEC_FILE = "spec.json"
PID_FILE = "pid"
RUNNER_PID_FILE = "runner.pid"
STDOUT_FILE = "stdout.txt"
STDERR_FILE = "stderr.txt"
EXIT_CODE_FILE = "exit_code"
MESSAGE_FILE = "message"
STATE_FILE = "state"
RUNNER_OUT_FILE = "runner.out"
RUNNER_ERR_FILE = "runner.err"

PYTHONPATH_ENV = "_SECRETARY_RUNNER_PYTHONPATH"
"""Carries the submitter's own ``PYTHONPATH`` (JSON, null when unset) so the job gets it back.

The submitter prepends the folder holding ``providers`` to the runner's ``PYTHONPATH`` so
``-m providers.workload.local_runner`` imports even from an uninstalled checkout; the job itself
must see the environment it was submitted with, not that addition.
"""

KILL_GRACE_S = 2.0
"""Time between SIGTERM and SIGKILL when stopping a job; well under the canceller's 5 s wait."""

POLL_S = 0.1
"""Longest time between two looks at cancellation and walltime while the command runs."""


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def signal_group(pgid: int, signum: int) -> None:
    """Send ``signum`` to a process group; a group that is already gone is not an error."""
    try:
        os.killpg(pgid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def exit_code_of(returncode: int) -> int:
    """Popen's return code in the shell's convention (killed by signal N -> 128 + N)."""
    return returncode if returncode >= 0 else 128 - returncode


def child_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """The job's environment: the submitter's environment plus ``spec.environment``."""
    env = dict(os.environ)
    carried = env.pop(PYTHONPATH_ENV, None)
    if carried is not None:
        original = json.loads(carried)
        if original is None:
            env.pop("PYTHONPATH", None)
        else:
            env["PYTHONPATH"] = str(original)
    env.update(extra)
    return env


class JobRunner:
    """Runs the job of one folder to completion and records how it ended."""

    def __init__(self, job_dir: Path) -> None:
        self.job_dir = job_dir
        self.cancel_requested = False

    def on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        """Note the cancellation; the wait loop stops the job within :data:`POLL_S`."""
        self.cancel_requested = True

    def finish(self, state: JobState, exit_code: int | None, message: str) -> JobState:
        """Record the outcome: exit code and message first, the state file last."""
        if exit_code is not None:
            write_atomic(self.job_dir / EXIT_CODE_FILE, f"{exit_code}\n")
        write_atomic(self.job_dir / MESSAGE_FILE, message + "\n")
        write_atomic(self.job_dir / STATE_FILE, state.value + "\n")
        return state

    def run(self) -> JobState:
        """Run the job's command and return the final state (also written to the folder)."""
        spec = JobSpec.model_validate_json((self.job_dir / SPEC_FILE).read_text())
        workdir = Path(spec.workdir) if spec.workdir else self.job_dir
        if not workdir.is_dir():
            return self.finish(JobState.FAILED, None, f"working directory {workdir} not found")
        if self.cancel_requested:
            return self.finish(JobState.CANCELLED, None, "cancelled before the command started")
        program = spec.command[0]
        with (
            open(self.job_dir / STDOUT_FILE, "wb") as out,
            open(self.job_dir / STDERR_FILE, "wb") as err,
        ):
            try:
                child = subprocess.Popen(  # noqa: S603 - the job's argument vector, never a shell
                    list(spec.command),
                    cwd=workdir,
                    env=child_environment(spec.environment),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    process_group=0,
                    close_fds=True,
                )
            except OSError as exc:
                code = 127 if isinstance(exc, FileNotFoundError) else 126
                reason = "program not found" if code == 127 else (exc.strerror or str(exc))
                message = f"cannot start {program!r}: {reason}"
                err.write(f"local runner: {message}\n".encode())
                return self.finish(JobState.FAILED, code, message)
        write_atomic(self.job_dir / PID_FILE, f"{child.pid}\n")
        return self._wait(child, spec.walltime_s)

    def _wait(self, child: subprocess.Popen[bytes], walltime_s: int | None) -> JobState:
        deadline = time.monotonic() + walltime_s if walltime_s else None
        stopped_as: JobState | None = None
        kill_at: float | None = None
        while True:
            try:
                returncode = child.wait(timeout=POLL_S)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if stopped_as is None:
                if self.cancel_requested:
                    stopped_as = JobState.CANCELLED
                elif deadline is not None and now >= deadline:
                    stopped_as = JobState.TIMEOUT
                if stopped_as is not None:
                    signal_group(child.pid, signal.SIGTERM)
                    kill_at = now + KILL_GRACE_S
            elif kill_at is not None and now >= kill_at:
                signal_group(child.pid, signal.SIGKILL)
                kill_at = None
        # like a batch system, end the job's leftover background processes with it
        signal_group(child.pid, signal.SIGKILL)
        code = exit_code_of(returncode)
        if stopped_as is JobState.CANCELLED:
            return self.finish(stopped_as, code, "cancelled on request")
        if stopped_as is JobState.TIMEOUT:
            return self.finish(stopped_as, code, f"walltime of {walltime_s} s exceeded")
        if returncode == 0:
            return self.finish(JobState.COMPLETED, 0, "exit code 0")
        if returncode < 0:
            return self.finish(JobState.FAILED, code, f"killed by signal {-returncode}")
        return self.finish(JobState.FAILED, code, f"exit code {code}")


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``python -m providers.workload.local_runner <job folder>``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m providers.workload.local_runner JOB_FOLDER", file=sys.stderr)
        return 2
    runner = JobRunner(Path(args[0]))
    signal.signal(signal.SIGTERM, runner.on_sigterm)
    try:
        runner.run()
    except Exception as exc:  # any failure still ends in a recorded state, then in runner.err
        runner.finish(JobState.FAILED, None, f"local runner error: {type(exc).__name__}: {exc}")
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
