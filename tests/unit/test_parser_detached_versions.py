"""Versions written apart from their name, past versions, and versions of unusual shapes.

A version may follow its package a few words later ("an Apptainer container (1.3 or newer)",
"R for the plots, version 4.3 or more new"), come with a product noun between ("the sarek
pipeline 3.4"), be a date ("2Aug2023 or newer"), a release with a commit hash ("15-6f452"),
or be history ("we used Foo 2.1 last year; now we need Foo 3.1"). Numbers that are counts,
sizes, years or history must never become versions. Every text here was written for the test.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def versions(req: Requirements, name: str) -> list[str]:
    found = [s for s in req.software if s.name == name]
    assert found, [s.name for s in req.software]
    return [f"{c.op.value}{c.version}" for c in found[0].constraints]


def quoted(req: Requirements) -> str:
    return " | ".join(req.unresolved)


# -- a version some words after its name -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("We rely on Nextflow for the whole workflow, version 24.04 or later please.",
         "nextflow", [">=24.04"]),
        ("I would like to use GROMACS for my membrane, version is 2023 or newer.",
         "gromacs", [">=2023"]),
        ("Our group runs the kraken2 classifier on reads (v2.1) on 1 node for 5 hours.",
         "kraken2", ["==2.1"]),
        ("please install the zorbax tool, release 3.2, we need it on 2 nodes",
         "zorbax", ["==3.2"]),
        ("Can we get one node for lammps tomorrow? needs to be 29Aug2024 or newer",
         "lammps", [">=29Aug2024"]),
        ("I must to use Julia for the solver, version 1.10 or more new, 16 cores.",
         "julia", [">=1.10"]),
    ],
)  # fmt: skip
def test_a_version_later_in_the_sentence_is_the_names(
    text: str, name: str, expected: list[str]
) -> None:
    req = parse(text)
    assert versions(req, name) == expected
    assert not any(v.strip(">=<").split()[0] in quoted(req) for v in expected), req.unresolved


@pytest.mark.parametrize(
    ("text", "runtime", "expected"),
    [
        ("The job runs inside a Podman container (4.9 or newer), 8 cores.", "podman", ">=4.9"),
        ("We need Apptainer for the images, version 1.2 or later, on 2 nodes.",
         "apptainer", ">=1.2"),
    ],
)  # fmt: skip
def test_a_runtime_version_later_in_the_sentence(text: str, runtime: str, expected: str) -> None:
    req = parse(text)
    assert req.container is not None and req.container.runtime == runtime
    assert [f"{c.op.value}{c.version}" for c in req.container.constraints] == [expected]


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("tasks: run the bactopia pipeline 3.1 on 4 nodes", "bactopia", ["==3.1"]),
        ("It is AstroMatic's PSFEx 3.24 and Scamp 2.10 on one node, 10 hours.",
         "scamp", ["==2.10"]),
        ("bwa-mem2 + pairtools 3, 16 cores, 32 GB, 2h", "pairtools", ["==3"]),
        ("need DeepLabCut v2 on a GPU for 6 hours", "deeplabcut", ["==2"]),
    ],
)  # fmt: skip
def test_a_version_right_after_a_name_read_by_other_means(
    text: str, name: str, expected: list[str]
) -> None:
    assert versions(parse(text), name) == expected


# -- numbers that are not versions -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Run GROMACS on the climate records from 2019 or later, 4 nodes, 6 hours.", "gromacs"),
        ("We have used Nextflow since 2021 and need 2 nodes for 8 hours.", "nextflow"),
        ("The zorbax tool, 12 samples, 3 runs each, 64 GB per node.", "zorbax"),
        ("lammps on 4 nodes for 10 hours, 2 TB of scratch", "lammps"),
    ],
)
def test_counts_years_and_sizes_are_no_versions(text: str, name: str) -> None:
    req = parse(text)
    assert name in [s.name for s in req.software]
    assert versions(req, name) == []


def test_the_version_of_an_unread_word_stays_quoted() -> None:
    req = parse("We use LAMMPS on nodes with Ubuntu version 22.04 or newer, 4 nodes.")
    assert versions(req, "lammps") == []
    assert "22.04" in quoted(req)


def test_a_second_name_between_keeps_the_version_off_the_first() -> None:
    req = parse("Please load CP2K 2024.1 and Apptainer, version 1.3 or later, on 2 nodes.")
    assert versions(req, "cp2k") == ["==2024.1"]
    assert req.container is not None and req.container.runtime == "apptainer"
    assert [c.version for c in req.container.constraints] == ["1.3"]


def test_a_lone_version_with_two_packages_in_other_sentences_stays_quoted() -> None:
    req = parse("We need lammps and gromacs on 2 nodes. Version 2023 or newer.")
    assert versions(req, "lammps") == [] and versions(req, "gromacs") == []
    assert "2023" in quoted(req)


# -- versions of the past --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Last year we ran OpenFOAM 9 on the old cluster. Now we need OpenFOAM 11 on 4 nodes.",
         "openfoam", ["==11"]),
        ("> We used CP2K 2023.1 for the previous runs.\n\nThanks. I'd like CP2K 2024.2 on "
         "2 nodes for 12 hours.", "cp2k", ["==2024.2"]),
        ("Our earlier study used Kraken2 2.0, which is how we got the first numbers; for the "
         "new one please give us Kraken2 2.1.3 on 1 node.", "kraken2", ["==2.1.3"]),
    ],
)  # fmt: skip
def test_a_version_said_of_the_past_gives_way_to_the_one_asked(
    text: str, name: str, expected: list[str]
) -> None:
    assert versions(parse(text), name) == expected


def test_a_quoted_mpi_version_gives_way_to_the_one_asked() -> None:
    req = parse("> > Does it work with MPICH 3?\n> Yes.\n\nThen I want MPICH 4.2, 64 ranks.")
    assert req.mpi is not None
    assert [c.version for c in req.mpi.constraints] == ["4.2"]


def test_a_version_said_only_in_the_past_is_kept() -> None:
    req = parse("Last year we used OpenFOAM 9 on 4 nodes; the same setup again please.")
    assert versions(req, "openfoam") == ["==9"]


# -- shapes of versions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("mmseqs2=14-7e284\nnodes=1", "mmseqs2", ["==14-7e284"]),
        ("please load foldmason 2-7bd21de on one node", "foldmason", ["==2-7bd21de"]),
        ("python 3.9-3.12 on 2 nodes", "python", [">=3.9", "<=3.12"]),
    ],
)
def test_a_release_with_a_commit_hash_is_one_version(
    text: str, name: str, expected: list[str]
) -> None:
    assert versions(parse(text), name) == expected


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Running namd3 on 2 nodes for 6 hours", "namd3"),
        ("need gadget4 and bowtie2 on 1 node", "bowtie2"),
        ("we run cp2k9 daily, 64 cores", "cp2k9"),
    ],
)
def test_a_name_glued_to_one_digit_is_a_name_as_written(text: str, name: str) -> None:
    req = parse(text)
    assert versions(req, name) == []


def test_an_interpreter_glued_to_its_major_version_is_the_language() -> None:
    assert versions(parse("python3.12 on one node"), "python") == ["==3.12"]


def test_a_three_part_release_in_brackets_is_the_version_of_the_name_before() -> None:
    req = parse("We keep our own CASTEP licence (24.1.0) and need 2 nodes for a day.")
    assert versions(req, "castep") == ["==24.1.0"]


def test_a_bracketed_number_of_one_part_is_no_version() -> None:
    req = parse("We keep our own CASTEP build (2) and need 2 nodes for a day.")
    assert versions(req, "castep") == []
