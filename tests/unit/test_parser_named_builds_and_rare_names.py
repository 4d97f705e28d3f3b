"""Builds named by their noun, build libraries as variants, and rare dictionary words as names.

"GROMACS 2024 in the version with CUDA" is the CUDA build of GROMACS, not GROMACS and a CUDA
toolkit beside it; "deal.II built with p4est" is a build of deal.II. A rare dictionary word
that a list of packages holds on both sides ("terra, sdmTMB and vegan for ...") is a package to
find, as a rare word that is no near typo already is; everyday words stay what they were.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _variants(text: str) -> dict[str, tuple[str, ...]]:
    return {s.name: tuple(s.variants) for s in parse_requirements(text).software}


def _names(text: str) -> set[str]:
    return {s.name for s in parse_requirements(text).software}


@pytest.mark.parametrize(
    ("text", "name", "variant"),
    [
        ("I'd like GROMACS 2023.3 in the version with CUDA, 2 nodes.", "gromacs", "+cuda"),
        ("NAMD 3.0, the build with CUDA please, 12 hours", "namd", "+cuda"),
        ("LAMMPS, the build with KOKKOS, on 4 nodes", "lammps", "+kokkos"),
        ("we run cp2k 2024.1 as the version with ELPA", "cp2k", "+elpa"),
        (
            "Quantum ESPRESSO 7.3 in a version with OpenMP would be fine",
            "quantum-espresso",
            "+openmp",
        ),
        ("HDF5 1.14, the variant with MPI, is what we need", "hdf5", "+mpi"),
        ("please provide AMBER in the version with CUDA", "amber", "+cuda"),
        ("Is there a PETSc 3.20 in the build with MUMPS?", "petsc", "+mumps"),
        ("need OpenFOAM v2312 in its version with MPI", "openfoam", "+mpi"),
        ("FFTW 3.3.10 the version with OpenMP, single node", "fftw", "+openmp"),
        ("deal.II 9.5, built with Trilinos and p4est support", "deal.ii", "+p4est"),
        ("deal.II 9.5, built with Trilinos and p4est support", "deal.ii", "+trilinos"),
        ("our solver needs deal.II built with p4est", "deal.ii", "+p4est"),
        ("Could you compile dealii 9.6 with p4est support for us?", "dealii", "+p4est"),
        ("PETSc 3.21 configured with Trilinos, 8 nodes", "petsc", "+trilinos"),
    ],
)
def test_a_named_build_or_a_build_library_is_a_variant(text: str, name: str, variant: str) -> None:
    found = _variants(text)
    assert variant in found.get(name, ()), found


@pytest.mark.parametrize(
    ("text", "library"),
    [
        ("GROMACS 2024.4 in the version with CUDA", "cuda"),
        ("deal.II 9.5 built with p4est", "p4est"),
        ("LAMMPS, the build with KOKKOS", "kokkos"),
    ],
)
def test_a_build_library_is_not_read_as_a_package_beside_it(text: str, library: str) -> None:
    assert library not in _names(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("R 4.3 and packages terra, sdmTMB and vegan for 3,000 species", "vegan"),
        ("the fixest, vegan and data.table packages", "vegan"),
        ("R with data.table, vegan, sdmTMB on 1 node", "vegan"),
        ("the sdmTMB and vegan packages", "vegan"),
        ("R with data.table + vegan, 8 cores", "vegan"),
    ],
)
def test_a_rare_word_a_list_of_packages_holds_is_a_name(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("We need the whole package installed", "whole"),
        ("the graphics package of the site", "graphics"),
        ("gromacs and vegan food for the party", "vegan"),
        ("the standard package is fine", "standard"),
        ("the tensor library is fast", "tensor"),
        ("It needs the tensor package from our group", "tensor"),
        ("lammps and later for the rest", "later"),
        ("GROMACS 2024, the version we used before", "used"),
    ],
)
def test_everyday_words_stay_no_names(text: str, word: str) -> None:
    assert word not in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "GROMACS 2024 with MPI on 2 nodes",  # a plain "with MPI" may ask for an MPI beside it
        "LAMMPS 2Aug2023 and the version with nothing extra",
    ],
)
def test_a_plain_with_keeps_its_old_reading(text: str) -> None:
    assert "+mpi" not in _variants(text).get("gromacs", ())
    assert all(not v for v in _variants(text).get("lammps", ()))


def _versions(text: str) -> dict[str, tuple[str, ...]]:
    return {
        s.name: tuple(c.version for c in s.constraints) for s in parse_requirements(text).software
    }


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("LAMMPS+kokkos (2Aug2023), 2 nodes x 4 A100, IB, 12h", "lammps", "2Aug2023"),
        ("gromacs+cuda (2024.1) on 2 nodes", "gromacs", "2024.1"),
        ("hdf5~mpi (version 1.14.3) and netcdf", "hdf5", "1.14.3"),
        ("please load lammps+kokkos+cuda (29Aug2024)", "lammps", "29Aug2024"),
        ("petsc+mumps (v3.21.2), 8 nodes", "petsc", "3.21.2"),
    ],
)
def test_a_bracketed_release_after_a_spec_is_its_version(
    text: str, name: str, version: str
) -> None:
    assert _versions(text).get(name) == (version,)


@pytest.mark.parametrize(
    "text", ["lammps+kokkos (4 nodes), 12h", "lammps+kokkos (2) please", "gromacs+cuda (x2)"]
)
def test_a_bracketed_count_after_a_spec_is_no_version(text: str) -> None:
    assert all(not v for v in _versions(text).values())
