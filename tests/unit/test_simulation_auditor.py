"""The independent auditor: hand-written sites and intents with the verdict worked out by hand.

Every expected verdict below was decided by reading the site and the intent, not by running
any project code; the sites are plain dictionaries in the state file's shape, so nothing of the
fact models or the negotiator is involved on either side.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from secretary_executor.simulation import auditor
from secretary_executor.simulation.auditor import judge, meets
from secretary_executor.simulation.intent import Intent, VersionBound

AUDITOR_FILES = ("auditor.py", "intent.py")
ALLOWED_IMPORTS = {
    "__future__",
    "re",
    "collections",
    "datetime",
    "typing",
    "packaging",
    "pydantic",
    "secretary_executor.simulation.intent",
}


def _partition(name: str, total: int, free: int, cpus: int, mem: float, gpus: int = 0) -> dict:
    return {
        "name": name,
        "total_nodes": total,
        "free_nodes": free,
        "cpus_per_node": cpus,
        "memory_gb_per_node": mem,
        "gpus_per_node": gpus,
    }


def _site(*providers: tuple[str, str, dict]) -> dict:
    return {
        "site": {"name": "hand-made"},
        "providers": [{"name": n, "kind": k, "facts": f} for n, k, f in providers],
    }


CLUSTER = _site(
    (
        "slurm",
        "workload",
        {
            "partitions": [
                _partition("cpu", total=100, free=10, cpus=64, mem=256.0),
                _partition("gpu", total=8, free=0, cpus=32, mem=512.0, gpus=4),
            ]
        },
    ),
    (
        "spack",
        "software",
        {
            "packages": [
                {"name": "lammps", "version": "2Aug2023"},
                {"name": "namd", "version": "3.0.1"},
                {"name": "gromacs", "version": "2023.3"},
            ],
            # numpy only as a dependency: it must never satisfy a request for numpy.
            "dependencies": [{"package": "gromacs", "name": "numpy", "version": "1.26.4"}],
        },
    ),
    ("infiniband", "network", {"interfaces": [{"fabric": "infiniband", "rdma": True}]}),
    (
        "lustre",
        "storage",
        {"filesystems": [{"kind": "lustre", "mount": "/lustre", "free_gb": 5000.0}]},
    ),
    ("openmpi", "mpi", {"implementation": "openmpi", "version": "4.1.5"}),
    ("singularity", "container", {"runtime": "singularity", "version": "3.11.4"}),
)

LAPTOP = _site(
    ("local", "workload", {"partitions": [_partition("local", 1, 1, 8, 32.0)]}),
    ("pip", "software", {"packages": [{"name": "numpy", "version": "1.26.4"}]}),
    ("ethernet", "network", {"interfaces": [{"fabric": "ethernet", "rdma": False}]}),
    ("local-scratch", "storage", {"filesystems": [{"kind": "local", "free_gb": 200.0}]}),
    ("docker", "container", {"runtime": "docker", "version": "24.0.7"}),
)


def v(op: str, version: str) -> VersionBound:
    return VersionBound(op=op, version=version)  # type: ignore[arg-type]


CASES = [
    # (what it shows, site, intent, expected verdict)
    ("app present, one free node", CLUSTER, Intent(app="lammps"), "READY"),
    ("app absent", CLUSTER, Intent(app="vasp"), "INCOMPATIBLE"),
    ("a dependency is not the app", CLUSTER, Intent(app="numpy"), "INCOMPATIBLE"),
    (
        "date versions: Aug 2023 >= Jun 2023",
        CLUSTER,
        Intent(app="lammps", version=v(">=", "15Jun2023")),
        "READY",
    ),
    (
        "date versions: Aug 2023 is not <= Jun 2023",
        CLUSTER,
        Intent(app="lammps", version=v("<=", "15Jun2023")),
        "INCOMPATIBLE",
    ),
    (
        "release 3.0.1 is not exactly 3.0",
        CLUSTER,
        Intent(app="namd", version=v("==", "3.0")),
        "INCOMPATIBLE",
    ),
    (
        "release 3.0.1 is not at most 3.0",
        CLUSTER,
        Intent(app="namd", version=v("<=", "3.0")),
        "INCOMPATIBLE",
    ),
    ("2023.3 >= 2023.1", CLUSTER, Intent(app="gromacs", version=v(">=", "2023.1")), "READY"),
    (
        "10 nodes free of 100",
        CLUSTER,
        Intent(app="lammps", nodes=10, memory_gb_per_node=128),
        "READY",
    ),
    ("50 nodes fit but only 10 are free", CLUSTER, Intent(app="lammps", nodes=50), "BUSY"),
    ("more nodes than any partition has", CLUSTER, Intent(app="lammps", nodes=101), "INCOMPATIBLE"),
    (
        "too much memory per node",
        CLUSTER,
        Intent(app="lammps", memory_gb_per_node=1024),
        "INCOMPATIBLE",
    ),
    (
        "cores AND GPUs: only the full GPU partition has 4 GPUs",
        CLUSTER,
        Intent(app="lammps", nodes=2, cores_per_node=16, gpus_per_node=4, gpu_logic="and"),
        "BUSY",
    ),
    (
        "cores AND GPUs: 64 cores and 4 GPUs on one node exist nowhere",
        CLUSTER,
        Intent(app="lammps", cores_per_node=64, gpus_per_node=4, gpu_logic="and"),
        "INCOMPATIBLE",
    ),
    (
        "cores OR GPUs: the CPU partition's 64 cores will do, and it has free nodes",
        CLUSTER,
        Intent(app="lammps", cores_per_node=64, gpus_per_node=4, gpu_logic="or"),
        "READY",
    ),
    (
        "cores OR GPUs: neither 128 cores nor 8 GPUs anywhere",
        CLUSTER,
        Intent(app="lammps", cores_per_node=128, gpus_per_node=8, gpu_logic="or"),
        "INCOMPATIBLE",
    ),
    ("InfiniBand present", CLUSTER, Intent(app="lammps", fabric="infiniband"), "READY"),
    ("Omni-Path absent", CLUSTER, Intent(app="lammps", fabric="omnipath"), "INCOMPATIBLE"),
    (
        "low latency: InfiniBand is RDMA",
        CLUSTER,
        Intent(app="lammps", fabric="low-latency"),
        "READY",
    ),
    (
        "low latency: Ethernet without RDMA is not",
        LAPTOP,
        Intent(app="numpy", fabric="low-latency"),
        "INCOMPATIBLE",
    ),
    (
        "Lustre counts as a parallel file system",
        CLUSTER,
        Intent(app="lammps", storage="parallel"),
        "READY",
    ),
    (
        "Lustre with 5000 GB free, 4000 asked",
        CLUSTER,
        Intent(app="lammps", storage="lustre", storage_free_gb=4000),
        "READY",
    ),
    (
        "Lustre with 5000 GB free, 6000 asked",
        CLUSTER,
        Intent(app="lammps", storage="lustre", storage_free_gb=6000),
        "INCOMPATIBLE",
    ),
    ("no NFS here", CLUSTER, Intent(app="lammps", storage="nfs"), "INCOMPATIBLE"),
    (
        "Open MPI 4.1.5 >= 4.1.2",
        CLUSTER,
        Intent(app="lammps", mpi="openmpi", mpi_version=v(">=", "4.1.2")),
        "READY",
    ),
    (
        "Open MPI 4.1.5 is not >= 5.0.2",
        CLUSTER,
        Intent(app="lammps", mpi="openmpi", mpi_version=v(">=", "5.0.2")),
        "INCOMPATIBLE",
    ),
    ("no MPICH here", CLUSTER, Intent(app="lammps", mpi="mpich"), "INCOMPATIBLE"),
    ("no MPI at all on the laptop", LAPTOP, Intent(app="numpy", mpi="openmpi"), "INCOMPATIBLE"),
    ("Singularity present", CLUSTER, Intent(app="lammps", container="singularity"), "READY"),
    (
        "Apptainer is Singularity renamed",
        CLUSTER,
        Intent(app="lammps", container="apptainer"),
        "READY",
    ),
    (
        "Podman is not Singularity",
        CLUSTER,
        Intent(app="lammps", container="podman"),
        "INCOMPATIBLE",
    ),
    (
        "a container runtime does not excuse missing software",
        LAPTOP,
        Intent(app="lammps", container="docker"),
        "INCOMPATIBLE",
    ),
    (
        "urgency never changes the verdict",
        CLUSTER,
        Intent(app="lammps", nodes=50, urgency="now"),
        "BUSY",
    ),
    (
        "the laptop's one node is free",
        LAPTOP,
        Intent(app="numpy", nodes=1, cores_per_node=8),
        "READY",
    ),
    ("the laptop has one node only", LAPTOP, Intent(app="numpy", nodes=2), "INCOMPATIBLE"),
]


@pytest.mark.parametrize(
    ("site", "intent", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_hand_worked_verdicts(site, intent, expected):
    assert judge(intent, site).verdict == expected


def test_judgement_names_every_unmet_part_and_its_category():
    intent = Intent(
        app="vasp", nodes=1, fabric="omnipath", storage="nfs", mpi="mpich", container="docker"
    )
    j = judge(intent, CLUSTER)
    assert j.verdict == "INCOMPATIBLE"
    assert j.unmet == (
        "software vasp",
        "network omnipath",
        "storage nfs",
        "container docker",
        "mpi mpich",
    )
    assert j.failing == ("software", "network", "storage", "container", "parallel")
    assert j.needed == ("software", "workload", "network", "storage", "container", "parallel")


def test_a_compatible_judgement_lists_what_must_be_explored():
    j = judge(Intent(app="lammps", fabric="infiniband"), CLUSTER)
    assert (j.verdict, j.unmet, j.failing) == ("READY", (), ())
    assert j.needed == ("software", "workload", "network")


@pytest.mark.parametrize(
    ("version", "op", "bound", "expected"),
    [
        ("2.14", ">=", "2.7", True),  # float comparison got this wrong
        ("3.0.0", "==", "3.0", True),
        ("3.0.1", "==", "3.0", False),
        ("29Aug2024", ">=", "2Aug2023", True),
        ("3.7.01", "==", "3.7.1", True),
        (None, ">=", "1.0", False),
    ],
)
def test_release_ordering(version, op, bound, expected):
    assert meets(version, v(op, bound)) is expected


def test_a_version_without_an_order_is_refused_not_guessed():
    with pytest.raises(ValueError, match="cannot order version 'develop-branch'"):
        meets("develop-branch", v(">=", "1.0"))


def test_the_auditor_imports_nothing_it_judges():
    """Only the standard library, pydantic, packaging and the intent: no parser, no wire
    schema, no fact models, no negotiator, no faithful truth."""
    folder = Path(auditor.__file__).parent
    for name in AUDITOR_FILES:
        tree = ast.parse((folder / name).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{name}: relative import"
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                allowed = any(module == a or module.startswith(a + ".") for a in ALLOWED_IMPORTS)
                assert allowed, f"{name} imports {module}"
