"""A variant written as the kind of build right after the package (dev-s round).

"NAMD 3.0 CUDA build", "the lammps kokkos build", "SU2 8.0 (the +openmp build)": the variant
word belongs to the package's build, it is no package of its own. Without the word "build", or
with a version of its own ("CUDA 12.2"), the library stays a separate requirement.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def packages(text: str) -> dict[str, tuple[str, ...]]:
    """Each package read from the text with its variants."""
    req = parse_requirements(text, now=NOW)
    return {s.name: tuple(s.variants) for s in req.software}


@pytest.mark.parametrize(
    ("text", "package", "variant"),
    [
        ("NAMD 3.0 CUDA build on 2 nodes, 8h", "namd", "+cuda"),
        ("We need the GROMACS 2024 CUDA build on 2 nodes.", "gromacs", "+cuda"),
        ("Please give us the lammps kokkos build, 4 GPUs.", "lammps", "+kokkos"),
        ("Our runs use the LAMMPS Kokkos-build, 2 nodes.", "lammps", "+kokkos"),
        ("gromacs 2023.3 rocm build, 1 node with 8 MI250X", "gromacs", "+rocm"),
        ("Is there a cp2k 2024.1 openmp build? 4 nodes.", "cp2k", "+openmp"),
        ("hdf5 1.14 mpi build needed, 64 cores", "hdf5", "+mpi"),
        (
            "Can you provide the Quantum ESPRESSO 7.3 ELPA build for 4 nodes?",
            "quantum-espresso",
            "+elpa",
        ),
        ("SU2 8.0.1 (the +openmp build) on 4 nodes x 64 cores", "su2", "+openmp"),
        ("GROMACS 2024 (a +cuda build) for 2 GPUs", "gromacs", "+cuda"),
        ("lammps 2Aug2023 (the +kokkos build) with 4 GPUs", "lammps", "+kokkos"),
        ("NAMD (the CUDA build) on 1 node", "namd", "+cuda"),
        ("AMReX 24.06 (+sycl build) on the Intel GPUs", "amrex", "+sycl"),
        ("petsc 3.21, hypre enabled, on 8 nodes", "petsc", "+hypre"),
        ("the openfoam v2312 MPI build on 16 nodes", "openfoam", "+mpi"),
    ],
)
def test_a_kind_of_build_after_the_package_is_its_variant(
    text: str, package: str, variant: str
) -> None:
    read = packages(text)
    assert variant in read.get(package, ())
    assert variant.lstrip("+") not in read  # the variant word is no package of its own


@pytest.mark.parametrize(
    ("text", "package", "library"),
    [
        ("We need GROMACS 2024 and CUDA 12.2, 1 node.", "gromacs", "cuda"),
        ("NAMD 3.0 with CUDA 12.4 installed, 2 nodes", "namd", "cuda"),
        ("GROMACS 2024 plus CUDA 12 toolkit on 1 node", "gromacs", "cuda"),
    ],
)
def test_a_library_with_its_own_version_stays_a_package(
    text: str, package: str, library: str
) -> None:
    read = packages(text)
    assert package in read
    assert library in read


def test_a_build_word_without_a_variant_word_adds_no_variant() -> None:
    read = packages("We need the gromacs 2024 CPU build on 2 nodes.")
    assert read.get("gromacs") == ()
