"""Names a request mentions that are no package for the site to install.

Three kinds, each stated beside the package that is the real requirement:

- a program, sub-command or component credited to a named package ("featureCounts (subread
  2.0.6)", "hhblits from HH-suite", "OpenFOAM's snappyHexMesh", "Boost.Python"): the
  package is installed, the program comes with it;
- a package the writer keeps on a machine of their own ("GaussView is on my laptop");
- a package named only in the history of the request ("Last year this went through fMRIPrep,
  but this time we run FreeSurfer").

Each word stays quoted (unresolved) or noted, never silently dropped. The negative cases
keep what is asked for: a package built on a language ("statnet (R 4.3)"), an interface and
its engine ("cmdstanr (CmdStan 2.35)"), a choice in brackets, a package on a laptop that is
wanted here too. The sentences are written for these tests.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def names_in(text: str) -> list[str]:
    """The package names read from ``text``."""
    return [s.name for s in parse_requirements(text, now=NOW).software]


def unresolved(text: str) -> str:
    return " | ".join(parse_requirements(text, now=NOW).unresolved)


# -- a program credited to a named package ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "package", "program"),
    [
        (
            "tools: STAR 2.7.11b, featureCounts (subread 2.0.6), MultiQC 1.21; 48 cores",
            "subread",
            "featureCounts",
        ),
        ("We run hhblits from HH-suite 3.3 on one node with 64 cores", "hh-suite", "hhblits"),
        (
            "The mesh comes from OpenFOAM's snappyHexMesh; we need OpenFOAM v2312 on 8 nodes.",
            "openfoam",
            "snappyHexMesh",
        ),
        ("ESMFold from fair-esm 2.0.0 on PyTorch 2.3, one A100", "fair-esm", "ESMFold"),
        ("We call pvbatch of ParaView 5.12 on 2 nodes for 45 minutes.", "paraview", "pvbatch"),
        (
            "Please provide HMMER 3.4; HMMER's jackhmmer does the search, 64 cores, 8 hours",
            "hmmer",
            "jackhmmer",
        ),
        (
            "Variant calling with GenotypeGVCFs (from GATK 4.5) on one node, 512 GB",
            "gatk",
            "GenotypeGVCFs",
        ),
        (
            "Plots come from rdfquick (part of ROOT 6.30), 200 cores in total",
            "root",
            "rdfquick",
        ),
        (
            "we need gmx_energy2 (GROMACS 2024.2) and 4 GPUs for 12 hours",
            "gromacs",
            "gmx_energy2",
        ),
        (
            "Run meshfem3D of SPECFEM3D_GLOBE 8.1 on 384 MPI processes",
            "specfem3d_globe",
            "meshfem3D",
        ),
        ("we use fq2bam (Parabricks 4.3.1) with 2 L4 GPUs", "parabricks", "fq2bam"),
        (
            "the kinetics library links Boost.Python, so Boost 1.84 with Python, 8 cores",
            "boost",
            "Boost.Python",
        ),
        ("Need Boost 1.83 for Boost.Filesystem, 4 cores", "boost", "Boost.Filesystem"),
        (
            "We need Quorbix 2.1 and run quorbix.assemble_all on 16 cores",
            "quorbix",
            "quorbix.assemble_all",
        ),
    ],
)
def test_a_program_of_a_named_package_is_quoted_not_read(
    text: str, package: str, program: str
) -> None:
    names = names_in(text)
    assert package in names
    assert program.lower() not in names
    assert program in unresolved(text)  # fail-safe: the word is still shown to a reader


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a package written in a language, or an interface and its engine: both asked for
        ("Could I run ERGMs with statnet (R 4.3) on one node with 16 cores", {"r", "statnet"}),
        ("R 4.4 + brms + cmdstanr (CmdStan 2.35), 8 cores", {"r", "brms", "cmdstanr", "cmdstan"}),
        ("We need Agents.jl from Julia 1.10 on 32 cores", {"julia", "agents.jl"}),
        # ".jl" after a named package is a package of its own
        ("Need Tramontex 1.2 on 4 cores and the Tramontex.jl bindings", {"tramontex.jl"}),
    ],
)
def test_packages_credited_to_a_language_or_engine_stay(text: str, expected: set[str]) -> None:
    assert expected <= set(names_in(text))


def test_a_bracket_that_goes_on_after_the_version_offers_a_choice_not_an_owner() -> None:
    # "(quorbix 2.1 or newer also fine)": the bracket credits no program to Quorbix
    text = "tools = fastmixr (quorbix 2.1 or newer also fine), multiqc 1.21"
    assert {"fastmixr", "quorbix", "multiqc"} <= set(names_in(text))


# -- a package the writer keeps on a machine of their own --------------------------------


@pytest.mark.parametrize(
    ("text", "asked", "kept"),
    [
        (
            "Gaussian 16 on one node, 32 cores. GaussView is only used on our desktops.",
            "gaussian",
            "GaussView",
        ),
        (
            "I need Gaussian 16 and Multiwfn 3.8; GaussView is on my laptop already. 16 cores",
            "multiwfn",
            "GaussView",
        ),
        ("We need CP2K 2024.1 on 4 nodes. VMD is installed on our workstations.", "cp2k", "VMD"),
        ("need LAMMPS 2Aug2023 on 4 nodes; OVITO is on my Mac", "lammps", "OVITO"),
        (
            "Need GROMACS 2024 on 2 nodes; PyMOL is installed on my local workstation",
            "gromacs",
            "PyMOL",
        ),
        (
            "Need GROMACS 2024 on 2 nodes; PyMOL is\ninstalled on our own computers",
            "gromacs",
            "PyMOL",
        ),
    ],
)
def test_a_package_on_the_writers_own_machine_is_not_asked_for(
    text: str, asked: str, kept: str
) -> None:
    names = names_in(text)
    assert asked in names
    assert kept.lower() not in names
    assert kept in unresolved(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("LAMMPS is on my laptop, but I need it on 4 nodes with 64 cores", "lammps"),
        ("GROMACS is on my laptop and we need GROMACS 2024 on 2 GPUs", "gromacs"),
        ("We need OVITO 3.10 on the cluster; it is on my laptop but too slow", "ovito"),
        ("Ovito is installed on my workstation, and we need Ovito 3.10 here", "ovito"),
        ("ParaView 5.12 is too slow on my workstation, so ParaView 5.12 on 2 nodes", "paraview"),
    ],
)
def test_a_package_on_a_laptop_that_is_wanted_here_stays(text: str, name: str) -> None:
    assert name in names_in(text)


# -- a package named only in the history -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "asked", "past"),
    [
        (
            "Last year this went through fMRIPrep 23.2, but this time we run FreeSurfer 7.4.1"
            " directly. 500 cores",
            "freesurfer",
            "fmriprep",
        ),
        (
            "Historically we used STAR-CCM+ for everything, but our licence expired in June,"
            " so for this round we need SU2 7.5 on 32 nodes",
            "su2",
            "star-ccm+",
        ),
        (
            "Last spring we ran Delft3D 4; this time we need SFINCS 2.1 on one node",
            "sfincs",
            "delft3d",
        ),
        (
            "Previously we used CASTEP 22, but this round it is Quantum ESPRESSO 7.3 on 4 nodes",
            "quantum-espresso",
            "castep",
        ),
    ],
)
def test_a_package_of_the_story_before_this_time_is_not_asked_for(
    text: str, asked: str, past: str
) -> None:
    names = names_in(text)
    assert asked in names
    assert past not in names


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("This time we need GROMACS 2024 again, 2 GPUs", "gromacs"),
        ("We need NAMD 3.0 this time, 2 GPUs for 24 hours", "namd"),
        ("Last year we used CP2K 2023 and this time we keep CP2K 2024.1, 4 nodes", "cp2k"),
    ],
)
def test_a_package_asked_for_this_time_stays(text: str, name: str) -> None:
    assert name in names_in(text)
