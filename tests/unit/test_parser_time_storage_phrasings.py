"""Deadlines, node-local storage, run time, exclusions and container runtimes in wordings the
parser had not read (the dev-p, dev-q and dev-r round).

Each test states one class in sentences written for the test, not copied from the corpus: a
clock time before its date ("by 18:00 UTC on 4 December"), an hour in "o'clock" after a date
("before Wednesday 9 December, 8 o'clock"), a day named first and pointed back at ("the panel
meets on 8 December, so we need the results by then"), a deadline as time to finish ("we have
to finish in 3 days"); "local" after the storage noun or before a misspelt one ("400 GB disk
local", "250 GB of local scrach"); durations of "computation"; a second feature under one
negation with its own "of"/"for" ("no need of MPI nor of a fast network"); and any container
runtime accepted after one was named ("Docker is what we use, but any runtime will do").
"""

from __future__ import annotations

import pytest
from test_parser_deadlines_exclusions import deadline, parse

from providers.wire.requirements import Feature, GpuLogic, StorageKind

# -- deadlines --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Results needed by 18:00 UTC on 4 December.", "2026-12-04T18:00:00+00:00"),
        ("It must be done before 14:00 on the 10th of December.", "2026-12-10T14:00:00+00:00"),
        ("please have it by 5 pm on December 9", "2026-12-09T17:00:00+00:00"),
        ("we need it by 07:30 on Friday 11 December", "2026-12-11T07:30:00+00:00"),
        ("output required by 23:00 GMT on Dec 12, 2026", "2026-12-12T23:00:00+00:00"),
        # an hour in "o'clock" after the date
        ("Results by Friday 4 December, 10 o'clock please.", "2026-12-04T10:00:00+00:00"),
        ("It has to finish before Wednesday 9 December, 8 o'clock.", "2026-12-09T08:00:00+00:00"),
        ("needed by 14 December, 16 o\u2019clock", "2026-12-14T16:00:00+00:00"),
        ("we must deliver before Monday, 11 o'clock", "2026-12-07T11:00:00+00:00"),
    ],
)
def test_a_clock_time_with_its_date_is_on_that_date(text: str, expected: str) -> None:
    assert deadline(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The panel meets on 8 December, so the results must be ready by then.",
            "2026-12-08T23:59:59+00:00",
        ),
        (
            "Our paper is due Friday 11 December at 17:00; the runs have to finish before then.",
            "2026-12-11T17:00:00+00:00",
        ),
        ("The review is on Thursday. We need the numbers by then.", "2026-12-03T23:59:59+00:00"),
        (
            "The defence is on 14 December and the\nplots are needed before then.",
            "2026-12-14T00:00:00+00:00",
        ),
        (
            "A workshop takes place on Dec 9 at 10:00, I want the output until then.",
            "2026-12-09T10:00:00+00:00",
        ),
    ],
)
def test_a_day_pointed_back_at_with_then_is_the_deadline(text: str, expected: str) -> None:
    assert deadline(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We ran it on 3 November and by then it was fine.",
        "The upgrade happened on 20 November; by then the queue had emptied.",
        "The maintenance ends on 9 December, we will not start before then.",
        "On Monday the cluster was down.\n\nBy then I had given up.",
    ],
)
def test_then_after_history_or_a_start_is_no_deadline(text: str) -> None:
    assert deadline(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We need to finish in 3 days because of the review.", "2026-12-04T09:00:00+00:00"),
        ("I have to finish in 36 hours max.", "2026-12-02T21:00:00+00:00"),
        ("the analysis must be done in 2 days at most", "2026-12-03T09:00:00+00:00"),
        ("we must finish in 5 days maximum", "2026-12-06T09:00:00+00:00"),
        ("Need it done in 12 hours, sorry for the rush.", "2026-12-01T21:00:00+00:00"),
        ("deadline: within 4 days tops", "2026-12-05T09:00:00+00:00"),
    ],
)
def test_time_to_finish_is_a_deadline_not_a_run_time(text: str, expected: str) -> None:
    req = parse(text)
    assert req.deadline is not None and req.deadline.isoformat() == expected
    assert req.compute.walltime_s is None


def test_a_run_time_estimate_stays_a_run_time() -> None:
    req = parse("The job takes about 6 hours, 2 nodes.")
    assert req.compute.walltime_s == 21600
    assert req.deadline is None


# -- storage on the node --------------------------------------------------------------------


_LOCAL, _ANY = StorageKind.LOCAL, StorageKind.ANY


@pytest.mark.parametrize(
    ("text", "kind", "size"),
    [
        ("I need 400 GB disk local in each node.", _LOCAL, 400),
        ("2 nodes, 1 TB scratch local per node", _LOCAL, 1000),
        ("can i have 250 GB of local scrach", _LOCAL, 250),
        ("also 500 GB local storgae please", _LOCAL, 500),
        ("3 TB of storage node-local, 24 hours", _LOCAL, 3000),
        ("memory 128 GB and 800 GB disk local", _LOCAL, 800),
        ("we want 1.5 TB of scratch node local", _LOCAL, 1500),
        # not said to be on the node: any storage
        ("2 TB scratch local to our group", _ANY, 2000),
        ("500 GB of scratch for the run", _ANY, 500),
        ("I need 2 TB of scrach", _ANY, 2000),
    ],
)
def test_local_before_or_after_the_noun_is_node_local_storage(
    text: str, kind: StorageKind, size: float
) -> None:
    storage = parse(text).storage
    assert [(s.kind, s.min_free_gb) for s in storage] == [(kind, size)]


# -- run time -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("OpenFOAM on 8 nodes, 1 week of computation.", 604800),
        ("about 3 days of calculations on 2 nodes", 259200),
        ("it is 10 hours of computation per run", 36000),
    ],
)
def test_a_duration_of_computation_is_the_run_time(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


def test_a_duration_of_something_else_is_no_run_time() -> None:
    assert parse("We transcribe 800 hours of speech with Whisper.").compute.walltime_s is None


# -- exclusions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("We have no need of MPI nor of a fast network.", {Feature.MPI, Feature.LOW_LATENCY}),
        ("no need for GPUs nor for containers", {Feature.GPU, Feature.CONTAINER}),
        ("There is no need of containers or of MPI here.", {Feature.CONTAINER, Feature.MPI}),
        ("Without MPI and for sure without a fast interconnect.", {Feature.MPI}),
    ],
)
def test_a_second_feature_under_one_negation_keeps_its_preposition(
    text: str, excluded: set[Feature]
) -> None:
    assert excluded <= set(parse(text).excluded)


def test_a_fast_network_asked_for_after_a_negated_mpi_stays_asked() -> None:
    req = parse("No need of MPI, but we do need a fast network.")
    assert set(req.excluded) == {Feature.MPI}
    assert req.network.low_latency is True


# -- container runtimes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We need a container; Docker is what we use, but any runtime that runs our image will do.",
        "Podman preferred, any container runtime is fine though.",
        "We build with Apptainer 1.2; any container engine should work.",
        "in a container please - any runtime would work",
        "Singularity is our habit but any OCI runtime will do",
    ],
)
def test_any_runtime_accepted_asks_for_any_container(text: str) -> None:
    container = parse(text).container
    assert container is not None and container.runtime == "any"
    assert not container.constraints


@pytest.mark.parametrize(
    ("text", "runtime"),
    [
        ("any runtime will do, about 4 hours on 2 nodes", None),
        ("Apptainer >= 1.2 please, 2 nodes", "apptainer"),
        ("rootless Podman 4.9, the runtime must be exactly that", "podman"),
    ],
)
def test_no_any_runtime_phrase_keeps_the_named_runtime_or_none(
    text: str, runtime: str | None
) -> None:
    container = parse(text).container
    assert (container.runtime if container else None) == runtime


# -- wanted, but said not to be needed ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "4 nodes x 32 cores, ~20 h. InfiniBand would be nice but isn't required.",
        "a fast interconnect would help but is not needed",
        "MPI is nice, but not a must",
        "Low latency would be great but it's not essential.",
        "Containers would be a plus but are not mandatory.",
    ],
)
def test_a_feature_nice_but_not_needed_is_neither_asked_nor_excluded(text: str) -> None:
    req = parse(text)
    assert req.network is None or (req.network.fabric is None and not req.network.low_latency)
    assert req.mpi is None and req.container is None
    assert not req.excluded


def test_a_gpu_nice_but_not_needed_is_an_option() -> None:
    req = parse("A GPU would be nice but is not strictly required, 8 cores")
    assert req.compute.gpu_logic is GpuLogic.OR
    assert not req.excluded


@pytest.mark.parametrize(
    "text",
    [
        "InfiniBand would be nice, and it is required.",
        "We need InfiniBand. Containers would be nice but are not required.",
    ],
)
def test_a_feature_said_to_be_needed_stays_asked(text: str) -> None:
    network = parse(text).network
    assert network is not None and network.fabric is not None
