"""Real dispatch on this machine through the ``local`` provider's dispatch tools.

Every job really runs (as a detached runner process); waits poll with a deadline, never a
fixed sleep. Jobs still running at the end of a test are cancelled by the fixture.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from conftest import DispatchJobs, wait_until

from providers.errors import ProviderError, ToolClassError, UnsafeValueError
from providers.tools import ToolKind
from providers.workload.local import LocalMachineProvider, jobs_root

DEADLINE_S = 30.0
TERMINAL = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "UNKNOWN"}
SLEEP_30 = [sys.executable, "-c", "import time; time.sleep(30)"]


def wait_for(predicate: Callable[[], Any], what: str) -> Any:
    """Poll ``predicate`` with this module's deadline (see :func:`conftest.wait_until`)."""
    return wait_until(predicate, timeout_s=DEADLINE_S, what=what)


class Jobs(DispatchJobs):
    """Local jobs; the ``jobs`` fixture cancels leftovers at teardown."""

    def wait_terminal(self, native_id: str) -> dict:
        return wait_for(
            lambda: (s := self.status(native_id))["state"] in TERMINAL and s,
            what=f"job {native_id} to finish",
        )

    def wait_running(self, native_id: str) -> dict:
        status = wait_for(
            lambda: (s := self.status(native_id))["state"] not in ("QUEUED",) and s,
            what=f"job {native_id} to start",
        )
        assert status["state"] == "RUNNING", status
        return status


@pytest.fixture
def jobs() -> Iterator[Jobs]:
    helper = Jobs(LocalMachineProvider())
    yield helper
    for native_id in helper.ids:
        helper.cancel(native_id)


def job_dir(native_id: str) -> Path:
    return jobs_root() / native_id


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def runner_pid(native_id: str) -> int:
    return int((job_dir(native_id) / "runner.pid").read_text().split()[0])


# -- outcomes -----------------------------------------------------------------------------


def test_completed_job_with_output(jobs):
    native_id = jobs.submit([sys.executable, "-c", "print('hi')"])
    assert native_id.startswith("local-") and len(native_id) == len("local-") + 12
    status = jobs.wait_terminal(native_id)
    assert status["state"] == "COMPLETED", status
    assert status["exit_code"] == 0
    assert status["site"] == "local"
    assert "hi" in (job_dir(native_id) / "stdout.txt").read_text()
    assert (job_dir(native_id) / "spec.json").is_file()
    assert Path(os.environ["SECRETARY_HOME"]) in job_dir(native_id).parents


def test_failing_job_keeps_its_exit_code(jobs):
    native_id = jobs.submit([sys.executable, "-c", "import sys; sys.exit(3)"])
    status = jobs.wait_terminal(native_id)
    assert (status["state"], status["exit_code"]) == ("FAILED", 3)


def test_missing_program_fails_with_127(jobs, tmp_path):
    native_id = jobs.submit([str(tmp_path / "no-such-program"), "arg"])
    status = jobs.wait_terminal(native_id)
    assert (status["state"], status["exit_code"]) == ("FAILED", 127)
    assert "not found" in (job_dir(native_id) / "stderr.txt").read_text()


def test_walltime_expiry_is_timeout(jobs):
    native_id = jobs.submit(SLEEP_30, walltime_s=1)
    status = jobs.wait_terminal(native_id)
    assert status["state"] == "TIMEOUT", status
    assert gone(int((job_dir(native_id) / "pid").read_text()))


def test_workdir_and_environment_reach_the_command(jobs, tmp_path):
    code = (
        "import os; print(os.getcwd()); print(os.environ['SECRETARY_TEST_VALUE']); "
        "print(os.environ.get('PYTHONPATH')); print('_SECRETARY_RUNNER_PYTHONPATH' in os.environ)"
    )
    native_id = jobs.submit(
        [sys.executable, "-c", code],
        workdir=str(tmp_path),
        environment={"SECRETARY_TEST_VALUE": "42"},
    )
    assert jobs.wait_terminal(native_id)["state"] == "COMPLETED"
    lines = (job_dir(native_id) / "stdout.txt").read_text().splitlines()
    assert Path(lines[0]).resolve() == tmp_path.resolve()
    assert lines[1] == "42"
    assert lines[2] == str(os.environ.get("PYTHONPATH"))
    assert lines[3] == "False"


def test_shell_metacharacters_are_passed_literally(jobs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["x; touch MARKER", "$(touch MARKER2)", "`touch MARKER3`", "a | b > MARKER4"]
    native_id = jobs.submit(
        [sys.executable, "-c", "import sys; print(sys.argv[1:])", *args], workdir=str(tmp_path)
    )
    assert jobs.wait_terminal(native_id)["state"] == "COMPLETED"
    assert (job_dir(native_id) / "stdout.txt").read_text().strip() == str(args)
    for folder in (tmp_path, job_dir(native_id)):
        assert not [p.name for p in folder.iterdir() if p.name.startswith("MARKER")]


# -- cancellation -------------------------------------------------------------------------


def test_cancel_running_job(jobs):
    native_id = jobs.submit(SLEEP_30)
    jobs.wait_running(native_id)
    child = int((job_dir(native_id) / "pid").read_text())
    assert not gone(child)
    status = jobs.cancel(native_id)
    assert status["state"] == "CANCELLED", status
    assert gone(child)
    wait_for(lambda: gone(runner_pid(native_id)), what="the runner to exit")
    assert jobs.status(native_id)["state"] == "CANCELLED"


def test_cancel_right_after_submit(jobs):
    native_id = jobs.submit(SLEEP_30)
    status = jobs.cancel(native_id)
    assert status["state"] == "CANCELLED", status
    pid_file = job_dir(native_id) / "pid"
    if pid_file.exists():
        assert gone(int(pid_file.read_text()))
    wait_for(lambda: gone(runner_pid(native_id)), what="the runner to exit")


def test_cancel_finished_job_changes_nothing(jobs):
    native_id = jobs.submit([sys.executable, "-c", "pass"])
    before = jobs.wait_terminal(native_id)
    after = jobs.cancel(native_id)
    assert (after["state"], after["exit_code"]) == (before["state"], before["exit_code"])
    assert after["state"] == "COMPLETED"


# -- state on disk ------------------------------------------------------------------------


def test_status_survives_a_restart(jobs):
    native_id = jobs.submit([sys.executable, "-c", "print('done')"])
    jobs.wait_terminal(native_id)
    fresh = LocalMachineProvider()
    status = jobs.status(native_id, provider=fresh)
    assert (status["state"], status["exit_code"]) == ("COMPLETED", 0)
    code = (
        "import sys; from providers.workload.local import LocalMachineProvider; "
        "print(LocalMachineProvider().job_status(sys.argv[1]).state.value)"
    )
    other = subprocess.run(
        [sys.executable, "-c", code, native_id],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert other.stdout.strip() == "COMPLETED"


def test_running_jobs_counted_in_capacity(jobs):
    provider = jobs.provider
    assert provider.call_tool("capacity_summary", {}, allowed=ToolKind.READ)["running_jobs"] == 0
    native_id = jobs.submit(SLEEP_30)
    jobs.wait_running(native_id)
    summary = provider.call_tool("capacity_summary", {}, allowed=ToolKind.READ)
    assert summary["running_jobs"] == 1
    assert summary["total_nodes"] == 1
    jobs.cancel(native_id)
    partitions = provider.call_tool("list_partitions", {}, allowed=ToolKind.READ)
    assert partitions[0]["name"] == "local"
    assert partitions[0]["running_jobs"] == 0
    assert partitions[0]["cpus_per_node"] == psutil.cpu_count(logical=True)


def test_unknown_job_is_unknown(jobs):
    status = jobs.status("local-000000000000")
    assert status["state"] == "UNKNOWN"
    assert status["message"]


def test_dead_runner_is_reported(jobs):
    folder = job_dir("local-0123456789ab")
    folder.mkdir(parents=True)
    (folder / "runner.pid").write_text("999999999 0.0\n")
    status = jobs.status("local-0123456789ab")
    assert status["state"] == "FAILED"
    assert "runner died" in status["message"]


# -- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize("native_id", ["../../etc", "local-XYZ", "local-0123456789abc", ""])
def test_malformed_ids_are_refused(jobs, native_id):
    with pytest.raises(UnsafeValueError):
        jobs.status(native_id)


def test_submit_is_refused_during_negotiation():
    provider = LocalMachineProvider()
    with pytest.raises(ToolClassError):
        provider.call_tool("submit_job", {"spec": {"command": ["true"]}}, allowed=ToolKind.READ)
    assert not jobs_root().exists()


@pytest.mark.parametrize(
    "extra",
    [
        {"partition": "gpu"},
        {"nodes": 2},
        {"gpus_per_node": 1},
        {"workdir": "relative/folder"},
        {"workdir": "/no/such/folder"},
    ],
)
def test_jobs_that_cannot_fit_are_refused(jobs, extra):
    with pytest.raises(ProviderError, match="cannot run this job"):
        jobs.submit([sys.executable, "-c", "pass"], **extra)
    assert not jobs.ids
