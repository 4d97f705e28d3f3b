"""Compute layouts, memory scopes, run time and storage kinds in wording the parser had not read.

Each test states one rule with sentences written for the test: threads of each rank after a
per-node rank count multiply into the cores of a node; "on each" after a node count is per
node; "one 8x MI300X node" is one node of eight GPUs; "total" before a memory size and "for
all job" after it make the job's memory; memory "by core"; a core count after an aside on the
GPU of the one node; "hours of real time" and "hours of runs" are run time; a misspelt
"parallel filesystem"; a filesystem the writer owns named by what goes wrong with it is no
requirement; "it can run also on CPU but very slow" makes the GPU an option. Each has
negative cases the rule must not fire on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import GpuLogic, StorageKind

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def kinds(req: Requirements) -> dict[StorageKind, float | None]:
    return {s.kind: s.min_free_gb for s in req.storage}


# -- threads of each rank ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores"),
    [
        ("6 nodes, 24 MPI ranks per node with 2 OpenMP threads each, 4 hours", 6, 48),
        ("I'd like 3 nodes: 8 tasks per node, each with 16 threads.", 3, 128),
        ("2 nodes, 16 ranks per node x 4 OMP threads, 1 hour", 2, 64),
        ("10 nodes with 32 processes per node and 4 OpenMP threads per process", 10, 128),
        ("4 nodes; 8 MPI tasks per node, 8 threads apiece", 4, 64),
        ("5 nodes, 12 ranks on each node, each rank running 6 OpenMP threads", 5, 72),
        ("please: 2 nodes, 64 tasks per node and 2 OpenMP threads per task", 2, 128),
    ],
)
def test_threads_of_each_rank_multiply_the_ranks_of_a_node(
    text: str, nodes: int, cores: int
) -> None:
    req = parse(text)
    assert req.compute.nodes == nodes
    assert req.compute.cores_per_node == cores
    assert req.compute.total_cores is None


def test_threads_joined_without_each_are_not_multiplied() -> None:
    req = parse("4 nodes, 16 ranks per node and 8 threads")
    assert req.compute.cores_per_node == 16


def test_threads_of_a_rank_with_no_ranks_per_node_stay_quoted() -> None:
    req = parse("2 nodes, 4 OpenMP threads per rank")
    assert req.compute.cores_per_node is None
    assert req.compute.total_cores is None
    assert any("4 OpenMP threads" in u for u in req.unresolved)


def test_a_multiplier_after_per_node_counts_no_nodes() -> None:
    assert parse("4 nodes, 16 ranks per node x 8 threads").compute.nodes == 4


# -- "on each" and one node of N GPUs ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores", "memory"),
    [
        ("24 nodes (Slingshot), 128 cores on each, 512 GB apiece", 24, 128, 512),
        ("3 nodes with 48 cores on each, 6 hours", 3, 48, None),
        ("Two nodes, 96 cores in each one and 384 GB on each.", 2, 96, 384),
    ],
)
def test_on_each_after_a_node_count_is_per_node(
    text: str, nodes: int, cores: int, memory: float | None
) -> None:
    req = parse(text)
    assert req.compute.nodes == nodes
    assert req.compute.cores_per_node == cores
    assert req.compute.total_cores is None
    assert req.compute.memory_gb_per_node == memory


def test_on_each_with_no_node_named_is_no_node_size() -> None:
    req = parse("they are serial jobs: 1 core on each")
    assert req.compute.cores_per_node is None


@pytest.mark.parametrize(
    ("text", "nodes", "gpus", "model"),
    [
        ("can you reserve one 8x MI300X node for 5 hours?", 1, 8, "MI300X"),
        ("two 4x A100 nodes for 3h", 2, 4, "A100"),
        ("a single 8x H100 node please", 1, 8, "H100"),
    ],
)
def test_a_node_sized_by_a_gpu_multiplier(text: str, nodes: int, gpus: int, model: str) -> None:
    req = parse(text)
    assert req.compute.nodes == nodes
    assert req.compute.gpus_per_node == gpus
    assert req.compute.gpu_model == model


# -- memory scopes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "per_node", "total"),
    [
        ("2 nodes, total 512GB RAM, 5 hours", None, 512),
        ("4 nodes and in total 300 GB of memory", None, 300),
        ("3 nodes, a total of 900 GB memory", None, 900),
        ("4 node, every node 2 GPU, and total 256 GB memory for all job", None, 256),
        ("2 nodes, 512 GB of memory across the job", None, 512),
        ("2 nodes, 300 GB RAM for the whole run", None, 300),
        ("8 nodes with aggregate 2 TB of RAM", None, 2000),
        # a total of something else leaves the memory on each node
        ("total runtime 5 hours, 64 GB RAM", 64, None),
        ("the total dataset is 2 TB; 64 GB RAM per node", 64, None),
        # memory "by core" is per core, times the cores of a node
        ("we want 6 nodes with 64 cores in each one, and 4 GB of RAM by core", 256, None),
        ("2 nodes of 32 cores, 8 GB memory by core", 256, None),
    ],
)
def test_memory_scope_words(text: str, per_node: float | None, total: float | None) -> None:
    req = parse(text)
    assert req.compute.memory_gb_per_node == per_node
    assert req.compute.memory_gb_total == total


# -- a core count after an aside on the node's GPU ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("one node with 1 GPU (an NVIDIA card with at least 24 GB of GPU memory), 16 cores", 16),
        ("one node with one A100 that has at least 80 GB of GPU memory, 32 cores, 256 GB RAM", 32),
        ("a single node with 2 GPUs (any recent model), 24 cores and 128 GB", 24),
    ],
)
def test_cores_after_an_aside_on_the_gpu_size_the_one_node(text: str, cores: int) -> None:
    req = parse(text)
    assert req.compute.cores_per_node == cores
    assert req.compute.total_cores is None


# -- run time ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("The simulation lasts approximately 14 hours of real time.", 14 * 3600),
        ("about 6 hours of real time on 4 nodes", 6 * 3600),
        ("~5h of runs, then we're out", 5 * 3600),
        ("roughly 12 hours of runs in total", 12 * 3600),
        ("it takes 3 days of real time, sadly", 3 * 86400),
    ],
)
def test_hours_of_real_time_or_of_runs_are_run_time(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


def test_real_time_as_an_adjective_is_no_run_time() -> None:
    assert parse("we recorded 800 hours of real-time audio").compute.walltime_s is None


# -- storage ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("Also need scratch spce, 2.5 TB, on whatever paralel filesystem you have.", 2500),
        ("2 TB on the parallell fs please", 2000),
        ("put 500 GB on a paralell file system", 500),
    ],
)
def test_a_misspelt_parallel_filesystem(text: str, size: float) -> None:
    assert kinds(parse(text)) == {StorageKind.PARALLEL: size}


@pytest.mark.parametrize(
    ("text", "wanted", "quoted"),
    [
        ("We need BeeGFS because our lab NFS chokes on small-file I/O.", StorageKind.BEEGFS, "NFS"),
        ("We want Lustre since our NFS home is too slow.", StorageKind.LUSTRE, "NFS"),
        ("the group's GPFS is full, so put 2 TB on Lustre", StorageKind.LUSTRE, "GPFS"),
        ("Lustre please, my NFS keeps timing out", StorageKind.LUSTRE, "NFS"),
    ],
)
def test_an_own_filesystem_named_by_its_trouble_is_no_requirement(
    text: str, wanted: StorageKind, quoted: str
) -> None:
    req = parse(text)
    assert set(kinds(req)) == {wanted}
    assert any(u.startswith(quoted) for u in req.unresolved)


@pytest.mark.parametrize(
    "text",
    [
        "Our NFS share must be mounted on the nodes",
        "our NFS is mounted everywhere; we need NFS for the inputs",
        "the NFS is too slow for others but fine for us, we need NFS",
    ],
)
def test_an_own_filesystem_asked_for_stays(text: str) -> None:
    assert StorageKind.NFS in kinds(parse(text))


# -- the CPU as a slow fallback ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "It need one GPU with 40 GB video memory, or it can run also on CPU but very slow.",
        "one GPU please; it runs on CPU but it is slow",
        "1 GPU. The code runs on CPUs too, only much slower.",
    ],
)
def test_a_slow_cpu_fallback_makes_the_gpu_an_option(text: str) -> None:
    assert parse(text).compute.gpu_logic is GpuLogic.OR


@pytest.mark.parametrize(
    "text",
    [
        "we need one GPU; it runs on CPU too slowly to be useful",
        "2 GPUs. The CPU version runs slow, so no.",
    ],
)
def test_a_cpu_too_slow_to_use_is_no_fallback(text: str) -> None:
    assert parse(text).compute.gpu_logic is not GpuLogic.OR


# -- a bare size after a misspelt compute count ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("I need 1 node with 24 cors and 96 GB, 12h", 96),
        ("one node, 48 coers, 192 GB", 192),
        ("a node with 2 gpsu and 128 GB", 128),
    ],
)
def test_a_size_after_a_misspelt_count_is_node_memory(text: str, memory: float) -> None:
    assert parse(text).compute.memory_gb_per_node == memory


def test_a_size_after_a_count_of_english_words_stays_unread() -> None:
    req = parse("24 notes and 96 GB")
    assert req.compute.memory_gb_per_node is None
    assert any("96 GB" in u for u in req.unresolved)
