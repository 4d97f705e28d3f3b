"""Build variants tied to a package in more wordings, and packages offered in place of another.

Variants: several back ends after one "built with" ("compiled with Kokkos and CUDA"), an
uncatalogued acronym a package is built with ("MILC built with QUDA"), and a variant stated as
what the package must be ("GROMACS must be the CUDA build").

Releases named by a date in words ("LAMMPS version of 2 August 2023" is ``==2Aug2023``), and
a code's optional packages ("LAMMPS needs the REAXFF package").

Fallbacks: a second package offered without "or" ("SGLang 0.3 (vLLM 0.6 also works)", "if
not Stata, I could port it to fixest"), and "(or X)" in brackets.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing.parser import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _software(text: str) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    req = parse_requirements(text, now=NOW)
    return {
        s.name: (
            tuple(f"{c.op.value}{c.version}" for c in s.constraints),
            tuple(sorted(s.variants)),
        )
        for s in req.software
    }


def _choices(text: str) -> list[set[str]]:
    req = parse_requirements(text, now=NOW)
    return [{s.name for s in choice.any_of} for choice in req.alternatives]


@pytest.mark.parametrize(
    ("text", "name", "variants"),
    [
        (
            "Our WRF-free LAMMPS compiled with KOKKOS and CUDA, please",
            "lammps",
            ("+cuda", "+kokkos"),
        ),
        (
            "lammps built with kokkos, cuda and openmp on two nodes",
            "lammps",
            ("+cuda", "+kokkos", "+openmp"),
        ),
        ("We use GROMACS built with CUDA & MPI.", "gromacs", ("+cuda", "+mpi")),
        ("cp2k 2024.1 compiled with ELPA and libxc support", "cp2k", ("+elpa", "+libxc")),
        (
            "Need PETSc configured with MUMPS, hypre and metis",
            "petsc",
            ("+hypre", "+metis", "+mumps"),
        ),
        ("hdf5 built without MPI and Fortran", "hdf5", ("~fortran", "~mpi")),
        ("a run of MILC 7.8 built with QUDA on 4 nodes", "milc", ("+quda",)),
        ("milc compiled against QUDA for the solves", "milc", ("+quda",)),
        ("# GROMACS must be the CUDA build", "gromacs", ("+cuda",)),
        ("LAMMPS has to be a Kokkos-enabled build for this input", "lammps", ("+kokkos",)),
        ("Amber 22 should be the CUDA version, nothing else", "amber", ("+cuda",)),
        ("our NAMD needs to be the CUDA-accelerated one", "namd", ("+cuda",)),
        ("ParaView 5.12 must be an EGL build on the render nodes", "paraview", ("+egl",)),
        ("Quantum ESPRESSO 7.3 has to be the OpenMP flavour", "quantum-espresso", ("+openmp",)),
        ("and hdf5, which must be the MPI variant", "hdf5", ("+mpi",)),
    ],
)
def test_a_variant_tied_to_its_package_is_read(
    text: str, name: str, variants: tuple[str, ...]
) -> None:
    found = _software(text)
    assert name in found, found
    assert found[name][1] == variants


@pytest.mark.parametrize(
    ("text", "name", "separate"),
    [
        ("LAMMPS built with CUDA and PyTorch 2.1", "lammps", "pytorch"),  # a versioned library
        ("GROMACS built with CUDA 12.2", "gromacs", "cuda"),  # a version: its own requirement
    ],
)
def test_a_versioned_library_after_built_with_stays_a_package(
    text: str, name: str, separate: str
) -> None:
    found = _software(text)
    assert name in found and separate in found, found


@pytest.mark.parametrize(
    "text",
    [
        "GROMACS built with GPU support",  # a way of running, not a library
        "NAMD built with AVX support",  # hardware, not a variant
        "OpenFOAM built with GCC",  # a compiler is a requirement of its own
        "SU2 8.0 compiled against MPICH",  # an MPI library is read as the MPI
        "NAMD built with OpenMPI for the runs",
        "WRF built with NVIDIA",  # a vendor, not a library
        "the job must be the CUDA build",  # no package owns it
    ],
)
def test_no_variant_without_a_library_and_a_package(text: str) -> None:
    found = _software(text)
    assert not any(v for _, v in found.values()), found


@pytest.mark.parametrize(
    ("text", "names", "chosen"),
    [
        ("We'd like SGLang 0.3 (vLLM 0.6 also works for us) on 2 nodes", {"sglang", "vllm"}, True),
        ("Please provide Amber 22; NAMD 3 would do too", {"amber", "namd"}, True),
        ("Need lammps 2023, gromacs 2024 works as well", {"lammps", "gromacs"}, True),
        ("OpenFOAM 11 (SU2 8.0 is also fine)", {"openfoam", "su2"}, True),
        ("We'd like SGLang 0.3 (or vLLM 0.6)", {"sglang", "vllm"}, True),
        ("julia 1.10 (or R 4.3 if that is easier)", {"julia", "r"}, True),
        (
            "Does the cluster have Stata 18? I need 32 cores. If not Stata, I could port it to "
            "fixest (1.0 or newer).",
            {"stata", "fixest"},
            True,
        ),
        ("If OpenFOAM 11 is not available, we can switch to SU2 8.0", {"openfoam", "su2"}, True),
        ("If you don't have Julia 1.10, I'd use R 4.3 instead.", {"julia", "r"}, True),
        (
            "Is there CP2K 2024.1 here? If not, failing CP2K we could use Quantum ESPRESSO 7.3",
            {"cp2k", "quantum-espresso"},
            True,
        ),
        (
            "If Julia 1.10 isn't installed, we could rewrite it in Python 3.11",
            {"julia", "python"},
            True,
        ),
        # used together, refused, or only named after a condition: both stay required
        ("We need GROMACS 2024 (PLUMED 2.9 also works with it)", {"gromacs", "plumed"}, False),
        ("Need lammps 2023, gromacs 2024 also doesn't work", {"lammps", "gromacs"}, False),
        ("We need LAMMPS 2023 and GROMACS 2024 for two studies", {"lammps", "gromacs"}, False),
        (
            "If GROMACS 2024 is not available, tell me. We also use NAMD 3.",
            {"gromacs", "namd"},
            False,
        ),
        ("If Python 3.11 is not available. We use numpy 1.26 anyway.", {"python", "numpy"}, False),
    ],
)
def test_a_package_offered_in_place_of_another_is_a_choice(
    text: str, names: set[str], chosen: bool
) -> None:
    if chosen:
        assert names in _choices(text), (_choices(text), _software(text))
        assert not names & set(_software(text))
    else:
        assert names <= set(_software(text)), (_software(text), _choices(text))
        assert not _choices(text)


def test_a_later_mention_of_the_add_on_with_its_own_version_stays_a_package() -> None:
    text = (
        "We use Synergy 3.1 built with Kokkos, and the Kokkos version has to be between 4.0 and "
        "4.3 because of an API change."
    )
    found = _software(text)
    assert found["kokkos"][0] == (">=4.0", "<=4.3"), found


def test_an_mpi_library_after_built_with_is_the_mpi() -> None:
    req = parse_requirements("I use SU2 8.0 compiled against MPICH on 6 nodes", now=NOW)
    assert req.mpi is not None and req.mpi.implementation == "mpich"


@pytest.mark.parametrize(
    ("text", "version", "variants"),
    [
        (
            "polymer runs with LAMMPS version of 2 August 2023 compiled with KOKKOS and CUDA",
            "2Aug2023",
            ("+cuda", "+kokkos"),
        ),
        ("LAMMPS (29 Aug 2024 release) on 4 nodes", "29Aug2024", ()),
        ("LAMMPS version 29 August 2024 or later", ">=29Aug2024", ()),
        ("Could you run lammps version 27Jun2024 or later please?", ">=27Jun2024", ()),
        ("lammps stable release 2nd August 2023, please", "2Aug2023", ()),
        ("we need the LAMMPS release from 7 Feb 2024 for this", "7Feb2024", ()),
        ("LAMMPS (version of 15 June 2023), built with OpenMP", "15Jun2023", ("+openmp",)),
    ],
)
def test_a_release_named_by_its_date_in_words(
    text: str, version: str, variants: tuple[str, ...]
) -> None:
    found = _software(text)
    want = version if version.startswith(">") else f"=={version}"
    assert found.get("lammps") == ((want,), variants), found
    assert not {"august", "aug", "june", "feb"} & set(found)


@pytest.mark.parametrize(
    "text",
    [
        "We ran LAMMPS on 2 August 2023 and it crashed",  # a date of a run, not a release
        "LAMMPS results by 5 December 2026",
    ],
)
def test_a_date_near_a_package_is_no_release(text: str) -> None:
    assert _software(text).get("lammps") == ((), ()), _software(text)


@pytest.mark.parametrize(
    ("text", "variants"),
    [
        (
            "Also our LAMMPS need the REAXFF package and the OPENMP package. Thanks",
            ("+openmp", "+reaxff"),
        ),
        (
            "LAMMPS with the REAXFF, QEQ and OPENMP packages on 2 nodes",
            ("+openmp", "+qeq", "+reaxff"),
        ),
        ("lammps requires the KOKKOS package", ("+kokkos",)),
        ("our lammps must have the OPENMP and REAXFF packages", ("+openmp", "+reaxff")),
    ],
)
def test_a_codes_optional_packages_are_its_variants(text: str, variants: tuple[str, ...]) -> None:
    assert _software(text)["lammps"][1] == variants, _software(text)


@pytest.mark.parametrize(
    "text",
    [
        "Python needs the numpy package",  # a package of its own
        "R 4.3 with the BiocManager package",
        "LAMMPS with the MOLECULE and KSPACE packages",  # an English word: not sure, left unread
    ],
)
def test_a_package_list_that_is_not_sure_sets_no_variant(text: str) -> None:
    req = parse_requirements(text, now=NOW)
    assert not any(s.variants for s in req.software)
