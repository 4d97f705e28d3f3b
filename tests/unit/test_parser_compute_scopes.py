"""Compute scopes and counts in wording the parser had not read.

Each test states one rule with sentences written for the test: a lowest GPU model ("A100 or
newer") is no model; a licence sized in cores is no core count; "N cores each" with no node
named sizes the runs, not nodes; a short aside between a count and its scope; memory per
processor and per unit of work; a bare size after "N nodes, each with"; a gigaparsec is no GPU;
node and core words one letter off; layout keys (``ranks_per_node``, ``threads_per_rank``) and
a ``per_node:`` YAML section; "64c" after a node count; "a GPU node" counts a GPU, not a node;
and "a CPU-only node with ..." is one node. Each has negative cases the rule must not fire on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def said(req: Requirements, phrase: str) -> bool:
    return any(phrase.lower() in u.lower() for u in req.unresolved)


# -- a lowest GPU model ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "quoted", "gpus"),
    [
        ("Two GPUs per node, H100 or better, for 5 hours.", "H100 or better", 2),
        ("One card will do, anything newer than a V100.", "newer than a V100", 1),
        ("I need a GPU from the A100 generation onwards for 3 hours.", "A100 generation", 1),
        ("we need 4 A100s or newer for 6 hours", "A100s or newer", 4),
        ("Please give me an NVIDIA GPU, L40S or more recent, 2 hours.", "L40S or more recent", 1),
    ],
)
def test_a_lowest_gpu_model_is_quoted_and_no_model_is_required(
    text: str, quoted: str, gpus: int
) -> None:
    req = parse(text)
    assert req.compute.gpu_model is None
    assert said(req, quoted)
    assert req.compute.gpus_per_node == gpus


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("Two A100 GPUs and faster storage, please.", "A100"),
        ("4x H100, 8 hours", "H100"),
        ("one V100 for 2 hours, better than nothing", "V100"),
    ],
)
def test_a_model_without_a_lower_bound_stays_the_model(text: str, model: str) -> None:
    assert parse(text).compute.gpu_model == model


# -- a licence sized in cores ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "quoted", "cores"),
    [
        ("Fluent on 64 cores; our licence covers 32 cores.", "licence covers 32 cores", 64),
        ("We own a 16-core license for COMSOL. Please give us 48 cores.", "16-core license", 48),
        ("LS-DYNA with licence tokens for 128 cores, 128 cores in total.", "licence tokens", 128),
    ],
)
def test_a_licence_sized_in_cores_is_quoted_not_counted(text: str, quoted: str, cores: int) -> None:
    req = parse(text)
    assert said(req, quoted)
    assert req.compute.total_cores == cores


def test_a_licence_alone_still_blocks_ready() -> None:
    req = parse("STAR-CCM+ with a license limited to 8 cores, one node, 8 cores, 6 hours.")
    assert said(req, "license limited to 8 cores")
    assert req.compute.cores_per_node == 8
    assert req.compute.total_cores is None


# -- "N cores each" with no node named ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The runs are independent: 2 cores each, 4 GB, 1 hour.",
        "The batch jobs are small, 4 cores each.",
    ],
)
def test_cores_each_without_a_node_are_no_node_size(text: str) -> None:
    assert parse(text).compute.cores_per_node is None


@pytest.mark.parametrize(
    "text",
    [
        "Three nodes, 24 cores each, for 10 hours.",
        "two servers, 16 cores each",
        "48 cores each on 6 nodes",
    ],
)
def test_cores_each_after_a_node_count_stay_per_node(text: str) -> None:
    assert parse(text).compute.cores_per_node is not None


# -- an aside between a count and its scope ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus", "cores"),
    [
        ("-N 3; hardware: 4 GPUs (GCDs) per node", 4, None),
        ("3 nodes, 16 cores (physical ones) per node", None, 16),
    ],
)
def test_a_short_aside_does_not_hide_the_scope(
    text: str, gpus: int | None, cores: int | None
) -> None:
    req = parse(text)
    assert req.compute.gpus_per_node == gpus
    assert req.compute.cores_per_node == cores


def test_an_aside_with_numbers_is_not_swallowed() -> None:
    req = parse("2 nodes; 4 GPUs (A100, 80GB) per node")
    assert req.compute.gpu_model == "A100"
    assert said(req, "80GB")


# -- memory per processor and per unit of work -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "300 processors in total, about 3 GB memory per processor, 4 hours.",
        "Each realisation is serial; memory is about 8 GB per realisation, 1000 cores in total.",
        "We need 64 GB of RAM per sample, 200 cores overall.",
        "Around 12 GB for each scenario; 40 cores.",
    ],
)
def test_memory_per_processor_or_per_unit_of_work_is_no_node_memory(text: str) -> None:
    req = parse(text)
    assert req.compute.memory_gb_per_node is None
    assert req.unresolved


@pytest.mark.parametrize(
    ("text", "gb"),
    [
        ("64 GB RAM each node, 2 nodes", 64.0),
        ("32 GB RAM per compute node", 32.0),
        ("one node with 16 cores and 4 GB per processor", 64.0),
        ("128 GB of memory, 16 cores, 3 hours", 128.0),
        ("2 nodes with 64 GB RAM for each of them", 64.0),
    ],
)
def test_memory_per_node_or_per_core_on_a_known_node_still_reads(text: str, gb: float) -> None:
    assert parse(text).compute.memory_gb_per_node == gb


# -- a bare size after "N nodes, each with" ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gb"),
    [
        ("we need 8 nodes, each with at least 512 GB.", 512.0),
        ("two servers each having 1 TB", 1000.0),
        ("Twelve nodes, and each with roughly 192 GB, for a day.", 192.0),
    ],
)
def test_a_size_of_each_node_is_its_memory(text: str, gb: float) -> None:
    assert parse(text).compute.memory_gb_per_node == gb


@pytest.mark.parametrize(
    "text",
    [
        "4 nodes, each with 500 GB local disk",
        "64 cores, each with 2 GB",
    ],
)
def test_storage_or_a_per_core_size_is_no_node_memory(text: str) -> None:
    assert parse(text).compute.memory_gb_per_node is None


# -- units of science one letter from ours -----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Halo catalogues for a 1 Gpc/h box on 4 nodes, 10 hours.",
        "A 3 Gpc volume, 2 nodes, 1 day.",
    ],
)
def test_a_gigaparsec_is_no_gpu(text: str) -> None:
    req = parse(text)
    assert req.compute.total_gpus is None
    assert req.compute.gpus_per_node is None


def test_a_misspelt_unit_per_node_still_reads() -> None:
    req = parse("1024 cors/node on 2 nodes")
    assert (req.compute.nodes, req.compute.cores_per_node) == (2, 1024)


# -- node and core words one letter off --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores"),
    [
        ("pls one 24 core nod with 96GB for 3 hr", 1, 24),
        ("Could I have 3 nodes with 40 cores per nod?", 3, 40),
        ("I need a node whith 36 cors and 192 GB", 1, 36),
        ("need 28 coers on one machne for my thesis", 1, 28),
        ("two 64-core nodse, 4 hours", 2, 64),
        ("40 cors on a single node", 1, 40),
    ],
)
def test_misspelt_node_and_core_words_keep_the_node_scope(
    text: str, nodes: int, cores: int
) -> None:
    req = parse(text)
    assert (req.compute.nodes, req.compute.cores_per_node) == (nodes, cores)
    assert req.compute.total_cores is None


@pytest.mark.parametrize(
    "text",
    [
        "a 32 core note about the cluster",
        "I need 512 cors for 3 hours",
        "64 cores per note",
    ],
)
def test_words_that_are_not_node_typos_leave_the_count_total(text: str) -> None:
    req = parse(text)
    assert req.compute.cores_per_node is None


# -- layout keys and a per-node YAML section ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores", "mpi"),
    [
        ("nodes=4 ranks_per_node=16 threads_per_rank=2", 32, True),
        ("nodes=2 tasks_per_node=8 cpus_per_task=4", 32, False),
        ("nodes=3 mpi_ranks_per_node=48", 48, True),
    ],
)
def test_layout_keys_multiply_into_cores_per_node(text: str, cores: int, mpi: bool) -> None:
    req = parse(text)
    assert req.compute.cores_per_node == cores
    assert (req.mpi is not None) is mpi


def test_a_rank_layout_key_alone_is_quoted() -> None:
    assert said(parse("threads_per_rank=4, 2 hours"), "threads_per_rank=4")


def test_a_per_node_yaml_section_scopes_its_keys() -> None:
    req = parse("nodes: 6\nper node:\n  cores: 36\n  gpus: 2\nwalltime: 3h\n")
    assert (req.compute.nodes, req.compute.cores_per_node, req.compute.gpus_per_node) == (
        6,
        36,
        2,
    )


def test_another_yaml_section_does_not_scope_its_keys() -> None:
    req = parse("resources:\n  nodes: 2\n  cores: 64\n")
    assert (req.compute.nodes, req.compute.total_cores, req.compute.cores_per_node) == (
        2,
        64,
        None,
    )


# -- "64c" after a node count ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores"),
    [("2 nodes x 48c, 6h", 2, 48), ("1 node, 96 c, 12h", 1, 96)],
)
def test_short_cores_after_a_node_count_are_per_node(text: str, nodes: int, cores: int) -> None:
    req = parse(text)
    assert (req.compute.nodes, req.compute.cores_per_node) == (nodes, cores)


def test_a_bare_c_elsewhere_is_no_core_count() -> None:
    req = parse("keep the room at 4 C please, 1 node for 2 hours")
    assert req.compute.cores_per_node is None
    assert req.compute.total_cores is None


# -- "a GPU node" and "a CPU-only node with ..." -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["PyTorch 2.3 on a GPU node, 6 hours, 32 GB RAM", "Could I get an NVIDIA GPU node for 2h?"],
)
def test_a_gpu_node_counts_a_gpu_not_a_node(text: str) -> None:
    req = parse(text)
    assert req.compute.nodes is None
    assert req.compute.gpus_per_node == 1


@pytest.mark.parametrize(
    ("text", "nodes", "gpus"),
    [
        ("on a GPU node with 4 A100s for 2 hours", 1, 4),
        ("2 GPU nodes, 4 hours", 2, None),
        ("one GPU node, 4 hours", 1, 1),
    ],
)
def test_a_gpu_node_with_amounts_or_a_count_is_nodes(
    text: str, nodes: int, gpus: int | None
) -> None:
    req = parse(text)
    assert req.compute.nodes == nodes
    if gpus is not None:
        assert req.compute.gpus_per_node == gpus


def test_a_cpu_only_node_with_memory_is_one_node() -> None:
    req = parse("Please provide a CPU-only node with 768 GB of RAM for 8 hours.")
    assert req.compute.nodes == 1
    assert req.compute.memory_gb_per_node == 768.0
    assert req.compute.gpus_per_node == 0
