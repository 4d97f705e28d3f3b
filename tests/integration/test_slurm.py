"""The Slurm provider against a real Slurm cluster (``scripts/hpc/slurm-up.sh``).

Everything here talks to real ``slurmctld``/``slurmd`` daemons: the one-node cluster of
slurm-up.sh (partitions debug and batch on this host) and, for multi-node jobs, a private
cluster of 4 fake nodes with fake GPUs started by ``scripts/hpc/slurm-private-cluster.sh``.
Waits poll with generous deadlines (a fresh controller's first scheduling pass can take 10 s
or more on a 2-core machine, and other tests may share the cluster); nothing sleeps a fixed
time. Jobs still alive at the end of a test are cancelled by the ``jobs`` fixture.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DispatchJobs, need_service, wait_until
from slurm_cluster import cluster_responds
from slurm_cluster import private_cluster as start_private_cluster

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.secretary import Secretary
from providers.commands import CommandRunner
from providers.software.pip import PipProvider
from providers.tools import ToolKind
from providers.wire import Verdict
from providers.workload.slurm import SlurmProvider, output_paths

pytestmark = pytest.mark.slurm

DEADLINE_S = 120.0
TERMINAL = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "UNKNOWN"}
SLEEP = ["sleep", "300"]


def wait_for(predicate: Callable[[], Any], what: str, timeout_s: float = DEADLINE_S) -> Any:
    """Poll ``predicate`` until it returns something truthy, or fail at the deadline.

    Backs off to two looks a second: each look asks the Slurm controller.
    """
    return wait_until(
        predicate, timeout_s=timeout_s, what=what, interval_s=0.05, max_interval_s=0.5
    )


class Jobs(DispatchJobs):
    """Slurm jobs; :meth:`cleanup` cancels what is still alive at teardown."""

    def wait_state(self, native_id: str, states: set[str]) -> dict[str, Any]:
        return wait_for(
            lambda: (s := self.status(native_id))["state"] in states and s,
            f"job {native_id} to reach {sorted(states)}",
        )

    def cleanup(self) -> None:
        for native_id in self.ids:
            if self.status(native_id)["state"] not in TERMINAL:
                self.cancel(native_id)


def _node_shape() -> tuple[int, int]:
    """CPUs and RealMemory (MB) of this host as ``slurmd -C`` reports them."""
    text = CommandRunner().run(["slurmd", "-C"], timeout_s=15).stdout
    cpus = re.search(r"\bCPUs=(\d+)", text)
    memory = re.search(r"\bRealMemory=(\d+)", text)
    assert cpus and memory, text
    return int(cpus.group(1)), int(memory.group(1))


def _all_idle(provider: SlurmProvider) -> bool:
    report = provider.probe(refresh=True)
    return bool(
        report.facts
        and all(p["free_nodes"] == p["total_nodes"] for p in report.facts["partitions"])
    )


@pytest.fixture
def slurm() -> SlurmProvider:
    """The provider on the main cluster, once its node is idle (nothing left from before)."""
    need_service(cluster_responds(), "no responding Slurm cluster (run scripts/hpc/slurm-up.sh)")
    provider = SlurmProvider()
    wait_for(lambda: _all_idle(provider), "the cluster's node to be idle")
    return provider


@pytest.fixture
def jobs(slurm: SlurmProvider) -> Iterator[Jobs]:
    helper = Jobs(slurm)
    yield helper
    helper.cleanup()


@pytest.fixture(scope="session")
def private_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A second cluster of 4 fake nodes with 2 fake a100 GPUs each; yields its slurm.conf."""
    need_service(cluster_responds(), "no responding Slurm cluster (run scripts/hpc/slurm-up.sh)")
    need_service(os.geteuid() == 0, "a private Slurm cluster needs root (slurmd runs jobs)")
    folder = tmp_path_factory.mktemp("slurm-private")
    with start_private_cluster(folder, 4, env={"GPUS": "2"}) as conf:
        yield conf


# -- probing ---------------------------------------------------------------------------------


def test_probe_reports_the_real_cluster(slurm: SlurmProvider) -> None:
    cpus, memory_mb = _node_shape()
    facts = slurm.facts()
    version = CommandRunner().run(["sinfo", "--version"], timeout_s=15).stdout.split()[-1]
    assert (facts.manager, facts.version, facts.cluster) == ("slurm", version, "localcluster")
    parts = {p.name: p for p in facts.partitions}
    assert set(parts) == {"debug", "batch"}
    assert parts["debug"].default and not parts["batch"].default
    assert parts["debug"].max_walltime_s == 30 * 60
    assert parts["batch"].max_walltime_s is None
    for part in parts.values():
        assert (part.total_nodes, part.free_nodes) == (1, 1)
        assert part.cpus_per_node == cpus
        assert part.memory_gb_per_node == round(memory_mb / 1024, 2)
        assert part.gpus_per_node == 0


def test_partitions_option_limits_what_is_reported(slurm: SlurmProvider) -> None:
    only = SlurmProvider(options={"partitions": ["batch"]})
    assert [p.name for p in only.facts().partitions] == ["batch"]


def test_full_node_makes_it_busy_and_counts_the_queue(slurm: SlurmProvider, jobs: Jobs) -> None:
    cpus = slurm.facts().partitions[0].cpus_per_node
    first = jobs.submit(SLEEP, partition="batch", cores_per_node=cpus)
    jobs.wait_state(first, {"RUNNING"})
    second = jobs.submit(SLEEP, partition="batch", cores_per_node=cpus)
    assert jobs.status(second)["state"] == "QUEUED"

    def busy() -> dict[str, Any] | None:
        report = slurm.probe(refresh=True)
        assert report.facts is not None, report.error
        batch = next(p for p in report.facts["partitions"] if p["name"] == "batch")
        return batch if batch["queue_depth"] >= 1 else None

    batch = wait_for(busy, "the pending job to show in the queue depth")
    assert batch["free_nodes"] == 0 and batch["running_jobs"] >= 1
    summary = slurm.call_tool("capacity_summary", {}, allowed=ToolKind.READ)
    assert summary["free_nodes"] == 0 and summary["queue_depth"] >= 1
    assert jobs.cancel(second)["state"] == "CANCELLED"
    assert jobs.cancel(first)["state"] == "CANCELLED"


# -- dispatch --------------------------------------------------------------------------------


def test_job_completes_with_its_output(jobs: Jobs, tmp_path: Path) -> None:
    hostile = "$(touch MARKER); x; `touch MARKER`"
    native_id = jobs.submit(
        ["bash", "-c", 'echo "$GREETING"; printf "%s\\n" "$1"', "_", hostile],
        workdir=str(tmp_path),
        environment={"GREETING": "hello from slurm"},
        walltime_s=120,
    )
    status = jobs.wait_state(native_id, TERMINAL)
    assert (status["state"], status["exit_code"]) == ("COMPLETED", 0), status
    out, _ = output_paths(native_id)
    assert wait_for(out.exists, f"output file {out}", timeout_s=30)
    assert out.read_text() == f"hello from slurm\n{hostile}\n"
    assert not (tmp_path / "MARKER").exists()


def test_failing_command_reports_its_exit_code(jobs: Jobs) -> None:
    native_id = jobs.submit(["bash", "-c", "exit 3"], partition="debug")
    status = jobs.wait_state(native_id, TERMINAL)
    assert (status["state"], status["exit_code"]) == ("FAILED", 3), status


def test_cancel_stops_a_running_job(jobs: Jobs) -> None:
    native_id = jobs.submit(SLEEP)
    jobs.wait_state(native_id, {"RUNNING"})
    assert jobs.cancel(native_id)["state"] == "CANCELLED"
    assert jobs.status(native_id)["state"] == "CANCELLED"
    assert jobs.cancel(native_id)["state"] == "CANCELLED"  # a second cancel changes nothing


def test_unknown_job_id_is_unknown(jobs: Jobs) -> None:
    status = jobs.status("987654")
    assert status["state"] == "UNKNOWN" and "does not know job 987654" in status["message"]
    assert jobs.cancel("987654")["state"] == "UNKNOWN"


def test_multi_node_job_on_private_cluster(private_cluster: Path) -> None:
    provider = SlurmProvider(options={"slurm_conf": str(private_cluster)})
    facts = provider.facts()
    batch = next(p for p in facts.partitions if p.name == "batch")
    assert (batch.total_nodes, batch.gpus_per_node, batch.gpu_model) == (4, 2, "a100")
    wait_for(lambda: _all_idle(provider), "the private cluster's nodes to be idle")
    helper = Jobs(provider)
    try:
        native_id = helper.submit(
            ["bash", "-c", 'srun -l printenv SLURMD_NODENAME; echo "gpus=$CUDA_VISIBLE_DEVICES"'],
            nodes=2,
            gpus_per_node=1,
            partition="batch",
        )
        status = helper.wait_state(native_id, TERMINAL)
        assert status["state"] == "COMPLETED", status
        out, _ = output_paths(native_id)
        text = out.read_text()
        nodes = set(re.findall(r"^\d+: (node\d)$", text, re.MULTILINE))
        assert len(nodes) == 2, text
        assert "gpus=0" in text
    finally:
        helper.cleanup()


# -- the whole site --------------------------------------------------------------------------


def test_secretary_ready_then_busy(slurm: SlurmProvider, jobs: Jobs) -> None:
    secretary = Secretary(SiteConfig(name="hpc-here", kind="hpc"), providers=[slurm, PipProvider()])
    requirements = parse_requirements("python >= 3.8 on 1 node")
    proposal = secretary.negotiate(requirements)
    assert proposal.verdict is Verdict.READY, proposal.reason

    cpus = slurm.facts().partitions[0].cpus_per_node
    native_id = jobs.submit(SLEEP, partition="batch", cores_per_node=cpus)
    jobs.wait_state(native_id, {"RUNNING"})
    slurm.invalidate()
    proposal = secretary.negotiate(requirements)
    assert proposal.verdict is Verdict.BUSY, proposal.reason
