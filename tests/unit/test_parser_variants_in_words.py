"""Build variants said in ordinary words and in module names.

The sentences are written for these tests (not copied from the corpus). A variant is tied to
the package it is said of: "the CUDA build of X", "X in its MPI build", "X with KOKKOS and
CUDA", "X built with 64-bit indices and complex scalars", "double-precision X", a module named
``x-cuda/1.0`` and a Spack spec whose version comes before its variants (``x@1.2+a+b``). The
negative cases keep what must not become a variant: a library with its own version beside the
package ("with Kokkos and CUDA 12.2" asks for CUDA 12.2), MPI after a plain "with", a word of
prose before a version and a sign, modules whose hyphenated names are packages of their own.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def builds(req: Requirements) -> dict[str, set[str]]:
    return {s.name: set(s.variants) for s in req.software}


def versions(req: Requirements, name: str) -> list[str]:
    (found,) = [s for s in req.software if s.name == name]
    return [f"{c.op.value}{c.version}" for c in found.constraints]


@pytest.mark.parametrize(
    ("text", "name", "variants"),
    [
        # "the X build of NAME" / "the X version of NAME", names the catalogue lacks
        ("I'd like the CUDA build of Qlattice on two GPU nodes.", "qlattice", {"+cuda"}),
        ("Our group needs the ROCm version of Meep for the MI250X runs.", "meep", {"+rocm"}),
        ("the serial one is too slow, we need the MPI version of TOMAWAC", "tomawac", {"+mpi"}),
        ("Is there an OpenMP build of Delft3D on the cluster?", "delft3d", {"+openmp"}),
        # "NAME in its X build" / "as the X build"
        ("We run Basilisk (release 2024.1) in its MPI build on 4 nodes.", "basilisk", {"+mpi"}),
        ("NAMD 3.0 as the CUDA build, 1 node with 4 GPUs", "namd", {"+cuda"}),
        ("Please provide OpenRadioss in the double precision version.", "openradioss", {"+double"}),
        # "with A and B" after the name, each a back end
        ("gromacs 2024 with CUDA and PLUMED, 2 nodes", "gromacs", {"+cuda", "+plumed"}),
        ("need Kokkos with OpenMP and CUDA for the mini-app", "kokkos", {"+openmp", "+cuda"}),
        ("lammps w/ kokkos & cuda for 12 h", "lammps", {"+kokkos", "+cuda"}),
        # options said in words
        ("hypre 2.31 built with 64-bit integers please", "hypre", {"+int64"}),
        ("PETSc with 64-bit indices and complex scalars, 8 nodes", "petsc", {"+int64", "+complex"}),
        ("trilinos built with 64-bit indexing for the big mesh", "trilinos", {"+int64"}),
        ("a double-precision GROMACS 2023 for the free-energy runs", "gromacs", {"+double"}),
        ("run CP2K in double precision, 4 nodes", "cp2k", {"+double"}),
        ("the double precision build of GROMACS, please", "gromacs", {"+double"}),
        # libraries a build is linked with, lower-case names
        ("CP2K 2025.1 configured with libint and ELPA", "cp2k", {"+libint", "+elpa"}),
        (
            "cp2k built with libint, libxc and scalapack",
            "cp2k",
            {"+libint", "+libxc", "+scalapack"},
        ),
        # module names: the package, its back end, its version
        ("module load qmcpack-cuda/3.17.0\nsrun ./run", "qmcpack", {"+cuda"}),
        ("module load gromacs-rocm/2024.1", "gromacs", {"+rocm"}),
        ("please use warpx-sycl/24.08 on the Aurora-like nodes", "warpx", {"+sycl"}),
        ("milc-openmp/7.8.1 for 6 hours, 2 nodes", "milc", {"+openmp"}),
        # Spack specs with the version before the variants
        ("spack install hdf5@1.14.3+mpi+fortran~java", "hdf5", {"+mpi", "+fortran", "~java"}),
        ("need trilinos@15.1.0+kokkos+tpetra for the solver", "trilinos", {"+kokkos", "+tpetra"}),
        # a version after a blank, then the signs, as a list item writes it
        ("codes:\n  - quda 1.1.0 +rocm\n  - milc 7.8.1", "quda", {"+rocm"}),
        ("gromacs 2024.3 +cuda ~mpi please", "gromacs", {"+cuda", "~mpi"}),
    ],
)
def test_a_variant_in_words_belongs_to_its_package(
    text: str, name: str, variants: set[str]
) -> None:
    found = builds(parse(text))
    assert found.get(name) == variants, found
    assert not set(found) & {v[1:] for v in variants}, found  # no variant as a package too


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("spack install hdf5@1.14.3+mpi+fortran~java", "hdf5", "==1.14.3"),
        ("module load qmcpack-cuda/3.17.0", "qmcpack", "==3.17.0"),
        ("lammps-kokkos/2Aug2023 for the MD, 1 node", "lammps", "==2Aug2023"),
        ("codes:\n  - quda 1.1.0 +rocm", "quda", "==1.1.0"),
    ],
)
def test_the_version_stays_with_the_package_and_not_its_variants(
    text: str, name: str, version: str
) -> None:
    assert versions(parse(text), name) == [version]


def test_a_back_end_with_a_version_of_its_own_is_a_package_beside_it() -> None:
    found = builds(parse("LAMMPS with Kokkos and CUDA 12.2 on 2 nodes"))
    assert found["lammps"] == {"+kokkos"}
    assert "cuda" in found


def test_mpi_after_a_plain_with_stays_a_request_for_mpi() -> None:
    req = parse("GROMACS with CUDA and MPI on 4 nodes")
    assert builds(req)["gromacs"] == {"+cuda"}
    assert req.mpi is not None


@pytest.mark.parametrize(
    "text",
    [
        "module load hdf5-mpi/1.14.3",  # a module of its own at many sites
        "module load dask-mpi/2023.1",  # a Python package that wraps MPI
        "module load netcdf-fortran/4.6.1",  # a package of its own
        "module load cray-mpich/8.1.28",  # an MPI
    ],
)
def test_a_hyphenated_module_that_is_a_package_keeps_its_name(text: str) -> None:
    for s in parse(text).software:
        assert not s.variants, s


@pytest.mark.parametrize(
    "text",
    [
        "the GPUs need good double precision throughput, 4 nodes",
        "a CUDA build of the code would be nice",
        "run 3.5 +mpi",
    ],
)
def test_words_that_tie_to_no_package_make_no_variant(text: str) -> None:
    req = parse(text)
    assert not [s for s in req.software if s.variants], req.software


def test_a_variant_word_tied_to_no_package_is_not_dropped() -> None:
    req = parse("the GPUs need good double precision throughput, 4 nodes")
    assert any("double precision" in u for u in req.unparsed), req.unparsed
