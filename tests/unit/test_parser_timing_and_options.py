"""Time, urgency, exclusions and optional GPUs written in ways the parser had not read.

Every sentence is written for the test: run times as "6h30" or ISO 8601, a vague duration
restated exactly, markdown labels before a value, dates followed by a clock time, relative days
("the day after tomorrow", "end of next week"), urgency given as a form's priority or in a note,
"now" as "currently", GPUs kept off by placement, GPUs offered as a fallback or under a
"nice to have" heading, and a CPU kind that says nothing about GPUs.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements
from providers.wire.requirements import Feature, GpuLogic, Urgency

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def at(day: int, hour: int = 23, minute: int = 59, second: int = 59) -> datetime:
    return datetime(2026, 12, day, hour, minute, second, tzinfo=UTC)


# -- run times -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("NAMD on 2 nodes, run time 6h30.", 23400),
        ("OpenFOAM, 64 cores, expected duration 2h45", 9900),
        ("Please give me 1 node for 10h05 of compute", 36300),
        ("spec: walltime PT4H, nodes 2", 14400),
        ('{"nodes": 2, "walltime": "PT90M"}', 5400),
        ("time limit P1DT12H on 3 nodes", 129600),
        ("max runtime P2D for the ensemble", 172800),
        ("I think a few hours, say 5 hours, on one node", 18000),
        ("roughly a day (let's say 20 hours) on 8 cores", 72000),
        ("**Walltime:** 36:00:00", 129600),
        ("__Run time:__ 12 hours", 43200),
        ("Run time 04:30:00 on 2 nodes", 16200),
    ],
)
def test_run_time_spellings(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


@pytest.mark.parametrize(
    "text",
    [
        "the last job failed 3h30 ago on 2 nodes",  # an age, not a run time
        "sample ID PT4HX on 2 nodes",  # a word that starts like ISO
    ],
)
def test_not_run_times(text: str) -> None:
    assert parse(text).compute.walltime_s is None


# -- deadlines -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("Results are needed by 9 December, 17:00 UTC.", at(9, 17, 0, 0)),
        ("Finished by Dec 11, 08:30 please", at(11, 8, 30, 0)),
        ("we must have it done befor Thursday", at(3, 0, 0, 0)),
        ("needed by the day after tomorrow", at(3)),
        ("results by day after tomorrow, 2 nodes", at(3)),
        ("done by end of next week on 4 nodes", at(11)),
        ("done by the end of the week on 4 nodes", at(4)),
        ("**Deadline:** Friday", at(4)),
        ("**Deadline:** end of day Thursday", at(3)),
        ("Deadline: 2026-12-03T18:00:00Z", at(3, 18, 0, 0)),
    ],
)
def test_deadline_spellings(text: str, when: datetime) -> None:
    assert parse(text).deadline == when


def test_end_of_next_month() -> None:
    assert parse("needed by end of next month").deadline == datetime(
        2027, 1, 31, 23, 59, 59, tzinfo=UTC
    )


# -- urgency ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "urgency"),
    [
        ("priority: urgent\nnodes: 2", Urgency.NOW),
        ("priority=high nodes=4", Urgency.NOW),
        ("priority: low\nnodes: 2", Urgency.NO_RUSH),
        ('app=lammps nodes=2 note="no rush"', Urgency.NO_RUSH),
        ("app=lammps nodes=2 notes=urgent", Urgency.NOW),
        ("Kindly schedule it as early as possible.", Urgency.NOW),
        ("This is time-sensitive: 2 nodes of LAMMPS.", Urgency.NOW),
        ("It is not time-sensitive, 2 nodes of LAMMPS.", Urgency.NO_RUSH),
        ("No deadline; run it when you get a chance.", Urgency.NO_RUSH),
        ("Please start it without delay, 4 nodes.", Urgency.NOW),
    ],
)
def test_urgency_spellings(text: str, urgency: Urgency) -> None:
    assert parse(text).urgency is urgency


@pytest.mark.parametrize(
    "text",
    [
        "We now ask for LAMMPS on 4 nodes for 6 hours.",
        "They now run GROMACS on 2 nodes.",
        "#SBATCH --priority=100\n#SBATCH -N 2",
    ],
)
def test_no_urgency(text: str) -> None:
    assert parse(text).urgency is None


def test_now_at_the_end_is_still_urgent() -> None:
    assert parse("I need 2 nodes of LAMMPS now.").urgency is Urgency.NOW


# -- exclusions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Please do not place it on nodes with GPUs; 16 nodes of ParFlow.", Feature.GPU),
        ("Don't schedule the job on machines that have an accelerator.", Feature.GPU),
        ("never put our jobs onto hosts with GPUs", Feature.GPU),
        ("4000 cores for 14 hours, no interconnect requirements", Feature.LOW_LATENCY),
        ("No network requirements, 200 single-core jobs.", Feature.LOW_LATENCY),
        ("- GPU: n/a\n- nodes: 4", Feature.GPU),
        ("- MPI: not necessary\n- cores: 8", Feature.MPI),
    ],
)
def test_exclusions(text: str, feature: Feature) -> None:
    req = parse(text)
    assert feature in req.excluded


@pytest.mark.parametrize(
    "text",
    [
        "CP2K on 8 nodes, AMD EPYC Genoa CPUs only",
        "run it on Intel Xeon CPUs only",
        "Arm CPUs only, 4 nodes",
    ],
)
def test_cpu_kind_is_no_gpu_exclusion(text: str) -> None:
    req = parse(text)
    assert Feature.GPU not in req.excluded
    assert req.unresolved  # the processor kind is still flagged


@pytest.mark.parametrize("text", ["CP2K on 8 nodes, CPUs only", "4 nodes, cpu-only please"])
def test_plain_cpu_only_still_excludes(text: str) -> None:
    assert Feature.GPU in parse(text).excluded


# -- optional GPUs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We would like 1 GPU. If there is no GPU, CPU is also OK for us.",
        "8 cores; if no GPU is available, run on CPU.",
        "if there are no GPUs free, plain CPUs are fine",
        "### Must\n- 6 nodes\n\n### Nice to have\n- GPU acceleration\n",
        "MUST:\n  * 8 nodes\nNICE TO HAVE:\n  * GPUs to speed up alignment\n",
        "Required: 4 nodes\n\nOptional:\n- 2 A100 GPUs\n",
        "Needs: 2 nodes\nIf available:\n1. an accelerator\n",
    ],
)
def test_optional_gpus(text: str) -> None:
    req = parse(text)
    assert req.compute.gpu_logic is GpuLogic.OR
    assert Feature.GPU not in req.excluded


def test_gpu_count_kept_with_fallback() -> None:
    req = parse("We want 2 GPUs. If there is no GPU, the CPU is fine too.")
    assert req.compute.gpu_logic is GpuLogic.OR
    assert req.compute.gpus_per_node == 2


@pytest.mark.parametrize(
    "text",
    [
        "### Must\n- 2 GPUs\n- 6 nodes\n",  # a must-have GPU stays required
        "Nice to have a quick answer. We need 2 GPUs.",  # not a heading
    ],
)
def test_required_gpus_stay_required(text: str) -> None:
    req = parse(text)
    assert req.compute.gpu_logic is not GpuLogic.OR
    assert 2 in (req.compute.gpus_per_node, req.compute.total_gpus)
