"""TORQUE (the PBS fork of Adaptive Computing) as a read-only workload provider.

TORQUE shares PBS's command names but not PBS Pro's JSON output, so it is read from its XML
and text forms:

* ``qstat --version`` prints ``Version: 6.1.3`` (PBS Pro prints ``pbs_version = ...``);
* ``pbsnodes -x``: nodes as XML (``state``, ``np``, ``gpus``, ``properties``, ``jobs`` and
  ``physmem`` inside ``status``);
* ``qstat -Q -f``: queues as ``Queue: NAME`` blocks of ``attribute = value`` lines;
* ``qstat -B -f``: the server name and ``default_queue`` (optional);
* ``qstat -x``: jobs as XML (no output at all when there are none).

A queue whose ``resources_default.neednodes`` or ``required_property`` names node
properties takes only the nodes that have them; any other queue takes every node. The provider
observes only: submitting to TORQUE is left to the PBS-compatible tooling of the site, and the
dispatch tools answer with a clear refusal (the base class's default).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import ClassVar

from providers.categories import WorkloadProvider
from providers.errors import CommandError, ProviderError
from providers.facts import Partition, WorkloadFacts
from providers.wire.jobs import JobState
from providers.workload.batch import parse_walltime, translate_state
from providers.workload.scheduler_io import (
    NodeRecord,
    as_int,
    find_version,
    load_xml,
    parse_size_gb,
    partition_of,
    present,
    run_stdout,
    run_xml,
    version_banner,
)

MANAGER = "torque"
QSTAT_VERSION = ("qstat", "--version")
PBSNODES_XML = ("pbsnodes", "-x")
QSTAT_QUEUES = ("qstat", "-Q", "-f")
QSTAT_SERVER = ("qstat", "-B", "-f")
QSTAT_JOBS_XML = ("qstat", "-x")

TORQUE_STATES_URL = (
    "http://docs.adaptivecomputing.com/torque/6-1-2/adminGuide/torque.htm"
    "#topics/torque/commands/qstat.htm"
)
"""Where TORQUE's job state letters are documented."""
TORQUE_STATES: dict[str, JobState] = {
    "Q": JobState.QUEUED,
    "H": JobState.QUEUED,  # held
    "W": JobState.QUEUED,  # waiting for its execution time
    "T": JobState.QUEUED,  # being moved
    "S": JobState.QUEUED,  # suspended
    "R": JobState.RUNNING,
    "E": JobState.RUNNING,  # exiting after having run
    "C": JobState.COMPLETED,  # completed (exit status decides success)
}
"""TORQUE job_state letter -> common state (see :data:`TORQUE_STATES_URL`)."""


# -- parsing (pure) --------------------------------------------------------------------------


def parse_attribute_blocks(text: str, kind: str) -> dict[str, dict[str, str]]:
    """``KIND: NAME`` blocks of ``    key = value`` lines (``qstat -Q -f``, ``qstat -B -f``).

    Lines that start with a tab continue the previous value, as qstat wraps long values.
    """
    blocks: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    last_key: str | None = None
    for line in text.splitlines():
        head = re.match(rf"^{kind}:\s*(\S+)\s*$", line)
        if head:
            current = blocks.setdefault(head.group(1), {})
            last_key = None
            continue
        if current is None:
            continue
        if line.startswith("\t") and last_key is not None:
            current[last_key] += line.strip()
            continue
        attr = re.match(r"^\s+([\w.]+)\s*=\s*(.*)$", line)
        if attr:
            last_key = attr.group(1)
            current[last_key] = attr.group(2).strip()
    return blocks


def required_properties(attrs: dict[str, str]) -> frozenset[str]:
    """Node properties a queue requires (``neednodes`` tokens that are not counts or ppn)."""
    found: set[str] = set()
    for key in ("resources_default.neednodes", "required_property"):
        for token in re.split(r"[:+]", attrs.get(key, "")):
            token = token.strip()
            if token and not token.isdigit() and "=" not in token:
                found.add(token)
    return frozenset(found)


def _text(node: ET.Element, tag: str) -> str:
    child = node.find(tag)
    return (child.text or "").strip() if child is not None else ""


def parse_torque_nodes(root: ET.Element) -> list[tuple[NodeRecord, frozenset[str]]]:
    """(node, its properties) from ``pbsnodes -x``. Free: state ``free`` and no jobs.

    Raises:
        ProviderError: the document has no named ``Node`` (not TORQUE's node listing).
    """
    nodes: list[tuple[NodeRecord, frozenset[str]]] = []
    for node in root.iter("Node"):
        name = _text(node, "name")
        if not name:
            continue
        status = dict(
            item.split("=", 1) for item in _text(node, "status").split(",") if "=" in item
        )
        states = {s.strip() for s in _text(node, "state").split(",") if s.strip()}
        props = frozenset(p.strip() for p in _text(node, "properties").split(",") if p.strip())
        record = NodeRecord(
            name=name,
            cpus=as_int(_text(node, "np"), as_int(status.get("ncpus"))),
            memory_gb=parse_size_gb(status.get("physmem"), "kb") or 0.0,
            gpus=as_int(_text(node, "gpus")),
            free=states == {"free"} and not _text(node, "jobs"),
        )
        nodes.append((record, props))
    if not nodes:
        raise ProviderError(f"{MANAGER}: `pbsnodes -x` lists no Node with a name")
    return nodes


def count_torque_jobs(root: ET.Element | None) -> dict[str, tuple[int, int]]:
    """(waiting, running) jobs per queue from ``qstat -x`` (None: no jobs at all)."""
    counts: dict[str, tuple[int, int]] = {}
    if root is None:
        return counts
    for job in root.iter("Job"):
        state = translate_state(TORQUE_STATES, _text(job, "job_state"), MANAGER)
        queue = _text(job, "queue")
        waiting, running = counts.get(queue, (0, 0))
        counts[queue] = (
            waiting + (state is JobState.QUEUED),
            running + (state is JobState.RUNNING),
        )
    return counts


def torque_facts(
    *,
    version: str | None,
    server_text: str | None,
    queues_text: str,
    nodes: ET.Element,
    jobs: ET.Element | None,
) -> WorkloadFacts:
    """Facts from TORQUE's outputs: enabled execution queues with nodes become partitions.

    Raises:
        ProviderError: ``qstat -Q -f`` printed no ``Queue:`` block.
    """
    queues = parse_attribute_blocks(queues_text, "Queue")
    if not queues:
        raise ProviderError(f"{MANAGER}: `qstat -Q -f` printed no 'Queue: NAME' block")
    servers = parse_attribute_blocks(server_text or "", "Server")
    cluster = next(iter(servers), None)
    default_queue = next((s.get("default_queue") for s in servers.values()), None)
    node_list = parse_torque_nodes(nodes)
    counts = count_torque_jobs(jobs)
    partitions: list[Partition] = []
    for name, attrs in sorted(queues.items()):
        if attrs.get("queue_type", "").lower() != "execution":
            continue
        if attrs.get("enabled", "True").lower() != "true":
            continue
        need = required_properties(attrs)
        members = [n for n, props in node_list if need <= props]
        waiting, running = counts.get(name, (0, 0))
        part = partition_of(
            name,
            members,
            queued=waiting,
            running=running,
            max_walltime_s=parse_walltime(attrs.get("resources_max.walltime")),
            default=name == default_queue,
        )
        if part is None:
            continue
        if attrs.get("started", "True").lower() != "true":
            part = part.model_copy(update={"free_nodes": 0})
        partitions.append(part)
    return WorkloadFacts(
        manager=MANAGER, version=version, cluster=cluster, partitions=tuple(partitions)
    )


# -- the provider ----------------------------------------------------------------------------


class TorqueProvider(WorkloadProvider):
    """TORQUE: queues as partitions with their nodes and load (read-only)."""

    name: ClassVar[str] = "torque"
    description: ClassVar[str] = (
        "TORQUE resource manager: execution queues with node shape, free nodes, queued and "
        "running jobs and max walltime (read-only: does not submit)."
    )
    detection: ClassVar[str] = (
        "qstat and pbsnodes on PATH and `qstat --version` printing 'Version:' (not PBS Pro's "
        "pbs_version); facts from pbsnodes -x, qstat -Q -f, qstat -B -f and qstat -x"
    )

    def _probe(self) -> WorkloadFacts | None:
        """Read TORQUE; None when it is not installed here (or the qstat is PBS Pro's).

        Raises:
            ProviderError: TORQUE is installed but a command failed or printed something else
                than its documented format (the message names the command).
        """
        if not present(self.runner, "qstat", "pbsnodes"):
            return None
        banner = version_banner(self.runner, QSTAT_VERSION)
        if banner is None or "pbs_version" in banner:
            return None  # qstat --version failed, or it is PBS Pro's qstat
        if not re.search(r"version:", banner, re.IGNORECASE):
            return None  # another scheduler's qstat
        try:
            server_text: str | None = run_stdout(self.runner, MANAGER, QSTAT_SERVER)
        except CommandError:
            server_text = None  # only the default queue and server name come from here
        nodes = run_xml(self.runner, MANAGER, PBSNODES_XML)
        jobs_text = run_stdout(self.runner, MANAGER, QSTAT_JOBS_XML)
        jobs = load_xml(jobs_text, MANAGER, QSTAT_JOBS_XML) if jobs_text.strip() else None
        return torque_facts(
            version=find_version(banner),
            server_text=server_text,
            queues_text=run_stdout(self.runner, MANAGER, QSTAT_QUEUES),
            nodes=nodes,
            jobs=jobs,
        )
