"""Packages asked for in a package list or after a language's package noun are never lost.

A bare item in a YAML block list under ``software:`` or after a pinned item of a
``SOFTWARE=a==1;b`` value is a package the job needs, as much as the pinned ones beside it.
"The R package limma" names limma as surely as "the limma R package", and in "the mace-torch
Python package 0.3.6" the version is mace-torch's, not Python's. What these cues do not cover
stays quoted in ``unresolved``: never dropped, never read as a package on a guess.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _software(text: str) -> dict[str, list[str]]:
    return {
        s.name: [f"{c.op.value}{c.version}" for c in s.constraints]
        for s in parse_requirements(text).software
    }


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("software:\n  - openmm>=8.1\n  - qvalue\ncores: 8", "qvalue"),
        ("job:\n  software:\n    - numpy==1.26\n    - pyprind\n  gpus: 1", "pyprind"),
        ("packages:\n- tidybayes\n- brms 2.21\nmemory: 64GB", "tidybayes"),
        ("dependencies:\n  - python=3.11\n  - xgcm\n  - dask\nwalltime: 2h", "xgcm"),
        ("modules:\n  - gcc/12.2.0\n  - sctransform\nnodes: 2", "sctransform"),
        ("tools:\n  - samtools 1.19\n  - bambi  # the Bayesian models\nnodes: 1", "bambi"),
        ("libraries:\n  - emmeans\n  - lme4 >= 1.1\ntime: 4h", "emmeans"),
        ("# software:\n#  - hdf5@1.14\n#  - zfpy\nsrun ./a.out", "zfpy"),
        ("SOFTWARE=NetLogo==6.4.0;R>=4.3;pyemu\nCORES=40", "pyemu"),
        ("software=gromacs==2024.1;plumed2;mdtraj\nnodes=2", "mdtraj"),
        ("packages=numpy>=1.26,xgcm\ngpus=0", "xgcm"),
        ("app=lammps==2Aug2023; pyprind\nnodes=4", "pyprind"),
    ],
)
def test_a_bare_item_of_a_package_list_is_a_package(text: str, name: str) -> None:
    assert name in _software(text)


def test_the_pinned_items_keep_their_versions_beside_the_bare_ones() -> None:
    software = _software("software:\n  - openmm>=8.1\n  - qvalue\n  - pymbar==4.0.3\ncores: 8")
    assert software == {"openmm": [">=8.1"], "qvalue": [], "pymbar": ["==4.0.3"]}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("For the statistics we use the R package limma afterwards.", "limma"),
        ("Could you install the R package glmmtmb on the login node?", "glmmtmb"),
        ("we rely on the Bioconductor package apeglm for the FDR step", "apeglm"),
        ("I also need a Julia package called trixi for the DG solver.", "trixi"),
        ("The pipeline calls the Python library pyemu at the end.", "pyemu"),
        ("Needed: the CRAN package tidybayes, 2 nodes, 8 hours.", "tidybayes"),
        ("please add the Python module xgcm to the environment", "xgcm"),
        ("the conda package zfpy must be there", "zfpy"),
    ],
)
def test_a_name_after_a_language_package_noun_is_a_package(text: str, name: str) -> None:
    assert name in _software(text)


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("we need the mace-torch Python package 0.3.6 and ROCm 6.0", "mace-torch", "==0.3.6"),
        ("we need the mace-torch Python\npackage 0.3.6 on 4 nodes", "mace-torch", "==0.3.6"),
        ("Please provide the tximport R package 1.30 for us.", "tximport", "==1.30"),
        ("plus the pyemu-tools Python library 1.3.2, thanks", "pyemu-tools", "==1.3.2"),
    ],
)
def test_a_version_after_a_language_package_noun_is_the_packages(
    text: str, name: str, version: str
) -> None:
    software = _software(text)
    assert software.get(name) == [version]
    assert "python" not in software and "r" not in software


@pytest.mark.parametrize(
    ("text", "language", "version"),
    [
        ("Python 3.11 and the xgcm Python package", "python", "==3.11"),
        ("the R package limma, with R 4.3 please", "r", "==4.3"),
        ("R 4.4 plus the tximport R package 1.30", "r", "==4.4"),
    ],
)
def test_the_language_keeps_a_version_of_its_own(text: str, language: str, version: str) -> None:
    assert version in _software(text).get(language, [])


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("requirements:\n  - quillonite\n  - 4 nodes", "quillonite"),
        ("notes:\n  - foobarbaz\n  - see ticket 12\ncores: 4", "foobarbaz"),
        ("NOTE=zorbulator;see ticket\nCORES=4", "zorbulator"),
        ("software:\n  - ask Quillon about it\ncores: 4", "quillon"),
    ],
)
def test_words_outside_a_package_list_stay_quoted(text: str, word: str) -> None:
    parsed = parse_requirements(text)
    assert word not in {s.name for s in parsed.software}
    assert any(word in u.lower() for u in parsed.unresolved)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("the R package ecosystem is huge these days", "ecosystem"),
        ("everything comes from the Python package index", "index"),
        ("our R package repository mirror is slow", "repository"),
    ],
)
def test_a_compound_with_a_package_noun_is_no_package(text: str, word: str) -> None:
    assert word not in _software(text)


def test_a_version_lent_to_a_name_not_read_stays_with_the_language() -> None:
    """ "cp2k.psmp" beside CP2K is a program, no package: the version after "Python package"
    must then stay read (as Python's), never be lost with the word."""
    software = _software("run cp2k.psmp Python package 3.1 with CP2K 2024.1")
    assert software.get("python") == ["==3.1"]
