"""Build variants tied to a package, and packages or versions offered as a choice.

The sentences are written for these tests (not copied from the corpus). A variant is read only
when the text ties it to the package; "X or Y" is a choice, with or without versions, also for
names the catalogue does not know. The negative cases are the shapes the rules must not take.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def required(req: Requirements) -> dict[str, tuple[str, ...]]:
    return {s.name: s.variants for s in req.software}


def choices(req: Requirements) -> list[list[str]]:
    return [[str(s) for s in group.any_of] for group in req.alternatives]


# -- variants ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "variant"),
    [
        ("Please set up ParaView 5.11 built with EGL for offscreen rendering.", "paraview", "+egl"),
        ("paraview with egl on one node, 1 hour", "paraview", "+egl"),
        ("We render headless, so VTK compiled with OSMesa is what we need.", "vtk", "+osmesa"),
        ("an OSMesa-enabled ParaView on 2 nodes", "paraview", "+osmesa"),
        ("LAMMPS wiht Kokkos, 4 nodes, 6 hours", "lammps", "+kokkos"),
        ("gromacs wtih cuda please, 2 GPUs", "gromacs", "+cuda"),
        ("I write output through a parallel (MPI) build of HDF5.", "hdf5", "+mpi"),
        ("The reader needs a parallel (MPI) build of NetCDF 4.9.", "netcdf", "+mpi"),
        ("PETSc 3.20 with MUMPS support, 8 nodes", "petsc", "+mumps"),
        ("CP2K 2024.1 built with libxc, 4 nodes", "cp2k", "+libxc"),
        ("WRF 4.5 with PnetCDF support for the restart files", "wrf", "+pnetcdf"),
        ("a METIS-enabled build of OpenFOAM", "openfoam", "+metis"),
        ("Just QE with OpenACC, 1 GPU node", "quantum-espresso", "+openacc"),
        ("We rely on ParFlow (CUDA build) for the basin runs.", "parflow", "+cuda"),
        ("Please load cp2k+elpa@2024.1 on 4 nodes.", "cp2k", "+elpa"),
        ("amber+cuda 24.1 on two GPUs", "amber", "+cuda"),
        ("Our model needs Brian2 built with GeNN for the large runs.", "brian2", "+genn"),
    ],
)  # fmt: skip
def test_a_variant_tied_to_its_package(text: str, name: str, variant: str) -> None:
    req = parse(text)
    assert variant in required(req).get(name, ()), required(req)
    assert variant[1:] not in required(req), "the variant is no package of its own"


@pytest.mark.parametrize(
    ("text", "name", "version", "variants"),
    [
        ("software=gromacs+cuda version=2024.3 nodes=1", "gromacs", "2024.3", {"+cuda"}),
        ("app: lammps+kokkos+cuda\nversion: 2Aug2023\nnodes: 2", "lammps", "2Aug2023",
         {"+kokkos", "+cuda"}),
        ("package = hdf5~mpi\nversion = 1.14.3\n", "hdf5", "1.14.3", {"~mpi"}),
    ],
)  # fmt: skip
def test_a_spack_spec_as_a_value_keeps_its_version_on_the_package(
    text: str, name: str, version: str, variants: set[str]
) -> None:
    req = parse(text)
    [software] = [s for s in req.software if s.name == name]
    assert set(software.variants) == variants
    assert [c.version for c in software.constraints] == [version]
    assert all("+" not in s.name and "~" not in s.name for s in req.software), required(req)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("We need GROMACS and CUDA 12 on 2 nodes.", {"gromacs", "cuda"}),
        ("PETSc with MUMPS, please, on 4 nodes", {"petsc", "mumps"}),
        ("ParaView 5.12 and Mesa for the GUI nodes", {"paraview"}),
    ],
)  # fmt: skip
def test_packages_merely_named_together_stay_apart(text: str, names: set[str]) -> None:
    req = parse(text)
    assert names <= set(required(req)), required(req)
    assert not any(required(req)[n] for n in names), required(req)


def test_with_mpi_that_means_the_job_uses_mpi_is_no_variant() -> None:
    req = parse("Run LAMMPS with MPI on 4 nodes, 128 ranks.")
    assert required(req).get("lammps") == ()
    assert req.mpi is not None


# -- alternatives -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("Need pyhton 3.11 or 3.12 with numpy.", ["pyhton ==3.11", "pyhton ==3.12"]),
        ("Either snakmake 7.32 or 8.4 works for the pipeline.",
         ["snakmake ==7.32", "snakmake ==8.4"]),
        ("MetaBAT 2.15 or 2.16, one node.", ["metabat ==2.15", "metabat ==2.16"]),
        ("foo-tool 1.2, 1.3 or 1.4 on 2 nodes", ["foo-tool ==1.2", "foo-tool ==1.3",
                                                  "foo-tool ==1.4"]),
    ],
)  # fmt: skip
def test_versions_of_an_unknown_name_offered_as_a_choice(text: str, group: list[str]) -> None:
    req = parse(text)
    assert choices(req) == [group], (choices(req), required(req))
    assert group[0].split()[0] not in required(req)


@pytest.mark.parametrize(
    ("text", "group"),
    [
        ("The model is written for PySpark 3.5, but a Dask port exists too, so either one is "
         "fine.", {"spark ==3.5", "dask"}),
        ("We have a NAMD setup and a GROMACS setup of the same membrane; either of them works.",
         {"namd", "gromacs"}),
        ("Our scripts run in Julia 1.10 and also in R 4.3; either is OK.",
         {"julia ==1.10", "r ==4.3"}),
        ("The solver exists in both Julia and R, so either Julia 1.9+ or R 4.2+ will do.",
         {"julia >=1.9", "r >=4.2"}),
        ("It was ported to CP2K and to Quantum ESPRESSO, so CP2K 2024 or QE 7.3 is fine.",
         {"cp2k ==2024", "quantum-espresso ==7.3"}),
    ],
)  # fmt: skip
def test_two_packages_offered_as_a_choice(text: str, group: set[str]) -> None:
    req = parse(text)
    assert [set(g) for g in choices(req)] == [group], (choices(req), required(req))
    assert not required(req), required(req)


@pytest.mark.parametrize(
    "text",
    [
        "We need LAMMPS and GROMACS, either one alone is useless.",
        "I use NAMD and GROMACS; I don't think either one is fine on its own.",
        "LAMMPS and GROMACS are both needed; either way 4 nodes is fine.",
        "We need both Julia and R. The analysis uses Julia 1.10 or newer.",
    ],
)
def test_packages_required_together_are_no_choice(text: str) -> None:
    req = parse(text)
    assert not choices(req), choices(req)
    assert len(req.software) == 2, required(req)


@pytest.mark.parametrize(
    "text",
    [
        "Run it on one or two nodes with GROMACS 2024.",
        "GROMACS 2023 or later, 4 nodes.",
        "python 3.10 or newer please",
        "we ran LAMMPS 3 or so times last week, now 4 nodes",
    ],
)
def test_or_later_and_counts_are_no_choice(text: str) -> None:
    assert not parse(text).alternatives


def test_either_after_an_or_of_something_else_groups_no_packages() -> None:
    req = parse(
        "The solver is ELMER 9.0 built with MUMPS, so it runs on CPU or, if you have them, on "
        "GPUs; either is fine."
    )
    assert not req.alternatives, choices(req)
