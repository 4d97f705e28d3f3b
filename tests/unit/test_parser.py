"""The deterministic request parser: examples for every feature, and properties for any text.

Example tests compare the whole parsed result (minus ``source_text``), so a stray word in
``unparsed`` or an unexpected field fails the test as surely as a missing one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from endpoint_plugins.parsing import extract_command, lexicon, parse_requirements, split_command
from endpoint_plugins.parsing.parser import MAX_INPUT_CHARS, PARSER_ERROR
from providers.wire import Requirements

NOW = datetime(2026, 6, 3, 10, 0, tzinfo=UTC)
"""A Wednesday morning: every relative date below is counted from here."""


def summary(text: str) -> dict[str, Any]:
    """The parse as plain JSON data, defaults and the echoed text left out."""
    parsed = parse_requirements(text, now=NOW)
    return parsed.model_dump(
        mode="json", exclude_defaults=True, exclude={"source_text", "requested_at"}
    )


def sw(name: str, *constraints: tuple[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name}
    if constraints:
        entry["constraints"] = [{"op": op, "version": v} for op, v in constraints]
    return entry


def software(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"software": list(entries)}


# -- whole requests -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I need python >= 3.8 on 1 node",
            {**software(sw("python", (">=", "3.8"))), "compute": {"nodes": 1}},
        ),
        # A sentence may end right after the operator word.
        ("I need python 3.10 or newer.", software(sw("python", (">=", "3.10")))),
        ("Run gcc 12.2.0.", software(sw("gcc", ("==", "12.2.0")))),
        (
            "LAMMPS >= 2023 on 4 nodes with 2 GPUs each, InfiniBand, soon",
            {
                **software(sw("lammps", (">=", "2023"))),
                "compute": {"nodes": 4, "gpus_per_node": 2},
                "network": {"fabric": "infiniband"},
                "urgency": "soon",
            },
        ),
        (
            "gromacs 2024.1 with 32 cores or 2 GPUs per node",
            {
                **software(sw("gromacs", ("==", "2024.1"))),
                "compute": {"cores_per_node": 32, "gpus_per_node": 2, "gpu_logic": "or"},
            },
        ),
        (
            "pytorch 2.1 with cuda 12.1 on 8 H100s, 512GB RAM, for 6 hours, under $200",
            {
                **software(sw("pytorch", ("==", "2.1")), sw("cuda", ("==", "12.1"))),
                "compute": {
                    "gpus_per_node": 8,
                    "gpu_model": "H100",
                    "memory_gb_per_node": 512.0,
                    "walltime_s": 21600,
                },
                "budget_usd": 200.0,
            },
        ),
        (
            "VASP 6.4 with Open MPI 4.1 on 2 nodes, 128 cores per node, 100 TB of Lustre, asap",
            {
                **software(sw("vasp", ("==", "6.4"))),
                "mpi": {
                    "implementation": "openmpi",
                    "constraints": [{"op": "==", "version": "4.1"}],
                },
                "compute": {"nodes": 2, "cores_per_node": 128},
                "storage": [{"kind": "lustre", "min_free_gb": 100000.0}],
                "urgency": "now",
            },
        ),
    ],
)
def test_full_requests(text: str, expected: dict[str, Any]) -> None:
    assert summary(text) == expected


# -- software and versions -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lammps", software(sw("lammps"))),
        ("python >= 3.8", software(sw("python", (">=", "3.8")))),
        ("python<=3.11", software(sw("python", ("<=", "3.11")))),
        ("numpy == 1.26", software(sw("numpy", ("==", "1.26")))),
        ("gcc > 9", software(sw("gcc", (">", "9")))),
        ("cuda < 12", software(sw("cuda", ("<", "12")))),
        ("python != 3.9", software(sw("python", ("!=", "3.9")))),
        ("python at least 3.8", software(sw("python", (">=", "3.8")))),
        ("python 3.10 or newer", software(sw("python", (">=", "3.10")))),
        ("julia 1.9 or later", software(sw("julia", (">=", "1.9")))),
        ("gcc newer than 9", software(sw("gcc", (">", "9")))),
        ("cuda older than 12", software(sw("cuda", ("<", "12")))),
        ("tensorflow at most 2.15", software(sw("tensorflow", ("<=", "2.15")))),
        ("python version 3.8", software(sw("python", ("==", "3.8")))),
        ("python 3.8+", software(sw("python", (">=", "3.8")))),
        ("python3.11", software(sw("python", ("==", "3.11")))),
        ("gcc12", software(sw("gcc", ("==", "12")))),
        ("numpy between 2.0 and 3.0", software(sw("numpy", (">=", "2.0"), ("<=", "3.0")))),
        ("numpy>=2,<3", software(sw("numpy", (">=", "2"), ("<", "3")))),
        ("numpy >=1.24 and <2", software(sw("numpy", (">=", "1.24"), ("<", "2")))),
        ("python 3.8-3.11", software(sw("python", (">=", "3.8"), ("<=", "3.11")))),
        ("gcc@12.2", software(sw("gcc", ("==", "12.2")))),
        ("lammps/2Aug2023", software(sw("lammps", ("==", "2Aug2023")))),
        ("openfoam v2306", software(sw("openfoam", ("==", "2306")))),
        ("python (>= 3.9)", software(sw("python", (">=", "3.9")))),
        ("torch>=2", software(sw("pytorch", (">=", "2")))),
        ("Quantum ESPRESSO 7.2", software(sw("quantum-espresso", ("==", "7.2")))),
        ("R 4.3", software(sw("r", ("==", "4.3")))),
        ("boost 1.84", software(sw("boost", ("==", "1.84")))),
        (
            "python >= 3.8 and also python < 3.13",
            software(sw("python", (">=", "3.8"), ("<", "3.13"))),
        ),
        (
            "fftw3 and hdf5 1.14 with netcdf",
            software(sw("fftw"), sw("hdf5", ("==", "1.14")), sw("netcdf")),
        ),
    ],
)
def test_software(text: str, expected: dict[str, Any]) -> None:
    assert summary(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("foo 1.2", software(sw("foo", ("==", "1.2")))),
        ("foo>=1.2", software(sw("foo", (">=", "1.2")))),
        ("foo version 2", software(sw("foo", ("==", "2")))),
        ("mytool 2.0 or newer", software(sw("mytool", (">=", "2.0")))),
        # a bare integer is too vague to invent a package, but the name is never dropped
        ("foo 2", {"unresolved": ["foo 2"], "unparsed": ["foo 2"]}),
        # stop words are never package names, but a stray version still blocks READY
        ("need 1.5", {"unresolved": ["need 1.5"], "unparsed": ["1.5"]}),
        ("go ahead and run it", {}),  # "go" is the toolchain only with a version
        ("a boost", {"unparsed": ["boost"]}),
    ],
)
def test_unknown_software_needs_a_clear_version(text: str, expected: dict[str, Any]) -> None:
    assert summary(text) == expected


# -- compute ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "compute"),
    [
        ("4 nodes", {"nodes": 4}),
        ("a node", {"nodes": 1}),
        ("two nodes", {"nodes": 2}),
        ("a single node", {"nodes": 1}),
        ("nodes: 4", {"nodes": 4}),
        ("128 cores", {"total_cores": 128}),
        ("16 cores per node", {"cores_per_node": 16}),
        ("4 nodes with 32 cores each", {"nodes": 4, "cores_per_node": 32}),
        ("2 GPUs per node", {"gpus_per_node": 2}),
        ("8 GPUs", {"gpus_per_node": 8}),  # total, on the one default node
        ("8 GPUs on 2 nodes", {"nodes": 2, "total_gpus": 8}),  # spread by the negotiator
        ("3 GPUs on 2 nodes", {"nodes": 2, "total_gpus": 3}),
        ("a GPU", {"gpus_per_node": 1}),
        ("needs a gpu-accelerated node", {"nodes": 1, "gpus_per_node": 1}),
        ("4x A100", {"gpus_per_node": 4, "gpu_model": "A100"}),
        ("4 A100s per node", {"gpus_per_node": 4, "gpu_model": "A100"}),
        ("on MI250X GPUs", {"gpu_model": "MI250X", "gpus_per_node": 1}),
        ("2 H100 nodes", {"nodes": 2, "gpus_per_node": 1, "gpu_model": "H100"}),
        (
            "32 cores or 2 GPUs per node",
            {"cores_per_node": 32, "gpus_per_node": 2, "gpu_logic": "or"},
        ),
        ("32 cores and 2 GPUs", {"total_cores": 32, "gpus_per_node": 2}),
        ("CPU only", {"gpus_per_node": 0}),
        ("no GPUs", {"gpus_per_node": 0}),
        ("no GPU needed", {"gpus_per_node": 0}),
        ("64 GB of memory", {"memory_gb_per_node": 64.0}),
        ("512GB RAM", {"memory_gb_per_node": 512.0}),
        ("1 TB memory", {"memory_gb_per_node": 1000.0}),
        ("memory: 256 GiB", {"memory_gb_per_node": 274.877907}),
        ("2048 MB RAM", {"memory_gb_per_node": 2.048}),
        ("4 nodes and 256 GB memory total", {"nodes": 4, "memory_gb_total": 256.0}),
        (
            "4 GB per core with 32 cores per node",
            {"cores_per_node": 32, "memory_gb_per_node": 128.0},
        ),
        ("64 GB per node", {"memory_gb_per_node": 64.0}),
    ],
)
def test_compute(text: str, compute: dict[str, Any]) -> None:
    expected: dict[str, Any] = {"compute": compute}
    if compute.get("gpus_per_node") == 0:
        expected["excluded"] = ["gpu"]  # "no GPUs" is also kept as an exclusion
    assert summary(text) == expected


def test_mpi_ranks_count_cores_and_imply_mpi() -> None:
    assert summary("128 MPI ranks") == {"compute": {"total_cores": 128}, "mpi": {}}


def test_memory_that_disagrees_with_the_per_node_size_is_reported() -> None:
    agreeing = summary("64 GB memory per node and 256 GB memory total on 4 nodes")
    assert agreeing == {"compute": {"nodes": 4, "memory_gb_per_node": 64.0}}
    clashing = summary("64 GB memory per node and 512 GB memory total on 4 nodes")
    assert clashing["compute"]["memory_gb_per_node"] == 64.0
    assert clashing["unparsed"] == ["512 GB memory total (conflicts with 64 GB per node; not used)"]


def test_memory_per_core_without_cores_is_reported() -> None:
    assert summary("4 GB per core") == {
        "unresolved": ["4 GB per core"],  # a memory need no field holds: quoted, not dropped
        "unparsed": ["4 GB per core (no core count to multiply; not used)", "4 GB per core"],
    }


def test_contradictions_are_reported_not_dropped() -> None:
    result = summary("4 nodes, actually 8 nodes, 2 GPUs but CPU only")
    assert result["compute"] == {"nodes": 4, "gpus_per_node": 0}
    assert any("8 nodes" in note and "conflicts" in note for note in result["unparsed"])
    assert any("2 GPUs" in note and "conflicts" in note for note in result["unparsed"])


# -- network and storage ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("InfiniBand", {"network": {"fabric": "infiniband"}}),
        ("over IB", {"network": {"fabric": "infiniband"}}),
        ("Omni-Path", {"network": {"fabric": "omnipath"}}),
        ("Slingshot interconnect", {"network": {"fabric": "slingshot"}}),
        ("ethernet", {"network": {"fabric": "ethernet"}}),
        ("low latency", {"network": {"low_latency": True}}),
        ("a high-speed interconnect", {"network": {"low_latency": True}}),
        ("RDMA", {"network": {"low_latency": True}}),
        ("RoCE", {"network": {"fabric": "ethernet", "low_latency": True}}),
        ("10GbE", {"network": {"fabric": "ethernet", "min_speed_gbps": 10.0}}),
        (
            "HDR InfiniBand at 200 Gbps",
            {"network": {"fabric": "infiniband", "min_speed_gbps": 200.0}},
        ),
        ("100 TB of Lustre", {"storage": [{"kind": "lustre", "min_free_gb": 100000.0}]}),
        ("lustre with 100 TB free", {"storage": [{"kind": "lustre", "min_free_gb": 100000.0}]}),
        ("local scratch", {"storage": [{"kind": "local"}]}),
        ("500 GB of local scratch", {"storage": [{"kind": "local", "min_free_gb": 500.0}]}),
        ("NVMe", {"storage": [{"kind": "local"}]}),
        ("GPFS", {"storage": [{"kind": "gpfs"}]}),
        ("IBM Spectrum Scale", {"storage": [{"kind": "gpfs"}]}),
        ("BeeGFS", {"storage": [{"kind": "beegfs"}]}),
        ("NFS", {"storage": [{"kind": "nfs"}]}),
        ("an SMB share", {"storage": [{"kind": "cifs"}], "unparsed": ["share"]}),
        ("S3 object storage", {"storage": [{"kind": "s3"}]}),
        ("a parallel file system", {"storage": [{"kind": "parallel"}]}),
        ("2 TB of disk space", {"storage": [{"min_free_gb": 2000.0}]}),  # kind "any"
        ("1 TB of scratch on each node", {"storage": [{"min_free_gb": 1000.0}]}),
    ],
)
def test_network_and_storage(text: str, expected: dict[str, Any]) -> None:
    assert summary(text) == expected


def test_a_size_with_no_noun_is_left_unparsed() -> None:
    """ "64 GB" alone could be memory or disk: guessing would be silent, so it is reported,
    and it blocks READY."""
    assert summary("I need some 64 GB") == {"unresolved": ["64 GB"], "unparsed": ["64 GB"]}


# -- containers and MPI ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in an apptainer container", {"container": {"runtime": "apptainer"}}),
        (
            "singularity 3.8 container",
            {
                "container": {
                    "runtime": "singularity",
                    "constraints": [{"op": "==", "version": "3.8"}],
                }
            },
        ),
        (
            "podman >= 4",
            {"container": {"runtime": "podman", "constraints": [{"op": ">=", "version": "4"}]}},
        ),
        ("rootless podman", {"container": {"runtime": "podman", "rootless": True}}),
        ("a rootless container", {"container": {"runtime": "any", "rootless": True}}),
        ("in a container", {"container": {"runtime": "any"}}),
        ("Docker image", {"container": {"runtime": "docker"}}),
        ("charliecloud", {"container": {"runtime": "charliecloud"}}),
        ("with MPI", {"mpi": {}}),
        (
            "Open MPI 4.1",
            {"mpi": {"implementation": "openmpi", "constraints": [{"op": "==", "version": "4.1"}]}},
        ),
        (
            "openmpi >= 4.1",
            {"mpi": {"implementation": "openmpi", "constraints": [{"op": ">=", "version": "4.1"}]}},
        ),
        ("OMPI", {"mpi": {"implementation": "openmpi"}}),
        (
            "Intel MPI 2021",
            {
                "mpi": {
                    "implementation": "intel-mpi",
                    "constraints": [{"op": "==", "version": "2021"}],
                }
            },
        ),
        ("cray-mpich", {"mpi": {"implementation": "cray-mpich"}}),
        ("mpich", {"mpi": {"implementation": "mpich"}}),
        ("MVAPICH2", {"mpi": {"implementation": "mvapich"}}),
        (
            "with MPI, specifically mpich",
            {"mpi": {"implementation": "mpich"}, "unparsed": ["specifically"]},
        ),
        ("mpi4py", software(sw("mpi4py"))),
    ],
)
def test_containers_and_mpi(text: str, expected: dict[str, Any]) -> None:
    assert summary(text) == expected


# -- urgency, deadlines, walltime, budget ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "urgency"),
    [
        ("now", "now"),
        ("asap", "now"),
        ("immediately", "now"),
        ("urgent", "now"),
        ("as soon as possible", "now"),
        ("soon", "soon"),
        ("today", "soon"),
        ("no rush", "no_rush"),
        ("whenever", "no_rush"),
        ("low priority", "no_rush"),
        ("not urgent", "no_rush"),
    ],
)
def test_urgency(text: str, urgency: str) -> None:
    assert summary(text) == {"urgency": urgency}


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("by 2026-12-01", datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)),
        ("before 2026-12-01", datetime(2026, 12, 1, tzinfo=UTC)),
        ("deadline: 2026-07-01T12:00Z", datetime(2026, 7, 1, 12, 0, tzinfo=UTC)),
        ("before Friday", datetime(2026, 6, 5, tzinfo=UTC)),
        ("by Friday", datetime(2026, 6, 5, 23, 59, 59, tzinfo=UTC)),
        ("by Friday 5pm", datetime(2026, 6, 5, 17, 0, tzinfo=UTC)),
        ("before Wednesday", datetime(2026, 6, 10, tzinfo=UTC)),  # today is Wednesday
        ("by tomorrow", datetime(2026, 6, 4, 23, 59, 59, tzinfo=UTC)),
        ("by 17:00", datetime(2026, 6, 3, 17, 0, tzinfo=UTC)),
        ("by 9am", datetime(2026, 6, 4, 9, 0, tzinfo=UTC)),  # already past today
        ("by Dec 1", datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)),
        ("by 1 March", datetime(2027, 3, 1, 23, 59, 59, tzinfo=UTC)),  # next March
        ("within 3 hours", NOW + timedelta(hours=3)),
        ("within 2 days", NOW + timedelta(days=2)),
        ("in the next 30 minutes", NOW + timedelta(minutes=30)),
        ("by noon tomorrow", datetime(2026, 6, 4, 12, 0, tzinfo=UTC)),
        ("before 5pm on Friday", datetime(2026, 6, 5, 17, 0, tzinfo=UTC)),
        ("by 9am Wednesday", datetime(2026, 6, 10, 9, 0, tzinfo=UTC)),  # this one has passed
        ("by end of month", datetime(2026, 6, 30, 23, 59, 59, tzinfo=UTC)),
        ("by 2026-12-01T09:00+02:00", datetime(2026, 12, 1, 7, 0, tzinfo=UTC)),
    ],
)
def test_deadlines(text: str, deadline: datetime) -> None:
    assert parse_requirements(text, now=NOW).deadline == deadline
    assert parse_requirements(text, now=NOW).unparsed == ()


def test_a_repeating_interval_is_not_a_walltime() -> None:
    assert summary("every 2 hours") == {"unresolved": ["2 hours"], "unparsed": ["2 hours"]}


def test_deadline_keeps_a_naive_clock_naive() -> None:
    parsed = parse_requirements("within 1 hour", now=datetime(2026, 1, 1, 8, 0))
    assert parsed.deadline == datetime(2026, 1, 1, 9, 0)


def test_an_impossible_date_is_reported_not_raised() -> None:
    parsed = parse_requirements("by 2026-13-45", now=NOW)
    assert parsed.deadline is None
    assert "2026-13-45" in " ".join(parsed.unparsed)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("for 2 hours", 7200),
        ("walltime 04:00:00", 14400),
        ("walltime 4:00", 14400),  # H:MM, as people write it (not Slurm's MM:SS)
        ("time limit 1-12:00:00", 129600),
        ("30 minutes", 1800),
        ("1 day", 86400),
        ("about 1.5 hours", 5400),
        ("an hour", 3600),
        ("half an hour", 1800),
        ("time limit 2h30m", 9000),
        ("2 days and 4 hours", 187200),
        ("2 days of walltime", 172800),
        ("--time=01:30:00", 5400),
    ],
)
def test_walltime(text: str, seconds: int) -> None:
    assert summary(text) == {"compute": {"walltime_s": seconds}}


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("under $50", 50.0),
        ("budget of 100 dollars", 100.0),
        ("$1,000 budget", 1000.0),
        ("budget: 250", 250.0),
        ("at most 75 USD", 75.0),
        ("max $2.5k", 2500.0),
        ("for free", 0.0),
    ],
)
def test_budget(text: str, budget: float) -> None:
    assert summary(text) == {"budget_usd": budget}


# -- what is left over -----------------------------------------------------------------------


def test_empty_text_is_an_empty_request() -> None:
    parsed = parse_requirements("", now=NOW)
    assert parsed.is_empty()
    assert parsed.unparsed == ()
    assert parsed.source_text == ""


def test_junk_words_are_kept_in_unparsed() -> None:
    parsed = parse_requirements("hello there, qwzx frobble", now=NOW)
    assert not parsed.is_empty()  # an unread phrase is something to judge (and not READY)
    assert parsed.unparsed == ("qwzx frobble",)
    assert parsed.unresolved == ("qwzx frobble",)
    assert parsed.source_text == "hello there, qwzx frobble"
    greeting = parse_requirements("hello there", now=NOW)
    assert greeting.is_empty() and greeting.unparsed == ()


def test_unknown_words_next_to_known_ones_are_kept_as_fragments() -> None:
    parsed = parse_requirements("lammps on 4 nodes with frobnicated widgets, quickly", now=NOW)
    assert parsed.software[0].name == "lammps"
    assert parsed.compute.nodes == 4
    assert parsed.unparsed == ("frobnicated widgets", "quickly")
    assert parsed.unresolved[0].startswith("frobnicated")  # not known prose: it blocks READY


def test_long_input_is_truncated_and_says_so() -> None:
    text = "lammps " + "x" * (MAX_INPUT_CHARS + 500)
    parsed = parse_requirements(text, now=NOW)
    assert len(parsed.source_text) == MAX_INPUT_CHARS
    assert parsed.software[0].name == "lammps"
    assert parsed.unparsed[0].startswith("[input truncated: 507 characters")


@pytest.mark.parametrize(
    "text",
    [
        "\ud800 lone surrogate",
        "\x00\x00 nul bytes 4 nodes",
        "9" * 5000 + " nodes",
        "python >= " + "9" * 5000,
        "walltime 999999:00:00",
        "by 9999-12-31 within 99999 weeks",
        "((((((((((((((((",
        "`unterminated 'quote` on 2 nodes",
        "0 nodes with 0 cores and 0 GB of memory for 0 hours",
    ],
)
def test_pathological_text_never_raises(text: str) -> None:
    parsed = parse_requirements(text, now=NOW)
    assert isinstance(parsed, Requirements)
    assert not any(note.startswith(PARSER_ERROR) for note in parsed.unparsed)
    Requirements.model_validate_json(parsed.model_dump_json())


# -- commands in backticks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "argv"),
    [
        ("run `python -c 'print(1)'` on 1 node", ("python", "-c", "print(1)")),
        ("`mpirun -n 4 ./a.out` with MPI", ("mpirun", "-n", "4", "./a.out")),
        ("```\nlmp -in in.lj\n```", ("lmp", "-in", "in.lj")),
        ("```bash\necho hi; rm -rf /\n```", ("echo", "hi;", "rm", "-rf", "/")),
        ("no command here", ()),
        ("empty `` backticks", ()),
        ("bad quoting `echo 'oops` here", ()),
        ("a single ` backtick", ()),
    ],
)
def test_extract_command(text: str, argv: tuple[str, ...]) -> None:
    assert extract_command(text) == argv


def test_the_command_is_cut_out_before_parsing() -> None:
    text = "run `python -c 'print(1)' -n 8` on 1 node"
    remaining, argv = split_command(text)
    assert argv == ("python", "-c", "print(1)", "-n", "8")
    assert "python" not in remaining and "on 1 node" in remaining
    parsed = parse_requirements(text, now=NOW)
    assert parsed.software == ()
    assert parsed.compute.nodes == 1
    assert parsed.source_text == text


# -- properties ------------------------------------------------------------------------------

_VOCABULARY = sorted(
    {
        *lexicon.SOFTWARE,
        *(s for spellings in lexicon.SOFTWARE.values() for s in spellings),
        *(s for spellings in lexicon.CONTAINER_RUNTIMES.values() for s in spellings),
        *(s for spellings in lexicon.MPI_IMPLEMENTATIONS.values() for s in spellings),
        *(s for spellings in lexicon.FABRICS.values() for s in spellings),
        *(s for spellings in lexicon.STORAGE_KINDS.values() for s in spellings),
        *(s for spellings in lexicon.GPU_MODELS.values() for s in spellings),
        *(s for spellings in lexicon.URGENCY_WORDS.values() for s in spellings),
        *lexicon.NODE_WORDS,
        *lexicon.CORE_WORDS,
        *lexicon.GPU_WORDS,
        *lexicon.MEMORY_WORDS,
        *lexicon.SIZE_UNITS_GB,
        *lexicon.DURATION_UNITS_S,
        *lexicon.WEEKDAYS,
        *lexicon.MONTHS,
        *lexicon.NUMBER_WORDS,
        *lexicon.VERSION_WORDS_BEFORE,
        *lexicon.VERSION_WORDS_AFTER,
        *lexicon.DEADLINE_BY_WORDS,
        *lexicon.DEADLINE_WITHIN_WORDS,
        *lexicon.WALLTIME_WORDS,
        "per node",
        "each",
        "total",
        "or",
        "and",
        "between",
        "budget",
        "$",
        "version",
        "`",
        "container",
        "rootless",
        "cpu only",
        "low latency",
        "free",
        "walltime",
        "within",
    }
)
_OPERATORS = [">=", "<=", "==", "!=", ">", "<", "=", "+", ",", "-", ":", "@", "/", "~="]
_NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=10**12).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.from_regex(r"\d{1,4}(\.\d{1,3}){0,3}", fullmatch=True),
    st.from_regex(r"\d{4}-\d{1,2}-\d{1,2}", fullmatch=True),
    st.from_regex(r"\d{1,3}:\d{2}(:\d{2})?", fullmatch=True),
)
_PIECES = st.one_of(
    st.sampled_from(_VOCABULARY),
    st.sampled_from(_OPERATORS),
    _NUMBERS,
    st.text(max_size=6),
)
_MIXTURES = st.lists(_PIECES, max_size=25).flatmap(
    lambda pieces: st.lists(
        st.sampled_from([" ", "", ", ", "\n", "-"]), min_size=len(pieces), max_size=len(pieces)
    ).map(lambda seps: "".join(p + s for p, s in zip(pieces, seps, strict=True)))
)
_CLOCKS = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.datetimes(
        min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ),
)


def _assert_sound(parsed: Requirements, text: str) -> None:
    assert isinstance(parsed, Requirements)
    assert not any(note.startswith(PARSER_ERROR) for note in parsed.unparsed), parsed.unparsed
    assert parsed.source_text == text[:MAX_INPUT_CHARS]
    again = Requirements.model_validate_json(parsed.model_dump_json())
    assert again == parsed


@settings(max_examples=250, deadline=None)
@given(text=st.text())
def test_any_text_parses_and_round_trips(text: str) -> None:
    _assert_sound(parse_requirements(text, now=NOW), text)


@pytest.mark.parametrize(
    "text", ["free :0 ", "scratch: 0 GB", "disk=0TB", "free space: 0\nnodes: 2", "storage: 0.0 TB"]
)
def test_a_storage_size_of_zero_in_key_value_form_is_quoted_not_an_error(text: str) -> None:
    """A zero size is not a storage requirement the model can hold (sizes are > 0): the pair
    stays unread, so the proposal quotes it, instead of the whole request failing to build."""
    parsed = parse_requirements(text)
    _assert_sound(parsed, text)
    assert parsed.storage == ()
    assert any("0" in note for note in parsed.unparsed), parsed.unparsed


@settings(max_examples=300, deadline=None)
@given(text=_MIXTURES, now=_CLOCKS)
def test_vocabulary_soup_parses_and_round_trips(text: str, now: datetime | None) -> None:
    _assert_sound(parse_requirements(text, now=now), text)


_CASE_PARTNER_OF = {"i": ("\u0130", "\u0131"), "s": ("\u017f",), "k": ("\u212a",)}
"""Non-ASCII letters that ``re.IGNORECASE`` matches as the ASCII letter (see triggers.py)."""


@pytest.mark.parametrize(
    "text",
    [
        "results by FR\u0130DAY, 4 nodes",
        "need it before thur\u017fday noon on 2 nodes",
        "gromacs+\u212aokkos on 2 nodes with 4 GPUs each",
        "8 NV\u0130D\u0130A A100 GPUs, openmpi, 12 hours",
        "lammps +mp\u0131 build, infiniband, 64 GB per node",
        "\u212aOKKOS, \u017fcratch 2 TB, by tomorrow",
    ],
)
def test_letters_that_match_ascii_letters_read_like_them(text: str) -> None:
    """Case-insensitive patterns match "\u0130" as "i"; every stage must then read the word
    as the ASCII spelling, never fail on a table lookup and lose its part of the request."""
    parsed = parse_requirements(text, now=NOW)
    _assert_sound(parsed, text)
    plain = text.translate(str.maketrans("\u0130\u0131\u017f\u212a", "Iisk"))
    assert summary(text) == summary(plain)


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(st.sampled_from(sorted(lexicon.WEEKDAYS)), min_size=1, max_size=4),
    swaps=st.data(),
)
def test_case_partner_letters_never_break_a_stage(words: list[str], swaps: st.DataObject) -> None:
    text = " ".join(f"by {w} on 2 nodes with nvidia gpus, openmpi +mpi" for w in words)
    chars = [
        swaps.draw(st.sampled_from((c, *_CASE_PARTNER_OF[c.lower()])))
        if c.lower() in _CASE_PARTNER_OF
        else c
        for c in text
    ]
    swapped = "".join(chars)
    _assert_sound(parse_requirements(swapped, now=NOW), swapped)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("`'\" \\abc-;$()\n")), max_size=40))
def test_command_extraction_never_raises(text: str) -> None:
    remaining, argv = split_command(text)
    assert isinstance(remaining, str)
    assert all(isinstance(arg, str) for arg in argv)
    assert extract_command(text) == argv
