"""Shared test configuration: markers, service requirements, environment hygiene.

Also the helpers that several test modules share (import them with ``from conftest import``):
:func:`wait_until` for polling with a deadline, :class:`DispatchJobs` for jobs submitted
through a workload provider's dispatch tools, and :class:`SequenceRunner` for recorded
commands whose answer changes from call to call.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from providers.categories import WorkloadProvider
from providers.commands import CommandResult
from providers.tools import ToolKind
from providers.workload.recorded import RecordedRunner, Recording

MARKERS = {
    "slurm": "needs a running Slurm cluster (started by scripts/hpc/slurm-up.sh)",
    "mpi": "needs Open MPI and MPICH installed",
    "lmod": "needs Lmod / Environment Modules installed",
    "globus": "exercises the Globus Compute SDK or endpoint engines",
    "llm": "talks to an LLM back end (a local server in tests)",
    "slow": "takes more than a few seconds",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")


def services_required() -> bool:
    """CI sets SECRETARY_REQUIRE_SERVICES=1: a missing service then fails instead of skipping."""
    return os.environ.get("SECRETARY_REQUIRE_SERVICES", "") not in ("", "0", "false")


def need_service(available: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a service a test needs is absent."""
    if available:
        return
    if services_required():
        pytest.fail(f"required service missing: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _environment_is_restored():
    """A test that changes os.environ must put it back (use monkeypatch)."""
    before = dict(os.environ)
    yield
    after = dict(os.environ)
    changed = sorted(
        k
        for k in before.keys() | after.keys()
        if before.get(k) != after.get(k) and k != "PYTEST_CURRENT_TEST"
    )
    assert not changed, f"test leaked environment changes: {changed}"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own SECRETARY_HOME, so ledgers and job folders never collide."""
    monkeypatch.setenv("SECRETARY_HOME", str(tmp_path / "secretary-home"))
    yield


def wait_until(
    predicate: Callable[[], Any],
    *,
    timeout_s: float,
    what: str = "",
    interval_s: float = 0.01,
    max_interval_s: float = 0.2,
) -> Any:
    """Poll ``predicate`` until it returns something truthy and return that; fail at the deadline.

    Tests never sleep a fixed time: a wait ends as soon as the condition holds, and the deadline
    only bounds a wait that would otherwise hang. The pause between looks starts at
    ``interval_s`` and doubles up to ``max_interval_s``, so a quick condition is seen at once
    and a slow one (a scheduler) is not polled in a tight loop.
    """
    deadline = time.monotonic() + timeout_s
    interval = interval_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            pytest.fail(f"timed out after {timeout_s:g} s waiting for {what or predicate}")
        time.sleep(interval)
        interval = min(interval * 2, max_interval_s)


class Holding:
    """A task body that keeps its thread until :attr:`release` is set (:attr:`started` once it
    runs): it fills a channel's only worker so that the next task queues behind it, with no
    sleeping."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self) -> bool:
        self.started.set()
        return self.release.wait(60)


class DispatchJobs:
    """Submits through a workload provider's dispatch tools and remembers the ids.

    The ids let a fixture cancel whatever a test left running.
    """

    def __init__(self, provider: WorkloadProvider) -> None:
        self.provider = provider
        self.ids: list[str] = []

    def submit(self, command: list[str], **spec: Any) -> str:
        result = self.provider.call_tool(
            "submit_job", {"spec": {"command": command, **spec}}, allowed=ToolKind.DISPATCH
        )
        self.ids.append(result["native_id"])
        return result["native_id"]

    def status(self, native_id: str, provider: WorkloadProvider | None = None) -> dict[str, Any]:
        """The job's status, from ``provider`` when given (e.g. a fresh instance)."""
        return (provider or self.provider).call_tool(
            "job_status", {"native_id": native_id}, allowed=ToolKind.DISPATCH
        )

    def cancel(self, native_id: str) -> dict[str, Any]:
        return self.provider.call_tool(
            "cancel_job", {"native_id": native_id}, allowed=ToolKind.DISPATCH
        )


class SequenceRunner(RecordedRunner):
    """Answers repeated calls of one argv from a list, in order (the last answer repeats).

    For a job whose state changes between two status calls (running, then removed).
    """

    def __init__(self, base: RecordedRunner, sequences: dict[tuple[str, ...], list[str]]):
        super().__init__(base.recordings, programs=base.programs)
        self.sequences = {k: list(v) for k, v in sequences.items()}

    def run(self, argv: Sequence[str], **kwargs: Any) -> CommandResult:
        key = tuple(argv)
        if key in self.sequences:
            answers = self.sequences[key]
            self.recordings[key] = Recording(
                stdout=answers.pop(0) if len(answers) > 1 else answers[0]
            )
        return super().run(argv, **kwargs)
