"""A language named bare before a noun of a part describes that part, it is no requirement.

"The Python side uses mpi4py", "the python package aquacrop", "ParaView's Python batch mode":
the package named beside the language carries the requirement, and a site that has it has the
language. The language word is not dropped silently: it stays quoted (unresolved), so a site is
never READY on it unseen. With a version ("the Python 3.11 bindings", "Python 3.12 with numpy")
or as the language a job is run in ("my analysis is in Python with pandas") it is asked for.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _names(text: str) -> set[str]:
    req = parse_requirements(text)
    chosen = {s.name for group in req.alternatives for s in group.any_of}
    return {s.name for s in req.software} | chosen


@pytest.mark.parametrize(
    ("text", "language", "package"),
    [
        ("The Python side of the workflow calls mpi4py; 4 nodes please.", "python", "mpi4py"),
        (
            "I model crop yield with the python package aquacrop 3.0.6 on 40 cores.",
            "python",
            "aquacrop",
        ),
        ("Post-processing goes through the Python bindings of openmm, 1 GPU.", "python", "openmm"),
        ("We drive hoomd-blue through its Python API on 2 GPUs.", "python", "hoomd-blue"),
        ("The Python packages xarray and dask do the regridding, 64 GB RAM.", "python", "xarray"),
        ("the python module healpy is all we import, 8 cores", "python", "healpy"),
        ("Our R packages brms and lme4 need 16 cores for 10 hours.", "r", "brms"),
        (
            "The Julia packages DifferentialEquations.jl and Flux.jl, 1 node.",
            "julia",
            "differentialequations.jl",
        ),
        (
            "Rendering uses Blender 4.1 and its Python scripting interface, 2 GPUs.",
            "python",
            "blender",
        ),
        (
            "ParaView 5.11 in its Python batch mode renders the frames on 1 node.",
            "python",
            "paraview",
        ),
        ("the python library pcse runs 500 crop simulations in 6 hours", "python", "pcse"),
        ("Psi4 1.9 is called from the Python front-end; 32 cores please.", "python", "psi4"),
        (
            "On the Python side we only import geopandas 0.14, 1 node for 3 hours.",
            "python",
            "geopandas",
        ),
        ("VisIt 3.3 driven by its Python interface, 4 nodes", "python", "visit"),
        ("The Perl modules of BioPerl 1.7 parse the GenBank files on 4 cores.", "perl", "bioperl"),
        ("We mesh with gmsh 4.12 through its python wrapper, 8 cores.", "python", "gmsh"),
        ("the simulator is nest 3.6 with the Python layer for setup, 2 nodes", "python", "nest"),
    ],
)
def test_a_language_before_a_part_is_no_requirement(text: str, language: str, package: str) -> None:
    req = parse_requirements(text)
    names = {s.name for s in req.software}
    assert package in names
    assert language not in names
    quoted = " ".join((*req.unresolved, *req.unparsed)).lower()
    assert language in quoted.split() or f"{language} " in quoted  # quoted, never dropped


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("the code is a plain Python 3.12 script using numpy", "python"),
        ("I need Python 3.11 and the dask package", "python"),
        ("My analysis is in Python with pandas and scikit-learn, 1 node.", "python"),
        ("the Python 3.11 bindings of openmm on 1 GPU", "python"),
        ("at least Python 3.10 for the package build", "python"),
        ("python 3.10 or 3.11 plus polars", "python"),
        ("We use Python, xarray and rioxarray on 4 nodes.", "python"),
        ("Please install R 4.3 and the R packages brms and lme4.", "r"),
        ("srun python train.py  # torch 2.3", "python"),
        ("Python packages numpy and scipy, plus Python 3.12 itself", "python"),
    ],
)
def test_a_language_asked_for_stays_a_requirement(text: str, language: str) -> None:
    assert language in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "we only need the Python bindings, 2 nodes for 4 hours",
        "some Julia packages, 1 node",
        "the Python side of things on 8 cores",
    ],
)
def test_a_language_named_alone_before_a_part_stays(text: str) -> None:
    assert _names(text)  # no other package carries it: the language is the requirement
