"""Ground truth on a hand-written site: each rule the prototype got wrong, checked directly."""

from __future__ import annotations

import pytest

from providers.state import SiteState
from providers.wire.common import Category
from providers.wire.proposal import Verdict
from providers.wire.requirements import (
    ComputeRequirement,
    ContainerRequirement,
    Fabric,
    GpuLogic,
    MPIRequirement,
    NetworkRequirement,
    Requirements,
    SoftwareRequirement,
    StorageKind,
    StorageRequirement,
    VersionConstraint,
)
from secretary_executor.simulation.truth import evaluate

SITE = SiteState.model_validate(
    {
        "site": {"name": "t", "kind": "hpc"},
        "providers": [
            {
                "name": "slurm",
                "kind": "workload",
                "facts": {
                    "manager": "slurm",
                    "partitions": [
                        {
                            "name": "cpu",
                            "total_nodes": 100,
                            "free_nodes": 10,
                            "cpus_per_node": 64,
                            "memory_gb_per_node": 256,
                        },
                        {
                            "name": "gpu",
                            "total_nodes": 8,
                            "free_nodes": 0,
                            "cpus_per_node": 32,
                            "memory_gb_per_node": 512,
                            "gpus_per_node": 4,
                            "gpu_model": "NVIDIA A100",
                        },
                    ],
                },
            },
            {
                "name": "spack",
                "kind": "software",
                "facts": {
                    "manager": "spack",
                    "packages": [
                        {"name": "lammps", "version": "2Aug2023"},
                        {"name": "tensorflow", "version": "2.14.1"},
                        {"name": "gromacs", "version": "2023.3.1"},
                    ],
                    "dependencies": [{"package": "lammps", "name": "numpy", "version": "1.26.4"}],
                },
            },
            {
                "name": "lustre",
                "kind": "storage",
                "facts": {
                    "filesystems": [
                        {"kind": "lustre", "mount": "/lustre", "total_gb": 1000, "free_gb": 400}
                    ]
                },
            },
            {
                "name": "infiniband",
                "kind": "network",
                "facts": {
                    "interfaces": [
                        {"name": "ib0", "fabric": "infiniband", "speed_gbps": 200, "rdma": True}
                    ]
                },
            },
            {
                "name": "singularity",
                "kind": "container",
                "facts": {"runtime": "singularity", "version": "3.11.4", "rootless": True},
            },
            {
                "name": "openmpi",
                "kind": "mpi",
                "facts": {"implementation": "openmpi", "version": "4.1.5"},
            },
        ],
    }
)


def sw(name: str, *cons: tuple[str, str]) -> SoftwareRequirement:
    return SoftwareRequirement(
        name=name, constraints=tuple(VersionConstraint(op=o, version=v) for o, v in cons)
    )


def verdict(**fields) -> Verdict:
    return evaluate(Requirements(**fields), SITE).verdict


def test_nothing_checkable_needs_information():
    assert verdict() is Verdict.NEEDS_INFORMATION


@pytest.mark.parametrize(
    ("req", "expected"),
    [
        (sw("tensorflow", (">=", "2.7")), Verdict.READY),  # 2.14 > 2.7, not a float compare
        (sw("tensorflow", ("<=", "2.7")), Verdict.INCOMPATIBLE),
        (sw("gromacs", (">=", "2023.2.9")), Verdict.READY),  # three-part >= is not ==
        (sw("gromacs", ("<=", "2023.3.0")), Verdict.INCOMPATIBLE),
        (sw("lammps", (">=", "23Jun2022")), Verdict.READY),  # date versions ordered as dates
        (sw("lammps", ("<=", "23Jun2022")), Verdict.INCOMPATIBLE),
        (sw("numpy"), Verdict.INCOMPATIBLE),  # only a dependency: not an installed app
    ],
)
def test_software_uses_real_version_ordering(req, expected):
    assert verdict(software=(req,)) is expected


def test_gpu_and_or_is_honoured():
    both = ComputeRequirement(cores_per_node=64, gpus_per_node=4, gpu_logic=GpuLogic.AND)
    either = both.model_copy(update={"gpu_logic": GpuLogic.OR})
    assert verdict(compute=both) is Verdict.INCOMPATIBLE  # no node has 64 cores AND 4 GPUs
    assert verdict(compute=either) is Verdict.READY  # the CPU partition has free nodes


def test_ready_busy_and_incompatible_follow_free_capacity():
    assert verdict(compute=ComputeRequirement(nodes=10)) is Verdict.READY
    assert verdict(compute=ComputeRequirement(nodes=50)) is Verdict.BUSY  # fits, must wait
    assert verdict(compute=ComputeRequirement(nodes=101)) is Verdict.INCOMPATIBLE
    assert verdict(compute=ComputeRequirement(gpus_per_node=2)) is Verdict.BUSY
    assert verdict(compute=ComputeRequirement(memory_gb_per_node=1024)) is Verdict.INCOMPATIBLE


def test_container_is_checked_and_the_software_still_is():
    assert verdict(container=ContainerRequirement(runtime="singularity")) is Verdict.READY
    assert verdict(container=ContainerRequirement(runtime="apptainer")) is Verdict.READY
    assert verdict(container=ContainerRequirement(runtime="docker")) is Verdict.INCOMPATIBLE
    missing_app = evaluate(
        Requirements(software=(sw("vasp"),), container=ContainerRequirement(runtime="singularity")),
        SITE,
    )
    assert missing_app.verdict is Verdict.INCOMPATIBLE
    assert missing_app.failing == (Category.SOFTWARE,)


def test_network_storage_and_mpi():
    assert verdict(network=NetworkRequirement(fabric=Fabric.INFINIBAND)) is Verdict.READY
    assert verdict(network=NetworkRequirement(low_latency=True)) is Verdict.READY
    assert verdict(network=NetworkRequirement(fabric=Fabric.ETHERNET)) is Verdict.INCOMPATIBLE
    lustre = StorageRequirement(kind=StorageKind.LUSTRE, min_free_gb=400)
    assert verdict(storage=(lustre,)) is Verdict.READY
    too_big = StorageRequirement(kind=StorageKind.PARALLEL, min_free_gb=401)
    assert verdict(storage=(too_big,)) is Verdict.INCOMPATIBLE
    assert verdict(storage=(StorageRequirement(kind=StorageKind.S3),)) is Verdict.INCOMPATIBLE
    ompi = MPIRequirement(
        implementation="openmpi", constraints=(VersionConstraint(op=">=", version="4.1"),)
    )
    assert verdict(mpi=ompi) is Verdict.READY
    assert verdict(mpi=MPIRequirement(implementation="mpich")) is Verdict.INCOMPATIBLE


def test_urgency_never_changes_the_verdict():
    busy = ComputeRequirement(nodes=50)
    assert verdict(compute=busy, urgency="now") is Verdict.BUSY


def test_truth_names_what_is_unmet_and_what_must_be_explored():
    t = evaluate(
        Requirements(software=(sw("lammps"),), network=NetworkRequirement(fabric=Fabric.ETHERNET)),
        SITE,
    )
    assert t.failing == (Category.NETWORK,)
    assert t.needed == (Category.SOFTWARE, Category.WORKLOAD, Category.NETWORK)
    assert t.unmet == ("network",)


def test_budget_is_refused():
    with pytest.raises(ValueError, match="budget"):
        evaluate(Requirements(software=(sw("lammps"),), budget_usd=10), SITE)
