"""Deadlines, exclusions and optional GPUs in wordings the parser had never read (the dev-n and
dev-o round).

Each test states one class in sentences written for the test, not copied from the corpus:
deadlines with a weekday and a clock time, an event on a day ("before the review on Friday"),
dates with dots or slashes, the earliest of two dates, starts that are not deadlines ("not
before Monday"); exclusions said as a rule ("does not allow containers", "must not run in
Docker"), in non-native word order ("is not necessary the GPU") and double negatives that ask
for the feature ("can't run without a GPU"); CPUs offered as a fallback ("also runs on CPU, just
slower").
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Feature, GpuLogic

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def deadline(text: str) -> str | None:
    req = parse(text)
    return req.deadline.isoformat() if req.deadline else None


# -- deadlines: a day and a clock time -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Results by Thursday at 10, please.", "2026-12-03T10:00:00+00:00"),
        ("We need the output by Friday at 14.", "2026-12-04T14:00:00+00:00"),
        ("done by Monday at 9 sharp", "2026-12-07T09:00:00+00:00"),
        ("Please have it finished by Wednesday at 10 o'clock.", "2026-12-02T10:00:00+00:00"),
        ("results by midday Thursday", "2026-12-03T12:00:00+00:00"),
        ("deadline: Thursday midday", "2026-12-03T12:00:00+00:00"),
        ("I need it by Friday COB.", "2026-12-04T17:00:00+00:00"),
        ("finished by Monday close of business", "2026-12-07T17:00:00+00:00"),
        ("results by Thursday EOD", "2026-12-03T23:59:59+00:00"),
        ("by Wednesday noon at the latest", "2026-12-02T12:00:00+00:00"),
        ("needed by tomorrow at 2pm", "2026-12-02T14:00:00+00:00"),
        ("by 9 December at noon", "2026-12-09T12:00:00+00:00"),
    ],
)
def test_a_day_with_a_clock_time_is_that_time(text: str, expected: str) -> None:
    assert deadline(text) == expected


def test_a_bare_hour_before_a_unit_is_not_a_clock_time() -> None:
    req = parse("by Thursday at 10 nodes would be best")
    assert req.deadline is not None
    assert req.deadline.isoformat() == "2026-12-03T23:59:59+00:00"


# -- deadlines: an event on a day ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I need it done before the lab meeting on Thursday at 10.", "2026-12-03T10:00:00+00:00"),
        (
            "We want to show the plots before our 3 pm colloquium on Friday.",
            "2026-12-04T15:00:00+00:00",
        ),
        (
            "The results must be ready ahead of the board review on Monday.",
            "2026-12-07T00:00:00+00:00",
        ),
        ("I need the numbers in time for my defence on December 9.", "2026-12-09T00:00:00+00:00"),
        (
            "we must finish before the maintenance window on Friday 11 December at 6am",
            "2026-12-11T06:00:00+00:00",
        ),
    ],
)
def test_an_event_on_a_day_sets_the_deadline(text: str, expected: str) -> None:
    assert deadline(text) == expected


def test_an_event_in_a_past_story_is_no_deadline() -> None:
    assert (
        parse("We ran it once before the upgrade on 3 November and it was fine.").deadline is None
    )


# -- deadlines: dates with dots and slashes --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("results by 14.12.2026 please", "2026-12-14T23:59:59+00:00"),
        ("Deadline: 7.12.2026", "2026-12-07T23:59:59+00:00"),
        ("we need it by 04.12.2026", "2026-12-04T23:59:59+00:00"),  # dots are day-first
        ("due by 21/12/2026", "2026-12-21T23:59:59+00:00"),
        ("finish by 12/21/2026", "2026-12-21T23:59:59+00:00"),  # month-first: 21 is no month
        ("deadline 2026/12/18", "2026-12-18T23:59:59+00:00"),
        ("deadline: 7.12.2026 at 17:00", "2026-12-07T17:00:00+00:00"),
    ],
)
def test_numeric_dates_are_read_when_unambiguous(text: str, expected: str) -> None:
    assert deadline(text) == expected


def test_an_ambiguous_slashed_date_is_quoted_not_guessed() -> None:
    req = parse("Please have it done by 03/04/2027.")
    assert req.deadline is None
    assert any("03/04/2027" in u for u in req.unresolved)


def test_a_version_is_not_a_dotted_date() -> None:
    req = parse("GROMACS 2024.1.3 on 2 nodes")
    assert req.deadline is None


# -- deadlines: the earliest date binds ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The grant report is due on 18 December, so we need the runs done by 11 December.",
            "2026-12-11T23:59:59+00:00",
        ),
        (
            "My defence is on the 21st; the simulations must finish by the 16th.",
            "2026-12-16T23:59:59+00:00",
        ),
        ("Camera-ready due 2026-12-20, results by Dec 15 EOD.", "2026-12-15T23:59:59+00:00"),
        (
            "We need results by 9 December at noon; the review is due on 10 December.",
            "2026-12-09T12:00:00+00:00",
        ),
    ],
)
def test_the_earliest_date_is_the_deadline(text: str, expected: str) -> None:
    assert deadline(text) == expected


# -- starts that are not deadlines -----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Please do not start before Monday.",
        "The input data won't be ready before Thursday.",
        "results not before Friday please",
    ],
)
def test_not_before_is_no_deadline_and_is_quoted(text: str) -> None:
    req = parse(text)
    assert req.deadline is None
    assert any("before" in u for u in req.unresolved)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no later than Friday", "2026-12-04T23:59:59+00:00"),
        ("I need it before Friday.", "2026-12-04T00:00:00+00:00"),
        ("need to run it before the 3pm demo", "2026-12-01T15:00:00+00:00"),
    ],
)
def test_plain_deadlines_still_read(text: str, expected: str) -> None:
    assert deadline(text) == expected


# -- exclusions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Our security policy does not allow containers on this project.", Feature.CONTAINER),
        ("IT doesn't permit the use of Docker here.", Feature.CONTAINER),
        ("The licence means it must not run in a container.", Feature.CONTAINER),
        ("This code cannot be run inside Singularity.", Feature.CONTAINER),
        ("Containers are prohibited for this workload.", Feature.CONTAINER),
        ("Is not necessary the GPU, thank you.", Feature.GPU),
        ("It is not necessary to use MPI for this.", Feature.MPI),
        ("Is not necessary parallel with MPI.", Feature.MPI),
        ("GPUs are not permitted on this allocation.", Feature.GPU),
        ("The model mustn't use MPI.", Feature.MPI),
    ],
)
def test_exclusions_in_other_words(text: str, feature: Feature) -> None:
    req = parse(text)
    assert feature in req.excluded
    assert feature is not Feature.CONTAINER or req.container is None
    assert feature is not Feature.MPI or req.mpi is None


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("It can't run without a GPU.", Feature.GPU),
        ("The solver won't work without MPI.", Feature.MPI),
        ("It does not work without a container.", Feature.CONTAINER),
    ],
)
def test_cannot_run_without_asks_for_the_feature(text: str, feature: Feature) -> None:
    req = parse(text)
    assert feature not in req.excluded
    if feature is Feature.GPU:
        assert req.compute.gpus_per_node == 1
    if feature is Feature.MPI:
        assert req.mpi is not None
    if feature is Feature.CONTAINER:
        assert req.container is not None


@pytest.mark.parametrize(
    "text",
    [
        "no more than 2 GPUs",
        "no later than Friday",
        "no need to hurry, 4 nodes",
        "It is necessary to use MPI.",
        "Containers are allowed.",
    ],
)
def test_negative_shapes_are_not_exclusions(text: str) -> None:
    assert parse(text).excluded == ()


def test_without_still_excludes() -> None:
    assert Feature.GPU in parse("We can run it without GPUs.").excluded
    assert Feature.MPI in parse("We run it without MPI.").excluded


# -- CPUs as the fallback --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "One GPU would make it much faster, but it also runs on CPU, just slower.",
        "It is fastest on a GPU but works CPU-only too.",
        "Inference wants a GPU; it still runs fine on CPUs.",
        "Training uses 2 GPUs but it runs on CPUs, just a lot slower.",
        "The model can run on a graphics card or on the ordinary processors.",
        "It runs on one GPU or on the regular CPUs, either is fine.",
    ],
)
def test_cpu_fallback_makes_gpus_optional(text: str) -> None:
    req = parse(text)
    assert req.compute.gpu_logic is GpuLogic.OR
    assert Feature.GPU not in req.excluded


def test_cpu_work_in_a_gpu_job_is_not_a_fallback() -> None:
    req = parse("Training needs 2 A100 GPUs; preprocessing also runs on CPU nodes with 64 cores.")
    assert req.compute.gpu_logic is not GpuLogic.OR
    assert req.compute.gpus_per_node == 2
