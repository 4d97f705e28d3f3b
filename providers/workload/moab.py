"""Moab Workload Manager as a read-only workload provider.

Moab's client commands print XML with ``--xml``:

* ``showq --xml``: jobs in three ``queue`` sections (``active``, ``eligible``, ``blocked``),
  each ``job`` with its ``Class`` (Moab's word for a queue) and ``State``;
* ``mdiag -n --xml``: one ``node`` element per node with ``NODEID``, ``NODESTATE``,
  ``RCPROC`` (configured processors), ``RCMEM`` (configured memory, MB), ``GRES``
  (``gpu=2``), ``CFGCLASS`` (``[batch 16][gpu 16]``) and ``JOBLIST``;
* ``showq --version``: the client version (optional).

Each class named by a node becomes a partition of the nodes that name it; Moab keeps class
walltime limits out of these two commands, so ``max_walltime_s`` stays unknown.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import ClassVar

from providers.categories import WorkloadProvider
from providers.errors import ProviderError
from providers.facts import Partition, WorkloadFacts
from providers.wire.jobs import JobState
from providers.workload.batch import translate_state
from providers.workload.scheduler_io import (
    NodeRecord,
    as_int,
    find_version,
    parse_size_gb,
    partition_of,
    present,
    run_xml,
    version_banner,
)

MANAGER = "moab"
SHOWQ_XML = ("showq", "--xml")
MDIAG_NODES_XML = ("mdiag", "-n", "--xml")
SHOWQ_VERSION = ("showq", "--version")

MOAB_STATES_URL = (
    "http://docs.adaptivecomputing.com/9-1-3/MWM/help.htm#topics/moabWorkloadManager/"
    "topics/jobAdministration/jobstates.html"
)
"""Where Moab's job states are documented ("Job States")."""
MOAB_STATES: dict[str, JobState] = {
    "IDLE": JobState.QUEUED,
    "HOLD": JobState.QUEUED,
    "USERHOLD": JobState.QUEUED,
    "SYSTEMHOLD": JobState.QUEUED,
    "BATCHHOLD": JobState.QUEUED,
    "DEFERRED": JobState.QUEUED,
    "BLOCKED": JobState.QUEUED,
    "NOTQUEUED": JobState.QUEUED,
    "STAGING": JobState.QUEUED,
    "SUSPENDED": JobState.QUEUED,
    "STARTING": JobState.RUNNING,
    "RUNNING": JobState.RUNNING,
    "COMPLETED": JobState.COMPLETED,
    "REMOVED": JobState.CANCELLED,
    "VACATED": JobState.FAILED,
}
"""Moab job State -> common state (see :data:`MOAB_STATES_URL`)."""
_CLASS = re.compile(r"\[([^\s\]]+)")
_GPUS = re.compile(r"\bgpus?[=:](\d+)", re.IGNORECASE)


# -- parsing (pure) --------------------------------------------------------------------------


def parse_moab_nodes(root: ET.Element) -> list[NodeRecord]:
    """Nodes of ``mdiag -n --xml``. Free: state ``Idle`` and no job on it.

    Raises:
        ProviderError: the document has no ``node`` element (not Moab's node listing).
    """
    nodes: list[NodeRecord] = []
    for node in root.iter("node"):
        name = node.get("NODEID", "")
        if not name or name.upper() in {"GLOBAL", "DEFAULT"}:
            continue
        classes = set(_CLASS.findall(node.get("CFGCLASS") or node.get("AVLCLASS") or ""))
        gres = _GPUS.search(node.get("GRES", "") or node.get("AGRES", ""))
        nodes.append(
            NodeRecord(
                name=name,
                cpus=as_int(node.get("RCPROC")),
                memory_gb=parse_size_gb(node.get("RCMEM"), "mb") or 0.0,
                gpus=int(gres.group(1)) if gres else 0,
                free=node.get("NODESTATE", "").lower() == "idle" and not node.get("JOBLIST"),
                queues=frozenset(classes) if classes else None,
            )
        )
    if not nodes:
        raise ProviderError(f"{MANAGER}: `mdiag -n --xml` lists no node (no NODEID)")
    return nodes


def count_moab_jobs(root: ET.Element) -> dict[str, tuple[int, int]]:
    """(waiting, running) jobs per class from ``showq --xml``.

    Raises:
        ProviderError: no ``queue`` section at all (not showq's document).
    """
    sections = list(root.iter("queue"))
    if not sections:
        raise ProviderError(f"{MANAGER}: `showq --xml` has no queue section")
    counts: dict[str, tuple[int, int]] = {}
    for section in sections:
        for job in section.iter("job"):
            state = translate_state(MOAB_STATES, job.get("State", ""), MANAGER)
            klass = job.get("Class", "")
            waiting, running = counts.get(klass, (0, 0))
            counts[klass] = (
                waiting + (state is JobState.QUEUED),
                running + (state is JobState.RUNNING),
            )
    return counts


def moab_facts(*, version: str | None, showq: ET.Element, nodes: ET.Element) -> WorkloadFacts:
    """Facts from ``showq --xml`` and ``mdiag -n --xml``: one partition per node class.

    Nodes that name no class serve every class; when no node names a class at all, the whole
    machine is one partition named ``batch`` (Moab's default class).
    """
    node_list = parse_moab_nodes(nodes)
    counts = count_moab_jobs(showq)
    classes = sorted({c for n in node_list for c in (n.queues or ())}) or ["batch"]
    partitions: list[Partition] = []
    for name in classes:
        waiting, running = counts.get(name, (0, 0))
        if len(classes) == 1:  # every job belongs to the only class there is
            waiting = sum(w for w, _ in counts.values())
            running = sum(r for _, r in counts.values())
        part = partition_of(
            name,
            [n for n in node_list if n.queues is None or name in n.queues],
            queued=waiting,
            running=running,
            default=name == "batch",
        )
        if part is not None:
            partitions.append(part)
    return WorkloadFacts(manager=MANAGER, version=version, partitions=tuple(partitions))


# -- the provider ----------------------------------------------------------------------------


class MoabProvider(WorkloadProvider):
    """Moab: node classes as partitions with their nodes and load (read-only)."""

    name: ClassVar[str] = "moab"
    description: ClassVar[str] = (
        "Moab Workload Manager: classes (queues) with node shape, free nodes, queued and "
        "running jobs (read-only: does not submit)."
    )
    detection: ClassVar[str] = (
        "showq and mdiag on PATH; facts from showq --xml and mdiag -n --xml, version from "
        "showq --version (max walltime not reported)"
    )

    def _probe(self) -> WorkloadFacts | None:
        """Read Moab; None when its clients are not installed here.

        Raises:
            ProviderError: Moab is installed but a command failed or printed something else
                than its documented XML (the message names the command).
        """
        if not present(self.runner, "showq", "mdiag"):
            return None
        banner = version_banner(self.runner, SHOWQ_VERSION) or ""
        showq = run_xml(self.runner, MANAGER, SHOWQ_XML)
        nodes = run_xml(self.runner, MANAGER, MDIAG_NODES_XML)
        return moab_facts(version=find_version(banner), showq=showq, nodes=nodes)
