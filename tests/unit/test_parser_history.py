"""Counts said of the past, of someone else's job, or of one task are not the request.

Tickets tell a story before they ask ("last year we used 8 nodes ... please give us 16"), a
reply quotes the other poster's numbers, and a count of cores or GPUs sizes a node in more
ways than "4 nodes x 32 cores". Every text here was written for the test.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


# -- history, then the request ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "nodes"),
    [
        ("Last year we used 4 nodes for this model. Now we need 8 nodes with 32 cores each.", 8),
        ("We previously ran it on 10 machines; please give me 3 nodes this time.", 3),
        ("On the old cluster we had 6 nodes, but I need 12 nodes for the new grid.", 12),
        ("For the 2022 campaign we ran on 20 nodes and it took 2 days. I'd like 40 nodes.", 40),
        ("We used to run on 2 nodes, so we need 5 nodes with InfiniBand.", 5),
        ("Two years ago I needed 16 nodes. Could I have 4 nodes for 6 hours?", 4),
    ],
)
def test_a_node_count_said_of_the_past_gives_way_to_the_asked_one(text: str, nodes: int) -> None:
    assert parse(text).compute.nodes == nodes


def test_gpus_tried_before_give_way_to_the_gpus_needed_now() -> None:
    req = parse(
        "We tried the training on 2 GPUs and it ran out of memory, so we now need 8 GPUs "
        "on one node for 12 hours."
    )
    assert req.compute.gpus_per_node == 8
    assert req.compute.nodes == 1


def test_a_gpu_model_used_before_gives_way_to_the_model_asked_for() -> None:
    req = parse("Last month we used 2 V100 for the pilot. Could I get 4 H100 GPUs for a day?")
    assert req.compute.gpu_model == "H100"
    assert req.compute.gpus_per_node == 4


def test_memory_and_walltime_said_of_the_old_machine_give_way() -> None:
    req = parse(
        "On our old workstation we had 64 GB of RAM and a run took 3 days. Please give us "
        "one node with 512 GB of memory and 20 cores for 30 hours."
    )
    assert req.compute.memory_gb_per_node == 512
    assert req.compute.walltime_s == 30 * 3600
    assert req.compute.cores_per_node == 20


def test_a_scaling_test_from_last_month_is_history_too() -> None:
    req = parse(
        "Our benchmark last month showed that 4 nodes with 48 cores per node finish in 9 hours, "
        "so please allocate 6 nodes with 64 cores per node for 12 hours."
    )
    assert (req.compute.nodes, req.compute.cores_per_node) == (6, 64)
    assert req.compute.walltime_s == 12 * 3600


def test_quoted_reply_lines_carry_someone_elses_numbers() -> None:
    req = parse(
        "> Sam wrote:\n"
        "> I ran the big grid on 6 nodes with 2 A40 each and 900 GB.\n"
        "\n"
        "Nice. Mine is smaller: one node with 1 GPU and 128 GB is plenty, 4 hours."
    )
    assert req.compute.nodes == 1
    assert req.compute.gpus_per_node == 1
    assert req.compute.memory_gb_per_node == 128


def test_what_was_set_aside_is_still_reported() -> None:
    req = parse("Last year we used 4 nodes. This time we need 2 nodes for 5 hours.")
    assert req.compute.nodes == 2
    assert any("4 nodes" in note and "earlier job" in note for note in req.unparsed)


# -- what the history rule must leave alone --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        # with nothing asked for instead, the past count is all the request says: it stays
        ("Last year we used 4 nodes with 32 cores each for 10 hours; same again please.", (4, 32)),
        # past a sentence end, "one node with ..." is a count of its own, not each node's size
        ("We used 3 nodes last time. One node with 32 cores is enough now, 5 hours.", (1, 32)),
    ],
)
def test_node_shapes_the_history_rule_keeps(text: str, shape: tuple[int, int]) -> None:
    req = parse(text)
    assert (req.compute.nodes, req.compute.cores_per_node) == shape


@pytest.mark.parametrize(
    "text",
    [
        "I need 4 nodes with 2 GPUs each, so 8 GPUs in total, for 3 hours.",
        "We need 4 nodes with 2 GPUs each; that is 8 GPUs altogether.",
    ],
)
def test_a_per_node_count_and_its_total_both_stand(text: str) -> None:
    req = parse(text)
    assert (req.compute.nodes, req.compute.gpus_per_node) == (4, 2)


def test_without_history_the_first_of_two_counts_still_wins() -> None:
    req = parse("I need 4 nodes. The mesh also fits 6 nodes.")
    assert req.compute.nodes == 4


def test_a_past_tense_word_inside_the_request_does_not_hide_it() -> None:
    req = parse("We need 3 nodes because the solver we used needs InfiniBand.")
    assert req.compute.nodes == 3


# -- one task's size, then the job's ---------------------------------------------------------


def test_the_asked_for_memory_wins_over_one_tasks_memory() -> None:
    req = parse(
        "Every chunk of the pipeline is a small task that needs 2 cores and 8 GB of memory. "
        "For the driver I need 1 node with 4 cores and 24 GB of memory for 3 days."
    )
    assert req.compute.memory_gb_per_node == 24
    assert req.compute.walltime_s == 3 * 86400


def test_a_duration_that_describes_a_noun_is_not_the_asked_walltime() -> None:
    req = parse(
        "I need to run a 96-hour climate spin-up. Each stage takes about 4 hours of wall time "
        "on 2 nodes."
    )
    assert req.compute.walltime_s == 4 * 3600


# -- a core or GPU count attached to one node ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("could you set me up with a node with 500G and 48 cores for a day", 48),
        ("we need 24 cores and\n128 GB of memory on a single node for 6 hours", 24),
        ("one node with 1 TB RAM and 96 cores would do", 96),
        ("Need one 16-core box with 64 GB for 3 hours", 16),
    ],
)
def test_a_core_count_with_one_node_is_per_node(text: str, cores: int) -> None:
    req = parse(text)
    assert req.compute.nodes == 1
    assert req.compute.cores_per_node == cores
    assert req.compute.total_cores is None


def test_gpu_boxes_are_nodes_and_per_box_is_per_node() -> None:
    req = parse("could we have the two A100 boxes for 5 hours? 4 GPUs per box")
    assert req.compute.nodes == 2
    assert req.compute.gpus_per_node == 4
    assert req.compute.gpu_model == "A100"


@pytest.mark.parametrize(
    "text",
    [
        "a GPU box for 3 hours please, PyTorch 2.3",
        "the simulation box is 500 Mpc wide, 64 cores for 10 hours",
    ],
)
def test_a_box_without_a_count_is_no_node_count(text: str) -> None:
    assert parse(text).compute.nodes is None


# -- a sample or case named before a bare count ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Pythia event generation for the signal sample, 48 cores, 6 hours",
        "bootstrap resampling for the control sample, 48 cores, 6 hours",
    ],
)
def test_the_sample_a_job_works_on_does_not_make_its_cores_per_task(text: str) -> None:
    req = parse(text)
    assert req.compute.total_cores == 48
    assert req.compute.walltime_s == 6 * 3600


def test_a_count_for_each_sample_is_still_per_task() -> None:
    req = parse("each sample needs 4 cores, the whole thing runs for 6 hours")
    assert req.compute.total_cores is None
    assert req.unresolved


# -- alternative shapes with "each" ----------------------------------------------------------


def test_alternative_shapes_with_each_keep_only_the_shared_total() -> None:
    req = parse("either 4 nodes with 2 GPUs each or 2 nodes with 4 GPUs each, 10 hours")
    assert req.compute.total_gpus == 8
    assert req.compute.nodes is None
