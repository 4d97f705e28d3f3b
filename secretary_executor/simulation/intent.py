"""The generator's intended requirement: what a prompt means, decided before any text exists.

A prompt is drawn as an :class:`Intent` first; the wire ``Requirements`` the negotiator reads
and the prompt text are both derived from it afterwards (:mod:`.prompts`). The independent
auditor (:mod:`.auditor`) judges a site against the intent alone, so this module is plain data:
it imports nothing from the parser, the wire schema or the negotiator, and neither may anything
that the auditor reads.

Meaning of each field (the auditor's contract, see docs/simulation.md):

* ``app`` must be installed as itself, in a release that meets ``version`` when given.
* ``nodes`` whole nodes of one partition, each with ``memory_gb_per_node``, and
  ``cores_per_node`` and/or (``gpu_logic``) ``gpus_per_node``.
* ``fabric`` names an interconnect; ``"low-latency"`` asks for any RDMA-capable one.
* ``storage`` a file system of that kind (``parallel``: Lustre, GPFS or BeeGFS) with
  ``storage_free_gb`` free when given.
* ``mpi`` an MPI library of that implementation, in a release meeting ``mpi_version`` when given.
* ``container`` a container runtime of that name.
* ``urgency`` never changes whether a site can run the job.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Op = Literal["<=", ">=", "=="]
LOW_LATENCY = "low-latency"


class VersionBound(BaseModel):
    """A release bound such as ``>= 2.14``, on the project's own version scheme."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    op: Op
    version: str = Field(min_length=1)


class Intent(BaseModel):
    """One prompt's intended requirement; ``None`` means the prompt does not ask for it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    app: str = Field(min_length=1)
    version: VersionBound | None = None
    nodes: int | None = Field(default=None, ge=1)
    memory_gb_per_node: float | None = Field(default=None, gt=0)
    cores_per_node: int | None = Field(default=None, ge=1)
    gpus_per_node: int | None = Field(default=None, ge=0)
    gpu_logic: Literal["and", "or"] = "and"
    fabric: str | None = None
    """``infiniband``, ``omnipath``, ``ethernet``, ``slingshot`` or ``low-latency``."""
    urgency: Literal["now", "soon", "no_rush"] | None = None
    storage: Literal["lustre", "nfs", "s3", "local", "parallel"] | None = None
    storage_free_gb: float | None = Field(default=None, gt=0)
    mpi: str | None = None
    mpi_version: VersionBound | None = None
    container: str | None = None
