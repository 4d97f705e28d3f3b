"""Compute counts whose scope the wording gives: a count split per node with no unit of its
own, "all N cores" of a node, and a node word in a sentence about what a node is like."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _compute(text: str):
    return parse_requirements(text, now=NOW).compute


@pytest.mark.parametrize(
    ("text", "total", "per_node"),
    [
        ("We need 512 cores in total, as 64 per node.", 512, 64),
        ("2,048 cores overall, as 128 per node, for 10 hours", 2048, 128),
        ("please give us 256 cores in total, spread as 32 per node", 256, 32),
        ("a total of 384 cores, split as 96 per node", 384, 96),
        ("768 cores in total, arranged as 192 per node, Slurm is fine", 768, 192),
        ("The job takes 640 cores in total, laid out as 64 per node.", 640, 64),
        ("1024 cores altogether, distributed as 128 per node", 1024, 128),
    ],
)
def test_a_total_split_as_a_count_per_node(text: str, total: int, per_node: int) -> None:
    c = _compute(text)
    assert c.total_cores == total
    assert c.cores_per_node == per_node


@pytest.mark.parametrize(
    ("text", "total", "per_node"),
    [
        ("We need 32 A100 GPUs in total, as 4 per node.", 32, 4),
        ("16 H100 GPUs overall, spread as 8 per node", 16, 8),
    ],
)
def test_gpus_split_as_a_count_per_node(text: str, total: int, per_node: int) -> None:
    c = _compute(text)
    assert c.total_gpus == total
    assert c.gpus_per_node == per_node


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("one node, 1 TB of RAM and all 96 cores, for two days", 96),
        ("I'd like a whole node: all 128 cores and 512 GB", 128),
        ("give me 1 machine and all of the 64 cores on it", 64),
        ("single node please, using all the 48 cores, ~6h", 48),
    ],
)
def test_all_the_cores_of_a_node_are_per_node(text: str, cores: int) -> None:
    c = _compute(text)
    assert c.cores_per_node == cores
    assert c.total_cores is None


def test_all_of_a_cluster_sized_count_stays_total() -> None:
    c = _compute("we need all 4096 cores of the partition for a day")
    assert c.cores_per_node is None


@pytest.mark.parametrize(
    "text",
    [
        "32 A100 GPUs in total, 4 per node. The GPUs in a node must have NVLink between them.",
        "Need 16 GPUs total, 8 per node; all the GPUs in a node should share NVSwitch.",
        "64 GPUs in total, 4 per node. Both GPUs on a node need P2P access.",
        "8 GPUs in total, 4 per node - the accelerators within a node must be connected.",
    ],
)
def test_the_parts_of_a_node_count_no_node(text: str) -> None:
    c = _compute(text)
    assert c.nodes is None
    assert c.total_gpus is not None
    assert c.gpus_per_node is not None


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        ("I need a node with 4 GPUs for 3 hours", 1),
        ("8 GPUs on a node, please", 1),
        ("please book one node for the whole day", 1),
        ("the cores in 2 nodes are enough", 2),
    ],
)
def test_a_node_asked_for_is_still_counted(text: str, nodes: int) -> None:
    assert _compute(text).nodes == nodes


@pytest.mark.parametrize(
    "text",
    [
        "512 cores in total as well as 2 TB of scratch",
        "256 cores in total, at most 10 hours",
    ],
)
def test_words_after_a_total_that_split_nothing(text: str) -> None:
    assert _compute(text).cores_per_node is None


def test_cores_after_all_with_a_scope_keep_it() -> None:
    c = _compute("all 512 cores in total over 4 nodes")
    assert c.total_cores == 512


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        (
            "Polars won on one node, but for the full data we need Dask. "
            "I've requested 6 nodes x 64 cores.",
            6,
        ),
        ("Spark finished on 2 nodes in our test, but for production I have requested 8 nodes.", 8),
        ("Dask was fine on one node, but we are requesting 4 nodes for the full run.", 4),
        ("It ran on 3 nodes in the benchmark. We\u2019ve requested 12 nodes now.", 12),
        ("The toy case fit on a single node; I'm requesting 5 nodes for the real mesh.", 5),
    ],
)
def test_a_count_requested_now_wins_over_one_said_of_another_run(text: str, nodes: int) -> None:
    assert _compute(text).nodes == nodes


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        ("I've requested one node for 4 hours, that is enough", 1),
        ("we have requested 2 nodes and 4 GPUs per node", 2),
        ("I need 3 nodes; a colleague had 2 nodes last year", 3),
    ],
)
def test_a_lone_requested_count_is_kept(text: str, nodes: int) -> None:
    assert _compute(text).nodes == nodes


@pytest.mark.parametrize(
    "text",
    [
        "please run a burn-in on all 8 GPUs of one H100 node",
        "I want all 4 GPUs of a node for 2 hours",
        "the 4 GPUs in a node are enough for us",
    ],
)
def test_counted_parts_of_a_node_still_ask_for_it(text: str) -> None:
    assert _compute(text).nodes == 1
