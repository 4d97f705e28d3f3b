"""Choices, structured forms and leftover scopes.

- A second release offered as fine too ("2.15 (2.16 also fine)"), a list under a key that says
  "any of", and two packages before "either one is fine" with an "or" between them are a choice
  (``alternatives``), never two requirements (no site has two releases at once) nor one pin.
- A JSON document whose lines look like YAML flow maps is still read as a whole, so none of its
  keys is lost; a YAML section's bare ``count:`` counts what the section names; a nested feature
  key (``{"interconnect": {"rdma": true}}``) asks for that feature.
- A TOML table of packages names a package in each key: the value says which version and build.
- A misspelt memory word keeps the scope after its size; a misspelt node word sized by cores
  makes those cores per node; "it must be the CUDA build" ties the build to the package before.

Negatives: a plain list of packages needs them all, an "or" elsewhere in the sentence is no
choice of packages, and a version marked as not fine is no option.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire.requirements import Requirements


def _spec(s: object) -> str:
    name = s.name  # type: ignore[attr-defined]
    constraints = "".join(c.op.value + c.version for c in s.constraints)  # type: ignore[attr-defined]
    return name + constraints + "".join(s.variants)  # type: ignore[attr-defined]


def _software(r: Requirements) -> set[str]:
    return {_spec(s) for s in r.software}


def _choices(r: Requirements) -> list[set[str]]:
    return [{_spec(a) for a in group.any_of} for group in r.alternatives]


# -- a second release offered as fine too ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("Training needs PyTorch 2.3 (2.4 also fine) on one GPU.", "pytorch", {"2.3", "2.4"}),
        ("python 3.11 (3.12 is fine too), 8 cores", "python", {"3.11", "3.12"}),
        ("we build with gcc 12, 13 works too", "gcc", {"12", "13"}),
        ("CP2K 2024.1, 2023.2 would work as well, on 2 nodes", "cp2k", {"2024.1", "2023.2"}),
        ("Julia 1.10; 1.9 is also acceptable.", "julia", {"1.10", "1.9"}),
        ("GROMACS 2024.2 (2023.5 would also do) with 4 GPUs", "gromacs", {"2024.2", "2023.5"}),
    ],
)
def test_a_second_release_offered_too_is_a_choice(text: str, name: str, versions: set[str]) -> None:
    r = parse_requirements(text)
    assert {f"{name}=={v}" for v in versions} in _choices(r)
    assert not any(s.startswith(name) for s in _software(r))


@pytest.mark.parametrize(
    "text",
    [
        "python 3.11 (3.12 is not fine, it breaks numba)",
        "LAMMPS 2023 (4 nodes also fine) please",
    ],
)
def test_no_second_release_is_offered(text: str) -> None:
    r = parse_requirements(text)
    assert r.alternatives == ()
    assert {"python==3.11", "lammps==2023"} & _software(r)


# -- "either one is fine" after two packages joined by "or" ------------------------------------


@pytest.mark.parametrize(
    ("text", "group"),
    [
        (
            "We could run MrBayes 3.2.7 or maybe reuse our RevBayes 1.2 setup; either one is fine.",
            {"mrbayes==3.2.7", "revbayes==1.2"},
        ),
        (
            "I can use OpenFOAM 11 again or try SU2 8.0 this time; either works.",
            {"openfoam==11", "su2==8.0"},
        ),
        (
            "Keep NAMD 3.0 as before or switch to GROMACS 2024, either is fine for us.",
            {"namd==3.0", "gromacs==2024"},
        ),
    ],
)
def test_either_one_after_an_or_between_two_packages(text: str, group: set[str]) -> None:
    r = parse_requirements(text)
    assert group in _choices(r)
    assert not _software(r) & group


def test_an_or_elsewhere_in_the_sentence_is_no_choice_of_packages() -> None:
    r = parse_requirements("It runs on CPU or on GPUs with LAMMPS and GROMACS; either is fine.")
    assert {"lammps", "gromacs"} <= _software(r)
    assert r.alternatives == ()


# -- lists under a key of choice ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "group"),
    [
        (
            '{"software_any_of": ["NAMD 3.0", "GROMACS 2024.1"], "nodes": 2}',
            {"namd==3.0", "gromacs==2024.1"},
        ),
        ('{"codes_one_of": ["lammps", "hoomd-blue"]}', {"lammps", "hoomd-blue"}),
        (
            '{"any_of": [{"name": "quantum-espresso", "version": "7.3"}, {"name": "cp2k"}]}',
            {"quantum-espresso==7.3", "cp2k"},
        ),
        ('packages_alternatives = ["orca 6.0", "psi4"]\nnodes = 1', {"orca==6.0", "psi4"}),
    ],
)
def test_a_list_under_a_key_of_choice_is_a_choice(text: str, group: set[str]) -> None:
    r = parse_requirements(text)
    assert group in _choices(r)
    assert not _software(r) & group


@pytest.mark.parametrize(
    "text",
    [
        '{"software": ["cp2k 2024.1", "elpa"], "nodes": 2}',
        'software = ["cp2k 2024.1", "elpa"]',
        '{"libs": ["flax", "optax"]}',
    ],
)
def test_a_plain_list_of_packages_needs_them_all(text: str) -> None:
    r = parse_requirements(text)
    assert r.alternatives == ()
    assert len(r.software) == 2


# -- whole JSON documents, nested keys ---------------------------------------------------------

_AGENT_JSON = """{"agent": "screening-bot/1.2",
 "request": {
   "software": [
     {"name": "NAMD", "version": ">=3.0,<3.1", "variants": ["+cuda"]},
     {"name": "VMD", "version": "1.9.4"}
   ],
   "nodes": 2,
   "gpus_per_node": 4,
   "walltime": "12:00:00",
   "container": {"runtime": "podman", "version": ">=4.0"},
   "max_cost_usd": 250
 }}"""


def test_a_json_document_with_one_object_per_line_is_read_whole() -> None:
    r = parse_requirements(_AGENT_JSON)
    assert _software(r) == {"namd>=3.0<3.1+cuda", "vmd==1.9.4"}
    assert r.compute.nodes == 2 and r.compute.gpus_per_node == 4
    assert r.compute.walltime_s == 12 * 3600
    assert r.container is not None and r.container.runtime == "podman"
    assert [c.op.value + c.version for c in r.container.constraints] == [">=4.0"]
    assert r.budget_usd == 250


def test_a_yaml_flow_map_on_its_own_still_reads() -> None:
    r = parse_requirements("nodes: 2\ngpu: {count: 4, model: H100}")
    assert r.compute.gpus_per_node == 4 or r.compute.total_gpus == 4
    assert r.compute.gpu_model == "H100"


@pytest.mark.parametrize(
    ("text", "per_node"),
    [
        ("resources:\n  nodes: 1\n  gpu:\n    count: 8\n    model: H100\n", 8),
        ("spec:\n  nodes: 1\n  accelerators:\n    number: 4\n", 4),
        ("job:\n  gpus:\n    count: 2\n  hours: 3\n", 2),
    ],
)
def test_a_count_under_a_yaml_section_counts_what_it_names(text: str, per_node: int) -> None:
    r = parse_requirements(text)
    assert r.compute.gpus_per_node == per_node


@pytest.mark.parametrize(
    "text",
    [
        '{"interconnect": {"rdma": true}, "nodes": 4}',
        '{"network": {"low_latency": "yes"}}',
        "fabric_rdma: yes\nnodes: 2",
    ],
)
def test_a_nested_feature_key_asks_for_it(text: str) -> None:
    assert getattr(parse_requirements(text).network, "low_latency", False) is True


# -- TOML tables of packages -------------------------------------------------------------------


def test_each_key_of_a_package_table_is_a_package() -> None:
    text = (
        "[resources]\nnodes = 4\n\n[software]\n"
        'jax = "0.4.30, CUDA build"\nflax = "any"\noptax = "latest"\n'
        'hdf5 = "1.14 +mpi"\ncp2k = ">=2023,<2025"\n\n[job]\nhours = 6\n'
    )
    r = parse_requirements(text)
    assert _software(r) == {
        "jax==0.4.30+cuda",
        "flax",
        "optax",
        "hdf5==1.14+mpi",
        "cp2k>=2023<2025",
    }
    assert r.compute.nodes == 4 and r.compute.walltime_s == 6 * 3600


def test_a_build_word_the_reader_does_not_know_is_quoted_not_dropped() -> None:
    r = parse_requirements('[packages]\nvasp = "6.4 with the licence we hold"\n')
    assert "vasp==6.4" in _software(r)
    assert any("licence" in u for u in r.unparsed)


def test_keys_of_one_package_form_are_not_packages() -> None:
    r = parse_requirements('[software]\nname = "gromacs"\nversion = "2024"\n')
    assert "name" not in {s.name for s in r.software}
    assert "version" not in {s.name for s in r.software}


# -- misspelt memory and node words keep their scope -------------------------------------------


@pytest.mark.parametrize(
    ("text", "per_node", "total"),
    [
        ("Memery: 3 TB over the whole job, 256 cores", None, 3000.0),
        ("memroy 64 GB in total please", None, 64.0),
        ("momory: 1 TB across all nodes", None, 1000.0),
        ("memmory at least 512 GB", 512.0, None),
        ("memroy about 96 GB per node", 96.0, None),
        ("256 GB memroy each", 256.0, None),
    ],
)
def test_a_misspelt_memory_word_keeps_its_scope(
    text: str, per_node: float | None, total: float | None
) -> None:
    r = parse_requirements(text)
    assert r.compute.memory_gb_per_node == per_node
    assert r.compute.memory_gb_total == total


@pytest.mark.parametrize(
    ("text", "nodes", "cores"),
    [
        ("pls 1 nod with 64 cors and 256 GB", 1, 64),
        ("I wan 1 nod w/ 48 cores", 1, 48),
        ("one job, 1 nod x 32 cores", 1, 32),
    ],
)
def test_a_clipped_node_word_sized_by_cores(text: str, nodes: int, cores: int) -> None:
    r = parse_requirements(text)
    assert r.compute.nodes == nodes
    assert r.compute.cores_per_node == cores
    assert r.compute.total_cores is None


def test_a_nod_that_is_no_node() -> None:
    r = parse_requirements("i nod with 64 cores in mind")
    assert r.compute.nodes is None
    assert r.compute.total_cores == 64


# -- "it" points back to the package -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("switching to marian-nmt 1.12, and it must be the CUDA build", "marian-nmt==1.12+cuda"),
        ("I use GROMACS 2024 and it should be a CUDA build.", "gromacs==2024+cuda"),
        ("LAMMPS, but it has to be the Kokkos build", "lammps+kokkos"),
        ("PyTorch 2.4; it needs to be the ROCm build.", "pytorch==2.4+rocm"),
    ],
)
def test_it_must_be_the_build(text: str, spec: str) -> None:
    r = parse_requirements(text)
    assert spec in _software(r)
    assert "cuda" not in _software(r)


def test_it_is_the_build_describes_a_site_not_a_need() -> None:
    r = parse_requirements("GROMACS 2024 runs fine at home and it is the CUDA build there")
    assert "gromacs==2024+cuda" not in _software(r)


# -- two builds of one package, either fine ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "group"),
    [
        (
            "We need WarpX 24.08, either the CUDA build or the HIP build, on 16 nodes.",
            {"warpx==24.08+cuda", "warpx==24.08+rocm"},
        ),
        (
            "GROMACS 2024: the CUDA build or the ROCm build, whichever you have",
            {"gromacs==2024+cuda", "gromacs==2024+rocm"},
        ),
        ("lammps, a Kokkos version or an OpenMP version", {"lammps+kokkos", "lammps+openmp"}),
    ],
)
def test_two_builds_either_fine_are_a_choice(text: str, group: set[str]) -> None:
    r = parse_requirements(text)
    assert group in _choices(r)
    assert not {"cuda", "rocm", "kokkos"} & _software(r)


def test_the_same_build_twice_is_no_choice() -> None:
    r = parse_requirements("gromacs 2024, the CUDA build or the CUDA build")
    assert r.alternatives == ()
    assert "gromacs==2024" in {s.split("+")[0] for s in _software(r)}


def test_a_choice_of_builds_keeps_the_variants_the_package_already_has() -> None:
    """Each build offered keeps what every build must have: "+mpi, either CUDA or HIP" is
    +mpi+cuda or +mpi+rocm, never a build without MPI."""
    from endpoint_plugins.parsing.draft import Draft

    draft = Draft(variants={"warpx": ["+mpi"]}, variant_choices=[("warpx", ["+cuda", "+rocm"])])
    (choice,) = draft.build_alternatives()
    assert {o.variants for o in choice.any_of} == {("+mpi", "+cuda"), ("+mpi", "+rocm")}
