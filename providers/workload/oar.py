"""OAR (the Grid'5000 scheduler) as a read-only workload provider.

OAR's unit of allocation is a *resource* (usually one core) with properties; a node is the set
of resources sharing a ``network_address``. Read with OAR's JSON output:

* ``oarnodes -J``: every resource with its ``state`` (Alive, Absent, Suspected, Dead) and
  properties; OAR 3 prints a list of flat records, OAR 2.5 an object keyed by resource id with
  the properties under ``properties``; both are accepted;
* ``oarstat -J``: jobs keyed by id with ``state``, ``queue`` and ``assigned_network_address``
  (no output, or ``{}``, when there are none);
* ``oarstat -V``: the version (optional).

OAR queues (``default``, ``besteffort``, ``admin``) share every node, so the cluster is one
partition named ``default`` whose queue depth counts waiting jobs of every queue. Cores per node
are the resources per node, memory the ``memnode`` property (MB, the Grid'5000 convention), and
GPUs the ``gpu_count`` property or the number of distinct ``gpu`` values. OAR reports no queue
walltime limit here, so ``max_walltime_s`` stays unknown.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, ClassVar

from providers.categories import WorkloadProvider
from providers.errors import ProviderError
from providers.facts import WorkloadFacts
from providers.wire.jobs import JobState
from providers.workload.batch import translate_state
from providers.workload.scheduler_io import (
    NodeRecord,
    as_int,
    find_version,
    load_json,
    parse_size_gb,
    partition_of,
    present,
    run_stdout,
    version_banner,
)

MANAGER = "oar"
OARNODES_JSON = ("oarnodes", "-J")
OARSTAT_JSON = ("oarstat", "-J")
OARSTAT_VERSION = ("oarstat", "-V")
PARTITION = "default"

OAR_STATES_URL = "https://github.com/oar-team/oar3/blob/master/docs/user/mechanisms.rst"
"""Where OAR's job states are documented (OAR user documentation, "mechanisms")."""
OAR_STATES: dict[str, JobState] = {
    "WAITING": JobState.QUEUED,
    "HOLD": JobState.QUEUED,
    "TOLAUNCH": JobState.QUEUED,
    "TOACKRESERVATION": JobState.QUEUED,
    "LAUNCHING": JobState.QUEUED,
    "RUNNING": JobState.RUNNING,
    "SUSPENDED": JobState.RUNNING,  # keeps its resources
    "RESUMING": JobState.RUNNING,
    "FINISHING": JobState.RUNNING,
    "TOERROR": JobState.FAILED,
    "ERROR": JobState.FAILED,
    "TERMINATED": JobState.COMPLETED,
}
"""OAR job state -> common state (see :data:`OAR_STATES_URL`)."""


# -- parsing (pure) --------------------------------------------------------------------------


def _resources(data: Any) -> list[dict[str, Any]]:
    """Flat resource records from either OAR 3 (list) or OAR 2.5 (object by id) output."""
    if isinstance(data, list):
        items = data
    elif isinstance(data, dict):
        items = list(data.values())
    else:
        raise ProviderError(f"{MANAGER}: `oarnodes -J` printed neither a list nor an object")
    flat: list[dict[str, Any]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        props = item.get("properties")
        flat.append({**props, **item} if isinstance(props, dict) else dict(item))
    return flat


def busy_hosts(jobs: dict[str, Any]) -> set[str]:
    """Hosts holding a resource of a running (or suspended, finishing) job."""
    hosts: set[str] = set()
    for job in jobs.values():
        if not isinstance(job, dict):
            continue
        state = translate_state(OAR_STATES, str(job.get("state", "")), MANAGER)
        if state is JobState.RUNNING:
            hosts.update(str(h) for h in job.get("assigned_network_address") or ())
    return hosts


def parse_oar_nodes(data: Any, busy: set[str]) -> list[NodeRecord]:
    """Nodes from ``oarnodes -J``: resources grouped by ``network_address``.

    A node is free when every resource of it is Alive and no running job holds it.

    Raises:
        ProviderError: no resource has a ``network_address``.
    """
    by_host: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for res in _resources(data):
        host = res.get("network_address") or res.get("host")
        if host:
            by_host[str(host)].append(res)
    if not by_host:
        raise ProviderError(f"{MANAGER}: `oarnodes -J` lists no resource with a network_address")
    nodes: list[NodeRecord] = []
    for host, resources in sorted(by_host.items()):
        gpu_ids = {str(r["gpu"]) for r in resources if r.get("gpu") not in (None, "", 0, "0")}
        gpu_count = max((as_int(r.get("gpu_count")) for r in resources), default=0)
        memory = max(parse_size_gb(r.get("memnode"), "mb") or 0.0 for r in resources)
        alive = all(str(r.get("state", "")).lower() == "alive" for r in resources)
        nodes.append(
            NodeRecord(
                name=host,
                cpus=len(resources),
                memory_gb=memory,
                gpus=gpu_count or len(gpu_ids),
                free=alive and host not in busy,
            )
        )
    return nodes


def oar_facts(*, version: str | None, nodes: Any, jobs: dict[str, Any]) -> WorkloadFacts:
    """Facts from ``oarnodes -J`` and ``oarstat -J``: one ``default`` partition."""
    waiting = running = 0
    for job in jobs.values():
        if not isinstance(job, dict):
            continue
        state = translate_state(OAR_STATES, str(job.get("state", "")), MANAGER)
        waiting += state is JobState.QUEUED
        running += state is JobState.RUNNING
    node_list = parse_oar_nodes(nodes, busy_hosts(jobs))
    part = partition_of(PARTITION, node_list, queued=waiting, running=running, default=True)
    return WorkloadFacts(
        manager=MANAGER, version=version, partitions=(part,) if part is not None else ()
    )


# -- the provider ----------------------------------------------------------------------------


class OARProvider(WorkloadProvider):
    """OAR: the cluster as one partition with its nodes and load (read-only)."""

    name: ClassVar[str] = "oar"
    description: ClassVar[str] = (
        "OAR resource manager: nodes (grouped resources) with cores, memory, GPUs, free "
        "nodes, waiting and running jobs (read-only: does not submit)."
    )
    detection: ClassVar[str] = (
        "oarnodes and oarstat on PATH; facts from oarnodes -J and oarstat -J, version from "
        "oarstat -V (one 'default' partition; max walltime not reported)"
    )

    def _probe(self) -> WorkloadFacts | None:
        """Read OAR; None when its commands are not installed here.

        Raises:
            ProviderError: OAR is installed but a command failed or printed something else
                than its documented JSON (the message names the command).
        """
        if not present(self.runner, "oarnodes", "oarstat"):
            return None
        banner = version_banner(self.runner, OARSTAT_VERSION) or ""
        nodes = load_json(run_stdout(self.runner, MANAGER, OARNODES_JSON), MANAGER, OARNODES_JSON)
        jobs_text = run_stdout(self.runner, MANAGER, OARSTAT_JSON)
        jobs = load_json(jobs_text, MANAGER, OARSTAT_JSON) if jobs_text.strip() else {}
        if not isinstance(jobs, dict):
            raise ProviderError(f"{MANAGER}: `oarstat -J` printed JSON that is not an object")
        return oar_facts(version=find_version(banner), nodes=nodes, jobs=jobs)
