"""Node, core and GPU counts written in plain prose by beginners and non-native writers.

The sentences are written for these tests (not copied from the corpus). They cover: singular
words for one node ("a computer with 48 cores", "one machine", "a workstation"), counts joined
to their node in other word orders ("4 nodes with each 48 cores"), other core words ("processor
cores", "hardware threads"), GPUs counted with counter words or adjectives ("8 piece of A100",
"2 nos. of V100 cards", "4 Intel data-centre GPUs", "dual A100"), a per-node split after a total
("32 GPUs in total with 4 per node"), a GPU count inside an option ("one GPU or CPU"), terse
shapes ("8N x 128c") and markdown keys ("**Nodes:** 16", "| GPUs | 64 in total |").
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


# -- one node in everyday words ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores", "gpus"),
    [
        ("Could I borrow a computer with 40 cores for a week?", 40, None),
        ("Is there a workstation with 2 graphics cards free tomorrow?", None, 2),
        ("I would need one machine with 96 cores and 768 GB RAM.", 96, None),
        ("please give me a single host with 32 processors", 32, None),
        ("We want a powerful server with 64 CPU cores for the weekend.", 64, None),
        ("Can I have a machine having 4 GPUs (NVIDIA) for training?", None, 4),
        ("Looking for a big computer with 512 GB of memory and 24 cores.", 24, None),
        ("i need a mashine with 12 cores pls", 12, None),
        ("get me a dual-socket node with 56 cores", 56, None),
    ],
)  # fmt: skip
def test_a_singular_unit_with_amounts_is_one_node(
    text: str, cores: int | None, gpus: int | None
) -> None:
    req = parse(text)
    assert req.compute.nodes == 1, req.compute
    assert req.compute.total_cores is None
    if cores is not None:
        assert req.compute.cores_per_node == cores
    if gpus is not None:
        assert req.compute.gpus_per_node == gpus


@pytest.mark.parametrize(
    "text",
    [
        "My data has 900 GB; it must all fit in RAM on one machine. Serial code, 1 core.",
        "All 16 threads have to stay on a single computer.",
        "Everything should run on one workstation, about 10 hours.",
    ],
)
def test_one_machine_in_words_is_one_node(text: str) -> None:
    assert parse(text).compute.nodes == 1


@pytest.mark.parametrize(
    "text",
    [
        "I am a computer scientist and need 8 cores for 2 hours.",
        "We train a machine learning model with PyTorch on 2 GPUs.",
        "The server is down since Monday; I need 16 cores somewhere else.",
        "Host memory of 128 GB and 8 cores would be fine.",
        "Need a machine w/ numpy and scipy, 8 cores.",
        "a box w/ 2 gpus and docker, few hours",
        "It took 3 hours on a machine in our lab.",
    ],
)
def test_words_that_are_not_a_node_count(text: str) -> None:
    assert parse(text).compute.nodes is None


def test_one_machine_after_a_node_count_sizes_each_node() -> None:
    req = parse("We need 3 nodes, one machine with 64 cores each.")
    assert req.compute.nodes == 3


# -- counts joined to their node ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "the run needs 6 nodes with each 36 cores",
        "6 nodes, each 36 cores, InfiniBand",
        "Job is on 6 nodes, on each node 36 MPI processes.",
        "6 nodes and in each node 36 cores",
    ],
)
def test_each_after_the_node_count_sizes_each_node(text: str) -> None:
    req = parse(text)
    assert (req.compute.nodes, req.compute.cores_per_node) == (6, 36), req.compute
    assert req.compute.total_cores is None


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("My advisor says I need 256 MPI process for the run.", 256),
        ("Please 72 processor cores for 3 days.", 72),
        ("The code scales to 48 hardware threads.", 48),
        ("give me 20 logical cores", 20),
    ],
)
def test_other_core_words(text: str, total: int) -> None:
    assert parse(text).compute.total_cores == total


def test_one_rank_per_gpu_is_a_layout_not_a_count() -> None:
    req = parse("8 nodes, 4 GPUs per node, one MPI rank per GPU")
    assert req.compute.cores_per_node is None and req.compute.total_cores is None


# -- GPU counts in other words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus", "model"),
    [
        ("Kindly allot 4 nos. of A100 cards for my thesis.", 4, "A100"),
        ("I need 2 piece of H100 GPU on one node.", 2, "H100"),
        ("Request: 8 pcs of V100 for the training", 8, "V100"),
        ("one server with 4 MI250X accelerators", 4, "MI250X"),
        ("a dual A100 box would be ideal", 2, "A100"),
        ("any quad-GPU node is fine", 4, None),
        ("3 discrete GPUs, NVIDIA if possible", 3, None),
    ],
)
def test_gpu_counts_with_counter_words_and_adjectives(
    text: str, gpus: int, model: str | None
) -> None:
    req = parse(text)
    assert req.compute.gpus_per_node == gpus, req.compute
    if model:
        assert req.compute.gpu_model == model


def test_vendor_and_adjective_before_gpus() -> None:
    req = parse("Hardware: 3 nodes, each with 8 AMD datacenter GPUs.")
    assert (req.compute.nodes, req.compute.gpus_per_node) == (3, 8)
    assert req.compute.gpu_vendor is not None and req.compute.gpu_vendor.value == "amd"


def test_accelerators_of_another_kind_are_no_gpus() -> None:
    req = parse("We need two FPGA accelerators for the pipeline.")
    assert req.compute.gpus_per_node is None
    assert req.unresolved


def test_a_split_after_a_total_is_per_node() -> None:
    req = parse("In short: 24 H100 GPUs in total with 8 per node, for 2 days.")
    assert (req.compute.total_gpus, req.compute.gpus_per_node) == (24, 8)
    req = parse("We would use 512 cores in total, 128 per node.")
    assert (req.compute.total_cores, req.compute.cores_per_node) == (512, 128)


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("It runs on one GPU or on CPU, whichever is free.", 1),
        ("2 GPUs would be nice, but CPUs work too.", 2),
        ("a GPU or CPU build is both fine", None),
    ],
)
def test_a_gpu_count_inside_an_option_is_kept(text: str, gpus: int | None) -> None:
    req = parse(text)
    assert req.compute.gpus_per_node == gpus


# -- terse shapes and markdown keys ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shape"),
    [("lammps, 4N x 64c, 6h", (4, 64)), ("16n*48c asap", (16, 48)), ("2 N x 128 c, IB", (2, 128))],
)
def test_a_terse_node_shape(text: str, shape: tuple[int, int]) -> None:
    req = parse(text)
    assert (req.compute.nodes, req.compute.cores_per_node) == shape


def test_a_normality_is_no_node_count() -> None:
    assert parse("prepare 4N HCl in the wet lab first").compute.nodes is None


def test_markdown_keys_and_tables() -> None:
    req = parse("- **Nodes:** 12\n- **GPUs:** 4 per node\n- **Time:** 8 h\n")
    assert (req.compute.nodes, req.compute.gpus_per_node) == (12, 4)
    req = parse("| item | value |\n|---|---|\n| nodes | 8 |\n| GPUs | 32 in total, 4 per node |\n")
    assert req.compute.nodes == 8
    assert (req.compute.gpus_per_node, req.compute.total_gpus) == (4, 32)


@pytest.mark.parametrize(
    ("text", "per_node"),
    [
        ("CPU and memory: 24 cores and 192 GB per node", True),
        ("we need 40 cores, 300 GB RAM on each node", True),
        ("40 cores and 300 GB of memory", False),
        ("40 cores and 2 GB per core", False),
    ],
)
def test_a_memory_scope_after_a_core_count_is_shared(text: str, per_node: bool) -> None:
    req = parse(text)
    assert (req.compute.cores_per_node is not None) is per_node, req.compute


def test_each_alone_after_memory_names_no_node() -> None:
    assert parse("the jobs need 12 cores and 48 GB each").compute.cores_per_node is None
