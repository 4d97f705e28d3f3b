"""Failure classes of the request parser, each in many wordings written for these tests.

A class is a way of writing a requirement that the grammar missed (a size named apart from
its filesystem, cores attached to a node phrase across a comma, ...). The sentences here are
not taken from the labelled corpus, so passing them says the grammar covers the phenomenon,
not that it memorised an example.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def storage(req: Requirements) -> list[tuple[str, float | None]]:
    return [(s.kind.value, s.min_free_gb) for s in req.storage]


# -- storage: the size and the filesystem in different clauses -------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Our checkpoints total roughly 7 TB and they must live on Lustre.", [("lustre", 7000.0)]),
        ("The mesh files, around 900 GB, go to BeeGFS.", [("beegfs", 900.0)]),
        ("GPFS please, 15 TB.", [("gpfs", 15000.0)]),
        ("results are ~250 GB so an NFS export will do", [("nfs", 250.0)]),
        ("We will write 3.5 TB of snapshots, hence a parallel filesystem", [("parallel", 3500.0)]),
        ("the raw reads take up 20TB; keep them on GPFS with that much free", [("gpfs", 20000.0)]),
        ("we need 800 GB on an NFS mount", [("nfs", 800.0)]),
        ("# write output to BeeGFS, about 2 TB", [("beegfs", 2000.0)]),
    ],
)
def test_a_size_in_the_same_sentence_as_a_filesystem_is_its_size(
    text: str, expected: list[tuple[str, float | None]]
) -> None:
    assert storage(parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # two sizes with one filesystem: which one is meant is not clear, so neither is taken
        ("Inputs are 2 TB and outputs 5 TB, all on Lustre.", [("lustre", None)]),
        # the size is in another sentence
        ("The dataset is 4 TB. We also like GPFS.", [("gpfs", None)]),
        # a clause after a semicolon is another statement
        ("4 TB of inputs arrive by mail; results go to BeeGFS", [("beegfs", None)]),
    ],
)
def test_an_unclear_size_is_not_attached(
    text: str, expected: list[tuple[str, float | None]]
) -> None:
    req = parse(text)
    assert storage(req) == expected


def test_a_sentence_that_sized_its_storage_gives_no_size_to_a_second_kind() -> None:
    req = parse("We write 1 TB of logs, so scratch on Lustre with at least 9 TB free.")
    assert storage(req) == [("lustre", 9000.0)]


def test_node_memory_is_never_taken_as_storage() -> None:
    req = parse("2 nodes with 256 GB of RAM each and Lustre for the output.")
    assert storage(req) == [("lustre", None)]
    assert req.compute.memory_gb_per_node == 256.0


@pytest.mark.parametrize(
    "text",
    [
        "The image archive weighs 30 TB. The site needs GPFS with at least that much free.",
        "Our outputs come to 30 TB; we need that much free on GPFS.",
    ],
)
def test_that_much_points_back_one_sentence(text: str) -> None:
    assert storage(parse(text)) == [("gpfs", 30000.0)]


# -- cores: one task of many, one node named after the count ---------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "we have 3000 parameter points and each point is 2 cores",
        "every sample needs 4 cores, nothing more",
        "each replica uses 6 cores",
        "thousands of independent single-core jobs",
        "about 900 serial 1-core tasks",
        "the sweep is made of 2-core runs",
        "6 cores per sample is enough",
        "it runs 16 cores for each member of the ensemble",
    ],
)
def test_a_core_count_for_one_task_is_never_the_job_total(text: str) -> None:
    req = parse(text)
    assert req.compute.total_cores is None
    assert req.compute.cores_per_node is None
    assert req.unresolved, "a per-task size is requirement-like: it must block READY"


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("each sample is 1 core, so 64 cores in total is what we ask", 64),
        ("every scenario takes one core; altogether 120 cores please", 120),
    ],
)
def test_the_job_total_wins_over_the_size_of_one_task(text: str, total: int) -> None:
    assert parse(text).compute.total_cores == total


def test_memory_in_a_per_task_clause_is_not_node_memory() -> None:
    req = parse("each chunk is 1 core and 3 GB of RAM")
    assert req.compute.memory_gb_per_node is None
    assert req.compute.total_cores is None
    assert req.unresolved


@pytest.mark.parametrize(
    ("text", "cores"),
    [
        ("I would take 24 cores on a single node", 24),
        ("we use all 96 cores of that node", 96),
        ("16 cores on one machine please", 16),
        ("40 cores in one big node", 40),
        ("Our model wants 56 cores, on a single node.", 56),
    ],
)
def test_cores_on_one_named_node_are_per_node(text: str, cores: int) -> None:
    compute = parse(text).compute
    assert compute.cores_per_node == cores
    assert compute.total_cores is None


def test_cores_on_several_nodes_stay_a_total() -> None:
    compute = parse("256 cores on 4 nodes").compute
    assert (compute.total_cores, compute.nodes, compute.cores_per_node) == (256, 4, None)


@pytest.mark.parametrize(
    "text",
    [
        "8 nodes, each of them 36 cores",
        "8 nodes, each one 36 cores",
        "8 nodes and each of those with 36 cores",
        "8 nodes x 36 cores",
    ],
)
def test_each_of_them_after_a_node_count_sizes_each_node(text: str) -> None:
    compute = parse(text).compute
    assert (compute.nodes, compute.cores_per_node, compute.total_cores) == (8, 36, None)


@pytest.mark.parametrize(
    "text",
    [
        "4 nodes, each one with 256 GB of RAM",
        "each node has 256 GB of RAM",
        "each run is one node with 256 GB of memory",
        "4 nodes, each with 2 GPUs and 256 GB RAM",
    ],
)
def test_memory_of_each_node_is_still_per_node(text: str) -> None:
    assert parse(text).compute.memory_gb_per_node == 256.0


# -- GPUs: counts written apart from the noun, CPUs as a fallback, vendors as a choice ------


@pytest.mark.parametrize(
    ("text", "gpus", "model"),
    [
        ("looking for H100 GPUs, 8 per node, on 2 nodes", 8, "H100"),
        ("A100s: 4 each, three nodes", 4, "A100"),
        ("we'd like L40S cards, 2 per server", 2, "L40S"),
        ("GPUs (4 per node) and InfiniBand", 4, None),
    ],
)
def test_a_gpu_count_after_the_gpu_phrase(text: str, gpus: int, model: str | None) -> None:
    compute = parse(text).compute
    assert compute.gpus_per_node == gpus
    assert compute.gpu_model == model


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("Which sites have AMD GPUs? I would need 4 of them on one node.", 4),
        ("our lab wants to try MI300X accelerators - two of those would do", 2),
    ],
)
def test_n_of_them_counts_the_gpus_named_before(text: str, gpus: int) -> None:
    assert parse(text).compute.gpus_per_node == gpus


def test_n_of_them_after_nodes_is_not_a_gpu_count() -> None:
    compute = parse("you have big nodes, I need 3 of them").compute
    assert compute.gpus_per_node is None
    assert compute.total_gpus is None


@pytest.mark.parametrize(
    "text",
    [
        "training is quicker on a GPU, but it also works on CPUs as well",
        "any GPU is welcome; CPU nodes would do too",
        "it uses the GPU when present and falls back to CPU",
        "an NVIDIA card speeds it up, though plain CPUs are fine too",
        "the code prefers GPUs, CPUs are okay as well",
        "runs on CPU or, if you have them, on 4 GPUs per node",
    ],
)
def test_cpus_as_a_fallback_make_gpus_optional(text: str) -> None:
    req = parse(text)
    assert req.compute.gpu_logic.value == "or"


def test_a_cpu_fallback_without_any_gpu_changes_nothing() -> None:
    compute = parse("works on CPUs too, 16 cores").compute
    assert compute.gpu_logic.value == "and"
    assert compute.gpus_per_node is None


@pytest.mark.parametrize(
    "text",
    [
        "NVIDIA or AMD GPUs are both fine",
        "either AMD or NVIDIA hardware, 2 GPUs",
        "one GPU, Intel / AMD / NVIDIA all work",
    ],
)
def test_two_vendors_offered_require_neither(text: str) -> None:
    compute = parse(text).compute
    assert compute.gpu_vendor is None
    assert (compute.gpus_per_node or 0) >= 1


@pytest.mark.parametrize(
    "text", ["no need GPU", "8 cores, no need gpus at all", "No need MPI for this"]
)
def test_no_need_without_for_is_a_negation(text: str) -> None:
    req = parse(text)
    assert req.excluded
    assert req.compute.gpus_per_node in (None, 0)
    assert req.mpi is None


# -- software: English words and capitalised names as packages ------------------------------


def versions(req: Requirements, name: str) -> list[str]:
    found = [s for s in req.software if s.name == name]
    assert found, (name, [s.name for s in req.software])
    return [str(c) for c in found[0].constraints]


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("We would run Bison 3 on two nodes.", "bison", "==3"),
        ("Is there a site with Falcon 2.4 installed?", "falcon", "==2.4"),
        ("our renders need Houdini 20 for a day", "houdini", "==20"),
        ("please provide Mosaic 2024 and 8 cores", "mosaic", "==2024"),
        ("the post-processing uses Paraview and Lighthouse 7.", "lighthouse", "==7"),
    ],
)
def test_a_capitalised_word_with_a_release_number_is_a_package(
    text: str, name: str, version: str
) -> None:
    assert versions(parse(text), name) == [version]


@pytest.mark.parametrize(
    "text",
    [
        "Step 2 needs 4 nodes",
        "In Phase 3 we need 64 cores",
        "see Section 4.2 of the proposal, 2 nodes",
        "Sentinel-2 scenes on 4 nodes",  # a satellite, not a release
        "it must run on Windows Server 2019",
        "Data 2019-2023 on 4 nodes",
    ],
)
def test_counted_nouns_and_proper_nouns_are_not_packages(text: str) -> None:
    names = [s.name for s in parse(text).software]
    assert not {"step", "phase", "section", "sentinel", "server", "data"} & set(names)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("we link against the Tangle library for the solver", "tangle"),
        ("our Walrus package must be available, 2 nodes", "walrus"),
        ("Pilgrim sweep over 300 parameter points", None),
        ("Zentrix sweep over 300 parameter points", "zentrix"),
    ],
)
def test_a_capitalised_name_in_a_name_position(text: str, name: str | None) -> None:
    names = [s.name for s in parse(text).software]
    if name is None:
        assert "pilgrim" not in names  # an English word stays unresolved
    else:
        assert name in names


def test_bullets_under_a_software_key_are_a_list_of_packages() -> None:
    req = parse("software:\n  - keras-cv 0.9\n  - zarrita\n  - lmfit\nwalltime: 3h")
    assert {"keras-cv", "zarrita", "lmfit"} <= {s.name for s in req.software}


@pytest.mark.parametrize(
    "text",
    [
        "the time-budget library is tight",
        "our cross-validation package runs fine",
        "using the long-range code on 4 nodes",
    ],
)
def test_a_hyphenated_english_compound_is_not_a_package_from_context(text: str) -> None:
    req = parse(text)
    names = {s.name for s in req.software}
    assert not names & {"time-budget", "cross-validation", "long-range"}


# -- urgency: "now" that means "currently", negated urgency, misspellings, precedence -------


def urgency(text: str) -> str | None:
    found = parse(text).urgency
    return found.value if found else None


@pytest.mark.parametrize(
    "text",
    [
        "the code now supports HIP as well, 2 GPUs",
        "right now the pipeline takes 5 hours on 8 cores",
        "we now use 64 cores for this",
        "it can process 40 files at once on 16 cores",
        "for now a single node is enough",
    ],
)
def test_now_meaning_currently_is_no_urgency(text: str) -> None:
    req = parse(text)
    assert req.urgency is None
    assert "now" not in req.unresolved and "once" not in req.unresolved


@pytest.mark.parametrize(
    "text",
    [
        "is anything free right now?",
        "I need it now.",
        "please start at once",
        "can it begin at once, 4 nodes",
    ],
)
def test_now_ending_the_thought_is_urgent(text: str) -> None:
    assert urgency(text) == "now"


@pytest.mark.parametrize(
    "text",
    [
        "a long study, nothing urgent",
        "it isn't urgent, 4 nodes",
        "this is a background project rather than anything urgent",
        "not that urgent honestly",
        "no need to hurry with this one",
    ],
)
def test_negated_urgency_is_no_rush(text: str) -> None:
    assert urgency(text) == "no_rush"


@pytest.mark.parametrize(
    "text", ["urgnet, the review is tomorrow", "very urgetn pls", "needed imediately"]
)
def test_a_misspelt_urgent(text: str) -> None:
    assert urgency(text) == "now"


@pytest.mark.parametrize(
    "text",
    [
        "we must rerun today's batch; it is urgent",
        "results this afternoon would be great - actually it's urgent",
        "Urgent: today's forecast cycle",
    ],
)
def test_urgent_outranks_a_time_of_day(text: str) -> None:
    assert urgency(text) == "now"


def test_tonight_spelt_informally_is_soon() -> None:
    assert urgency("can I get 16 cores tonite?") == "soon"


# -- deadlines: dates with weekdays, bare ordinals, holidays, misspelt "deadline" ----------


def deadline(text: str) -> str | None:
    found = parse(text).deadline
    return found.isoformat() if found else None


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("results needed by Thursday 10 December", "2026-12-10T23:59:59+00:00"),
        ("please finish before Monday, 14 December", "2026-12-14T00:00:00+00:00"),
        ("due by Wednesday the 9th", "2026-12-09T23:59:59+00:00"),
        ("we must be done by the 20th", "2026-12-20T23:59:59+00:00"),
        ("ideally before the 4th", "2026-12-04T00:00:00+00:00"),
        ("it has to be finished by the 1st", "2026-12-01T23:59:59+00:00"),  # today
        ("the paper needs the numbers before Christmas", "2026-12-25T00:00:00+00:00"),
        ("done by Christmas Eve please", "2026-12-24T23:59:59+00:00"),
        ("results by New Year", "2027-01-01T23:59:59+00:00"),
    ],
)
def test_dates_with_weekdays_ordinals_and_holidays(text: str, when: str) -> None:
    assert deadline(text) == when


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("dedline: Friday", "2026-12-04T23:59:59+00:00"),
        ("deadlne: tomorrow 9am", "2026-12-02T09:00:00+00:00"),
    ],
)
def test_a_misspelt_deadline_label(text: str, when: str) -> None:
    assert deadline(text) == when


@pytest.mark.parametrize("text", ["I need it within the hour", "can this finish in the next hour?"])
def test_the_next_hour_is_a_deadline_not_a_walltime(text: str) -> None:
    req = parse(text)
    assert req.deadline is not None and req.deadline.isoformat() == "2026-12-01T10:00:00+00:00"
    assert req.compute.walltime_s is None


def test_an_ordinal_that_is_no_date_is_no_deadline() -> None:
    assert deadline("this is our 3rd attempt on 4 nodes") is None


def test_a_day_of_the_month_already_past_is_next_month() -> None:
    later = datetime(2026, 12, 20, 9, 0, tzinfo=UTC)
    req = parse_requirements("we need it by the 5th", now=later)
    assert req.deadline is not None and req.deadline.isoformat() == "2027-01-05T23:59:59+00:00"


# -- key=value: key spellings, units in capitals, a unit never swallows the next key --------


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("threads=12", "total_cores", 12),
        ("n_threads: 6", "total_cores", 6),
        ("workers: 40", "total_cores", 40),
        ("num_workers = 10", "total_cores", 10),
        ("hrs: 7", "walltime_s", 25200),
        ("walltime_hrs=2", "walltime_s", 7200),
        ("mins: 45", "walltime_s", 2700),
        ("ram_per_host: 256GB", "memory_gb_per_node", 256.0),
        ("mem_per_machine = 96 GB", "memory_gb_per_node", 96.0),
        ("memory = 48 GB", "memory_gb_per_node", 48.0),
        ("walltime = 5 Hours", "walltime_s", 18000),
    ],
)
def test_key_spellings(text: str, field: str, value: float) -> None:
    assert getattr(parse(text).compute, field) == value


def test_mpi_ranks_as_a_key_ask_for_an_mpi() -> None:
    req = parse("mpi_ranks: 96")
    assert req.compute.total_cores == 96
    assert req.mpi is not None


def test_a_unit_never_swallows_the_next_key() -> None:
    compute = parse("mem=256G hours=4 gpus=2").compute
    assert (compute.memory_gb_per_node, compute.walltime_s, compute.gpus_per_node) == (
        256.0,
        14400,
        2,
    )


# -- versions across a comma, amounts with loose wording --------------------------------------


@pytest.mark.parametrize(
    ("text", "implementation", "constraint"),
    [
        ("MPI-wise we rely on MPICH, 4.1 or newer", "mpich", ">=4.1"),
        ("we use Intel MPI, anything 2021.6 or later", "intel-mpi", ">=2021.6"),
        ("Open MPI, 5.0+ please", "openmpi", ">=5.0"),
    ],
)
def test_an_mpi_version_after_a_comma_with_an_operator(
    text: str, implementation: str, constraint: str
) -> None:
    mpi = parse(text).mpi
    assert mpi is not None and mpi.implementation == implementation
    assert [str(c) for c in mpi.constraints] == [constraint]


def test_a_package_version_after_a_comma_with_an_operator() -> None:
    assert versions(parse("we need julia, 1.10 or later"), "julia") == [">=1.10"]


def test_a_comma_without_an_operator_does_not_join_a_count() -> None:
    req = parse("lammps, 4 nodes")
    assert versions(req, "lammps") == []
    assert req.compute.nodes == 4


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("it is memory hungry: memory, about 700 GB in total", "memory_gb_total", 700.0),
        ("Memory-wise, 90 GB should do", "memory_gb_per_node", 90.0),
        ("RAM-wise, 48 GB", "memory_gb_per_node", 48.0),
        ("could I get 24GB and 2 cores?", "memory_gb_per_node", 24.0),
        ("Memmory 128GB, 4 nodes", "memory_gb_per_node", 128.0),
        ("memroy: 32 GB", "memory_gb_per_node", 32.0),
        ("Storage aside; cores 12, GPUs 0", "total_cores", 12),
        ("about 6ish hours", "walltime_s", 21600),
        ("10-ish hours on 2 nodes", "walltime_s", 36000),
    ],
)
def test_amounts_in_loose_wording(text: str, field: str, value: float) -> None:
    assert getattr(parse(text).compute, field) == value


def test_a_size_before_a_walltime_is_not_memory() -> None:
    req = parse("64 GB and 2 hours")
    assert req.compute.memory_gb_per_node is None
    assert "64 GB" in req.unresolved


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ('{"max_runtime_hours": 5}', "walltime_s", 18000),
        ("job_time_minutes: 90", "walltime_s", 5400),
        ("total_ram = 2 TB", "memory_gb_total", 2000.0),
    ],
)
def test_keys_that_name_their_unit(text: str, field: str, value: float) -> None:
    assert getattr(parse(text).compute, field) == value


def test_a_spending_cap_key_is_a_budget() -> None:
    assert parse('{"spend_limit_usd": 75}').budget_usd == 75.0


# -- names ending in -GPU, multipliers after the unit ----------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("we need VinaXB-GPU 2.1 for docking, one GPU", "vinaxb-gpu"),
        ("install qsimcirq-gpu please, 2 GPUs", "qsimcirq-gpu"),
        ("the thundersvm-gpu build on an A100", "thundersvm-gpu"),
    ],
)
def test_a_package_whose_name_ends_in_gpu_keeps_it(text: str, name: str) -> None:
    names = [s.name for s in parse(text).software]
    assert name in names
    assert name.removesuffix("-gpu") not in names


@pytest.mark.parametrize(
    "text", ["a multi-GPU run on 2 nodes", "a single-GPU job", "an NVIDIA-GPU node", "A100-GPU"]
)
def test_adjectives_before_gpu_are_not_package_names(text: str) -> None:
    assert not any("gpu" in s.name for s in parse(text).software)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("accelerators: nvidia x4", "gpus_per_node", 4),
        ("L40S x 2 for a day", "gpus_per_node", 2),
        ("compute nodes x3, 64 cores each", "nodes", 3),
        ("2 nodes, GPUs x8 each", "gpus_per_node", 8),
    ],
)
def test_a_multiplier_after_the_unit(text: str, field: str, value: int) -> None:
    assert getattr(parse(text).compute, field) == value


# -- alternatives: integer versions, a bracket or a comment before "or" ----------------------


def choices(req: Requirements) -> list[str]:
    return [str(a) for a in req.alternatives]


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("gcc 13 or 14 is fine", "gcc ==13 or gcc ==14"),
        ("we can use CUDA 11 or 12", "cuda ==11 or cuda ==12"),
        ("Julia 1.9 or 1.10 for the analysis", "julia ==1.9 or julia ==1.10"),
    ],
)
def test_integer_versions_joined_by_or(text: str, group: str) -> None:
    assert choices(parse(text)) == [group]


@pytest.mark.parametrize("text", ["lammps on 2 or 4 nodes", "cuda 12, 2 or 4 GPUs"])
def test_counts_joined_by_or_are_not_versions(text: str) -> None:
    assert choices(parse(text)) == []


@pytest.mark.parametrize(
    "text",
    [
        "tool: gmsh   # or netgen-mesher, either works",
        "gromacs (any recent build) or netgen-mesher",
    ],
)
def test_or_after_a_comment_mark_or_a_bracket(text: str) -> None:
    req = parse(text)
    assert len(req.alternatives) == 1
    assert {s.name for s in req.alternatives[0].any_of} >= {"netgen-mesher"}


@pytest.mark.parametrize(
    "text",
    [
        "either OpenFOAM v2406 (ESI) or OpenFOAM 12 (Foundation) is fine",
        "GROMACS 2023.3 or GROMACS 2024.1",
    ],
)
def test_one_package_named_twice_with_or_is_a_choice_of_versions(text: str) -> None:
    req = parse(text)
    assert len(req.alternatives) == 1
    assert len(req.alternatives[0].any_of) == 2
    assert not req.software  # never two exact versions required at once


# -- run time beside a package, restated versions, lists and negations -----------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("I have 4h of Blender rendering left", 14400),
        ("roughly 2 hours of GROMACS per replica", 7200),
        ("we got 6 hours of OpenFOAM post-processing", 21600),
        ("about 5 hourss on one node", 18000),
        ("40 minuts of numpy", 2400),
    ],
)
def test_run_time_written_before_a_package_or_misspelt(text: str, seconds: int) -> None:
    req = parse(text)
    assert req.compute.walltime_s == seconds
    assert all(not c.version.endswith(("h", "hours")) for s in req.software for c in s.constraints)


def test_hours_of_data_are_still_not_run_time() -> None:
    assert parse("600 hours of audio recordings").compute.walltime_s is None


def test_got_minutes_as_small_talk_is_not_run_time() -> None:
    assert parse("got 10 minutes?").compute.walltime_s is None


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("OpenMM 8.1, i.e. module openmm/8.1.2", "==8.1.2"),
        ("Python 3.11 (python/3.11.9 on our side)", "==3.11.9"),
    ],
)
def test_a_version_restated_more_precisely_is_one_version(text: str, version: str) -> None:
    req = parse(text)
    name = req.software[0].name
    assert versions(req, name) == [version]


def test_two_different_exact_versions_are_both_kept() -> None:
    assert versions(parse("gcc 12 here, and gcc 13.2 there"), "gcc") == ["==12", "==13.2"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("WRF and the WRFDA4 data assimilation system", "wrfda4"),
        ("GROMACS plus the qmmmtool3 plugin", "qmmmtool3"),
        ("Blender and MetaRig 2", "metarig"),
    ],
)
def test_a_listed_package_after_and_the(text: str, name: str) -> None:
    assert name in {s.name for s in parse(text).software}


def test_an_english_word_after_and_the_is_no_package() -> None:
    names = {s.name for s in parse("Vitis 2023.2 and the card, 2 nodes").software}
    assert "card" not in names


@pytest.mark.parametrize(
    "text",
    [
        "I don't need MPI and not the container either",
        "no GPU and no container",
        "we need no MPI, nor a container",
    ],
)
def test_a_second_negated_feature(text: str) -> None:
    req = parse(text)
    assert {f.value for f in req.excluded} >= {"container"}
    assert req.container is None


# -- network: fabric alternatives, generation speeds, keys; scheduler properties -------------


@pytest.mark.parametrize(
    ("text", "low_latency"),
    [
        ("either Omni-Path or InfiniBand works for us", True),
        ("IB/Slingshot, we do not mind which", True),
        ("InfiniBand or Ethernet, whatever is free", False),
    ],
)
def test_fabrics_offered_as_alternatives_require_none(text: str, low_latency: bool) -> None:
    network = parse(text).network
    assert network is None or network.fabric is None
    assert (network is not None and network.low_latency) is low_latency


@pytest.mark.parametrize(
    ("text", "gbps"),
    [('{"link": "InfiniBand HDR 200"}', 200.0), ("fabric: IB NDR 400 please", 400.0)],
)
def test_a_speed_after_the_infiniband_generation(text: str, gbps: float) -> None:
    req = parse(text)
    assert req.network is not None and req.network.min_speed_gbps == gbps
    assert not req.unresolved


@pytest.mark.parametrize(
    "text", ['network = "not needed"', "interconnect: none", '{"fabric": "no"}']
)
def test_a_network_key_saying_no(text: str) -> None:
    req = parse(text)
    assert [f.value for f in req.excluded] == ["low_latency"]
    assert req.network is None


def test_torque_ib_property_is_infiniband() -> None:
    req = parse("qsub -l nodes=2:ppn=16:ib -l walltime=1:00:00 run.pbs")
    assert req.network is not None and req.network.fabric is not None
    assert req.network.fabric.value == "infiniband"
    assert (req.compute.nodes, req.compute.cores_per_node) == (2, 16)


@pytest.mark.parametrize("text", ["ranks: 64", "nranks = 64", "mpi_tasks: 64"])
def test_rank_keys_ask_for_an_mpi(text: str) -> None:
    req = parse(text)
    assert req.compute.total_cores == 64
    assert req.mpi is not None


def test_tasks_alone_ask_for_no_mpi() -> None:
    req = parse("tasks: 64")
    assert req.compute.total_cores == 64
    assert req.mpi is None


@pytest.mark.parametrize("text", ["memory 3 GB each core", "3 GB of RAM each core"])
def test_memory_each_core_is_per_core(text: str) -> None:
    assert parse(text).compute.memory_gb_per_node is None
    assert parse(text + ", 2 nodes x 10 cores").compute.memory_gb_per_node == 30.0


# -- hyphenated words built like English phrases are not package names ---------------------


@pytest.mark.parametrize(
    "word",
    [
        "GDPR-compliant",
        "storage-wise",
        "NUMA-aware",
        "latency-bound",
        "city-to-street",
        "state-of-practice",
        "on-site",
        "post-proc",
        "pre-alloc",
    ],
)
def test_a_phrase_compound_is_not_a_package(word: str) -> None:
    req = parse(f"we need a {word} setup on 2 nodes")
    assert word.lower() not in {s.name for s in req.software}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("please install py-spy on 2 nodes", "py-spy"),
        ("run hpl-ai on 8 nodes", "hpl-ai"),
        ("we use scikit-image and nccl-tests", "scikit-image"),
        ("kick off osu-micro-benchmarks on two nodes", "osu-micro-benchmarks"),
    ],
)
def test_real_hyphenated_names_are_still_packages(text: str, name: str) -> None:
    assert name in {s.name for s in parse(text).software}


# -- scheduler flags: cpus per task alone, LSF -nnodes ---------------------------------------


@pytest.mark.parametrize(
    "text",
    ["sbatch -c 12 -t 2:00:00 job.sh", "#SBATCH --cpus-per-task=6\n#SBATCH --time=01:00:00"],
)
def test_cpus_per_task_alone_sizes_one_task(text: str) -> None:
    req = parse(text)
    assert req.compute.cores_per_node is None and req.compute.total_cores is None
    assert req.unresolved  # requirement-like: blocks READY rather than being dropped


def test_cpus_per_task_with_tasks_per_node_is_cores_per_node() -> None:
    compute = parse("sbatch -N 3 --ntasks-per-node=2 --cpus-per-task=8 job.sh").compute
    assert (compute.nodes, compute.cores_per_node) == (3, 16)


def test_lsf_nnodes() -> None:
    assert parse("#BSUB -nnodes 12\n#BSUB -W 30").compute.nodes == 12


# -- versions stated later in the sentence, after "but", and release names -----------------


@pytest.mark.parametrize(
    ("text", "name", "constraints"),
    [
        ("the NWChem version must be 7.2.2 exactly", "nwchem", ["==7.2.2"]),
        ("HDF5 version has to be between 1.12 and 1.14", "hdf5", [">=1.12", "<=1.14"]),
        ("our petsc version should be 3.21", "petsc", ["==3.21"]),
        ("numpy 1.26 or newer, but not 2.0", "numpy", [">=1.26", "!=2.0"]),
        ("module load matlab/R2022a", "matlab", ["==R2022a"]),
        ("MATLAB R2024b on one node", "matlab", ["==R2024b"]),
    ],
)
def test_versions_in_more_wordings(text: str, name: str, constraints: list[str]) -> None:
    assert versions(parse(text), name) == constraints


@pytest.mark.parametrize(
    "text",
    [
        "we run Intel MPI today, but any MPI implementation would be fine",
        "MVAPICH preferred; any other MPI will do though",
        "Open MPI 5 is what we built with, any recent MPI library should work",
    ],
)
def test_any_mpi_accepted_overrides_the_one_they_use(text: str) -> None:
    mpi = parse(text).mpi
    assert mpi is not None
    assert mpi.implementation is None and not mpi.constraints


def test_a_named_mpi_alone_is_still_required() -> None:
    mpi = parse("needs Intel MPI 2021.10").mpi
    assert mpi is not None and mpi.implementation == "intel-mpi"


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("Last time it took 10 hours, so please plan for 14 hours.", 50400),
        ("The run needs about 2 hours but please request 3 hours to be safe", 10800),
        ("it ran for 5 hours last week; book 6 hours", 21600),
    ],
)
def test_the_run_time_asked_for_beats_the_one_described(text: str, seconds: int) -> None:
    assert parse(text).compute.walltime_s == seconds


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("anyone have free L40S cards? need 2 for an afternoon", 2),
        ("MI300X available anywhere? we'd want 8, for a day", 8),
    ],
)
def test_need_n_after_a_gpu_question_counts_gpus(text: str, gpus: int) -> None:
    compute = parse(text).compute
    assert compute.gpus_per_node == gpus


def test_need_n_after_nodes_is_not_a_gpu_count() -> None:
    compute = parse("you have big nodes; I need 3 for a day").compute
    assert compute.gpus_per_node is None and compute.total_gpus is None


@pytest.mark.parametrize(
    "text",
    [
        "we don't need Omni-Path or any other fast interconnect",
        "no InfiniBand nor other high speed network needed",
        "we do not need RDMA or some other low latency fabric",
    ],
)
def test_or_other_keeps_the_negation(text: str) -> None:
    req = parse(text)
    assert [f.value for f in req.excluded] == ["low_latency"]
    assert req.network is None or not req.network.low_latency


@pytest.mark.parametrize(
    ("text", "name", "variant"),
    [
        ("HDF5 has to be built with MPI support", "hdf5", "+mpi"),
        ("PETSc must be compiled with HYPRE", "petsc", "+hypre"),
        ("LAMMPS 2Aug2023 patched with PLUMED", "lammps", "+plumed"),
        ("CP2K 2024.1, ELPA enabled", "cp2k", "+elpa"),
        ("GROMACS 2024, CUDA build", "gromacs", "+cuda"),
    ],
)
def test_variants_in_more_wordings(text: str, name: str, variant: str) -> None:
    found = [s for s in parse(text).software if s.name == name]
    assert found and variant in found[0].variants


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("uses_cupy: true", "cupy"),
        ("needs-netcdf = yes", "netcdf"),
        ("requires_zarr: y", "zarr"),
    ],
)
def test_a_boolean_key_naming_a_package(text: str, name: str) -> None:
    assert name in {s.name for s in parse(text).software}


def test_a_boolean_key_saying_no_names_nothing() -> None:
    req = parse("uses_zarr: false")
    assert not req.software and not req.unresolved


@pytest.mark.parametrize(
    ("text", "gpus", "excluded"),
    [("use_gpu: false", 0, ["gpu"]), ("needs_gpu: yes", 1, []), ("with_gpus = no", 0, ["gpu"])],
)
def test_boolean_gpu_keys(text: str, gpus: int, excluded: list[str]) -> None:
    req = parse(text)
    assert (req.compute.gpus_per_node or 0) == gpus
    assert [f.value for f in req.excluded] == excluded


def test_a_boolean_mpi_key_asks_for_an_mpi() -> None:
    assert parse("with_mpi: true").mpi is not None
