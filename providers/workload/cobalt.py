"""Cobalt (Argonne's scheduler) as a read-only workload provider, for cluster systems.

Cobalt prints fixed-width tables, read by their header positions:

* ``qstat --version`` names Cobalt (``cobalt 1.0.x``); ``partlist`` is Cobalt's own command;
* ``qstat -Q``: queues (``Name``, ``MaxTime``, ``State``);
* ``partlist``: one row per node on cluster systems (``Name``, ``Queue`` as ``a:b``, ``State``);
* ``qstat --header JobId:Queue:Nodes:State``: jobs and their queue.

Cobalt does not report a node's cores, memory or GPUs, so the site states the node shape in
the provider options (``cpus_per_node``, ``memory_gb_per_node``, ``gpus_per_node``); without
``cpus_per_node`` the probe fails with an error that says so, rather than guessing a shape that
could produce a false READY. Block-based (Blue Gene) partition lists are not supported.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import Field, ValidationError

from providers.categories import WorkloadProvider
from providers.errors import CommandError, ProviderError
from providers.facts import Partition, WorkloadFacts
from providers.wire.common import WireModel
from providers.wire.jobs import JobState
from providers.workload.batch import parse_walltime, translate_state
from providers.workload.scheduler_io import (
    NodeRecord,
    command_text,
    parse_table,
    partition_of,
    present,
    run_stdout,
)

MANAGER = "cobalt"
QSTAT_VERSION = ("qstat", "--version")
QSTAT_QUEUES = ("qstat", "-Q")
PARTLIST = ("partlist",)
QSTAT_JOBS = ("qstat", "--header", "JobId:Queue:Nodes:State")

COBALT_STATES_URL = (
    "https://docs.alcf.anl.gov/theta/queueing-and-running-jobs/job-and-queue-scheduling/"
)
"""Where Cobalt's job states are documented (ALCF, "Job and queue scheduling")."""
COBALT_STATES: dict[str, JobState] = {
    "QUEUED": JobState.QUEUED,
    "USER_HOLD": JobState.QUEUED,
    "ADMIN_HOLD": JobState.QUEUED,
    "DEP_HOLD": JobState.QUEUED,
    "MAXRUN_HOLD": JobState.QUEUED,
    "STARTING": JobState.RUNNING,
    "RUNNING": JobState.RUNNING,
    "EXITING": JobState.RUNNING,
    "KILLING": JobState.RUNNING,
    "DONE": JobState.COMPLETED,
    "DEP_FAIL": JobState.FAILED,
}
"""Cobalt job state -> common state (see :data:`COBALT_STATES_URL`)."""
_CLOSED_QUEUE_STATES = frozenset({"dead", "draining"})
"""Queue states in which Cobalt accepts no new job."""


class CobaltNodeShape(WireModel):
    """The node shape a Cobalt site states in its provider options (Cobalt does not report it)."""

    cpus_per_node: int = Field(ge=1)
    memory_gb_per_node: float = Field(default=0.0, ge=0)
    gpus_per_node: int = Field(default=0, ge=0)


# -- parsing (pure) --------------------------------------------------------------------------


def _require_columns(
    rows: list[dict[str, str]], columns: tuple[str, ...], argv: tuple[str, ...]
) -> None:
    if not rows or not all(c in rows[0] for c in columns):
        raise ProviderError(
            f"{MANAGER}: `{command_text(argv)}` printed no table with columns {', '.join(columns)}"
        )


def count_cobalt_jobs(text: str) -> dict[str, tuple[int, int]]:
    """(waiting, running) jobs per queue from ``qstat --header JobId:Queue:Nodes:State``."""
    counts: dict[str, tuple[int, int]] = {}
    if not text.strip():
        return counts
    rows = parse_table(text)
    if rows:
        _require_columns(rows, ("Queue", "State"), QSTAT_JOBS)
    for row in rows:
        state = translate_state(COBALT_STATES, row.get("State", ""), MANAGER)
        waiting, running = counts.get(row["Queue"], (0, 0))
        counts[row["Queue"]] = (
            waiting + (state is JobState.QUEUED),
            running + (state is JobState.RUNNING),
        )
    return counts


def parse_partlist(text: str, shape: CobaltNodeShape) -> list[NodeRecord]:
    """Nodes of ``partlist`` (cluster systems: one row per node). Free: state ``idle``."""
    rows = parse_table(text)
    _require_columns(rows, ("Name", "Queue", "State"), PARTLIST)
    return [
        NodeRecord(
            name=row["Name"],
            cpus=shape.cpus_per_node,
            memory_gb=shape.memory_gb_per_node,
            gpus=shape.gpus_per_node,
            free=row["State"].lower() == "idle",
            queues=frozenset(q for q in re.split(r"[:,]", row["Queue"]) if q),
        )
        for row in rows
        if row["Name"]
    ]


def cobalt_facts(
    *,
    version: str | None,
    queues_text: str,
    partlist_text: str,
    jobs_text: str,
    shape: CobaltNodeShape,
) -> WorkloadFacts:
    """Facts from Cobalt's tables: open queues with nodes become partitions.

    A ``stopped`` queue accepts jobs without starting them, so it reports no free node.

    Raises:
        ProviderError: a table lacks its documented columns.
    """
    queues = parse_table(queues_text)
    _require_columns(queues, ("Name", "MaxTime", "State"), QSTAT_QUEUES)
    nodes = parse_partlist(partlist_text, shape)
    counts = count_cobalt_jobs(jobs_text)
    partitions: list[Partition] = []
    for row in sorted(queues, key=lambda r: r["Name"]):
        name, state = row["Name"], row["State"].lower()
        if not name or state in _CLOSED_QUEUE_STATES:
            continue
        waiting, running = counts.get(name, (0, 0))
        part = partition_of(
            name,
            [n for n in nodes if n.queues is None or name in n.queues],
            queued=waiting,
            running=running,
            max_walltime_s=parse_walltime(row["MaxTime"]),
            default=name == "default",
        )
        if part is None:
            continue
        if state == "stopped":
            part = part.model_copy(update={"free_nodes": 0})
        partitions.append(part)
    return WorkloadFacts(manager=MANAGER, version=version, partitions=tuple(partitions))


def parse_cobalt_version(text: str) -> str | None:
    """The version from ``qstat --version`` ("cobalt 1.0.28"), or None when not Cobalt."""
    m = re.search(r"cobalt\s+v?(\S+)", text, re.IGNORECASE)
    return m.group(1) if m else None


# -- the provider ----------------------------------------------------------------------------


class CobaltProvider(WorkloadProvider):
    """Cobalt: queues as partitions over the nodes partlist reports (read-only)."""

    name: ClassVar[str] = "cobalt"
    description: ClassVar[str] = (
        "Cobalt scheduler (cluster systems): queues with free nodes, queued and running jobs "
        "and max walltime; node shape from the site's options (read-only)."
    )
    detection: ClassVar[str] = (
        "qstat and partlist on PATH and `qstat --version` naming cobalt; facts from qstat -Q, "
        "partlist and qstat --header JobId:Queue:Nodes:State; options: cpus_per_node "
        "(required), memory_gb_per_node, gpus_per_node"
    )

    def _shape(self) -> CobaltNodeShape:
        try:
            return CobaltNodeShape.model_validate(self.options)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}"
                for e in exc.errors()
            )
            raise ProviderError(
                f"{MANAGER}: Cobalt does not report node shapes; set them in the site "
                f"configuration (providers.options.cobalt: cpus_per_node, memory_gb_per_node, "
                f"gpus_per_node): {problems}"
            ) from None

    def _probe(self) -> WorkloadFacts | None:
        """Read Cobalt; None when it is not installed here.

        Raises:
            ProviderError: Cobalt is installed but the node shape is not configured, or a
                command failed or printed something else than its documented table.
        """
        if not present(self.runner, "qstat", "partlist"):
            return None
        try:
            banner = self.runner.run(list(QSTAT_VERSION), timeout_s=10.0)
        except CommandError:
            return None
        version = parse_cobalt_version(banner.stdout + banner.stderr)
        if version is None:
            return None
        shape = self._shape()
        return cobalt_facts(
            version=version,
            queues_text=run_stdout(self.runner, MANAGER, QSTAT_QUEUES),
            partlist_text=run_stdout(self.runner, MANAGER, PARTLIST),
            jobs_text=run_stdout(self.runner, MANAGER, QSTAT_JOBS),
            shape=shape,
        )
