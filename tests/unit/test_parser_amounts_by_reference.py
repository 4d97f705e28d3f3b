"""Amounts a careful reader takes from context: a unit with two letters swapped ("512 corse"),
the one node implied by "on the same node", an urgency level followed by the writer's words
("priority: low, no rush"), space asked for data sized earlier ("it is 3 TB, we need space for
it"), a bare H:MM:SS among the job's amounts, ranks run through a Python MPI wrapper, and "replica
exchange" as a method rather than one replica. Every sentence here was written for the test;
none is copied from the request corpus. The negative cases must keep their words quoted or
unread, never turned into a requirement the text does not state.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements, StorageKind, Urgency

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


# -- a unit word with two letters swapped -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "total", "per_node"),
    [
        ("i need a place with 256 corse for my openfoam case", 256, None),
        ("can we get 96 corse please, its for a big mesh", 96, None),
        ("Looking for 1024 corse and fast network.", 1024, None),
        ("8 nodes with 48 corse each for two days", None, 48),
        ("give me 4 nodes and 64 corse each", None, 64),
        ("we want 32 croes on one machine", None, 32),
    ],
)
def test_swapped_letters_in_cores_still_count(
    text: str, total: int | None, per_node: int | None
) -> None:
    compute = parse(text).compute
    assert compute.total_cores == total
    assert compute.cores_per_node == per_node


@pytest.mark.parametrize(
    "text",
    [
        "the model got a score of 512 on the benchmark",
        "we had 12 scores below the threshold",
    ],
)
def test_other_words_near_a_unit_are_no_cores(text: str) -> None:
    compute = parse(text).compute
    assert compute.total_cores is None and compute.cores_per_node is None


# -- one node: "on the same node" -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus", "cores"),
    [
        ("We need 2 GPU H100 on the same node for the training.", 2, None),
        ("4 GPUs all in the same node, please.", 4, None),
        ("The solver wants 64 cores on the same node (shared memory).", None, 64),
        ("Please put 2 GPUs on the same machine.", 2, None),
        ("Can the 8 A100s be inside the same host?", 8, None),
        ("both GPUs on the same server, for NVLink", None, None),
    ],
)
def test_amounts_on_the_same_node_are_one_node(
    text: str, gpus: int | None, cores: int | None
) -> None:
    compute = parse(text).compute
    assert compute.nodes == 1
    if gpus is not None:
        assert compute.gpus_per_node == gpus
    if cores is not None:
        assert compute.cores_per_node == cores


@pytest.mark.parametrize(
    "text",
    [
        "Use the same node type as last time, 4 GPUs.",
        "8 GPUs on the same node as the database server.",
        "keep the cache on the same node",
        "4 nodes, 2 GPUs on the same node",
    ],
)
def test_same_node_that_counts_no_job_stays_unread(text: str) -> None:
    compute = parse(text).compute
    assert compute.nodes != 1


# -- an urgency level followed by words of the writer's own -------------------------------------


@pytest.mark.parametrize(
    ("text", "urgency"),
    [
        ("cpus: 8\npriority: low, no rush", Urgency.NO_RUSH),
        ("cpus: 8\npriority: low (whenever is fine)", Urgency.NO_RUSH),
        ("nodes: 2\npriority: high, the review is soon", Urgency.NOW),
        ("nodes: 2\nurgency: urgent, the paper is due", Urgency.NOW),
        ("nodes: 2\npriority: medium, no rush really", Urgency.NO_RUSH),
    ],
)
def test_urgency_value_with_prose_is_read(text: str, urgency: Urgency) -> None:
    assert parse(text).urgency is urgency


def test_prose_after_a_priority_level_is_never_dropped() -> None:
    req = parse("cores: 16\npriority: high, needed by Friday")
    assert req.urgency is Urgency.NOW
    assert req.deadline is not None and req.deadline.day == 15


@pytest.mark.parametrize("text", ["cores: 16\npriority: 100", "cores: 16\npriority: normal"])
def test_a_bookkeeping_priority_says_no_urgency(text: str) -> None:
    assert parse(text).urgency is None


# -- space asked for data sized before it ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gb"),
    [
        ("The results will be around 3 TB, we need space for it.", 3000),
        ("The output is about 2 TB and we need space for it.", 2000),
        ("The checkpoints come to 1.5 TB, so we need enough disk to hold them.", 1500),
        ("The archive is 500 GB. We need room to store it.", 500),
        ("Our traces add up to 800 GB; we require storage for all of it.", 800),
        ("Each run writes 40 TB in total, so we need free space for that.", 40000),
    ],
)
def test_space_for_data_sized_earlier(text: str, gb: float) -> None:
    storage = parse(text).storage
    assert [(s.kind, s.min_free_gb) for s in storage] == [(StorageKind.ANY, gb)]


@pytest.mark.parametrize(
    "text",
    [
        "We need space for it.",
        "Inputs are 2 TB, outputs 3 TB, we need space for them.",
    ],
)
def test_space_for_an_unknown_amount_is_quoted(text: str) -> None:
    req = parse(text)
    assert not any(s.min_free_gb for s in req.storage)
    assert any("space for" in u for u in req.unresolved)


# -- a bare H:MM:SS among the job's amounts ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("lammps, 2 nodes x 64 cores, 256GB, 6:00:00", 21600),
        ("2 nodes, 64 cores, 12:00:00, by Friday", 43200),
        ("4 GPUs, 256 GB; 08:30:00", 30600),
        ("gromacs 2024, 2 nodes, 48:00:00", 172800),
        ("one node, 32 cores, 96 GB, 1:30:00, thanks", 5400),
    ],
)
def test_listed_clock_form_is_the_time_limit(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


@pytest.mark.parametrize(
    "text",
    [
        "64 cores, 06:00:00 UTC start",
        "start at 06:00:00, 64 cores",
        "meeting 10:00:00, then run",
        "the log stops at 64 cores, 03:12:45 on Monday",
    ],
)
def test_a_clock_time_is_no_time_limit(text: str) -> None:
    assert parse(text).compute.walltime_s is None


# -- ranks run through a Python MPI wrapper ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "srun -n 64 python count.py  # the ranks exchange counts with mpi4py",
        "mpi4py scatters the grid over the ranks, 128 cores",
        "with mpi4py each rank reads one file; 4 nodes",
        "Our ranks talk through mpi4jax on 8 GPUs.",
        "the petsc4py solver runs 256 MPI processes",
    ],
)
def test_ranks_through_an_mpi_wrapper_ask_for_mpi(text: str) -> None:
    assert parse(text).mpi is not None


@pytest.mark.parametrize(
    "text",
    [
        "torchrun --nproc_per_node 4 train.py  # each rank loads a shard",
        "we use mpi4py. each rank drives one GPU",
        "rank the candidates with mpi4py",
        "the ranks of the team use mpi4py",
    ],
)
def test_ranks_without_a_wrapper_in_the_sentence_say_nothing_of_mpi(text: str) -> None:
    assert parse(text).mpi is None


# -- "replica exchange" is a method, not one replica ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("any MPI for the replica exchange, and 5 days of wall time per simulation.", 432000),
        ("replica-exchange MD on 64 cores for 2 days", 172800),
        ("We run replica exchange with 16 replicas, 3 days of walltime.", 259200),
    ],
)
def test_replica_exchange_keeps_the_job_walltime(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


def test_one_replica_still_sizes_one_unit() -> None:
    compute = parse("a replica runs on 8 cores").compute
    assert compute.total_cores is None
