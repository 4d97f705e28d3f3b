"""Package names the parser could not know, found from how the text describes them.

A reader knows "the Quokka mesh refinement driver" or "Heron (the group's particle tracker)"
names software without knowing the name: a tool noun heads the phrase around it. The same
reader sees a Spack spec's variants in brackets or after a blank, a Spack version range, and
an R package's "0.7-2" release. Every sentence here was written for the test; none is copied
from the request corpus. The negative cases are the modifiers and people such phrases also
describe, which must never become packages.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def software(req: Requirements) -> dict[str, list[str]]:
    return {s.name: [f"{c.op.value}{c.version}" for c in s.constraints] for s in req.software}


# -- a name the text describes as software ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("Our runs use the Quokka adaptive mesh driver on 4 nodes for 6 hours.", "quokka", []),
        ("We calibrate with the Heron optimisation toolkit, 2 nodes, 3 hours.", "heron", []),
        ("Please install the Marmot forecasting package; 4 cores for an hour.", "marmot", []),
        (
            "I maintain the Kestrel hydrology modelling framework (v2.4) and need 8 cores.",
            "kestrel",
            ["==2.4"],
        ),
        (
            "Can I get a node for Pelican (the ETH robotics toolbox, v0.19) for 3 hours?",
            "pelican",
            ["==0.19"],
        ),
        (
            "We need to run Gannet (Okafor's friends-of-friends halo finder) on 2 nodes.",
            "gannet",
            [],
        ),
        (
            "I use vorpal, Jane Doe's sequence alignment tool, on 16 cores for 2 hours.",
            "vorpal",
            [],
        ),
        (
            "The lab released HARE (the agent-based traffic simulator) last year; 64 cores.",
            "hare",
            [],
        ),
        ("Hi, we want the zorblax library and 32 GB of memory for 2 hours.", "zorblax", []),
        ("Our pipeline calls the Badger genome assembler on one node with 48 cores.", "badger", []),
    ],
)
def test_a_described_name_is_a_package(text: str, name: str, versions: list[str]) -> None:
    found = software(parse(text))
    assert found.get(name) == versions, found


def test_the_arrow_package_is_arrow_not_pyarrow() -> None:
    """An everyday word that is also a known package name counts right before "package"."""
    found = software(parse("The analysis is in R 4.3 with the arrow package, 1 node, 2 hours."))
    assert "arrow" in found and "pyarrow" not in found


def test_an_everyday_lower_case_word_before_a_tool_noun_stays_quoted() -> None:
    """ "the tortoise library" reads like "the vendor toolbox": no package, but never dropped."""
    req = parse("Hi, we want the tortoise library and 32 GB of memory for 2 hours.")
    assert "tortoise" not in software(req)
    assert any("tortoise" in phrase for phrase in req.unresolved)


def test_a_described_name_counts_wherever_it_is_written_again() -> None:
    req = parse(
        "Subject: Falcon runs\n\nWe use the Falcon hydrology modelling framework (v1.2) on"
        " 40 cores for 5 hours."
    )
    assert software(req) == {"falcon": ["==1.2"]}
    assert not any("Falcon" in phrase for phrase in req.unresolved)


def test_a_package_listed_after_a_described_one_is_a_package() -> None:
    found = software(parse("Is the Osprey plotting library and skopt on the cluster? 2 cores."))
    assert {"osprey", "skopt"} <= set(found)


@pytest.mark.parametrize(
    ("text", "not_names"),
    [
        ("Our eikonal solver needs 2 GPUs for 5 hours.", {"eikonal"}),
        ("The semi-implicit solver needs PETSc 3.20 and 4 nodes.", {"semi-implicit"}),
        ("The cross-section library needs 300 GB of scratch.", {"cross-section"}),
        ("The vendor toolbox is linked against glibc; 1 node for 2 hours.", {"vendor"}),
        ("We need the Lagrangian particle code on 8 cores for 2 hours.", {"lagrangian"}),
        ("Thanks Alice, the solver crashed again on 4 nodes.", {"alice"}),
        ("Ask Marta (the postdoc who wrote the code) about the 8 nodes we need.", {"marta"}),
        ("The whole package needs 16 cores for 3 hours.", {"whole"}),
        ("Our main code needs 2 nodes for 4 hours.", {"main"}),
        ("Graham, the old cluster, is gone; we need 4 nodes now.", {"graham"}),
    ],
)
def test_a_modifier_or_a_person_is_not_a_package(text: str, not_names: set[str]) -> None:
    assert not not_names & set(software(parse(text))), software(parse(text))


@pytest.mark.parametrize(
    "text",
    [
        "We run Tern (the AVX512 vectorised solver) on 2 nodes.",
        "We run Tern (the 64-bit lattice code) on 2 nodes.",
    ],
)
def test_a_requirement_inside_a_description_stays_quoted(text: str) -> None:
    req = parse(text)
    assert "tern" not in software(req) and req.unresolved


def test_an_undescribed_english_word_stays_unread() -> None:
    """Without a tool noun, a capitalised English word is no package; it stays quoted."""
    req = parse("We study Raven behaviour with 4 cores for an hour.")
    assert "raven" not in software(req)


# -- Spack variants and ranges ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "versions", "variants"),
    [
        ("need lammps 2Aug2023 (+kokkos) on 2 nodes", "lammps", ["==2Aug2023"], ("+kokkos",)),
        ("need hdf5 1.14 (~mpi +fortran) on 1 node", "hdf5", ["==1.14"], ("~mpi", "+fortran")),
        ("spack load petsc@3.20 +mumps ~debug", "petsc", ["==3.20"], ("+mumps", "~debug")),
        ("spack load sundials@6.7: +mpi", "sundials", [">=6.7"], ("+mpi",)),
        ("spack load trilinos@:15.1", "trilinos", ["<=15.1"], ()),
        ("spack load mfem@4.6:4.7", "mfem", [">=4.6", "<=4.7"], ()),
    ],
)
def test_spack_variants_and_ranges(
    text: str, name: str, versions: list[str], variants: tuple[str, ...]
) -> None:
    req = parse(text)
    found = {s.name: s for s in req.software}
    assert name in found, found
    assert [f"{c.op.value}{c.version}" for c in found[name].constraints] == versions
    assert found[name].variants == variants
    assert not req.unresolved


def test_a_programming_model_in_brackets_is_no_package() -> None:
    assert "mpi" not in software(parse("The code is MPI (+OpenMP) on 4 nodes."))


# -- an R package's release -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("run it with Rmpi 0.7-2 on 64 cores", "rmpi", ["==0.7-2"]),
        ("we need snow 0.4-4 and 8 cores.", "snow", ["==0.4-4"]),
        ("data.table 1.15-2 please, 1 node", "data.table", ["==1.15-2"]),
        ("python 3.9-3.11 on 4 cores", "python", [">=3.9", "<=3.11"]),
        ("gromacs 2022-2024 on 2 nodes", "gromacs", [">=2022", "<=2024"]),
        ("foo 1.2 - 2 on 2 nodes", "foo", [">=1.2", "<=2"]),
    ],
)
def test_a_hyphenated_release_is_one_version(text: str, name: str, versions: list[str]) -> None:
    assert software(parse(text)).get(name) == versions


# -- catalogue aliases of distinct packages --------------------------------------------------


def test_jupyterlab_is_not_jupyter() -> None:
    found = software(parse("I need JupyterLab 4.2 with numpy on one node for 3 hours."))
    assert found.get("jupyterlab") == ["==4.2"] and "jupyter" not in found
    assert "jupyter" in software(parse("A Jupyter notebook on one node for an hour, please."))


# -- a name something is built with or coupled to --------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("NEMO is compiled against NetCDF-Fortran; 4 nodes for 6 hours.", "nemo"),
        ("Our solver Zephyr was built with HDF5 and needs 2 nodes.", "zephyr"),
        ("We run WRF 4.5 coupled with FVCOM on 8 nodes.", "fvcom"),
        ("we couple MITgcm with SWAN for the storm cases, 3 nodes.", "swan"),
        ("The ocean model is coupled to CICE on 6 nodes for 12 hours.", "cice"),
    ],
)
def test_a_name_built_or_coupled_is_a_package(text: str, name: str) -> None:
    assert name in software(parse(text)), software(parse(text))


@pytest.mark.parametrize(
    "text",
    [
        "The code is Fortran compiled with ifx and needs 4 nodes.",
        "We coupled the ice with the ocean by hand; 4 nodes please.",
        "Everything is built with care; 2 nodes for an hour.",
    ],
)
def test_a_language_or_prose_built_or_coupled_is_no_package(text: str) -> None:
    found = software(parse(text))
    assert not {"fortran", "ice", "ocean", "care", "everything"} & set(found), found


def test_a_quoted_name_before_a_tool_noun_takes_the_version_after_it() -> None:
    req = parse('we would like the "owl" code (a DFT one) version 3.2 on 2 nodes for a day')
    assert software(req).get("owl") == ["==3.2"]


def test_any_version_in_a_range_in_brackets() -> None:
    found = software(parse("I use OpenMM (anything between 8.0 and 8.2) on one GPU."))
    assert found.get("openmm") == [">=8.0", "<=8.2"]


# -- choices of versions and variants of uncatalogued names ---------------------------------


def test_a_key_value_choice_of_versions_is_an_alternative() -> None:
    req = parse('requirements:\n  python: "3.11 or 3.12"\n  cores: 8\n')
    assert "python" not in software(req)
    assert [
        [f"{s.name}=={s.constraints[0].version}" for s in c.any_of] for c in req.alternatives
    ] == [["python==3.11", "python==3.12"]]


def test_a_variant_before_a_name_shaped_uncatalogued_package() -> None:
    req = parse("We want a CUDA build of PeleLMeX 24.03 on 2 nodes with 4 GPUs each.")
    found = {s.name: s for s in req.software}
    assert found["pelelmex"].variants == ("+cuda",) and "cuda" not in found


def test_a_package_named_bare_and_as_a_variant_is_the_variant() -> None:
    req = parse("Subject: GROMACS + PLUMED\n\nGROMACS 2024.2 built with PLUMED, 4 nodes please.")
    found = {s.name: s for s in req.software}
    assert found["gromacs"].variants == ("+plumed",) and "plumed" not in found
    kept = parse("GROMACS with PLUMED, and PLUMED 2.9 for the analysis, 2 nodes.")
    assert "plumed" in software(kept)
