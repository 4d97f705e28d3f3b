"""Build variants said in ordinary words: a back end listed with MPI, a library named by an
English word after "compiled with", a build named after a describing noun, a build glossed
in brackets, and a build named inside the version's brackets."""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing.parser import parse_requirements


def _software(text: str) -> dict[str, tuple[list[str], list[str]]]:
    found = parse_requirements(text).software
    return {
        s.name: ([f"{c.op.value}{c.version}" for c in s.constraints], sorted(s.variants))
        for s in found
    }


@pytest.mark.parametrize(
    ("text", "name", "variants"),
    [
        # a back end in the same list makes MPI a build option too
        ("We need HDF5 1.14 with MPI and OpenMP on 2 nodes.", "hdf5", ["+mpi", "+openmp"]),
        ("please provide fftw with mpi and openmp", "fftw", ["+mpi", "+openmp"]),
        ("PETSc 3.21 with MPI and CUDA for the solver runs", "petsc", ["+cuda", "+mpi"]),
        ("LAMMPS with MPI, Kokkos and CUDA please", "lammps", ["+cuda", "+kokkos", "+mpi"]),
        # an English word in capitals after "compiled with" names a coupled library
        ("I need ADCIRC 55 compiled with SWAN for the hindcast.", "adcirc", ["+swan"]),
        ("SCHISM 5.10 built with SEDIMENT on 4 nodes", "schism", ["+sediment"]),
        ("ROMS 4.1 compiled against SEAICE, 8 nodes", "roms", ["+seaice"]),
        # a describing noun between the package and the build
        ("# GENE gyrokinetic code, double-precision build", "gene", ["+double"]),
        ("ORB5 turbulence code, CUDA build, on 2 GPU nodes", "orb5", ["+cuda"]),
        ("SWASH wave model, the MPI build, 6 hours", "swash", ["+mpi"]),
        ("GROMACS 2024, double precision build", "gromacs", ["+double"]),
        ("Nek5000 19.0: OpenMP version please", "nek5000", ["+openmp"]),
        # a kind of build glossed by its back end in brackets, typos kept
        ("need QE 7.2 GPU build (cuda) on 1 node", "quantum-espresso", ["+cuda"]),
        ("NAMD 3.0 gpu buld (CUDA) pls", "namd", ["+cuda"]),
        ("LAMMPS 2Aug2023 accelerated build (kokkos), 4 nodes", "lammps", ["+kokkos"]),
        ("cp2k 2024.1 parallel biuld (mpi) thx", "cp2k", ["+mpi"]),
        # the build named inside the version's brackets
        (
            "XBeach (version 1.23 or later, the build compiled with OpenMP) for 30 runs",
            "xbeach",
            ["+openmp"],
        ),
        ("SWAN (40.51 or newer, a build compiled with MPI) on 3 nodes", "swan", ["+mpi"]),
        ("Elmer (release 9.0, the version built with OpenMP) please", "elmer", ["+openmp"]),
    ],
)
def test_build_variant_is_read(text: str, name: str, variants: list[str]) -> None:
    software = _software(text)
    assert name in software, software
    assert software[name][1] == variants


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("I need ADCIRC v56 compiled with SWAN", "adcirc", "==56"),
        ("XBeach (version 1.24 or newer, the build compiled with OpenMP)", "xbeach", ">=1.24"),
        ("QE 7.3 GPU buld (cuda) on 2 nodes", "quantum-espresso", "==7.3"),
        ("FFTW 3.3.10 with MPI and OpenMP", "fftw", "==3.3.10"),
    ],
)
def test_version_is_kept_beside_the_build(text: str, name: str, version: str) -> None:
    assert _software(text)[name][0] == [version]


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        # plain "with MPI" alone still asks for an MPI beside the package
        ("LAMMPS with MPI on 4 nodes", "+mpi"),
        # a capitalised word of prose, hardware or a way of running is no library
        ("WRF compiled with ALL options", "+all"),
        ("GROMACS compiled with AVX on the new nodes", "+avx"),
        ("the code compiled with Care", "+care"),
    ],
)
def test_no_variant_from_prose(text: str, absent: str) -> None:
    for versions_variants in _software(text).values():
        assert absent not in versions_variants[1]


@pytest.mark.parametrize(
    "text",
    [
        "the simulation code, double-precision build",
        "Our code, double precision version, is slow",
        "This model, CUDA build, ran last year",
        "my own solver, the MPI build, 4 nodes",
    ],
)
def test_no_package_made_from_a_describing_phrase(text: str) -> None:
    software = _software(text)
    assert not {"the", "our", "this", "my", "simulation", "own"} & set(software), software


def test_with_mpi_alone_is_an_mpi_request() -> None:
    parsed = parse_requirements("LAMMPS 2Aug2023 with MPI on 4 nodes")
    assert parsed.mpi is not None
    assert all("+mpi" not in s.variants for s in parsed.software)


def test_gpu_build_gloss_is_no_cuda_package() -> None:
    assert "cuda" not in _software("QE 7.3 GPU buld (cuda) on 2 nodes")


@pytest.mark.parametrize(
    "text",
    [
        "we must use MVAPICH2 2.3.7, the MPI build the code was validated with",
        "Open MPI 4.1, the CUDA-aware build, on 2 nodes",
        "Apptainer 1.2, the rootless build",
    ],
)
def test_an_mpi_or_runtime_owns_no_build(text: str) -> None:
    software = _software(text)
    assert not {"mvapich2", "openmpi", "open", "apptainer"} & set(software), software


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("the CUDA build of Chroma (any release from 2022 onward) with QUDA", "chroma", ">=2022"),
        ("LAMMPS (any version from 2Aug2023 onwards) on 4 nodes", "lammps", ">=2Aug2023"),
        ("GROMACS (from 2023.1 onward) please", "gromacs", ">=2023.1"),
        ("cp2k (any release from 2024.1 and later)", "cp2k", ">=2024.1"),
        ("OpenFOAM (any release from v2306 onwards)", "openfoam", ">=2306"),
    ],
)
def test_a_starting_release_in_brackets(text: str, name: str, version: str) -> None:
    assert _software(text)[name][0] == [version]


def test_a_range_from_to_in_brackets_keeps_both_ends() -> None:
    assert _software("GROMACS (from 2022 to 2024) please")["gromacs"][0] == [">=2022", "<=2024"]
