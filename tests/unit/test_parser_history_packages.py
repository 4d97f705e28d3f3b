"""Old tools told as history: packages of an earlier run are not the current ask.

Long tickets say what was run before ("last year we used NAMD 2.14, now we are switching to
OpenMM"), paste what a failed run printed (a log excerpt, ``module list`` output) and then
ask. A package named only there is history, while the packages asked for are named outside
it. The wordings are written for these tests, not taken from the labelled corpus. The
negative cases keep a package that the history says is used again, one named only in the
past when nothing else is asked for, and a list under "What I need:".
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(req: Requirements) -> set[str]:
    return {s.name for s in req.software}


def versions(req: Requirements, name: str) -> set[str]:
    return {c.version for s in req.software if s.name == name for c in s.constraints}


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        (
            "Last year we used NAMD 2.14 for these membranes; now we are switching to OpenMM 8.1."
            " Please give us 2 nodes for 10 hours.",
            "namd",
            "openmm",
        ),
        (
            "Previously our lab ran CP2K 9.1 on 4 nodes, but we have moved to Quantum Espresso 7.2"
            " and need 6 nodes for a day.",
            "cp2k",
            "quantum-espresso",
        ),
        (
            "In my earlier runs I used BWA 0.7.17 on the old cluster. The aligner is retired now;"
            " I need minimap2 2.26 on one node with 32 cores.",
            "bwa",
            "minimap2",
        ),
        (
            "Our previous simulations used OpenFOAM 9. This time we migrate to SU2 8.0,"
            " 3 nodes, 12 hours.",
            "openfoam",
            "su2",
        ),
        (
            "We tried Trinity 2.13 months ago but it kept crashing, so we replaced it with SPAdes"
            " 3.15; please give us 1 node with 500 GB RAM.",
            "trinity",
            "spades",
        ),
        (
            "Two years ago we ran GROMACS 2020 for this, but that setup is gone. We'd like LAMMPS"
            " 2Aug2023 on 8 nodes instead.",
            "gromacs",
            "lammps",
        ),
        (
            "My former group used to run Abaqus 2021 on their workstation; we switched over to"
            " CalculiX 2.21. Could I get 1 node with 16 cores for 6 hours?",
            "abaqus",
            "calculix",
        ),
        (
            "Back then we processed everything with Cufflinks 2.2.1, which is deprecated. We need"
            " StringTie 2.2.1 on 2 nodes.",
            "cufflinks",
            "stringtie",
        ),
        (
            "The last campaign used ORCA 5.0.4. We no longer have that licence, so please"
            " set up Psi4 1.9 on 1 node, 64 cores, 2 days.",
            "orca",
            "psi4",
        ),
        (
            "During our previous allocation we ran MrBayes 3.2.7 on 2 nodes, we're changing to"
            " BEAST 2.7 this year; 1 node with 48 cores please.",
            "mrbayes",
            "beast",
        ),
        # pasted output of a failed run
        (
            "My job failed, log excerpt:\n\n    Fatal error in /opt/hdf5-1.10.5/lib/libhdf5.so\n"
            "    abort from petsc\n\nI'd like to rerun with deal.II 9.5 on 4 nodes.",
            "petsc",
            "deal.ii",
        ),
        (
            "This is the module list output from the run that crashed:\n\n"
            "  1) gcc/8.3.0  2) boost/1.70.0  3) cp2k/7.1\n\n"
            "For the new run please give me CP2K 2024.1 on 2 nodes for 8 hours.",
            "boost",
            "cp2k",
        ),
        (
            "Since the OS upgrade the solver dies with:\n\n  ERROR: cannot open libnetcdf.so.15\n"
            "  (loaded by paraview)\n\nPlease provide OpenFOAM v2312 on 2 nodes.",
            "paraview",
            "openfoam",
        ),
    ],
)
def test_a_package_named_only_in_the_history_is_not_asked_for(
    text: str, old: str, new: str
) -> None:
    req = parse(text)
    assert new in names(req)
    assert old not in names(req)
    assert any(old in note.lower() for note in req.unparsed), "dropped package must be noted"


def test_an_old_version_in_pasted_output_gives_way_to_the_asked_one() -> None:
    req = parse(
        "The run crashed, backtrace:\n\n   at /sw/relion-3.1.4/bin/relion_refine\n\n"
        "Please give me RELION 5.0 on 1 node with 4 GPUs for 12 hours."
    )
    assert versions(req, "relion") == {"5.0"}


def test_a_script_comment_about_a_previous_tool_is_history_of_its_own() -> None:
    req = parse(
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=10:00:00\n"
        "# earlier attempts with Velvet ran out of memory, switching to MEGAHIT\n"
        "module load megahit/1.2.9\nmegahit -1 r1.fq -2 r2.fq\n"
    )
    assert "megahit" in names(req)
    assert "velvet" not in names(req)
    assert req.compute.nodes == 2


def test_an_old_library_a_colleague_blames_is_history() -> None:
    req = parse(
        "A colleague said the crash comes from the old FFTW build, so I rebuilt against"
        " FFTW 3.3.10. What I need: 4 nodes, CP2K 2024.1 and FFTW 3.3.10."
    )
    assert {"cp2k", "fftw"} <= names(req)
    assert versions(req, "fftw") == {"3.3.10"}


# -- negative: these must not be demoted ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the past clause says the package is used again
        (
            "Last year we used GROMACS 2023 and we keep it; we are switching our analysis to"
            " MDAnalysis 2.7. 2 nodes please.",
            "gromacs",
        ),
        (
            "We ran NAMD 3.0 last month and will run the same NAMD setup again, now with"
            " PLUMED 2.9 instead of colvars. 4 nodes.",
            "namd",
        ),
        # no word says the old tools were left behind
        (
            "Last year we used Salmon 1.9 on 2 nodes. Please give us 4 nodes with Snakemake 8.",
            "salmon",
        ),
        # only package named, and only in the past: kept, never lost
        (
            "We previously ran WRF 4.5 here but the allocation expired; the setup is gone and"
            " we need 10 nodes for 2 days.",
            "wrf",
        ),
        # an indented list under an ask is the request, not pasted output
        (
            "We are moving away from our old workflow. What I need now:\n\n"
            "  - Nextflow 23.10\n  - Singularity\n  - 2 nodes\n\nThanks",
            "nextflow",
        ),
        # an indented block under a plain introduction stays
        (
            "We switched clusters. Software:\n\n   OpenMM 8.1\n   CUDA 12.2\n\nplus PyTorch 2.3.",
            "openmm",
        ),
    ],
)
def test_a_package_still_asked_for_is_kept(text: str, kept: str) -> None:
    assert kept in names(parse(text))


def test_a_package_in_quoted_history_but_asked_again_is_kept() -> None:
    req = parse(
        "Previously we used VASP 6.3 and it failed. We'd like VASP 6.4 now, replacing the"
        " old build, plus Wannier90 3.1."
    )
    assert "vasp" in names(req)
    assert versions(req, "vasp") == {"6.4"}
