"""Which resource-specification keys each kind of engine takes, and the check at submit.

A Parsl task's ``parsl_resource_specification`` serves twice: the executor reads some keys as
requirements to choose a site (:mod:`~secretary_executor.parsl.spec`), and the chosen site's
engine may need the same keys to run the task (an MPI engine cannot place ranks without
``num_nodes``). So the specification goes on to the chosen channel, each key in the
convention of the engine behind it:

* MPI engines (Parsl's ``MPIExecutor`` or HTEX with ``enable_mpi_mode``, Globus Compute's
  ``GlobusMPIEngine``): :data:`MPI_KEYS`.
* Work Queue and TaskVine executors: :data:`WORK_QUEUE_KEYS`.
* HTEX and ``GlobusComputeEngine``: ``priority``.
* Thread and process pools: nothing.
* A Globus Compute endpoint through the SDK: ``user_endpoint_config`` too.

Keys the executor reads for placement (:data:`PLACEMENT_KEYS`) are forwarded where the engine
takes them and otherwise have done their work; any other key a channel does not take is a
:class:`UnsupportedResourceKey` at submit, naming the key, the site and the keys it takes,
because dropping it would run the task without what it asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from secretary_executor.errors import ConfigurationError

PLACEMENT_KEYS = frozenset({"cores", "num_nodes", "gpus", "memory", "walltime", "running_time_min"})
"""Read as requirements by the executor (see ``spec.py``); forwarded only where taken."""

MPI_KEYS = frozenset({"num_nodes", "ranks_per_node", "num_ranks", "launcher_options"})
"""Parsl's MPI mode: nodes per task, ranks per node, ranks per task, launcher flags."""

WORK_QUEUE_KEYS = frozenset({"cores", "memory", "disk", "gpus", "running_time_min", "priority"})
"""Work Queue / TaskVine: per task; ``memory`` and ``disk`` in MB, ``running_time_min`` in
minutes."""

PRIORITY_KEYS = frozenset({"priority"})
"""HTEX and GlobusComputeEngine take only ``priority`` (lower runs first)."""

GLOBUS_SDK_KEYS = MPI_KEYS | PRIORITY_KEYS | {"user_endpoint_config"}
"""What a Globus Compute endpoint may take through the SDK, its engine unknown here."""

NO_KEYS: frozenset[str] = frozenset()


class UnsupportedResourceKey(ConfigurationError):
    """A task's resource specification holds a key the chosen site's engine does not take.

    Permanent: the executor hands it to the task's AppFuture and does not fail over, since
    the mistake is in the request, not at the site.
    """


def parsl_executor_keys(executor: Any) -> frozenset[str]:
    """The keys a Parsl executor's ``validate_resource_spec`` (or ``submit``) accepts."""
    from parsl.executors import HighThroughputExecutor, ThreadPoolExecutor

    if isinstance(executor, HighThroughputExecutor):
        return MPI_KEYS if getattr(executor, "enable_mpi_mode", False) else PRIORITY_KEYS
    if isinstance(executor, ThreadPoolExecutor):
        return NO_KEYS
    if type(executor).__name__ in ("WorkQueueExecutor", "TaskVineExecutor"):
        return WORK_QUEUE_KEYS
    return NO_KEYS


def engine_keys(engine: Any) -> frozenset[str]:
    """The keys a Globus Compute endpoint engine accepts."""
    from globus_compute_endpoint.engines import GlobusComputeEngine

    if isinstance(engine, GlobusComputeEngine):
        # It validates with the HTEX it wraps (an ``MPIExecutor`` for GlobusMPIEngine).
        return parsl_executor_keys(engine.executor)
    return NO_KEYS


def forwarded(spec: Mapping[str, Any], accepted: frozenset[str], site: str) -> dict[str, Any]:
    """The part of ``spec`` the site's engine takes, as a fresh dict (engines may add keys).

    Raises:
        UnsupportedResourceKey: a key that is neither taken nor read for placement.
    """
    out: dict[str, Any] = {}
    for key, value in spec.items():
        if key in accepted:
            out[key] = value
        elif key not in PLACEMENT_KEYS:
            takes = ", ".join(sorted(accepted)) or "no resource specification"
            raise UnsupportedResourceKey(
                f"resource specification key {key!r} is not supported at site {site!r}: "
                f"its engine takes {takes} (placement keys "
                f"{', '.join(sorted(PLACEMENT_KEYS))} are always allowed)"
            )
    return out
