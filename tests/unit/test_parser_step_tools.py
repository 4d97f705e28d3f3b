"""Package names a reader finds from where they stand, not from a catalogue.

"score the poses with GNINA", "run cholla on 2 nodes", "the MLIP package", "oneAPI.jl": a
scientist names a tool the parser has never seen, and the sentence around it says it is one.
Each rule also states what it must not take: a person after "with", a method of science, an
everyday word placed on the same resources. The sentences are written for these tests.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def names_in(text: str) -> list[str]:
    """The package names read from ``text``."""
    return [s.name for s in parse_requirements(text, now=NOW).software]


def unresolved(text: str) -> tuple[str, ...]:
    return parse_requirements(text, now=NOW).unresolved


# -- the tool of a pipeline step: "... and then <verb> with X" --------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We align with BWA 0.7 and then call variants with FREEBAYX. 2 nodes, 6h.", "freebayx"),
        ("Docking runs in Vina 1.2, rescoring with PLANTZ; 32 cores for a day.", "plantz"),
        ("Meshes come from gmsh 4.11 and are partitioned using Metisoid, 4 nodes.", "metisoid"),
        ("GROMACS 2024 makes the trajectories, then we cluster them with Tramontex.", "tramontex"),
        ("We fold with ColabFold 1.5 and rank the models with Quorbit-2. 1 GPU, 4h", "quorbit-2"),
        ("Our shell-model calculations with QXSOLV, 10 hours on 8 nodes.", "qxsolv"),
    ],
)
def test_a_tool_named_for_a_pipeline_step_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I discussed the GROMACS runs with Priya. 2 nodes for 6 hours.", "priya"),
        ("We run LAMMPS 2023 and talked it over with Kwame. 4 nodes, 1 day.", "kwame"),
        ("NAMD 3.0 on 2 nodes, together with Oyelaran from the lab.", "oyelaran"),
        ("We model neurons with STDPX. 64 cores, 4 hours.", "stdpx"),  # no package, no job
        ("We did this with QRSTLM back in 2018. 8 nodes now.", "qrstlm"),  # not a clause end
    ],
)
def test_a_person_or_a_bare_method_after_with_is_no_package(text: str, word: str) -> None:
    assert word not in names_in(text)
    assert any(word in u.lower() for u in unresolved(text))  # quoted, never dropped


# -- "run X on <resources>": a rare word right after a verb of running -------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("please run cholla on 2 nodes with 4 GPUs each, 8h", "cholla"),
        ("could you launch quokka on 16 cores for 3 hours?", "quokka"),
    ],
)
def test_a_rare_word_run_on_resources_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "please run tests on 2 nodes for 3 hours",
        "run everything on 16 cores, 2 hours",
        "run replicas on 4 nodes for a day",
        "run our Blender 4.2 render on 4 GPUs for 10 hours",
    ],
)
def test_an_everyday_word_run_on_resources_is_no_package(text: str) -> None:
    names = names_in(text)
    assert not {"tests", "everything", "replicas", "render"} & set(names)


# -- "the ACRONYM package", "the X tokenizer library" ------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("the potential comes from the QTIP package; 8 GPUs over 2 nodes", "qtip"),
        ("we load the ZORBX library at start-up, 1 node, 2h", "zorbx"),
        ("with the wordpiecex tokenizer library, 1 GPU, 3 hours", "wordpiecex"),
    ],
)
def test_a_name_before_a_package_noun_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("the MHD package on 2 nodes for 3 hours", "mhd"),
        ("the CFD package on 2 nodes for 3 hours", "cfd"),
        ("the vendor math library on 2 nodes for 3 hours", "vendor"),
    ],
)
def test_a_science_acronym_or_a_modifier_before_a_package_noun_is_no_package(
    text: str, word: str
) -> None:
    assert word not in names_in(text)


# -- Julia packages with odd capitals ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Julia 1.10 + oneAPI.jl on an Intel GPU, 1 node, 6h", "oneapi.jl"),
        ("need cuNumeric.jl and KernelAbstractions.jl on one GPU node", "cunumeric.jl"),
        ("we use Oceananigans.jl, 1 node, 4 hours", "oceananigans.jl"),
    ],
)
def test_a_julia_package_with_a_capital_anywhere_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


def test_a_lower_case_julia_script_is_no_package() -> None:
    names = names_in("julia 1.10 runs main.jl on 2 nodes for 3 hours")
    assert "main.jl" not in names
    assert "julia" in names


# -- "got X working": only software is got working, built or installed ------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Has anyone got Firedrake working on the shared sites? 4 nodes, 3h", "firedrake"),
        ("we could not get swarpx to build here, 2 nodes for 1 hour", "swarpx"),
        ("we finally got Tessarine running; one node, 6 hours", "tessarine"),
    ],
)
def test_a_word_got_working_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "can you get it working on 2 nodes for 3 hours?",
        "we got things running on 2 nodes, 3 hours",
        "I got Adaeze working on the mesh; 2 nodes, 3 hours",
    ],
)
def test_an_everyday_word_or_a_person_got_working_is_no_package(text: str) -> None:
    assert not {"it", "things", "adaeze"} & set(names_in(text))


# -- a package's artefact between two listed names; an acronym glued to a name -----------------


def test_a_name_after_a_packages_database_is_listed_with_it() -> None:
    names = names_in("The Kraken2 database plus Bracken needs 700 GB on one node")
    assert {"kraken2", "bracken"} <= set(names)


def test_a_word_glued_to_a_field_acronym_before_a_job_noun_is_a_package() -> None:
    assert "gymnax-rl" in names_in("please queue the gymnax-rl sweep, 40 cpus, 6h")


@pytest.mark.parametrize(
    "text",
    [
        "the multi-node job on 4 nodes for 3 hours",
        "the ml-based run on 4 nodes for 3 hours",
        "the cfd-style jobs on 2 nodes for 3 hours",
    ],
)
def test_an_english_compound_before_a_job_noun_is_no_package(text: str) -> None:
    assert names_in(text) == []
