"""Who owns a build variant (third pass on variants).

An English-word package ("NEST", "Grid", "Octopus") owns the build it is said to be built with
when the text names it as a package too; "it" owns one when exactly one package was just named;
a bracketed version may stand between the package and its build; "with A, without B" is a build
list. Where the owner is in doubt the library stays a requirement of its own, never dropped.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def packages(text: str) -> dict[str, tuple[str, ...]]:
    """Each package read from the text with its variants."""
    req = parse_requirements(text, now=NOW)
    return {s.name: tuple(s.variants) for s in req.software}


@pytest.mark.parametrize(
    ("text", "package", "variants"),
    [
        # an English-word package confirmed by a version elsewhere
        (
            "We run Elephant 1.1 for spike trains. Elephant must be built with MPI support.",
            "elephant",
            ("+mpi",),
        ),
        ("Tiger 3.2 is our solver; please have Tiger compiled with OpenMP.", "tiger", ("+openmp",)),
        (
            "Subject: Falcon 2.0\n\nFalcon needs to be built with CUDA, 1 node.",
            "falcon",
            ("+cuda",),
        ),
        # a package noun after it
        ("we need the Harbor library compiled for CUDA on 8 nodes", "harbor", ("+cuda",)),
        ("Please provide the Lantern code built with HIP, 2 nodes.", "lantern", ("+rocm",)),
        ("is the Compass toolkit built with SYCL available? 1 node", "compass", ("+sycl",)),
        # a form's software key
        ("- Code: Beacon, built with OpenMP\n- Nodes: 2", "beacon", ("+openmp",)),
        ("software = Meadow, compiled for CUDA\nnodes = 1", "meadow", ("+cuda",)),
        # "it" for the one package just named
        (
            "We would like to run Octopus 14 for plasmonics. Could you have it built with CUDA?",
            "octopus",
            ("+cuda",),
        ),
        (
            "GROMACS 2024 is what we use. We need it compiled with PLUMED, 2 nodes.",
            "gromacs",
            ("+plumed",),
        ),
        (
            "I plan to use CP2K 2024.1 next week; can someone get it built with ELPA?",
            "cp2k",
            ("+elpa",),
        ),
        # a bracketed version between the package and its build
        (
            "We use LAMMPS (stable 29Aug2024 version) with the KOKKOS package, 2 nodes.",
            "lammps",
            ("+kokkos",),
        ),
        ("GROMACS (release 2024.3) with CUDA support on 1 node", "gromacs", ("+cuda",)),
        # with A, without B
        ("Boost 1.83 with Python but without MPI, 1 node", "boost", ("+python", "~mpi")),
        ("we need HDF5 1.14 without MPI, with Fortran", "hdf5", ("~mpi", "+fortran")),
        ("PETSc 3.21 with MUMPS and without HYPRE on 4 nodes", "petsc", ("+mumps", "~hypre")),
        ("need netcdf-c with HDF5; without MPI, 1 node", "netcdf-c", ("+hdf5", "~mpi")),
    ],
)
def test_the_owner_of_the_build_gets_the_variant(
    text: str, package: str, variants: tuple[str, ...]
) -> None:
    found = packages(text)
    assert found.get(package) == variants, found


def test_the_bracketed_version_is_kept() -> None:
    req = parse_requirements("LAMMPS (stable 29Aug2024 version) with the KOKKOS package", now=NOW)
    (lammps,) = [s for s in req.software if s.name == "lammps"]
    assert [c.version for c in lammps.constraints] == ["29Aug2024"]


@pytest.mark.parametrize(
    ("text", "library"),
    [
        # prose and stop words own no build: the library stays a requirement
        ("The model built with CUDA runs on 4 nodes.", "cuda"),
        ("Our code compiled for CUDA needs 2 nodes.", "cuda"),
        ("This solver built with CUDA is what we use, 1 node.", "cuda"),
        # "it" with no package, or two to choose from
        ("Our pipeline is slow. Can you have it built with CUDA?", "cuda"),
        ("We run GROMACS 2024 and Python 3.11. We need it compiled with CUDA, 2 nodes.", "cuda"),
        # a history sentence is no "it must be built" ("was" is not a must)
        ("GROMACS 2024 worked. The old site said it was built with CUDA.", "cuda"),
    ],
)
def test_no_owner_leaves_the_library_a_requirement(text: str, library: str) -> None:
    found = packages(text)
    assert library in found, found
    assert all(library.lstrip("+") not in "".join(v) for v in found.values()), found


def test_two_withs_are_no_contrast() -> None:
    """ "LAMMPS with MPI, with OpenMP": no "without" to make it a build list, so nothing new
    is read as a variant of LAMMPS here (the with-only rule decides, as before)."""
    found = packages("LAMMPS 2Aug2023 with MPI, with OpenMP, 4 nodes")
    assert "~mpi" not in found.get("lammps", ())


def test_an_english_word_number_is_no_version() -> None:
    """ "Falcon 2 nodes" counts nodes: it does not make "Falcon" a package."""
    found = packages("Falcon 2 nodes please. Falcon built with CUDA would be ideal.")
    assert "falcon" not in found or found["falcon"] == (), found
    assert "cuda" in found, found
