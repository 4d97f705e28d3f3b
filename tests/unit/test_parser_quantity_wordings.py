"""Quantities in wordings the parser misread: each test states one rule in sentences written
for it, with cases the rule must not fire on.

- "deadline" in speech and typing: "deadline's Thursday 5pm", "deadlne is Friday noon".
- A time after a possessive day is the deadline: "before tomorrow's 9am telecon".
- A decade ("the 1930s", "1950s-1970s") is the period a study covers, never seconds of run time.
- Refusals in key=value specs: "MPI=not needed" excludes MPI instead of leaving "not" behind.
- The non-native "we have not need of MPI" is an exclusion, never an MPI requirement.
- ``"gpu_required": false`` beside a GPU count makes the GPUs an option; alone it excludes them.
- "on CPU or also on GPU": an adverb after "or" keeps the GPUs an option.
- "a bigmem node with 1 TB and 64 cores": the big-memory node is one node, sized by its amounts.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from secretary_executor.evaluation.corpus import parsed_facts

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday


def facts(text: str) -> set[tuple]:
    return parsed_facts(parse_requirements(text, now=NOW))


def field(text: str, name: str) -> set[tuple]:
    return {f for f in facts(text) if f[0] == name}


# -- "deadline" spoken and mistyped ------------------------------------------------------------


SPOKEN_OR_MISTYPED = [
    ("deadline's thursday 5pm, cheers", "2026-12-03T17:00:00+00:00"),
    ("The deadline's Friday at 10am.", "2026-12-04T10:00:00+00:00"),
    ("our deadline\u2019s Dec 9th", "2026-12-09T23:59:59+00:00"),
    ("deadlne is thursday 5pm", "2026-12-03T17:00:00+00:00"),
    ("the dealine is dec 12 for the report", "2026-12-12T23:59:59+00:00"),
    ("dedline is wednesday noon", "2026-12-02T12:00:00+00:00"),
    ("deadine is 15 December", "2026-12-15T23:59:59+00:00"),
    ("Two nodes, 6 hours. deadlien's Friday 9am.", "2026-12-04T09:00:00+00:00"),
]
"""A spoken or mistyped "deadline" word introduces the date."""
POSSESSIVE_DAY = [
    ("has to finish before tomorrow's 9am telecon", "2026-12-02T09:00:00+00:00"),
    ("by tomorrow's 9am meeting, 2 nodes", "2026-12-02T09:00:00+00:00"),
    ("needed by Friday's 2pm review", "2026-12-04T14:00:00+00:00"),
    ("before Thursday\u2019s 10:30 group meeting", "2026-12-03T10:30:00+00:00"),
    ("by friday's 3pm call, 4 nodes for 2 hours", "2026-12-04T15:00:00+00:00"),
    ("results by Wednesday's noon deadline", "2026-12-02T12:00:00+00:00"),
    # without a time the day keeps its end
    ("by tomorrow's meeting", "2026-12-02T23:59:59+00:00"),
    ("by Friday's review", "2026-12-04T23:59:59+00:00"),
]
"""A time after a possessive day is the deadline."""


@pytest.mark.parametrize(("text", "when"), SPOKEN_OR_MISTYPED + POSSESSIVE_DAY)
def test_the_deadline_is_read_from_the_wording(text: str, when: str) -> None:
    assert field(text, "deadline") == {("deadline", when)}


@pytest.mark.parametrize(
    "text",
    [
        "the design is friday's topic, 4 nodes for 2 hours",
        "demand is high on thursday, so 2 nodes for 3 hours",
        "the delivery is Friday, nothing urgent, 2 nodes",
        "decision's Friday, so any time is fine",
    ],
)
def test_words_like_deadline_set_no_deadline(text: str) -> None:
    assert not field(text, "deadline")


def test_a_possessive_day_with_no_deadline_word_sets_none() -> None:
    assert not field("Friday's run took 9 hours", "deadline")


# -- decades are not run times -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("samba recordings from the 1930s to the 1960s, about 2 days more or less", 172800),
        ("Letters of the 1700s, OCR on 4 cores for 12 hours.", 43200),
        ("census waves 1950s-1970s, 5h on one node", 18000),
        ("newspapers of the 1990s and 2000s, for 2 days", 172800),
        ("jazz of the 1920s; the job runs 3 hours", 10800),
        ("In the 2010s we ran it for 8 hours.", 28800),
    ],
)
def test_a_decade_is_never_a_walltime(text: str, seconds: int) -> None:
    assert field(text, "walltime_s") == {("walltime_s", float(seconds))}


@pytest.mark.parametrize(
    "text",
    ["the corpus covers the 1930s", "photos from the 1880s to the 1920s", "1960s-1980s data"],
)
def test_a_decade_alone_sets_no_walltime(text: str) -> None:
    assert not field(text, "walltime_s")


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("walltime 1800s", 1800), ("--time=1800s", 1800), ("runs for 2000s", 2000)],
)
def test_seconds_that_look_like_a_decade_stay_a_walltime(text: str, seconds: int) -> None:
    assert field(text, "walltime_s") == {("walltime_s", float(seconds))}


# -- refusals in key=value specs ---------------------------------------------------------------


PAIR_REFUSALS = [
    ("MPI=not needed\nWALLTIME=10h", "mpi"),
    ("mpi=not required cores=64", "mpi"),
    ("CONTAINER=not needed", "container"),
    ("container=not allowed", "container"),
    ("GPU=not needed\nCORES=16", "gpu"),
    ("--mpi=not needed", "mpi"),
    ("MPI=none", "mpi"),
]
"""Refusals in key=value specs, one token or two ("not needed")."""
HAVE_NOT_NEED = [
    ("We have not need of MPI.", "mpi"),
    ("We do not have need of MPI for this.", "mpi"),
    ("we haven't any need for GPUs", "gpu"),
    ("I have not need for containers.", "container"),
    ("She has not need of a fast network.", "low_latency"),
    ("We don't have any need of a GPU, 32 cores only.", "gpu"),
]
"""The non-native "have not need of": a negation, never a need."""


@pytest.mark.parametrize(("text", "feature"), PAIR_REFUSALS + HAVE_NOT_NEED)
def test_a_refusal_excludes_the_feature_and_asks_for_none_of_it(text: str, feature: str) -> None:
    got = facts(text)
    assert ("exclude", feature) in got
    assert not any(f[0] == feature for f in got)


@pytest.mark.parametrize("text", ["MPI=openmpi", "mpi=yes", "MPI=required"])
def test_a_wanted_mpi_in_a_pair_is_no_exclusion(text: str) -> None:
    got = facts(text)
    assert ("exclude", "mpi") not in got
    assert any(f[0] == "mpi" for f in got)


# -- "have not need of": a non-native negation -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We have need of MPI.",
        "we had not the time before, now we need MPI",
        "We have not needed MPI before, but now we need MPI.",
    ],
)
def test_a_need_stated_near_a_have_not_stays_a_need(text: str) -> None:
    got = facts(text)
    assert ("exclude", "mpi") not in got
    assert ("mpi", "any") in got


# -- "gpu_required": false ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ('{"gpu_required": false, "gpus": 2}', 2),
        ('{"gpus": 4, "gpu_required": false, "cores": 32}', 4),
        ("requires_gpu: false\ngpus_per_node: 4\nnodes: 2", 4),
        ("gpus=1\nneeds_gpu=no", 1),
        ("gpu_count: 2\ngpu_mandatory: false", 2),
    ],
)
def test_gpu_not_required_beside_a_count_makes_the_gpus_an_option(text: str, gpus: int) -> None:
    got = facts(text)
    assert ("gpu_optional", True) in got
    assert ("gpus_per_node", float(gpus)) in got
    assert ("exclude", "gpu") not in got


def test_gpu_not_required_beside_a_model_makes_the_model_an_option() -> None:
    got = facts('{"gpu_model": "A100", "gpu_required": false}')
    assert ("gpu_optional", True) in got
    assert ("exclude", "gpu") not in got


@pytest.mark.parametrize(
    "text",
    ['{"gpu_required": false}', "gpu_required: false\ncores: 16", "needs_gpu = no", "GPU=none"],
)
def test_gpu_not_required_alone_excludes_the_gpus(text: str) -> None:
    got = facts(text)
    assert ("exclude", "gpu") in got
    assert ("gpu_optional", True) not in got


def test_gpu_required_true_keeps_the_gpus_a_must() -> None:
    got = facts("gpu_required=true\ngpus=2")
    assert ("gpus_per_node", 2.0) in got
    assert ("gpu_optional", True) not in got


# -- "on CPU or also on GPU" -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "It can run on CPU or also on GPU, both is good for me.",
        "it runs on CPU or also on GPU",
        "CPU or also GPU is fine",
        "on CPU or alternatively on 2 GPUs",
        "on a GPU or also on CPU",
        "GPU or else plain CPUs, whatever is free",
    ],
)
def test_an_adverb_after_or_keeps_the_gpus_an_option(text: str) -> None:
    got = facts(text)
    assert ("gpu_optional", True) in got
    assert ("exclude", "gpu") not in got


@pytest.mark.parametrize(
    "text", ["we need CPUs or also more memory", "we use CPU, and also a GPU", "CPU only please"]
)
def test_no_gpu_option_without_a_gpu_alternative(text: str) -> None:
    assert ("gpu_optional", True) not in facts(text)


# -- big-memory nodes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("Can I get a bigmem node w/ 1 TB of RAM and 64 cores for 3 days?", 64),
        ("a bigmem node with 1 TB of RAM and 64 cores", 64),
        ("one hi-mem node with 2 TB RAM, 96 cores", 96),
        ("a highmem node: 64 cores, 1.5 TB", 64),
        ("I'd like a large-memory machine with 32 cores.", 32),
        ("a large-mem node with 48 cores, please", 48),
        ("just a high memory server with 48 cores", 48),
        ("one bigmem box with 40 cores", 40),
    ],
)
def test_a_big_memory_node_is_one_node_sized_by_its_amounts(text: str, cores: int) -> None:
    got = facts(text)
    assert ("nodes", 1.0) in got
    assert ("cores_per_node", float(cores)) in got
    assert not field(text, "total_cores")


def test_several_big_memory_nodes_keep_their_count() -> None:
    got = facts("2 bigmem nodes with 64 cores each")
    assert {("nodes", 2.0), ("cores_per_node", 64.0)} <= got


@pytest.mark.parametrize(
    "text", ["a big memory footprint of 64 cores", "the bigmem partition with 64 cores"]
)
def test_big_memory_words_without_a_node_count_no_node(text: str) -> None:
    assert not field(text, "nodes")
