"""Open-vocabulary names in both directions: the cue a reader uses, not the name itself.

Words that are no asked-for software ("412 SARS-CoV-2 genomes", "GATK 4.5 HaplotypeCaller",
"q-point 3 of 20", an image "sb3:latest", a typo "adjiont") must not become packages; they stay
quoted, so no requirement is dropped. Names that the text does ask for behind a clear cue
("the tximport R package", "MOOSE coupled to OpenMC", "Grid (the ...) + Hadrons", "the
library turbinesFoam", a ``software = [...]`` list) must be read. The sentences are written
for these tests.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.english import transposed_word
from endpoint_plugins.parsing.structured import flatten_json

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def names_in(text: str) -> list[str]:
    """The package names read from ``text``."""
    return [s.name for s in parse_requirements(text, now=NOW).software]


def quoted_in(text: str) -> str:
    """Everything the parse left quoted, as one string."""
    return " ".join(parse_requirements(text, now=NOW).unparsed)


# -- what a count counts: samples, not software --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("For the 412 SARS-CoV-2 genomes I need BEAST 2.7.7 on one node for 3 days.", "SARS-CoV-2"),
        ("nnU-Net 2.5.1 on 1,251 BraTS cases, one node with 2 GPUs for 20 hours", "BraTS"),
        ("We align 300 TCGA-BRCA samples with STAR 2.7.11; 32 cores, 8 hours.", "TCGA-BRCA"),
        (
            "Please give us 2 nodes to score 5,000 ZINC15 ligands with AutoDock-Vina 1.2.5.",
            "ZINC15",
        ),
        (
            "Segmenting 900 OASIS-3 subjects needs 64 GB and 12 hours with FreeSurfer 7.4.",
            "OASIS-3",
        ),
        ("Screening 40k ChEMBL33 compounds on 4 GPUs for a day with GNINA 1.1", "ChEMBL33"),
    ],
)
def test_a_name_between_a_count_and_its_samples_is_quoted_not_a_package(
    text: str, word: str
) -> None:
    assert word.lower() not in names_in(text)
    assert word in quoted_in(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I need to run 4 GROMACS jobs on one node each, 6 hours.", "gromacs"),
        ("We want 12 hifiasm jobs done this week, 64 cores.", "hifiasm"),
        ("run 3 miniAMR tests on 2 nodes for an hour", "miniamr"),
    ],
)
def test_a_package_before_a_noun_of_work_stays_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


# -- a place in a series, not a release ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (
            "Last week it was still at q-point 3 of 20 after 48h. Now 16 nodes for 3 days.",
            "q-point",
        ),
        ("the sweep stopped at k-block 7 of 64, so give me 8 nodes for 10 hours", "k-block"),
        ("it died in lambda-window 12 out of 40; 2 GPUs for a day please", "lambda-window"),
    ],
)
def test_a_counter_in_a_series_is_no_versioned_package(text: str, word: str) -> None:
    assert word.lower() not in names_in(text)
    assert word in quoted_in(text)


def test_a_version_after_an_unknown_name_is_still_read() -> None:
    sw = parse_requirements("Need fastgrid-tool 3.2 on 2 nodes for 4 hours.", now=NOW).software
    assert [(s.name, [c.version for c in s.constraints]) for s in sw] == [
        ("fastgrid-tool", ["3.2"])
    ]


# -- a tool, mode or method of the package just named ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "package", "part"),
    [
        ("GATK 4.5 HaplotypeCaller, 16 cores, 64G, 20h", "gatk", "HaplotypeCaller"),
        ("ANTs 2.5.3 SyN registrations, 8 cores each, 4 hours", "ants", "SyN"),
        ("Rosetta 3.14 FastRelax on 40 cores for 12 hours", "rosetta", "FastRelax"),
        ("GROMACS 2024.2 FEP runs, 1 GPU per job for 2 days", "gromacs", "FEP"),
    ],
)
def test_a_word_right_after_a_versioned_package_is_its_part_and_quoted(
    text: str, package: str, part: str
) -> None:
    names = names_in(text)
    assert package in names
    assert part.lower() not in names
    assert part in quoted_in(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("GATK 4.5, HaplotypeCaller and PyTorch, 16 cores for 20 hours", "pytorch"),
        ("We need GROMACS 2024 and MMseqs2 on one node for 6 hours.", "mmseqs2"),
        ("LAMMPS 2Aug2023 with miniAMR on 4 nodes", "miniamr"),
    ],
)
def test_a_listed_package_after_a_versioned_one_is_still_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


# -- an image reference, not a package -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("podman run --rm sb3:latest ./sweep.sh on one node with a T4 for 3 hours", "sb3"),
        ("apptainer exec qe72gpu:latest ./run.sh, 2 nodes, 8 hours", "qe72gpu"),
        ("docker run -it --rm myPipeline:stable ./go.sh, 16 cores", "myPipeline"),
    ],
)
def test_a_word_with_an_image_tag_is_no_package(text: str, word: str) -> None:
    assert word.lower() not in names_in(text)


# -- a typo of an English word, with two letters swapped


@pytest.mark.parametrize("word", ["adjiont", "nonlinaer", "implciit", "stochsatic", "spectarl"])
def test_a_swapped_pair_of_letters_in_an_english_word_is_a_typo(word: str) -> None:
    assert transposed_word(word)


@pytest.mark.parametrize(
    "word", ["hifiasm", "optuna", "cpptraj", "adjoint", "turbinesfoam", "gromacs"]
)
def test_a_package_name_or_an_english_word_is_no_swapped_typo(word: str) -> None:
    assert not transposed_word(word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("run an SU2 7.5.1 optimisation with the adjiont solver on 2 nodes", "adjiont"),
        ("We use the nonlinaer solver in SU2 8.0 on 4 nodes for 5 hours.", "nonlinaer"),
        ("please the stochsatic integrator of LAMMPS, 2 nodes, 6 hours", "stochsatic"),
    ],
)
def test_a_mistyped_english_word_before_a_tool_noun_is_no_package(text: str, word: str) -> None:
    assert word not in names_in(text)


def test_a_foreign_word_before_a_tool_noun_is_still_a_package() -> None:
    assert "hifiasm" in names_in("I assemble with the hifiasm assembler, 64 cores, 1 day.")


# -- a name coupled to a package


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("MOOSE coupled to OpenMC, 4 nodes with 56 tasks each, 6 hours", "moose"),
        ("Cardinal couples NekRS and OpenMC; we need 8 nodes with 4 GPUs each.", "cardinal"),
        ("Our Falcon solver? No: Falcon is coupled with LAMMPS, 2 nodes, 3 hours.", "falcon"),
        ("XBEACH couples to WRF in this setup; 6 nodes for 12 hours.", "xbeach"),
        ("Beacon gets coupled to GROMACS through a plugin; one GPU for 2 days.", "beacon"),
    ],
)
def test_what_is_coupled_to_a_package_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("In WRF the Ocean couples to the atmosphere; 4 nodes, 8 hours.", "ocean"),
        ("the mesh is coupled to the boundary in OpenFOAM, 2 nodes", "mesh"),
        ("Heat coupled with flow: 8 nodes for 12 hours", "heat"),
    ],
)
def test_a_word_coupled_to_no_package_is_no_package(text: str, word: str) -> None:
    assert word not in names_in(text)


# -- a package named by its language and a package noun


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Need Salmon 1.10 + the tximport R package, 16 cores, 64G, 3h", "tximport"),
        ("R 4.4 with Seurat 5 and the harmony R package, one node, 1 day", "harmony"),
        ("the cellpose Python library on one GPU for 4 hours", "cellpose"),
        ("We fit with the limma Bioconductor package on 8 cores.", "limma"),
        ("please install the Zygote Julia package; 2 nodes for 3 hours", "zygote"),
        ("the bracket R package, 4 cores, 2 hours", "bracket"),
    ],
)
def test_a_word_before_a_language_and_package_noun_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


def test_the_language_of_a_named_package_is_no_requirement_of_its_own() -> None:
    assert names_in("the tximport R package, 16 cores for 3 hours") == ["tximport"]


def test_the_language_stays_when_it_is_asked_for_on_its_own() -> None:
    names = names_in("R 4.3 and the harmony R package, 8 cores")
    assert "r" in names and "harmony" in names


@pytest.mark.parametrize(
    "text",
    [
        "the official R package, 8 cores for 2 hours",
        "whatever the latest Python package is, 2 nodes",
    ],
)
def test_an_adjective_before_a_language_is_no_name_and_the_language_stays(text: str) -> None:
    names = names_in(text)
    assert "official" not in names and "latest" not in names
    assert names  # the language is kept: no requirement is dropped


# -- list items across an aside


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Grid (the lattice QCD library) + Hadrons, 16 nodes x 4 GPUs, 8h", "hadrons"),
        ("LAMMPS (the stable release) and Phonopy on 2 nodes", "phonopy"),
        ("GROMACS (any 2024 build) plus Plumed, one node", "plumed"),
    ],
)
def test_a_package_after_an_aside_of_the_first_is_listed(text: str, name: str) -> None:
    assert name in names_in(text)


def test_prose_after_an_aside_is_not_listed() -> None:
    assert names_in("GROMACS (thanks again) and then some tests on 2 nodes") == ["gromacs"]


# -- a camel-case word after a package noun


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("OpenFOAM v2306 and the library turbinesFoam, 256 processes, 40 hours", "turbinesfoam"),
        ("we load the package swakFoam into OpenFOAM, 4 nodes", "swakfoam"),
        ("our toolbox fieldTrip runs in MATLAB, 8 cores, 6 hours", "fieldtrip"),
    ],
)
def test_a_camel_case_word_after_a_package_noun_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


def test_a_camel_case_case_name_stays_no_package() -> None:
    assert "motorbike" not in names_in("OpenFOAM v2306 for the case motorBike, 4 nodes")


# -- a list under a software key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('software = ["cobaya 3.5", "camb", "class"]\nnodes = 2', {"cobaya", "camb", "class"}),
        ('packages: ["trinity", "harmony"]\ncores: 8', {"trinity", "harmony"}),
        ('modules = ["moose", "cardinal"]\ntime = "4:00:00"', {"moose", "cardinal"}),
    ],
)
def test_every_item_of_a_software_list_is_a_package(text: str, expected: set[str]) -> None:
    assert expected <= set(names_in(text))


def test_a_list_keeps_its_key_when_flattened() -> None:
    assert flatten_json('software = ["a", "b"]').strip() == "software: a, b"
    assert flatten_json('x {"a": 1}').strip() == "x \na: 1"


def test_a_list_under_a_key_of_no_software_names_nothing() -> None:
    assert "red" not in names_in('colors: ["red", "blue"]\nnodes: 2')
