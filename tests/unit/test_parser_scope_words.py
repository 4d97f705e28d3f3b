"""Compute and memory scopes written in ways the parser had not read.

Each test states one rule with sentences written for the test: a scope word after a
``key=value`` value ("mem=1TB total"); the French/German "à" joining a node count to the cores
of each node; nodes sized but not counted ("on nodes of 128 cores"); a rank count joined to the
node count by a comma alone counts the whole job; "(16 total)" after a per-node count. Each has
negative cases the rule must not fire on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


# -- a scope word after a key=value value ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "total", "per_node"),
    [
        ("nodes=8 mem=2TB total walltime=4h", 2000.0, None),
        ("mem=512GB overall, cores=64", 512.0, None),
        ("ram=1.5TB in total nodes=3", 1500.0, None),
        ("memory=96GB total", 96.0, None),
        ("nodes=2, mem=256G each", None, 256.0),
        ("nodes=2, mem=128GB per node", None, 128.0),
        ("nodes=2, mem=64G", None, 64.0),
    ],
)
def test_a_scope_word_after_a_memory_value_sets_its_scope(
    text: str, total: float | None, per_node: float | None
) -> None:
    c = parse(text).compute
    assert c.memory_gb_total == total
    assert c.memory_gb_per_node == per_node


@pytest.mark.parametrize(
    ("text", "gpus_total", "cores_total"),
    [
        ("gpus=32 total nodes=4", 32, None),
        ("cores=640 in total, nodes=5", None, 640),
    ],
)
def test_a_scope_word_after_a_count_value_sets_its_scope(
    text: str, gpus_total: int | None, cores_total: int | None
) -> None:
    c = parse(text).compute
    assert c.total_gpus == gpus_total
    assert c.total_cores == cores_total


def test_a_scope_word_after_another_key_keeps_the_value() -> None:
    assert parse("budget=800 total, nodes=2").budget_usd == 800.0


# -- "à" between the node count and the cores of each node --------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores"),
    [
        ("Wir brauchen 6 Knoten, also 6 nodes \u00e0 48 cores, f\u00fcr 10 Stunden.", 6, 48),
        ("please 3 nodes \u00e0 96 cores for OpenFOAM", 3, 96),
        ("12 nodes \u00e0 64 cores and InfiniBand", 12, 64),
    ],
)
def test_a_grave_a_joins_the_cores_of_each_node(text: str, nodes: int, cores: int) -> None:
    c = parse(text).compute
    assert c.nodes == nodes
    assert c.cores_per_node == cores
    assert c.total_cores is None


# -- nodes sized but not counted ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores", "nodes"),
    [
        ("We run 2048 MPI ranks in total on nodes of 64 cores.", 64, None),
        ("Nodes with 96 cores would be ideal; 5 nodes are enough.", 96, 5),
        ("Give me machines with 32 cores, 4 of them would do, for 3 hours.", 32, None),
        ("It must be nodes having 48 cores; six nodes.", 48, 6),
        ("Please schedule on servers with 128 cpus, 10 hours.", 128, None),
        ("any nodes that have 56 cores are fine, 3 nodes for a day", 56, 3),
    ],
)
def test_nodes_sized_but_not_counted_give_cores_per_node(
    text: str, cores: int, nodes: int | None
) -> None:
    c = parse(text).compute
    assert c.cores_per_node == cores
    assert c.nodes == nodes


@pytest.mark.parametrize(
    "text",
    [
        "Your cluster has nodes with 128 cores; I need 16 cores for 2 hours.",
        "Last year we used nodes with 64 cores; now 24 cores are enough.",
    ],
)
def test_nodes_described_are_no_size_asked_for(text: str) -> None:
    c = parse(text).compute
    assert c.cores_per_node is None


# -- a rank count joined by a comma alone ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "total"),
    [
        ("8 nodes, 512 MPI ranks, 6 hours", 8, 512),
        ("Job shape: 4 nodes, 256 processes, Open MPI", 4, 256),
        ("32 nodes; 4096 ranks; 12h", 32, 4096),
    ],
)
def test_a_rank_count_after_a_comma_is_the_whole_job(text: str, nodes: int, total: int) -> None:
    c = parse(text).compute
    assert c.nodes == nodes
    assert c.total_cores == total
    assert c.cores_per_node is None


@pytest.mark.parametrize(
    ("text", "per_node"),
    [
        ("8 nodes with 64 MPI ranks", 64),
        ("4 nodes, 32 MPI ranks per node", 32),
        ("2 nodes x 128 ranks", 128),
        ("4 nodes, 32 cores", 32),
    ],
)
def test_attached_counts_stay_per_node(text: str, per_node: int) -> None:
    assert parse(text).compute.cores_per_node == per_node


# -- "(16 total)" after a per-node count -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "per_node", "total"),
    [
        ("2 GPUs per node on 8 nodes (16 total), H100", 2, 16),
        ("8 GPUs per node (32 in total) on 4 nodes", 8, 32),
        ("we want 4 A100 per node across 6 nodes (24 overall)", 4, 24),
    ],
)
def test_a_total_in_parentheses_counts_the_whole_job(text: str, per_node: int, total: int) -> None:
    c = parse(text).compute
    assert c.gpus_per_node == per_node
    assert c.total_gpus == total


def test_a_total_aside_after_cores_counts_cores() -> None:
    c = parse("64 cores per node on 4 nodes (256 total)").compute
    assert c.cores_per_node == 64
    assert c.total_cores == 256


@pytest.mark.parametrize(
    "text",
    [
        "2 GPUs per node on 4 nodes (total budget 300 USD)",
        "2 GPUs per node (we have 16 in the lab) on 2 nodes",
    ],
)
def test_an_aside_that_is_no_total_is_not_counted(text: str) -> None:
    assert parse(text).compute.total_gpus is None


# -- short scheduler flags among Slurm's long flags ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        ("-N 1 --gpus-per-node=4 --mem=300G --time=12:00:00", 1),
        ("-N 3 --ntasks-per-node=64 --time=1-00:00:00  # wrf", 3),
        ("flags: -N 2 --cpus-per-task=8 --mem-per-cpu=2G", 2),
        ("-p short -N 5 --time=02:00:00", 5),
    ],
)
def test_short_flags_beside_slurm_long_flags_are_read(text: str, nodes: int) -> None:
    assert parse(text).compute.nodes == nodes


def test_a_short_flag_with_no_slurm_flag_near_is_not_a_node_count() -> None:
    assert parse("run gmx mdrun -N 4 on my laptop").compute.nodes is None


# -- a misspelt node count sizes the counts attached to it -------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "cores"),
    [
        ("4 nodse with 32 cores", 4, 32),
        ("2 noeds, 96 cores on each node", 2, 96),
        ("6 ndoes x 48 cores for 5 hours", 6, 48),
        ("3 nodez, 64 cors on each node", 3, 64),
    ],
)
def test_a_misspelt_node_count_keeps_cores_per_node(text: str, nodes: int, cores: int) -> None:
    c = parse(text).compute
    assert c.nodes == nodes
    assert c.cores_per_node == cores
    assert c.total_cores is None


# -- cores after GPUs sized by their memory, on one node ---------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("on one node: 4 GPUs with at least 40 GB each, 32 cores, 256 GB RAM", 32),
        ("one node with 2 GPUs with 48 GB memory each, 24 cores", 24),
        ("a single machine with 8 GPUs with 80 GB each and 96 cores", 96),
    ],
)
def test_cores_after_gpu_memory_stay_on_the_one_node(text: str, cores: int) -> None:
    req = parse(text)
    assert req.compute.nodes == 1
    assert req.compute.cores_per_node == cores
    assert req.compute.total_cores is None
    assert req.unresolved  # the GPU memory is quoted, never dropped


# -- features negated together with "both" -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("GPU and MPI both not required.", {"gpu", "mpi"}),
        ("MPI and containers are both not needed for this.", {"mpi", "container"}),
        ("GPUs, MPI and containers are all not required", {"gpu", "mpi", "container"}),
    ],
)
def test_features_negated_together_are_excluded(text: str, excluded: set[str]) -> None:
    assert {f.value for f in parse(text).excluded} >= excluded


@pytest.mark.parametrize(
    "text",
    ["GPU and MPI are both required.", "Both GPU and MPI are needed, 4 nodes."],
)
def test_features_required_together_are_not_excluded(text: str) -> None:
    assert not parse(text).excluded


# -- time facts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("results w/in 48 hrs pls", 48),
        ("need it done w/in 3 days", 72),
        ("pls finish w/in 12h, 2 nodes", 12),
    ],
)
def test_w_slash_in_is_within(text: str, hours: int) -> None:
    req = parse(text)
    assert req.deadline is not None
    assert (req.deadline - NOW).total_seconds() == hours * 3600
    assert req.compute.walltime_s is None


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ('{"nodes": 2, "must_finish_by": "2026-06-01T12:00:00Z"}', "2026-06-01T12:00:00+00:00"),
        ("must_be_done_by: 2026-05-20T08:00:00Z", "2026-05-20T08:00:00+00:00"),
    ],
)
def test_must_finish_by_keys_are_deadlines(text: str, iso: str) -> None:
    req = parse(text)
    assert req.deadline is not None
    assert req.deadline.isoformat() == iso


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("walltime 1,5 days", 129600),
        ("Laufzeit etwa 2,5 hours", 9000),
        ("the run takes around 0,5 days", 43200),
    ],
)
def test_a_decimal_comma_in_a_duration(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


@pytest.mark.parametrize(
    "text",
    [
        "we have used 1,500 hours so far; walltime 3 hours",
        "runs of 1,2,3 hours were tried, 3 hours",
    ],
)
def test_thousands_and_lists_are_no_decimal_comma(text: str) -> None:
    assert parse(text).compute.walltime_s == 10800


# -- a data rate in GiB/s is no InfiniBand speed -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "last month the file system gave us 180 GiB/s in IOR, 4 nodes for 2 hours",
        "the burst buffer sustains 95 GiB/s; we need 8 nodes",
        "copying went at 3 GiB/s, now 2 nodes please",
    ],
)
def test_a_gibibyte_rate_is_no_infiniband(text: str) -> None:
    assert parse(text).network is None


@pytest.mark.parametrize(("text", "gbps"), [("need 100G IB", 100.0), ("200G InfiniBand", 200.0)])
def test_a_speed_before_ib_is_still_read(text: str, gbps: float) -> None:
    net = parse(text).network
    assert net is not None
    assert net.min_speed_gbps == gbps


@pytest.mark.parametrize(
    "text",
    ["Memory: 3 TB over the hole job, 6 nodes", "RAM 800 GB across the hole run, 2 nodes"],
)
def test_hole_job_is_the_whole_job(text: str) -> None:
    assert parse(text).compute.memory_gb_total is not None
