"""MPI keys reach a real MPI engine: Parsl's ``MPIExecutor`` on Slurm, through SecretaryExecutor.

A private Slurm cluster of two fake nodes (``scripts/hpc/slurm-private-cluster.sh``; both
``slurmd`` run on this host) takes one block of Parsl's ``MPIExecutor`` (HTEX in MPI mode,
``SlurmProvider`` with a ``SimpleLauncher``). A bash app asks for
``{"num_nodes": 2, "ranks_per_node": 2, "launcher_options": ...}``: the secretaries read
``num_nodes`` to place it, and the executor forwards every key, so the worker hands the task
``$PARSL_MPI_PREFIX`` for two nodes and four ranks. The launcher is MPICH's ``mpiexec``
(Hydra, whose flags Parsl's ``mpiexec`` prefix uses: ``-n -ppn -hosts``); inside a Slurm
allocation Hydra starts its proxies with ``srun``, so each rank runs on the node Slurm gave it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import parsl
import pytest
from conftest import need_service
from parsl.config import Config
from parsl.executors import MPIExecutor
from parsl.launchers import SimpleLauncher
from parsl.providers import SlurmProvider
from slurm_cluster import cluster_responds, private_cluster

from secretary_executor.parsl import ParslChannel, SecretaryExecutor, secretary_bash_app

pytestmark = [pytest.mark.slurm, pytest.mark.mpi]

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SITE = "hpc-campus"
MPICH = "/usr/bin/mpiexec.mpich"


@pytest.fixture(scope="module")
def two_nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private Slurm cluster of two fake nodes; yields its slurm.conf."""
    need_service(cluster_responds(), "no responding Slurm cluster (run scripts/hpc/slurm-up.sh)")
    need_service(os.geteuid() == 0, "a private Slurm cluster needs root (slurmd runs jobs)")
    need_service(
        os.access(MPICH, os.X_OK), "MPICH is not installed (run scripts/hpc/mpi-up.sh as root)"
    )
    with private_cluster(tmp_path_factory.mktemp("slurm-mpi"), 2) as conf:
        yield conf


@secretary_bash_app
def ranks(stdout: str = "") -> str:
    return "$PARSL_MPI_PREFIX bash -c 'echo rank=$PMI_RANK size=$PMI_SIZE node=$SLURMD_NODENAME'"


def test_a_two_node_mpiexec_task_runs_under_slurm(
    two_nodes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLURM_CONF", str(two_nodes))  # sbatch, squeue and the job see it
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # Open MPI may own the plain name. A script, not a link: Hydra finds its proxy beside
    # the path it was started by.
    wrapper = bin_dir / "mpiexec"
    wrapper.write_text(f'#!/bin/sh\nexec {MPICH} "$@"\n')
    wrapper.chmod(0o755)
    path = f"{bin_dir}:{Path(sys.executable).parent}"  # and Parsl's interchange.py, workers
    monkeypatch.setenv("PATH", f"{path}:{os.environ.get('PATH', '')}")
    provider = SlurmProvider(
        partition="debug",
        nodes_per_block=2,
        init_blocks=1,
        min_blocks=0,
        max_blocks=1,
        walltime="00:05:00",
        exclusive=False,
        launcher=SimpleLauncher(),
        # The worker imports this module to find ``ranks``, and our packages.
        worker_init=f"export PATH={path}:$PATH PYTHONPATH={HERE.parent}:{HERE}:{REPO}",
        cmd_timeout=30,
    )
    mpi = MPIExecutor(
        label="site-mpi",
        provider=provider,
        address="127.0.0.1",
        max_workers_per_block=1,
        mpi_launcher="mpiexec",
        heartbeat_period=2,
        poll_period=100,
    )
    channel = ParslChannel(mpi, run_dir=tmp_path / "site", name=SITE)
    ex = SecretaryExecutor("demo", {SITE: channel}, ledger=tmp_path / "ledger.db")
    config = Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
    out = tmp_path / "ranks.out"
    # Hydra copies mpiexec's environment (node1's SLURMD_NODENAME included) to every rank
    # unless told not to; with -envnone each rank keeps what Slurm set on its own node.
    spec = {"num_nodes": 2, "ranks_per_node": 2, "launcher_options": "-envnone"}
    with parsl.load(config):
        assert ranks(stdout=str(out), parsl_resource_specification=spec).result(timeout=110) == 0
    lines = re.findall(r"^rank=(\d) size=(\d) node=(node\d)$", out.read_text(), re.MULTILINE)
    assert sorted(int(rank) for rank, _, _ in lines) == [0, 1, 2, 3], out.read_text()
    assert {size for _, size, _ in lines} == {"4"}
    assert {node for _, _, node in lines} == {"node1", "node2"}
    (placement,) = ex.placements.values()
    assert placement.site == SITE and [a.ok for a in placement.attempts] == [True]
