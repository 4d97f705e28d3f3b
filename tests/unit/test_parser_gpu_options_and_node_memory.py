"""GPU options, fronted exclusions, French byte units and sizes beside one node, in new wording.

Each test states one rule with sentences written for the test: CPU offered as the fallback to
GPUs ("on 2 T4s, or CPU only if that's all you have", "either CPU-only or with 2 GPUs", "on
CPU alone or on one GPU") keeps the GPUs as an option, never excludes them; "a GPU helps but
isn't essential" counts one optional GPU; "GPUs we do not need" excludes GPUs; "Go"/"To" are
gigabytes and terabytes; a bare size after "one machine" is that node's memory; cores after
"4 GPUs of type L40S" still size the node; "per nod" is per node; JSON keys with the unit before
the scope (``ram_gb_per_node``), a ``"must"`` section and a GPU under ``"nice_to_have"``. Each has
negative cases the rule must not fire on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Feature, GpuLogic

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def optional(req: Requirements) -> bool:
    return req.compute.gpu_logic is GpuLogic.OR


# -- CPU as the fallback to GPUs ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("Boltz on 2 A100s, or CPU only if that's all you have, 12h", 2),
        ("put it on one H100, or else just CPU only, for 3 hours", 1),
        ("I'd like 4 GPUs or CPU-only if nothing else is free.", 4),
        ("8 cores and 2 V100s, or cpu only when the queue is full", 2),
        ("one node, 64 GB, either CPU-only or with 2 GPUs, for 10 hours", 2),
        ("run it CPU only or on 4 GPUs per node, whichever starts first", 4),
        ("The tagger runs on CPU alone or on a single GPU, either is fine.", 1),
        ("Works on CPUs alone or on 2 GPUs, no preference.", 2),
        ("it runs on the CPU by itself or on one GPU", 1),
    ],
)
def test_cpu_offered_beside_gpus_keeps_them_an_option(text: str, gpus: int) -> None:
    req = parse(text)
    assert Feature.GPU not in req.excluded
    assert optional(req)
    assert req.compute.gpus_per_node == gpus


@pytest.mark.parametrize(
    "text",
    [
        "CPU only, 32 cores, 4 hours",
        "Please keep it CPU-only: 2 nodes of 64 cores.",
        "no GPU or CPU only, it's a plain Fortran code",
        "Just CPUs only for this one, 16 cores.",
    ],
)
def test_cpu_only_without_a_gpu_option_still_excludes_gpus(text: str) -> None:
    req = parse(text)
    assert Feature.GPU in req.excluded
    assert not req.compute.gpus_per_node


# -- "a GPU helps but isn't essential" ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "16 cores, 64 GB, a GPU helps for the plots but isn't essential.",
        "A GPU would speed the rendering up, but it's not required.",
        "one GPU helps with the FFTs but is not necessary",
    ],
)
def test_one_helpful_gpu_counts_one_and_is_optional(text: str) -> None:
    req = parse(text)
    assert optional(req)
    assert req.compute.gpus_per_node == 1
    assert Feature.GPU not in req.excluded


def test_helpful_gpus_without_a_count_stay_uncounted() -> None:
    req = parse("GPUs help a lot but aren't needed; 32 cores.")
    assert optional(req)
    assert req.compute.gpus_per_node is None


# -- "GPUs we do not need" ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Three days on 2 nodes. GPU we do not need. Thanks", Feature.GPU),
        ("GPUs we don't use at all, it is pure MPI.", Feature.GPU),
        ("64 cores. Accelerators I do not need here.", Feature.GPU),
        ("Containers we won't use for this.", Feature.CONTAINER),
        ("4 nodes; and MPI the code doesn't need.", Feature.MPI),
    ],
)
def test_a_fronted_feature_then_not_needed_is_excluded(text: str, feature: Feature) -> None:
    assert feature in parse(text).excluded


@pytest.mark.parametrize(
    "text",
    [
        "The GPU we do not need to change, we need 4 of them.",
        "GPUs we need, 2 per node.",
        "Two GPUs which we do need for the training.",
    ],
)
def test_a_fronted_gpu_still_needed_is_not_excluded(text: str) -> None:
    assert Feature.GPU not in parse(text).excluded


# -- French byte units ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("2 GPUs, 32 CPU cores and 128 Go of RAM", 128.0),
        ("un noeud, 300 Go of memory, 3 days", 300.0),
        ("16 cores and 64 Go RAM please", 64.0),
        ("memory: 512Go", 512.0),
        ("we need 1 To of RAM on the node", 1000.0),
    ],
)
def test_go_and_to_are_gigabytes_and_terabytes(text: str, memory: float) -> None:
    assert parse(text).compute.memory_gb_per_node == memory


@pytest.mark.parametrize(
    ("text", "free"),
    [
        ("1,5 To of free space in the NFS home", 1500.0),
        ("scratch: 2 To", 2000.0),
        ("the images are 2,4 To and we want 3 To on a local NVMe disk", 3000.0),
    ],
)
def test_to_sizes_storage(text: str, free: float) -> None:
    assert free in [s.min_free_gb for s in parse(text).storage]


@pytest.mark.parametrize(
    "text",
    [
        "scale from 2 To 4 nodes",
        "we need 2 Go 1.21 builds and 4 cores",
        "from 8 to 16 cores",
        "Ready, set, Go: 4 nodes",
        "3 go to the archive, 2 nodes",
    ],
)
def test_to_and_go_as_words_are_no_sizes(text: str) -> None:
    req = parse(text)
    assert req.compute.memory_gb_per_node is None
    assert not req.storage


# -- a bare size beside one node ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("Can you find me 64 cores on one machine and 256 GB?", 256.0),
        ("48 cores on a single server, 192 GB", 192.0),
        ("32 threads on one node and 128GB", 128.0),
        ("I want 16 cores on one box plus 64 GB", 64.0),
    ],
)
def test_a_size_listed_after_one_node_is_its_memory(text: str, memory: float) -> None:
    assert parse(text).compute.memory_gb_per_node == memory


@pytest.mark.parametrize(
    "text",
    [
        "64 cores on one machine and 256 GB of scratch",
        "one machine, and the dataset is 256 GB",
        "We have one machine. 256 GB came in yesterday.",
    ],
)
def test_a_size_of_something_else_beside_one_node_is_no_memory(text: str) -> None:
    assert parse(text).compute.memory_gb_per_node is None


# -- cores after the model of the GPUs of one node ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("I need one node with 4 GPU of type L40S and 64 cores.", 64),
        ("a single machine with 2 GPUs of model A100 and 48 cores", 48),
        ("one node with 8 GPUs, type H100, 96 cores", 96),
    ],
)
def test_cores_after_the_gpu_model_size_the_node(text: str, cores: int) -> None:
    req = parse(text)
    assert req.compute.cores_per_node == cores
    assert req.compute.total_cores is None


def test_cores_in_a_later_sentence_stay_the_total() -> None:
    req = parse("One node with 4 GPUs of type L40S. Separately, 64 cores for preprocessing.")
    assert req.compute.cores_per_node is None


# -- "per nod" --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("nede 3 nodes for NAMD, 2 gpus per nod, 12 hrs", 2),
        ("4 nodes, 8 GPUs per nod", 8),
        ("2 nodes with 4 gpus each nod", 4),
    ],
)
def test_per_nod_is_per_node(text: str, gpus: int) -> None:
    req = parse(text)
    assert req.compute.gpus_per_node == gpus
    assert req.compute.total_gpus is None


def test_a_nod_of_the_head_is_no_node() -> None:
    req = parse("He gave a nod to 2 GPUs in total")
    assert req.compute.gpus_per_node is None


# -- structured keys -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ('{"nodes": 2, "ram_gb_per_node": 384}', 384.0),
        ("mem_gb_per_node = 256\nnodes = 2", 256.0),
        ("memory_tb_per_node: 1", 1000.0),
        ("mem_per_node_gb: 128", 128.0),
    ],
)
def test_memory_keys_with_the_unit_before_the_scope(text: str, memory: float) -> None:
    assert parse(text).compute.memory_gb_per_node == memory


def test_memory_per_core_key_with_a_unit_is_never_node_memory() -> None:
    req = parse("ram_gb_per_core: 4")
    assert req.compute.memory_gb_per_node is None
    assert req.unresolved


def test_a_must_section_holds_requirements() -> None:
    req = parse('{"must": {"cpus": 16, "memory": "32GiB", "walltime": "5h"}}')
    assert req.compute.total_cores == 16
    assert req.compute.memory_gb_per_node == pytest.approx(34.36, abs=0.01)
    assert req.network is None or req.network.fabric is None  # "32GiB" is no InfiniBand


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ('{"cpus": 8, "nice_to_have": {"gpu": 1}}', 1),
        ('{"required": {"nodes": 1}, "optional": {"gpus": 2}}', 2),
        ('{"wishlist": {"ngpus": 4}, "nodes": 1}', 4),
        ('{"nice_to_have": {"gpu": true}}', None),
    ],
)
def test_a_gpu_under_wishes_is_an_option(text: str, gpus: int | None) -> None:
    req = parse(text)
    assert optional(req)
    assert Feature.GPU not in req.excluded
    assert (req.compute.gpus_per_node or req.compute.total_gpus) == gpus


def test_a_gpu_under_must_is_required() -> None:
    req = parse('{"must": {"gpus": 2}}')
    assert req.compute.gpus_per_node == 2
    assert not optional(req)
