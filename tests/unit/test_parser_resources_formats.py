"""Memory, storage, network and MPI facts in prose and in number formats people use.

Wordings are written for these tests (not taken from the request corpus): comma decimals and
grouped thousands, sizes spelled out ("a terabyte"), Kubernetes units, free space stated as
a clause, space sized by what it must hold, misspelt storage and rank words, speeds written
after the fabric, GPU memory in relative clauses, per-rank memory with no per-node core count,
Spack dependencies, and the shipping container. Each group has cases the rule must not fire on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire.requirements import Fabric, StorageKind

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def parse(text: str):
    return parse_requirements(text, now=NOW)


def storage(text: str) -> list[tuple[StorageKind, float | None]]:
    return [(s.kind, s.min_free_gb) for s in parse(text).storage]


# -- number formats --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "per_node", "total"),
    [
        ("I need 2 nodes and 1,5 TB of memory in total", None, 1500.0),
        ("RAM: 0,5 TB per node", 500.0, None),
        ("a machine with 1,25 TB RAM", 1250.0, None),
        ("we need 1,500 GB of RAM on each node", 1500.0, None),
        ("memory 1'000 GB", 1000.0, None),
        ("memory 2\u202f000 GB per node", 2000.0, None),
        ("memory: 120Gi", 128.849019, None),
        ("a terabyte of RAM", 1000.0, None),
        ("one terabyte of memory in total", None, 1000.0),
    ],
)
def test_memory_number_formats(text: str, per_node: float | None, total: float | None) -> None:
    c = parse(text).compute
    assert c.memory_gb_per_node == pytest.approx(per_node) if per_node else not c.memory_gb_per_node
    assert c.memory_gb_total == pytest.approx(total) if total else not c.memory_gb_total


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,200 sequences and 64 GB RAM", 64.0),  # a grouped count is not a size
        ("2,4 or 8 cores, and 16 GB RAM", 16.0),
        ("memory: 64 GB", 64.0),
    ],
)
def test_counts_with_commas_are_not_sizes(text: str, expected: float) -> None:
    assert parse(text).compute.memory_gb_per_node == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("resources: disk_mb=250000", [(StorageKind.ANY, 250.0)]),
        ("scratch_mb: 2000000", [(StorageKind.ANY, 2000.0)]),
        ("disk_gb=300", [(StorageKind.ANY, 300.0)]),
        ("localScratch: 200Gi", [(StorageKind.LOCAL, 214.748365)]),
        ("#SBATCH --tmp=400G", [(StorageKind.LOCAL, 400.0)]),
        ("tmp_disk = 1T", [(StorageKind.LOCAL, 1000.0)]),
    ],
)
def test_storage_keys_and_units(text: str, expected: list) -> None:
    assert storage(text) == expected


# -- storage in prose ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("one node and a terabyte of free disk", [(StorageKind.ANY, 1000.0)]),
        (
            "please make sure 20 TB is free on the Lustre filesystem",
            [(StorageKind.LUSTRE, 20000.0)],
        ),
        ("check that 5 TB are available on our GPFS", [(StorageKind.GPFS, 5000.0)]),
        ("8 TB must be free in the parallel file system", [(StorageKind.PARALLEL, 8000.0)]),
        ("Can I have enough disk for the 3 TB?", [(StorageKind.ANY, 3000.0)]),
        ("sufficient scratch to hold 500 GB of output", [(StorageKind.ANY, 500.0)]),
        (
            "The images are 4 TB in total; I need enough storage for the 4 TB.",
            [(StorageKind.ANY, 4000.0)],
        ),
        ("the output is about 2 TB so I need that much scrach", [(StorageKind.ANY, 2000.0)]),
        ("the results are 600 GB, so that much storgae please", [(StorageKind.ANY, 600.0)]),
    ],
)
def test_storage_phrasings(text: str, expected: list) -> None:
    assert storage(text) == expected


def test_earlier_data_size_read_once_when_referred_back() -> None:
    req = parse("The files are 2 TB in total. Can I get 48 cores and enough disk for the 2 TB?")
    assert storage(req.source_text) == [(StorageKind.ANY, 2000.0)]
    assert not req.compute.memory_gb_total
    assert not any("2 TB" in u for u in req.unresolved)


@pytest.mark.parametrize(
    "text",
    [
        "I get a strange error with the solver",  # an English word near "storage"
        "please keep the settings as they are",
        "the results are 600 GB and the source is on Github",
    ],
)
def test_no_storage_invented(text: str) -> None:
    assert not parse(text).storage


def test_data_size_with_two_sizes_is_not_free_space() -> None:
    req = parse("Each run reads a 600 GB dataset; make sure 10 TB is free on the parallel fs.")
    assert storage(req.source_text) == [(StorageKind.PARALLEL, 10000.0)]


# -- memory in prose -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My code needs a lot of memory; I think 128 GB should be enough.", 128.0),
        ("It is memory hungry, I guess 256 GB would do.", 256.0),
    ],
)
def test_memory_named_earlier_in_the_sentence(text: str, expected: float) -> None:
    assert parse(text).compute.memory_gb_per_node == expected


@pytest.mark.parametrize(
    "text",
    [
        "The dataset is 2 TB and needs lots of memory.",
        "Memory is tight on my laptop. I have 500 GB of files.",
        "lots of memory for the files, 300 GB",
        "memory matters, and the GPU has 40 GB",
    ],
)
def test_sizes_near_memory_that_are_not_memory(text: str) -> None:
    c = parse(text).compute
    assert not c.memory_gb_per_node and not c.memory_gb_total


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("one GPU that have 80GB memory", "GPU that have 80GB memory"),
        ("a GPU which has 48 GB of memory, and 256 GB RAM", "GPU which has 48 GB of memory"),
        ("a card having 24GB", "card having 24GB"),
    ],
)
def test_gpu_memory_in_relative_clauses_is_quoted(text: str, quoted: str) -> None:
    req = parse(text)
    assert quoted in req.unresolved
    assert req.compute.memory_gb_per_node in (None, 256.0)


@pytest.mark.parametrize(
    "text",
    [
        "-N 2 --ntasks=96 --mem-per-cpu=3G",
        "2048 MPI ranks over 32 nodes, 4 GB per rank",
        "8 nodes, 512 tasks in total, 2 GB per core",
    ],
)
def test_per_rank_memory_without_per_node_cores_is_quoted(text: str) -> None:
    req = parse(text)
    assert req.compute.memory_gb_per_node is None
    assert req.unresolved


def test_per_core_memory_with_per_node_cores_is_multiplied() -> None:
    req = parse("4 nodes with 32 cores each, 4 GB per core")
    assert req.compute.memory_gb_per_node == 128.0


# -- network ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fabric", "speed"),
    [
        ("IB 400G between the nodes", Fabric.INFINIBAND, 400.0),
        ("Ethernet 100G links", Fabric.ETHERNET, 100.0),
        ("InfiniBand @ 200G", Fabric.INFINIBAND, 200.0),
        ("infiniband at 200Gb", Fabric.INFINIBAND, 200.0),
        ("InfiniBand, 200 Gb/s", Fabric.INFINIBAND, 200.0),
    ],
)
def test_speed_after_fabric(text: str, fabric: Fabric, speed: float) -> None:
    net = parse(text).network
    assert net is not None
    assert (net.fabric, net.min_speed_gbps) == (fabric, speed)


@pytest.mark.parametrize(
    ("text", "low"),
    [
        ("need a low-lat fabric", True),
        ("low lat interconnect please", True),
        ("low-latency network", True),
        ("the lattice is low", False),
    ],
)
def test_low_latency_abbreviated(text: str, low: bool) -> None:
    net = parse(text).network
    assert bool(net and net.low_latency) is low


# -- MPI and ranks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores", "mpi"),
    [
        ("the case needs 720 MPI taks on Omni-Path", 720, True),
        ("run 64 rnaks of LAMMPS", 64, True),
        ("split it into 128 taks", 128, False),
    ],
)
def test_misspelt_rank_words(text: str, cores: int, mpi: bool) -> None:
    req = parse(text)
    assert req.compute.total_cores == cores
    assert (req.mpi is not None) is mpi


def test_acronym_is_not_a_misspelt_rank_word() -> None:
    req = parse("we plan around 40 RANS cases on 4 nodes")
    assert req.compute.total_cores is None
    assert req.mpi is None


@pytest.mark.parametrize(
    ("text", "implementation", "version"),
    [
        ("spack install petsc@3.21 +cuda ^openmpi@5.0.3", "openmpi", "5.0.3"),
        ("spack install hdf5 ^mpich@4.1", "mpich", "4.1"),
    ],
)
def test_spack_dependency_mpi(text: str, implementation: str, version: str) -> None:
    mpi = parse(text).mpi
    assert mpi is not None and mpi.implementation == implementation
    assert [c.version for c in mpi.constraints] == [version]


def test_spack_dependency_package_is_required() -> None:
    names = {s.name for s in parse("spack install netcdf-c ^hdf5@1.14").software}
    assert {"netcdf-c", "hdf5"} <= names


# -- containers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "we simulate trucks in the container terminal with SUMO",
        "optimising shipping containers on a vessel",
        "a model of container ships entering the port",
        "cargo container logistics with OR-Tools",
    ],
)
def test_freight_containers_ask_for_no_runtime(text: str) -> None:
    assert parse(text).container is None


@pytest.mark.parametrize(
    "text",
    ["run it in a container", "containerised workflow please", "a container image of GROMACS"],
)
def test_software_containers_still_read(text: str) -> None:
    container = parse(text).container
    assert container is not None and container.runtime == "any"
