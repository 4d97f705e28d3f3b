"""Package names in prose: names a reader takes from their place in a sentence, and words
shaped like names that are no package (methods named after scientists, release channels,
months, numbered stages, typos of English), and packages the text sets aside. Wordings of our
own, not the corpus texts."""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _software(text: str) -> dict[str, list[str]]:
    req = parse_requirements(text)
    return {s.name: [f"{c.op.value}{c.version}" for c in s.constraints] for s in req.software}


def _unresolved(text: str) -> str:
    return " | ".join(parse_requirements(text).unresolved).lower()


# -- names a reader takes from the sentence ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("We run the finite-volume code Basilisk, version 2.1, on 4 nodes.", "basilisk", ["==2.1"]),
        ("Our group uses the halo finder Subfind on 8 nodes for 6 hours.", "subfind", []),
        ("The solver is Xyzflow; it needs 2 nodes and 10 hours.", "xyzflow", []),
        ("please set up the ocean model Veros release 1.5 for a 3 day run", "veros", ["==1.5"]),
        ("I use the docking program Qvinaz on 1 node with 32 cores.", "qvinaz", []),
    ],
)
def test_a_name_after_its_tool_noun(text: str, name: str, versions: list[str]) -> None:
    assert _software(text).get(name) == versions


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("Transcribe with Tesserwise, the OCR engine, version 5 on 1 GPU.", "tesserwise", ["==5"]),
        (
            "We need Parcels, the particle-tracking framework, version 3.0.2.",
            "parcels",
            ["==3.0.2"],
        ),
        ("Install GROMACS, the MD package, version 2024.1 on 2 nodes.", "gromacs", ["==2024.1"]),
    ],
)
def test_a_version_after_a_describing_apposition(text: str, name: str, versions: list[str]) -> None:
    assert _software(text).get(name) == versions


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        (
            "We need ecCodes in a version between 2.30 and 2.34, 2 nodes.",
            "eccodes",
            [">=2.30", "<=2.34"],
        ),
        ("HDF5 in a release between 1.12 and 1.14 on 4 nodes", "hdf5", [">=1.12", "<=1.14"]),
        ("netCDF-Fortran version between 4.5 and 4.6 please", "netcdf-fortran", [">=4.5", "<=4.6"]),
        ("We need ecCodes in version 2.30 on 2 nodes.", "eccodes", ["==2.30"]),
    ],
)
def test_in_a_version_between(text: str, name: str, versions: list[str]) -> None:
    assert _software(text).get(name) == versions


def test_the_code_named_before_a_method_eponym() -> None:
    text = "Sampling uses the ZQLASS Boltzmann code and 4 nodes for 12 hours."
    assert "zqlass" in _software(text)
    assert "boltzmann" not in _software(text)


def test_a_capitalised_name_listed_with_a_described_one() -> None:
    names = _software("Theory from QRAMB and the ZQLASS Boltzmann code, 4 nodes, 12 hours.")
    assert {"qramb", "zqlass"} <= set(names)


@pytest.mark.parametrize(
    "text",
    [
        "Map the reads with the STAR aligner and featureCounts on 1 node, 64 cores.",
        "We need HISAT2 and featureCounts, 32 cores, 8 hours.",
        "Install snakemake, featureCounts and samtools on one node.",
    ],
)
def test_a_camel_case_name_listed_beside_a_package(text: str) -> None:
    assert "featurecounts" in _software(text)


# -- words shaped like names that are no package ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Our lattice-Boltzmann runs need waLBerla 6.1 on 2 nodes.", "lattice-boltzmann"),
        ("A Navier-Stokes solve with OpenFOAM 11 on 4 nodes.", "navier-stokes"),
        ("Runge-Kutta time stepping in Dedalus 3, 8 cores.", "runge-kutta"),
        ("Hartree-Fock references with PySCF 2.6, 1 node.", "hartree-fock"),
        ("a Bayesian model in PyMC 5 on 4 cores", "bayesian"),
        ("the Boltzmann solver step uses CLASS 3.2 on 1 node", "boltzmann"),
        ("Julia 1.10 LTS with Flux.jl, 1 GPU", "lts"),
        ("Node 20 LTS and npm, 2 cores", "lts"),
        ("DeepSpeed ZeRO-3 fine-tuning with NCCL 2.21, 8 GPUs", "zero-3"),
        ("Monte Carlo VaR on 256 ranks with QuantLib 1.36", "var"),
        ("CVaR and GARCH fits in arch 7.0 on 8 cores", "cvar"),
        ("A GNN and an LSTM with PyTorch 2.3 on one GPU", "lstm"),
    ],
)
def test_concept_words_are_no_package(text: str, word: str) -> None:
    assert word not in _software(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("On 28 Nov, Priya wrote:\n> which code?\n\nCobaya 3.5 on 4 nodes please.", "nov"),
        ("On 3 Sept, Ahmed wrote:\n> hi\n\nI need LAMMPS on 2 nodes.", "sept"),
        ("Jan, Feb and Mar runs need GROMACS 2024 on 2 nodes.", "feb"),
    ],
)
def test_months_are_no_package(text: str, word: str) -> None:
    assert word not in _software(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (
            "Abaqus 2024 for the crash sim of recyled-aluminium bumpers, 2 nodes",
            "recyled-aluminium",
        ),
        ("FEniCS 0.8 for the simualtion-driven design, 4 nodes", "simualtion-driven"),
        ("theory back-ends are CAMB, 4 nodes", "back-ends"),
        ("the 405B model now fits on one node with vLLM 0.6", "fits"),
    ],
)
def test_english_with_typos_and_plurals_is_no_package(text: str, word: str) -> None:
    assert word not in _software(text)


def test_concept_words_stay_quoted_not_dropped() -> None:
    """Fail-safe: a word not read as a package is still quoted, never silently lost."""
    assert "zero-3" in _unresolved("DeepSpeed ZeRO-3 fine-tune; needs NCCL 2.21+")
    assert "lattice-boltzmann" in _unresolved("# lattice-Boltzmann airflow\n# needs waLBerla 6.1")


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Reproduce Fig. 4 of Ito et al. (2023) with CUDA 12.2 on one GPU.", "ito"),
        ("Redo table 2 of Sato et al. with PyTorch 2.1, 1 GPU.", "sato"),
        ("Step 3 of Garcia and colleagues' pipeline needs 2 nodes.", "garcia"),
    ],
)
def test_a_numbered_part_of_a_paper_is_no_version(text: str, word: str) -> None:
    assert word not in _software(text)


@pytest.mark.parametrize(
    "text",
    [
        "BART 0.9 on 4 nodes. The imaging centre will pay up to 1,200 US dollars.",
        "GROMACS 2024, 2 nodes; the department can spend 500 USD at most.",
        "LAMMPS on 4 nodes, we pay up to 2,000 dollars.",
    ],
)
def test_a_sum_of_money_is_no_version(text: str) -> None:
    assert not ({"pay", "spend"} & set(_software(text)))


def test_the_next_list_number_is_no_version() -> None:
    text = "Needs:\n1. R 4.4 with Seurat 5.1 and BiocParallel\n2. a node with 48 cores"
    assert _software(text)["biocparallel"] == []


# -- packages the text sets aside --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        ("Runs use Nek5000 v19 (not NekRS, not ported yet) on 32 nodes.", "nek5000", "nekrs"),
        ("JupyterLab 4 with PyTorch; TensorFlow is not used this year.", "pytorch", "tensorflow"),
        (
            "R 4.4 and Seurat 5; RStudio Server would be helpful but is not required.",
            "seurat",
            "rstudio",
        ),
        ("GROMACS 2024 rather than NAMD, 2 nodes.", "gromacs", "namd"),
        ("We run OpenFOAM 11 instead of the Fluent model, 4 nodes.", "openfoam", "fluent"),
        ("LAMMPS 2023 with Python; Jupyter would be nice but isn't needed.", "lammps", "jupyter"),
        ("CP2K 2024.1 (CUDA not needed), 4 nodes", "cp2k", "cuda"),
    ],
)
def test_a_package_set_aside_is_no_requirement(text: str, kept: str, dropped: str) -> None:
    names = _software(text)
    assert kept in names
    assert dropped not in names


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("We need GROMACS, not older than 2023, on 2 nodes.", "gromacs", [">=2023"]),
        ("Not only LAMMPS but also VMD, 2 nodes", "vmd", []),
        ("TensorFlow is needed, 2 GPUs", "tensorflow", []),
        ("NAMD 3 is used for the equilibration, 4 nodes", "namd", ["==3"]),
    ],
)
def test_a_package_not_set_aside_stays(text: str, name: str, versions: list[str]) -> None:
    assert _software(text).get(name) == versions


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We run q-Sim (the MATLAB toolbox) on 2 GPUs for 10 hours.", "q-sim"),
        ("Please set up e-Cellx (the Python package) on one node.", "e-cellx"),
    ],
)
def test_a_branded_letter_word_described_is_a_name(text: str, name: str) -> None:
    assert name in _software(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("We simulate x-ray scattering with GROMACS 2024 on 2 nodes.", "x-ray"),
        ("count k-mers with jellyfish 2.3 on 16 cores", "k-mers"),
    ],
)
def test_a_lower_case_letter_term_is_no_name(text: str, word: str) -> None:
    assert word not in _software(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Helo, cna I get 2 nodes with PyTorch for 12 hours?", {"helo", "cna"}),
        ("Teh, adn also LAMMPS on 4 nodes", {"teh", "adn"}),
    ],
)
def test_listed_typos_of_everyday_words_are_no_packages(text: str, words: set[str]) -> None:
    assert not (words & set(_software(text)))


def test_listed_unknown_words_are_still_packages() -> None:
    assert {"xformers", "einops"} <= set(_software("pip install needs: xformers, einops"))
    assert {"optax", "chex"} <= set(_software("We use optax and chex on 1 GPU."))


@pytest.mark.parametrize(
    "text",
    [
        "The code is Fortran and needs 4 nodes.",
        "the solver is Haskell, 2 nodes",
        "We discussed the code Tuesday with the team, 2 nodes.",
    ],
)
def test_no_name_after_a_tool_noun_when_it_is_a_language_or_a_day(text: str) -> None:
    assert not ({"fortran", "haskell", "tuesday"} & set(_software(text)))


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        (
            "> Do you have ABINIT 9 for guests?\n> No, sorry.\n\nOK, then CP2K 2024.1 on 8 nodes.",
            "cp2k",
            "abinit",
        ),
        (
            "Maria wrote:\n> we ran NAMD 2.14 last time\n\nThis time GROMACS 2024, 4 nodes.",
            "gromacs",
            "namd",
        ),
    ],
)
def test_a_package_only_in_the_quoted_message_is_not_asked(
    text: str, kept: str, dropped: str
) -> None:
    names = _software(text)
    assert kept in names
    assert dropped not in names


def test_a_quoted_package_stays_when_the_reply_names_none() -> None:
    assert "abinit" in _software("> I need ABINIT 9.10 on 4 nodes\n\n+1, same for us please.")


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("- kokkos+rocm 4.3\n- one MI300X", "kokkos", ["==4.3"]),
        ("hdf5~mpi 1.14.3 on 4 cores", "hdf5", ["==1.14.3"]),
        ("use lammps+kokkos 4.5 GB per core", "lammps", []),
        ("lammps+kokkos 2 nodes for 3 hours", "lammps", []),
    ],
)
def test_a_dotted_version_after_a_spack_spec(text: str, name: str, versions: list[str]) -> None:
    assert _software(text)[name] == versions


def test_a_name_after_its_tool_noun_across_a_line_break() -> None:
    text = "for a flood model? The\ncode is Qwaterx; it also needs Kokkos 4.4, 2 nodes."
    assert "qwaterx" in _software(text)
