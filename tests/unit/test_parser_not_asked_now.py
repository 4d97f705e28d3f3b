"""Values that are not asked for now: a vendor allowed, a package refused, a licence's size,
the size of one item of work, and a value a later clause says belongs to the past.

Every text here was written for the test.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(r: Requirements) -> set[str]:
    return {s.name for s in r.software}


# -- a vendor allowed is not a vendor required -----------------------------------------------


VENDOR_ALLOWED = [
    "One GPU for two hours please; any vendor, AMD is fine too.",
    "I need 2 GPUs for 6 hours. NVIDIA works as well, we only use OpenCL.",
    "Could I get a GPU for 3 hours? AMD GPUs would be fine too.",
    "need 1 gpu, 30 minutes, intel would also be fine",
    "4 GPUs on one node for a day; AMD cards are also acceptable",
    "One accelerator for 5 hours; AMD is OK as well.",
    "We'd be happy with an AMD one too, just 1 GPU for an hour.",
    "A single GPU for 2 hours; AMD would work too since we build with HIP.",
    "two GPUs for 8 hours, any brand, Intel accelerators are fine as well",
    "1 GPU, 4 hours. AMD's fine too.",
    "Need one GPU overnight; NVIDIA hardware is alright too.",
    "GPU for 1 hour (AMD is no problem either)",
]


@pytest.mark.parametrize(
    ("text", "vendor"),
    [
        ("I need 2 AMD GPUs for 3 hours.", "amd"),
        ("One NVIDIA GPU for 4 hours please, AMD does not work with our code.", "nvidia"),
        ("It has to be an NVIDIA GPU, 1 card for 2 hours.", "nvidia"),
        ("AMD MI250X GPUs, 4 per node, 2 nodes, 12 hours", "amd"),
        ("4 GPUs on one node, any NVIDIA card is fine, 6 hours", "nvidia"),
        ("2 GPUs for a day. Any NVIDIA GPU is ok.", "nvidia"),
    ],
)
def test_a_vendor_asked_for_is_still_read(text: str, vendor: str) -> None:
    r = parse(text)
    assert r.compute.gpu_vendor is not None and r.compute.gpu_vendor.value == vendor, text


def test_a_choice_of_vendors_is_still_no_vendor() -> None:
    assert parse("NVIDIA or AMD is fine too, 1 GPU for 2 hours").compute.gpu_vendor is None


# -- a package they cannot use ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        (
            "We run HiGHS 1.7 on 1 node. Gurobi we cannot use, there is no licence.",
            "gurobi",
            "highs",
        ),
        (
            "A commercial solver like CPLEX we can't use. We use HiGHS 1.7, 1 node.",
            "cplex",
            "highs",
        ),
        (
            "We use HiGHS 1.7; we are not allowed to use Gurobi. 1 node for a day.",
            "gurobi",
            "highs",
        ),
        (
            "Please install OpenFOAM 11. We can't use ANSYS Fluent, 2 nodes.",
            "ansys-fluent",
            "openfoam",
        ),
        ("GROMACS 2024 on 2 nodes. AMBER we cannot use, no licence.", "amber", "gromacs"),
        ("Gurobi is not an option for us, so HiGHS 1.7 on one node.", "gurobi", "highs"),
        ("We need Quantum ESPRESSO 7.3; I may not use VASP, 4 nodes.", "vasp", "quantum-espresso"),
        ("R 4.3 on one node; MATLAB we can not use.", "matlab", "r"),
    ],
)
def test_a_package_they_cannot_use_is_not_asked_for(text: str, gone: str, kept: str) -> None:
    r = parse(text)
    assert gone not in names(r), text
    assert kept in names(r), text


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("We use HiGHS 1.7, we cannot use Gurobi, 1 node", "highs"),
        ("We need LAMMPS; we can't use LAMMPS without the KOKKOS package, 2 nodes", "lammps"),
        ("We can't use GROMACS on our own cluster, so we need it here, 1 node", "gromacs"),
        ("If you have no licence we cannot use ANSYS Fluent, 2 nodes", "ansys-fluent"),
        ("we can't use NAMD until it is built with CUDA, 1 node with 1 GPU", "namd"),
    ],
)
def test_a_package_needed_despite_a_refusal_is_kept(text: str, package: str) -> None:
    assert package in names(parse(text)), text


# -- the size of a licence, however it is spelt ----------------------------------------------


MISSPELT_LICENCES = [
    "abaqus 2024 on 2 nodes with 32 cores each, plus liscence tokens for 64 cores",
    "ansys fluent with a lisense for 32 cores, 1 node 64 cores",
    "STAR-CCM+ on 2 nodes of 48 cores; our lisence covers 96 cores",
    "COMSOL on 1 node with 16 cores, we have a 16-core lisense",
]


# -- one item of work ------------------------------------------------------------------------


ONE_ITEM = [
    "A single subject takes 8 cores, so please give us 10 nodes with 64 cores each.",
    "One image needs 2 cores; we would like 4 nodes with 32 cores each for 5 hours.",
    "one sample uses 4 cores and we have 500 of them; 8 nodes with 48 cores each.",
    "A single genome requires 16 cores. 6 nodes of 64 cores please.",
    "One structure runs on 2 cores, so 3 nodes with 128 cores each would be great.",
    "A lone scenario takes 1 core; we need 2 nodes with 96 cores each for a day.",
    "One single patient needs 6 cores; give us 5 nodes with 36 cores each.",
]


def test_one_item_said_to_be_the_whole_job_still_counts() -> None:
    r = parse("We need one node with 32 cores for 4 hours.")
    assert r.compute.cores_per_node == 32


# -- a clause that says the one before it is history ------------------------------------------


@pytest.mark.parametrize(
    ("text", "model"),
    [
        (
            "Eight V100s, but that was with the old model. Now I'd like 4 H100 GPUs for 2 days.",
            "H100",
        ),
        ("We had 4 A100 GPUs, but that was last year. Please give us 8 H100 GPUs.", "H100"),
        (
            "2 nodes with P100 GPUs, though that was in the previous project; we need 4 L40S GPUs.",
            "L40S",
        ),
    ],
)
def test_a_value_pointed_back_at_as_history_is_not_asked_for(text: str, model: str) -> None:
    assert parse(text).compute.gpu_model == model, text


def test_a_value_said_only_in_a_past_clause_is_kept() -> None:
    r = parse("Eight V100s, but that was with the old model. We need 2 nodes for 3 days.")
    assert r.compute.gpu_model == "V100"


# -- the length of the data is not the run time -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "walltime"),
    [
        (
            "We must image LOFAR observations (8 hours, 2019 cycle) on 6 nodes. It takes 2 days.",
            172800,
        ),
        (
            "We must denoise audio recordings of about 40 hours; the job needs 1 GPU for 6 hours.",
            21600,
        ),
        ("I need to track video footage of 30 hours. The run takes about 5 hours on 1 GPU.", 18000),
        (
            "We want to reduce radar measurements (72 hours) on 2 nodes, for roughly 10 hours.",
            36000,
        ),
        ("We need to fit a time series of 48 hours per station; 1 node for 3 hours please.", 10800),
        (
            "Please process the observing sessions (12 hours each) on 4 nodes, the run is 1 day.",
            86400,
        ),
    ],
)
def test_the_length_of_the_data_is_not_the_walltime(text: str, walltime: int) -> None:
    assert parse(text).compute.walltime_s == walltime, text


def test_the_length_of_the_data_is_kept_when_nothing_else_gives_a_time() -> None:
    assert parse("We need to image LOFAR observations (8 hours) on 6 nodes.").compute.walltime_s


def test_a_plain_duration_is_still_the_walltime() -> None:
    assert parse("We need 4 nodes for 12 hours of data processing.").compute.walltime_s == 43200


# -- a CPU generation is no count -------------------------------------------------------------


CPU_GENERATIONS = [
    "one 192-core node on Zen 4 CPUs, 6 hours",
    "2 nodes with Graviton3 processors, 64 cores each",
    "2 nodes of 64 cores each on AMD Zen-5 chips, 2 hours",
    "32 cores per node on Zen 3 processors, 4 nodes",
]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        *((t, "gpu_vendor") for t in VENDOR_ALLOWED),
        *((t, "total_cores") for t in MISSPELT_LICENCES + ONE_ITEM + CPU_GENERATIONS),
    ],
)
def test_a_value_not_asked_for_now_is_not_read(text: str, field: str) -> None:
    """A vendor allowed, a licence's size, one item's cores and a CPU generation's number."""
    assert getattr(parse(text).compute, field) is None, text


@pytest.mark.parametrize("text", MISSPELT_LICENCES + CPU_GENERATIONS)
def test_what_no_field_holds_is_quoted(text: str) -> None:
    words = ("licen", "lisen", "liscen", "zen", "graviton")
    assert any(w in u.lower() for u in parse(text).unresolved for w in words), text


@pytest.mark.parametrize("text", ONE_ITEM)
def test_the_node_size_beside_one_item_is_read(text: str) -> None:
    assert parse(text).compute.cores_per_node is not None, text
