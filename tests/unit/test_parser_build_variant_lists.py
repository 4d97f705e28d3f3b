"""Build variants stated as lists: several back ends after one build verb, Spack specs with
blanks between the variants, and variant keys of forms.

The sentences are written for these tests (not copied from the corpus). "built with X and with
Y" and "built with X and without Y" keep the build as the subject of every item; a spec's
variants belong to the name before them even with blanks between; a ``variants`` key belongs
to the package its form named. The negative cases are the shapes that must not read as
variants: two packages side by side, counts, compilers, pip lines and prose after a spec.
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


@pytest.mark.parametrize(
    ("text", "name", "variants"),
    [
        # one build verb, each item with its own "with" / "without"
        (
            "Could you install NAMD 3.0 compiled with CUDA and without MPI?",
            "namd",
            {"+cuda", "~mpi"},
        ),
        (
            "we want lammps built with kokkos and with openmp, 2 nodes",
            "lammps",
            {"+kokkos", "+openmp"},
        ),
        ("CP2K 2024.1, configured with ELPA and with libxc, please", "cp2k", {"+elpa", "+libxc"}),
        (
            "PETSc built with MUMPS and with HYPRE for the Stokes solver",
            "petsc",
            {"+mumps", "+hypre"},
        ),
        ("I need VASP 6.4 compiled with OpenMP and without HDF5.", "vasp", {"+openmp", "~hdf5"}),
        ("siesta 5.0 built with ELPA, and with NetCDF, on 4 nodes", "siesta", {"+elpa", "+netcdf"}),
        # slips of the build verb
        ("pls get gromacs buit with cuda for tomorrow", "gromacs", {"+cuda"}),
        ("Amber 24 bulit with CUDA, one GPU", "amber", {"+cuda"}),
        # "built for" a GPU back end
        ("Kokkos 4.2 built for HIP on the MI250X partition", "kokkos", {"+rocm"}),
        (
            "an OpenFOAM compiled for CUDA is not needed, but GROMACS built for ROCm is",
            "gromacs",
            {"+rocm"},
        ),
        # the phylogenetics likelihood library
        ("MrBayes 3.2 compiled with BEAGLE would speed up our chains", "mrbayes", {"+beagle"}),
        ("a BEAGLE-enabled BEAST 2.7 on 8 cores", "beast", {"+beagle"}),
        # Spack specs with blanks before the variants, with and without a version
        ("spack install hdf5 +mpi +hl, then 2 nodes for 3 hours", "hdf5", {"+mpi", "+hl"}),
        ("please provide petsc ~mpi +complex for a serial test", "petsc", {"~mpi", "+complex"}),
        ("- fftw +openmp +mpi\n- nodes: 2", "fftw", {"+openmp", "+mpi"}),
        (
            "spack load trilinos@15.0 +kokkos ~zoltan, and 64 cores",
            "trilinos",
            {"+kokkos", "~zoltan"},
        ),
        # a variants key of a form belongs to the package the form named
        (
            "app=gromacs version=2024.2 variants=+cuda,~mpi,+double nodes=1",
            "gromacs",
            {"+cuda", "~mpi", "+double"},
        ),
        (
            '{"software": "NAMD", "version": "3.0", "variants": ["+cuda", "~plumed"]}',
            "namd",
            {"+cuda", "~plumed"},
        ),
        (
            "code: cp2k\nversion: 2024.1\nvariants: +elpa +libxc\nnodes: 3",
            "cp2k",
            {"+elpa", "+libxc"},
        ),
        (
            '{"packages": [{"name": "petsc", "version": "3.21",'
            ' "variants": "+mumps+hypre~debug"}]}',
            "petsc",
            {"+mumps", "+hypre", "~debug"},
        ),
        (
            '{"packages": [{"name": "adios2", "spec": "adios2@2.10 +mpi +python"}]}',
            "adios2",
            {"+mpi", "+python"},
        ),
    ],
)
def test_a_list_of_variants_belongs_to_its_package(
    text: str, name: str, variants: set[str]
) -> None:
    got = builds(parse(text))
    assert name in got, got
    assert variants <= got[name], got


def test_a_spec_with_a_version_and_variants_keeps_the_version_clean() -> None:
    req = parse('{"packages": [{"name": "hdf5", "version": "1.14.3", "variants": "+mpi+hl"}]}')
    hdf5 = next(s for s in req.software if s.name == "hdf5")
    assert [c.version for c in hdf5.constraints] == ["1.14.3"]
    assert set(hdf5.variants) == {"+mpi", "+hl"}


def test_prose_after_an_install_line_is_read_as_the_job_not_as_packages() -> None:
    req = parse("spack install namd@3.0 +cuda, then 4 nodes, 256 MPI ranks total, 10h")
    assert {s.name for s in req.software} == {"namd"}
    assert req.compute.nodes == 4
    assert req.compute.total_cores == 256
    assert req.compute.walltime_s == 36000


def test_without_tied_to_a_build_is_a_variant_not_an_exclusion() -> None:
    req = parse("GROMACS 2023 compiled with CUDA and without MPI, one node")
    assert builds(req)["gromacs"] == {"+cuda", "~mpi"}
    assert not req.excluded


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("GROMACS and CUDA 12 on one node", "gromacs"),
        ("LAMMPS built with CUDA and with 4 GPUs per node", "lammps"),
        ("NAMD built with CUDA and with PLUMED 2.9 for the analysis", "namd"),
        ("gromacs built with gcc and with cuda", "gromacs"),
    ],
)
def test_things_after_the_build_that_are_not_its_variants(text: str, name: str) -> None:
    got = builds(parse(text))
    assert name in got, got
    assert not got[name] - {"+cuda"}, got  # CUDA may be the build; nothing else is


def test_two_packages_side_by_side_stay_two() -> None:
    got = builds(parse("I need GROMACS and CUDA 12, 2 nodes"))
    assert got.get("gromacs") == set() and "cuda" in got


def test_gpus_counted_after_with_are_no_variant() -> None:
    req = parse("LAMMPS built with Kokkos and with 4 GPUs per node")
    assert builds(req)["lammps"] == {"+kokkos"}
    assert req.compute.gpus_per_node == 4


def test_a_version_after_the_second_with_makes_a_package_of_its_own() -> None:
    got = builds(parse("NAMD built with CUDA and with PLUMED 2.9"))
    assert got["namd"] == {"+cuda"}
    assert "plumed" in got


@pytest.mark.parametrize(
    "text",
    [
        "error bars are +/- 2 percent and the score went +5",
        "pip install torch numpy +x",
        "the results +mpi looked fine",
        "nodes +gpus were both busy",
        "python compiled for Linux, 2 nodes",
    ],
)
def test_signs_in_prose_are_no_spec(text: str) -> None:
    got = builds(parse(text))
    assert not any(v for v in got.values()), got


def test_a_variants_key_without_a_package_is_not_dropped() -> None:
    req = parse("variants=+cuda nodes=2")
    assert all(not s.variants for s in req.software)
    assert req.software or req.unresolved or req.unparsed
