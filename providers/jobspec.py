"""The job a workload provider is asked to run, independent of any workload manager."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from providers.wire.common import WireModel


class JobSpec(WireModel):
    """A job to submit. ``command`` is an argument vector: renderers quote it, never splice it."""

    name: str = Field(default="secretary-job", pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    command: tuple[str, ...] = Field(min_length=1)
    nodes: int = Field(default=1, ge=1)
    cores_per_node: int | None = Field(default=None, ge=1)
    gpus_per_node: int | None = Field(default=None, ge=0)
    memory_gb_per_node: float | None = Field(default=None, gt=0)
    walltime_s: int | None = Field(default=None, ge=1)
    partition: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
    workdir: str | None = None
    environment: dict[str, str] = Field(default_factory=dict)
    dispatch_key: str | None = Field(
        default=None, min_length=8, max_length=128, pattern=r"^[A-Za-z0-9._:@-]+$"
    )
    """The hub's idempotency key for this dispatch, stored with the job by the workload
    manager (a Slurm comment, the local job's ``spec.json``): a site restarted in the middle of
    a submit finds out from it whether the manager took the job (:meth:`find_job
    <providers.categories.WorkloadProvider.find_job>`)."""

    @field_validator("command")
    @classmethod
    def _no_nul(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        """A NUL byte cannot cross exec(): refuse it here, with the argument's position."""
        for i, arg in enumerate(value):
            if "\x00" in arg:
                raise ValueError(f"command[{i}] holds a NUL byte: remove it")
        return value

    @field_validator("environment")
    @classmethod
    def _env_names(cls, value: dict[str, str]) -> dict[str, str]:
        bad = [k for k in value if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k)]
        if bad:
            raise ValueError(f"environment variable names not allowed: {bad}")
        return value


class SubmitResult(WireModel):
    """What a workload manager said when it accepted a job."""

    native_id: str
    script: str | None = None
    """The rendered batch script or manifest, for audit."""
