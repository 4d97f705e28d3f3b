"""Time and negation read on wording the parser had never seen (the dev-h/i/j round).

Sentences are written for these tests, not copied from the corpus. The classes:

- a duration that is not the job's run time: one item's time among many, a waiting or past
  time, a simulated or observed period, a time step, an age, one side of a data size;
- deadlines on misspelt weekdays, a misspelt "deadline" with no colon, "by COB Thursday";
- urgency negated loosely ("nothign urgent") and "now" that means "currently";
- negation across words ("neither X nor Y", "X isn't required", "Please not GPU");
- GPUs offered as an option ("can use a GPU if there is one"), which is not an exclusion.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Feature, GpuLogic, Urgency

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def excluded(req: Requirements) -> set[Feature]:
    return set(req.excluded)


# -- durations that are not the run time -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "walltime_s"),
    [
        ("Each replica takes about 2 hours; please book 3 nodes for 12 hours.", 12 * 3600),
        ("Every sample runs for 30 minutes, so I'd like one node for 10 hours.", 10 * 3600),
        (
            "Each of the 12 members takes about 3 hours. Please give us 4 nodes for 40 hours.",
            40 * 3600,
        ),
        ("One conformer takes 20 minutes; the whole job needs 2 nodes for 6 hours.", 6 * 3600),
        (
            "The job has been waiting in the queue for 3 days; it needs 2 nodes for 6 hours.",
            6 * 3600,
        ),
        ("Our cluster was down for 2 weeks. Need 64 cores for 5 hours.", 5 * 3600),
        (
            "We simulate 200 years with a time step of 30 minutes, on 4 nodes for 48 hours.",
            48 * 3600,
        ),
        ("The counts cover 400 weeks x 2,000 regions and each fit takes about 9 hours.", 9 * 3600),
        (
            "A single frame renders in 5 minutes, so please reserve one GPU node for 8 hours.",
            8 * 3600,
        ),
        ("It needs 2 nodes for 5 hours; each sample takes 10 minutes.", 5 * 3600),
        ("The data were collected over 26 weeks. Analysis: 16 cores for 3 hours.", 3 * 3600),
        ("We ran a 10-day forecast before; this time 2 nodes for 5 hours.", 5 * 3600),
    ],
)
def test_an_item_or_past_duration_never_outranks_the_run_time(text: str, walltime_s: int) -> None:
    assert parse(text).compute.walltime_s == walltime_s


@pytest.mark.parametrize(
    ("text", "walltime_s"),
    [
        ("Each fit takes about 14 hours.", 14 * 3600),  # the only time given: kept
        ("Each run takes 30 hours on 8 nodes.", 30 * 3600),
        ("Please run GROMACS for 1 day 6 hours on 2 nodes.", 30 * 3600),
        ("We need 4 nodes for 2 days and 12 hours.", 60 * 3600),
        ("4 nodes with 32 cores each, for 6 hours.", 6 * 3600),
        ("2 nodes, 4 GPUs each for 12 hours.", 12 * 3600),
        ("It took 20 hours last time, please plan for 24 hours.", 24 * 3600),
    ],
)
def test_the_run_time_is_still_read(text: str, walltime_s: int) -> None:
    assert parse(text).compute.walltime_s == walltime_s


@pytest.mark.parametrize(
    "text",
    [
        "Output is written with a time step of 15 minutes on 2 nodes.",
        "The samples are 3 days old; 8 cores please.",
        "We got the data 2 weeks ago; 8 cores please.",
        "A 5-minute time step, 16 cores.",
        "Hourly data at 1-hour resolution, 16 cores.",
    ],
)
def test_steps_and_ages_are_no_run_time(text: str) -> None:
    assert parse(text).compute.walltime_s is None


@pytest.mark.parametrize(
    ("text", "walltime_s"),
    [
        ("12 hours x 8 nodes please", 12 * 3600),
        ("3 days x 4 nodes for the ensemble", 3 * 86400),
        ("We run a 10-day forecast on 4 nodes.", 10 * 86400),
        ("We run a 10-day forecast; 4 nodes for 6 hours.", 6 * 3600),
    ],
)
def test_an_unlikely_run_time_is_kept_when_it_is_the_only_one(text: str, walltime_s: int) -> None:
    assert parse(text).compute.walltime_s == walltime_s


# -- deadlines -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("results needed by frdiay, 2 nodes for 12 hours", datetime(2026, 5, 15, 23, 59, 59)),
        ("by wendesday please, 32 cores", datetime(2026, 5, 13, 23, 59, 59)),
        ("deadline thrusday 5pm, 4 hours on one node", datetime(2026, 5, 14, 17, 0)),
        ("dedline friday noon, 4 hours on 1 node", datetime(2026, 5, 15, 12, 0)),
        ("deadlne monday, 8 cores", datetime(2026, 5, 18, 23, 59, 59)),
        ("before thrusday, 2 nodes", datetime(2026, 5, 14, 0, 0)),
        ("by COB Thursday, 1 node for 2 hours", datetime(2026, 5, 14, 17, 0)),
        ("done by end of day Monday please", datetime(2026, 5, 18, 23, 59, 59)),
        ("no later than Friday, 1 node for 2 hours", datetime(2026, 5, 15, 23, 59, 59)),
    ],
)
def test_deadline_phrasings(text: str, deadline: datetime) -> None:
    req = parse(text)
    assert req.deadline == deadline.replace(tzinfo=UTC)
    assert req.compute.walltime_s != (req.deadline - NOW).total_seconds()


@pytest.mark.parametrize(
    "text",
    [
        "finished by someday maybe, 8 cores",
        "done by default settings, 8 cores",
        "the defender mode is on, 8 cores",
        "we decided monday to use 8 cores",
    ],
)
def test_words_near_weekdays_are_no_deadline(text: str) -> None:
    assert parse(text).deadline is None


# -- urgency ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "urgency"),
    [
        ("16 cores, 60G, 4h, nothign urgent", Urgency.NO_RUSH),
        ("isnt super urgent, 16 cores", Urgency.NO_RUSH),
        ("It is not urgent. 2 nodes.", Urgency.NO_RUSH),
        ("this is urgent, 16 cores", Urgency.NOW),
        ("urgent: 16 cores for 2 hours", Urgency.NOW),
        ("I need 2 nodes now.", Urgency.NOW),
        ("need it right now please", Urgency.NOW),
    ],
)
def test_urgency(text: str, urgency: Urgency) -> None:
    assert parse(text).urgency is urgency


@pytest.mark.parametrize(
    "text",
    [
        "The image now contains the whole stack. 2 nodes for 3 hours.",
        "The bug is now fixed; 2 nodes for 3 hours.",
        "We ran it before; now 2 nodes for 5 hours.",
        "The code now supports ROCm. 2 nodes for 3 hours.",
    ],
)
def test_now_meaning_currently_is_no_urgency(text: str) -> None:
    assert parse(text).urgency is None


# -- negation across words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "features"),
    [
        (
            "We need neither MPI nor a fast network, 4 nodes for 10 hours.",
            {Feature.MPI, Feature.LOW_LATENCY},
        ),
        ("Neither code uses MPI. One node for 3 hours.", {Feature.MPI}),
        ("Neither of them needs GPUs; 8 cores.", {Feature.GPU}),
        ("Please not GPU, 24 cores for 2 days.", {Feature.GPU}),
        ("Not necessary GPU. 4 nodes, 20 hours.", {Feature.GPU}),
        ("We don't need MPI or GPUs. 8 cores.", {Feature.MPI, Feature.GPU}),
        ("MPI isn't required, 8 cores for 2 hours.", {Feature.MPI}),
        ("MPI won't be needed, 8 cores for 2 hours.", {Feature.MPI}),
        ("GPUs are not necessary; 32 cores.", {Feature.GPU}),
        ("without any GPUs, 16 cores for 1 hour", {Feature.GPU}),
        ("no need for GPUs or a low-latency network", {Feature.GPU, Feature.LOW_LATENCY}),
        ("This is not an MPI code; 16 cores.", {Feature.MPI}),
        ("I need 2 nodes, and not MPI.", {Feature.MPI}),
    ],
)
def test_negated_features_are_excluded(text: str, features: set[Feature]) -> None:
    req = parse(text)
    assert excluded(req) == features
    if Feature.MPI in features:
        assert req.mpi is None
    if Feature.GPU in features:
        assert not req.compute.gpus_per_node
    if Feature.LOW_LATENCY in features:
        assert req.network is None or not req.network.low_latency


@pytest.mark.parametrize(
    "text",
    [
        "We are not sure whether or not GPUs are available there; we need 2 GPUs.",
        "It is not GPU-accelerated code but we need 2 GPUs for the plots.",
        "Not only GPUs: we need 2 GPUs and 64 cores.",
    ],
)
def test_not_near_a_gpu_word_that_asks_for_gpus(text: str) -> None:
    req = parse(text)
    assert Feature.GPU not in excluded(req)
    assert req.compute.gpus_per_node == 2


@pytest.mark.parametrize("text", ["Is MPI required? 4 nodes with MPI.", "MPI is required."])
def test_a_question_or_demand_is_no_exclusion(text: str) -> None:
    assert Feature.MPI not in excluded(parse(text))


# -- GPUs as an option -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "It can use a GPU if available, but GPUs are not required. 32 cores.",
        "GPUs help a lot but are not needed; 64 cores for 2 days.",
        "A GPU would speed it up, but it isn't required. 16 cores.",
        "The code could use GPUs if there are any; 32 cores for 2 hours.",
        "The network can use a GPU if there is one. 32 cores.",
        "GPUs would speed it up but CPU is fine. 32 cores for 1 day.",
        "GPUs are not required, though they would help. 32 cores.",
    ],
)
def test_gpu_offered_as_an_option(text: str) -> None:
    req = parse(text)
    assert Feature.GPU not in excluded(req)
    assert req.compute.gpu_logic is GpuLogic.OR


@pytest.mark.parametrize(
    "text",
    ["GPUs are not required. 32 cores.", "No GPUs please, it would be slower anyway. 32 cores."],
)
def test_gpu_not_required_alone_is_an_exclusion(text: str) -> None:
    req = parse(text)
    assert Feature.GPU in excluded(req)
    assert req.compute.gpus_per_node == 0


@pytest.mark.parametrize(
    ("text", "walltime_s"),
    [
        ("We need 16 nodes with 64 cores each, 2-06:00:00 per run, and 300 GB.", 54 * 3600),
        ("Each case needs 1-00:00:00 on 4 nodes.", 24 * 3600),
        ("8 nodes, 06:00:00 per job", 6 * 3600),
    ],
)
def test_slurm_time_in_prose_is_the_run_time(text: str, walltime_s: int) -> None:
    assert parse(text).compute.walltime_s == walltime_s


@pytest.mark.parametrize(
    "text",
    ["The meeting is at 12:00:00 tomorrow, 4 nodes.", "Logs start at 08:30:00; 4 nodes."],
)
def test_a_clock_time_is_no_run_time(text: str) -> None:
    assert parse(text).compute.walltime_s is None
