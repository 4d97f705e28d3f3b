"""Proper names and ordinary words a request uses that no site installs.

Places and institutions a writer works at, the mailing list or user group a request came
through, the language or programming model a code is written in, an acronym made a verb, an
eponymous method with its name misspelt, British spellings of English words, interjections of
chat, "latest" as a version and a language that only describes a model. Each class is stated
in sentences written for this test. Such a word must never become a software requirement;
where it is not plain prose it is quoted in ``unresolved`` (fail-safe). Negative cases check
that real packages of the same shapes still count.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.proper_names import (
    list_or_group_name,
    misspelt_eponym,
    place_or_institution,
)

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def read(text: str) -> tuple[list[str], str]:
    """The package names read from ``text``, and every phrase it quotes, in lower case."""
    req = parse_requirements(text, now=NOW)
    return [s.name for s in req.software], " ".join([*req.unresolved, *req.unparsed]).lower()


@pytest.mark.parametrize(
    ("text", "wanted", "not_wanted"),
    [
        (
            "Greetings from our lab in Leuven, Belgium. We need GROMACS 2024.2 on 2 nodes.",
            ["gromacs"],
            ["leuven", "belgium"],
        ),
        (
            "We are a hydrology group in Nairobi, Kenya, and run WRF 4.5 with 4 nodes.",
            ["wrf"],
            ["nairobi", "kenya"],
        ),
        (
            "PhD student from Brazil here: please set up LAMMPS 2Aug2023, nekbone and miniAMR.",
            ["lammps", "nekbone", "miniamr"],
            ["brazil"],
        ),
        (
            "Our group (limnology, Universidade de Lisboa) uses ParFlow 3.12 and hypre 2.30.",
            ["parflow", "hypre"],
            ["universidade", "limnology"],
        ),
        (
            "Hello from the Instituto de Fisica: need Quantum ESPRESSO 7.3, Wannier90 3.1.",
            ["quantum-espresso", "wannier90"],
            ["instituto"],
        ),
        (
            "[astro-hpc] Re: SWarp 2.41 and SExtractor on 1 node?",
            ["swarp"],
            ["astro-hpc"],
        ),
        (
            "Posted on bio-users: does anyone have samtools 1.19, bcftools and htslib?",
            ["samtools", "bcftools", "htslib"],
            ["bio-users"],
        ),
        (
            "You are subscribed to cfd-discuss. OpenFOAM v2312, 4 nodes, 12 hours please.",
            ["openfoam"],
            ["cfd-discuss"],
        ),
        (
            "Our legacy Fortran 77 code builds with gfortran 13 and needs netcdf-fortran 4.6.",
            ["gcc", "netcdf-fortran"],
            ["fortran"],
        ),
        (
            "The OpenACC port of our ocean solver needs nvhpc 24.5 and 2 A100 GPUs.",
            ["nvhpc"],
            ["openacc"],
        ),
        (
            "We are OCR-ing parish records with Tesseract 5.3 and kraken 5.2 on one GPU.",
            ["tesseract", "kraken"],
            ["ocr-ing"],
        ),
        (
            "Reads get QC-ed with fastp 0.23 before we align them with bwa-mem2.",
            ["fastp", "bwa-mem2"],
            ["qc-ed"],
        ),
        (
            "We need Palabos 2.3 for lattice-Boltzman simulations of porous media, 8 nodes.",
            ["palabos"],
            ["lattice-boltzman"],
        ),
        (
            "A Runge-Kuta time stepper in our code, built with PETSc 3.20, 4 nodes for 6 hours.",
            ["petsc"],
            ["runge-kuta"],
        ),
        (
            "The harbour basin model runs in TOMAWAC 8.5 on 3 nodes.",
            ["tomawac"],
            ["harbour"],
        ),
        (
            "oh and we also need snakemake 8 and mamba, 16 cores",
            ["snakemake"],
            ["oh"],
        ),
        (
            "hmm, also bedtools 2.31 please, 8 cores for 2 hours",
            ["bedtools"],
            ["hmm"],
        ),
        (
            '{"software": {"gromacs": "2024.1", "plumed": "latest"}, "nodes": 2}',
            ["gromacs", "plumed"],
            ["latest"],
        ),
        (
            "CASA 6.6 for the ASKAP continuum imaging and WSClean, 1 node",
            ["casa", "wsclean"],
            ["askap"],
        ),
        (
            "Reads from two NovaSeq 6000 lanes go through bcl-convert 4.2 on 32 cores",
            ["bcl-convert"],
            ["novaseq"],
        ),
        (
            "cryoSPARC 4.5 for a Krios dataset, 4 GPUs",
            ["cryosparc"],
            ["krios"],
        ),
        (
            "2 nodes for pcraster 4.4 (a Python hydrology model), 6 hours",
            ["pcraster"],
            ["python"],
        ),
    ],
)
def test_a_proper_name_or_ordinary_word_is_no_package(
    text: str, wanted: list[str], not_wanted: list[str]
) -> None:
    got, _ = read(text)
    for name in wanted:
        assert name in got, (text, got)
    for name in not_wanted:
        assert name not in got, (text, got)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (
            "Greetings from our lab in Leuven, Belgium. We need GROMACS 2024.2 on 2 nodes.",
            "belgium",
        ),
        ("Our legacy Fortran 77 code builds with gfortran 13, 2 nodes.", "fortran 77"),
        ("[astro-hpc] Re: SWarp 2.41 and SExtractor on 1 node?", "astro-hpc"),
        ("The OpenACC port of our ocean solver needs nvhpc 24.5 and 2 A100 GPUs.", "openacc"),
        ("We need Palabos 2.3 for lattice-Boltzman simulations, 8 nodes.", "lattice-boltzman"),
    ],
)
def test_a_name_read_as_no_package_is_still_quoted(text: str, word: str) -> None:
    assert word in read(text)[1]


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Fiji 2.14 and ImageJ on one node, 64 GB", "fiji"),
        ("We need BoltzTraP2 and phonopy 2.20 on 2 nodes", "boltztrap2"),
        ("Load the R packages eulerr and ggplot2, 4 cores", "eulerr"),
        ("osu-micro-benchmarks 7.4 and nccl-tests on 2 nodes", "nccl-tests"),
        ("dask-mpi and xarray on 4 nodes please", "dask-mpi"),
        ("We run MPAS-Ocean 8.0 with gfortran 12, 16 nodes", "gcc"),
        ("Maya 2024 + Arnold 7.2 for the renders, 10 nodes", "arnold"),
        ("Madagascar 3.1 for the seismic processing, 2 nodes", "madagascar"),
    ],
)
def test_a_real_package_of_the_same_shape_still_counts(text: str, wanted: str) -> None:
    assert wanted in read(text)[0]


def test_a_country_a_town_before_it_and_an_institution_are_places() -> None:
    text = "from Lyon, France and the Universidad de Chile"
    assert place_or_institution(text, text.index("Lyon"), "Lyon")
    assert place_or_institution(text, text.index("France"), "France")
    assert place_or_institution(text, text.index("Universidad"), "Universidad")
    text = "GROMACS, LAMMPS and CP2K"
    assert not place_or_institution(text, text.index("LAMMPS"), "LAMMPS")
    assert not place_or_institution("install fiji", 8, "fiji")  # lower case: no place


@pytest.mark.parametrize(
    ("word", "listed"),
    [
        *((w, True) for w in ("chem-hpc", "geo-users", "econ-hpc", "cfd-discuss", "ml-team")),
        *((w, False) for w in ("nccl-tests", "dask-mpi", "hpc-x", "jupyter-lab", "bwa-mem2")),
        *((w, False) for w in ("py-hpc", "Chem-HPC2")),
    ],
)
def test_mailing_lists_and_user_groups_but_no_packages(word: str, listed: bool) -> None:
    assert list_or_group_name(word) is listed


@pytest.mark.parametrize(
    ("word", "slip"),
    [
        *((w, True) for w in ("lattice-Boltzman", "Boltzman", "Runge-Kuta", "Navier-Stoke")),
        *((w, False) for w in ("eulerr", "boltztrap", "fermipy", "gibbs2", "lattice-tools")),
        ("Arnold", False),
    ],
)
def test_a_dropped_letter_in_an_eponym_is_still_the_method(word: str, slip: bool) -> None:
    assert misspelt_eponym(word) is slip


@pytest.mark.parametrize(
    ("word", "english"),
    [
        *((w, True) for w in ("harbour", "neighbours", "behaviour", "organisation", "analyse")),
        *((w, True) for w in ("optimise", "centre")),
        *((w, False) for w in ("optuna", "hifiasm", "xformers", "telemac")),
    ],
)
def test_british_spellings_are_english_and_unknown_names_are_not(word: str, english: bool) -> None:
    assert english_word(word) is english
