"""Dispatched jobs: the receipt a site returns and the state it reports afterwards."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from pydantic import Field

from providers.wire.common import SCHEMA_VERSION, WireModel


class JobState(StrEnum):
    """One common set of job states for every workload manager.

    PENDING: accepted by the hub, not yet handed to a site.
    QUEUED: handed to the site's workload manager, waiting for resources.
    RUNNING: executing.
    COMPLETED: finished with exit status 0.
    FAILED: finished with a non-zero exit status, or could not start.
    CANCELLED: stopped on request.
    TIMEOUT: stopped by the workload manager for exceeding its walltime.
    UNKNOWN: the site cannot tell (e.g. the scheduler forgot the job).
    SIMULATED: finished on a simulated site, where nothing ran (so there is no exit status and
        no output): never reported as COMPLETED, which would claim the command succeeded.
    """

    PENDING = "PENDING"
    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"
    TIMEOUT = "TIMEOUT"
    UNKNOWN = "UNKNOWN"
    SIMULATED = "SIMULATED"

    @property
    def terminal(self) -> bool:
        """True once the state can no longer change."""
        return self in TERMINAL_STATES


TERMINAL_STATES = frozenset(
    {
        JobState.COMPLETED,
        JobState.FAILED,
        JobState.CANCELLED,
        JobState.TIMEOUT,
        JobState.SIMULATED,
    }
)


def _now() -> datetime:
    return datetime.now(UTC)


class DispatchReceipt(WireModel):
    """Proof that a site accepted a job. After return, ``native_id`` names it at the site."""

    schema_version: int = SCHEMA_VERSION
    job_id: str
    request_id: str = ""
    site: str
    native_id: str
    provider: str = ""
    state: JobState = JobState.QUEUED
    submitted_at: datetime = Field(default_factory=_now)
    script: str | None = None
    """The rendered job specification (batch script, manifest), kept for audit."""


class JobStatus(WireModel):
    """The state of a dispatched job as the site sees it now."""

    schema_version: int = SCHEMA_VERSION
    site: str
    native_id: str
    state: JobState
    exit_code: int | None = None
    message: str = ""
    updated_at: datetime = Field(default_factory=_now)


MAX_OUTPUT_BYTES = 1024 * 1024
"""The most bytes of each stream one request may ask for."""


class JobOutput(WireModel):
    """The end of a job's standard output and error, as the site can read them now."""

    schema_version: int = SCHEMA_VERSION
    site: str
    native_id: str
    available: bool
    """False when the site cannot read the job's output (the note says why and where to look)."""
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False
    """True when a stream was longer than asked for: only its last bytes are here."""
    note: str = ""
