"""Versions said around a package in words: a starting release closed by "on", a package of a
language with its version after the language, a version behind several describing words,
and a bracketed version behind the family name of a package. Wordings of our own, not the
corpus texts."""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _software(text: str) -> dict[str, list[str]]:
    req = parse_requirements(text)
    return {s.name: [f"{c.op.value}{c.version}" for c in s.constraints] for s in req.software}


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("I need Nektar++ (any version from 5.3 on) on 4 nodes.", "nektar++", [">=5.3"]),
        ("GROMACS (from 2023.1 on) with 2 GPUs for a day", "gromacs", [">=2023.1"]),
        ("Please load OpenFOAM (any release from 11 on), 64 cores.", "openfoam", [">=11"]),
        ("We run WRF-Hydro (from v5.2 on) for the flood study", "wrf-hydro", [">=5.2"]),
        ("cp2k (from 2024.1 on ) and 8 nodes", "cp2k", [">=2024.1"]),
    ],
)
def test_a_starting_release_closed_by_on(text: str, name: str, versions: list[str]) -> None:
    assert _software(text)[name] == versions


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        (
            "We fit models with the brms library for R, version 2.21, on one node.",
            "brms",
            ["==2.21"],
        ),
        ("the tidyverse package for R, version 2.0.0, 8 cores", "tidyverse", ["==2.0.0"]),
        ("the pymc library in Python, version 5.10, and 4 GPUs", "pymc", ["==5.10"]),
        ("Our lab uses the lme4 package for R, version 1.1, for 3 hours.", "lme4", ["==1.1"]),
        (
            "the DifferentialEquations package for Julia, version 7.13",
            "differentialequations",
            ["==7.13"],
        ),
        ("the Dedalus library for python, release 2024.1, 2 nodes", "dedalus", ["==2024.1"]),
    ],
)
def test_a_language_package_takes_the_version_after_the_language(
    text: str, name: str, versions: list[str]
) -> None:
    software = _software(text)
    assert software[name] == versions
    language = next(n for n in software if n in ("r", "python", "julia"))
    assert software[language] == []


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("run the MALLET topic modelling toolkit (v2.0.8) on 1M posts", "mallet", ["==2.0.8"]),
        ("we use the CROCO regional ocean model 2.0.1 on 6 nodes", "croco", ["==2.0.1"]),
        ("the Kestrel wind farm simulator (3.1) for 5 hours", "kestrel", ["==3.1"]),
    ],
)
def test_two_describing_words_before_a_product_noun(
    text: str, name: str, versions: list[str]
) -> None:
    assert _software(text)[name] == versions


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        (
            "E3SM with the Intel compilers (oneAPI 2024.2), 32 nodes",
            "intel-oneapi-compilers",
            ["==2024.2"],
        ),
        (
            "build it with intel compilers (oneapi 2023.1) please",
            "intel-oneapi-compilers",
            ["==2023.1"],
        ),
    ],
)
def test_a_family_name_in_brackets_gives_the_package_version(
    text: str, name: str, versions: list[str]
) -> None:
    software = _software(text)
    assert software[name] == versions
    assert "oneapi" not in software


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("Run LAMMPS 2.0 on 8 nodes.", ">=2.0"),
        ("LAMMPS 2.0 on GPUs, from 3 on the list", ">=2.0"),
    ],
)
def test_on_outside_a_bracket_is_no_lower_bound(text: str, absent: str) -> None:
    assert absent not in _software(text)["lammps"]


def test_a_package_for_a_language_without_a_name_leaves_the_version_to_the_language() -> None:
    software = _software("We use a package for R, version 4.3, on 2 nodes.")
    assert software["r"] == ["==4.3"]


def test_an_english_word_before_package_for_is_no_name() -> None:
    software = _software("the statistics package for R, version 4.4, 16 cores")
    assert "statistics" not in software
    assert software["r"] == ["==4.4"]


def test_another_package_in_brackets_keeps_its_own_version() -> None:
    software = _software("GROMACS (CUDA 12.2) on 4 GPUs")
    assert software["gromacs"] == []
    assert software["cuda"] == ["==12.2"]


def test_a_stop_word_is_no_describing_word() -> None:
    assert "the" not in _software("we need the ocean model 2.1 on 4 nodes")


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        (
            "On Mon, Alice wrote:\n> Is GROMACS 2023 installed? We used it on 4 nodes.\n\n"
            "Yes, but we now need GROMACS 2024.2 on 8 nodes for 10 hours.",
            "gromacs",
            ["==2024.2"],
        ),
        (
            "> we still run OpenFOAM v10 here, anyone on v11?\n\n"
            "We moved: OpenFOAM 11 on 4 nodes, 2 days please.",
            "openfoam",
            ["==11"],
        ),
        (
            "> CP2K 2023.1 crashed for us\nWe would like CP2K 2024.1 on 2 nodes.",
            "cp2k",
            ["==2024.1"],
        ),
        (
            "> we pinned xarray 2023.x last year\nNow we need xarray 2024.6 on one node.",
            "xarray",
            ["==2024.6"],
        ),
    ],
)
def test_a_version_said_only_in_quoted_lines_yields_to_the_reply(
    text: str, name: str, versions: list[str]
) -> None:
    assert _software(text)[name] == versions


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        (
            "> We have LAMMPS 2Aug2023 on 2 nodes\n\nPlease give us LAMMPS on 16 nodes.",
            "lammps",
            ["==2Aug2023"],
        ),
        ("> Is VASP 6.4 there?\nWe need VASP 6.4 and 4 nodes.", "vasp", ["==6.4"]),
    ],
)
def test_a_quoted_version_stays_when_the_reply_gives_none_or_the_same(
    text: str, name: str, versions: list[str]
) -> None:
    assert _software(text)[name] == versions
