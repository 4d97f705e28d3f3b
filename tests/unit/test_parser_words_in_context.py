"""Words that look like package names but whose form or neighbours say otherwise.

Every sentence is written for the test, not copied from the corpus: hyphenated compounds of
English and of its word-forming prefixes ("multi-physics", "laser-wakefield"), eponymous
models ("Michaelis-Menten"), abbreviations of physics joined by hyphens ("pp-nn"), model sizes
("medium-v2"), programs of a package the request names ("pw.x" beside ESPRESSO), mistyped units
after a number, parts of versions glued to a number, job names in scheduler directives,
projects, events, machines and file formats named before their noun, site file systems and
the abbreviations of chat. None may become a software requirement; what is not prose stays
quoted in ``unresolved`` (fail-safe). Negative cases put real packages in the same places and
check they still count.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.not_names import (
    abbreviation_compound,
    closed_compound,
    executable_of,
    model_checkpoint,
)
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(req: Requirements) -> list[str]:
    return [s.name for s in req.software]


def quoted(req: Requirements) -> str:
    return " ".join(req.unresolved).lower()


# -- hyphenated compounds of English ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Our plasma-wakefield scan uses Smilei on 8 nodes for 6 hours.", "plasma-wakefield"),
        ("For the multi-physics study we run MOOSE on 4 nodes, 12 hours.", "multi-physics"),
        ("The micro-benchmark suite runs with OSU on 2 nodes for 1 hour.", "micro-benchmark"),
        ("We do elastic full-waveform imaging with SPECFEM3D on 16 nodes.", "full-waveform"),
        ("A sound-speed sweep with Dedalus, 4 nodes, 10 hours.", "sound-speed"),
        ("The nanobody-antigen docking runs with HADDOCK on one node for 8 hours.", "nanobody"),
        ("The metagenomics-screening step uses Kraken2 on one node, 64 cores.", "metagenomics"),
    ],
)
def test_a_hyphenated_compound_of_english_words_is_no_package(text: str, word: str) -> None:
    req = parse(text)
    assert not any(word in n for n in names(req)), names(req)
    assert word in quoted(req)


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ("wakefield", True),
        ("waveform", True),
        ("toolchain", True),
        ("multiscale", True),
        ("nanobody", True),
        ("hifiasm", False),
        ("xformers", False),
        ("kokkos", False),
        ("genomic", False),  # an English word, no compound: the dictionary answers for it
    ],
)
def test_a_closed_compound_splits_into_english_words(part: str, expected: bool) -> None:
    assert closed_compound(part) is expected


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We run the mini-app miniFE and nekbone-tests on 2 nodes for 1 hour.", "nekbone-tests"),
        ("Please install keras-cv and run it on one GPU for 2 hours.", "keras-cv"),
        ("Our pipeline needs bwa-mem2 on one node with 32 cores.", "bwa-mem2"),
    ],
)
def test_a_hyphenated_package_name_still_counts(text: str, name: str) -> None:
    assert name in names(parse(text))


def test_a_compound_beside_a_package_with_an_article_is_no_list_item() -> None:
    req = parse("We benchmark Kripke 1.2 and the proxy-app miniFE on one node for 2 hours.")
    assert "proxy-app" not in names(req)
    assert "minife" in names(req)
    assert "kripke" in names(req)


# -- eponymous models and joined abbreviations -----------------------------------------------


@pytest.mark.parametrize(
    "term", ["Michaelis-Menten", "FitzHugh-Nagumo", "Lotka-Volterra", "Cahn-Hilliard"]
)
def test_an_eponymous_model_is_no_package(term: str) -> None:
    req = parse(f"We fit {term} kinetics with Stan on one node with 8 cores for 3 hours.")
    assert term.lower() not in names(req)
    assert "stan" not in quoted(req) or term.lower() in quoted(req)


@pytest.mark.parametrize(
    ("word", "expected"),
    [("sd-pf", True), ("pp-NN", True), ("py-spy", False), ("r-base", False), ("a", False)],
)
def test_joined_abbreviations_are_told_from_names(word: str, expected: bool) -> None:
    assert abbreviation_compound(word) is expected


def test_a_model_space_of_physics_is_quoted() -> None:
    req = parse("For the fp-sd shell we run NuShellX on 4 nodes for 10 hours.")
    assert "fp-sd" not in names(req)
    assert "fp-sd" in quoted(req)


# -- model sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("large-v3", True),
        ("medium.en", True),
        ("small-v2", True),
        ("base-uncased", True),
        ("large-v3-turbo", True),
        ("large", False),
        ("base-station", False),
        ("tiny-cuda-nn", False),
    ],
)
def test_a_model_size_is_a_checkpoint(word: str, expected: bool) -> None:
    assert model_checkpoint(word) is expected


def test_a_model_size_in_a_sentence_is_quoted_and_the_tool_kept() -> None:
    req = parse("Transcribe with faster-whisper 1.0 and the medium-v2 model, one GPU, 5 hours.")
    assert "medium-v2" not in names(req)
    assert "faster-whisper" in names(req)


# -- programs of a named package -------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "packages", "expected"),
    [
        ("cp2k.popt", ["cp2k"], True),
        ("pw.x", ["pw"], True),
        ("run_alphafold", ["alphafold"], True),
        ("hdf5-mpi", ["hdf5"], True),
        ("colabfold_batch", ["colabfold"], True),
        ("netcdf-fortran", ["netcdf"], False),
        ("cp2k.popt", ["gromacs"], False),
        ("hdf5", ["hdf5"], False),
    ],
)
def test_a_program_of_a_named_package_is_told(
    word: str, packages: list[str], expected: bool
) -> None:
    assert executable_of(word, packages) is expected


@pytest.mark.parametrize(
    ("text", "package", "program"),
    [
        ("srun cp2k.popt -i md.inp   # CP2K 2025.1, 8 nodes, 6 hours", "cp2k", "cp2k.popt"),
        (
            "Please install DeepVariant; we call run-deepvariant on 1 node, 4 hours.",
            "deepvariant",
            "run-deepvariant",
        ),
        (
            "The ParaView 5.12 build, not the paraview-mpi module, on one node for 1 hour.",
            "paraview",
            "paraview-mpi",
        ),
    ],
)
def test_a_program_of_a_named_package_is_no_second_package(
    text: str, package: str, program: str
) -> None:
    req = parse(text)
    assert package in names(req)
    assert program not in names(req)
    assert program in quoted(req)


def test_a_program_of_an_unnamed_package_still_counts() -> None:
    req = parse("Please install hdf5-mpi 1.14 on one node for 2 hours.")
    assert "hdf5-mpi" in names(req) or "hdf5" in names(req)


# -- neighbours: numbers, job names, projects, machines, formats -----------------------------


@pytest.mark.parametrize(
    ("text", "typo"),
    [
        ("We need 256 croes and FFTW 3.3 for 4 hours.", "croes"),
        ("Give me 4 noeds and GROMACS 2024 for 12 hours.", "noeds"),
        ("We would like 2 gpsu and PyTorch 2.3 for a day.", "gpsu"),
    ],
)
def test_a_mistyped_unit_after_a_number_is_no_package(text: str, typo: str) -> None:
    req = parse(text)
    assert typo not in names(req)
    counted = req.compute.total_cores or req.compute.nodes or req.compute.gpus_per_node
    assert typo in quoted(req) or counted  # read as the unit, or quoted


def test_an_unknown_mistyped_unit_is_quoted() -> None:
    req = parse("hello, we need 512 corse and SUNDIALS 6.7 and a fast network.")
    assert "corse" not in names(req)
    assert "corse" in quoted(req) or req.compute.total_cores == 512
    assert "sundials" in names(req)


def test_a_package_after_a_number_still_counts() -> None:
    req = parse("We need 64 cores and hifiasm 0.19 for 10 hours.")
    assert "hifiasm" in names(req)
    req = parse("Please give us 2 nodes, 24 corsika showers each, CORSIKA 7.7 installed.")
    assert "corsika" in names(req)


def test_a_part_of_a_version_glued_to_a_number_is_no_package() -> None:
    req = parse("tool=foldseek\nfoldseek=9-427df8a\ncpus=16\nwalltime_h=4\n")
    assert "df8a" not in names(req)
    assert "foldseek" in names(req)


@pytest.mark.parametrize(
    "directive",
    [
        "#PBS -N wrf-d02run",
        "#SBATCH -J relax-v2x",
        "#SBATCH --job-name=lj-melt4k",
        "#BSUB -J mdrun-q7",
    ],
)
def test_a_job_name_in_a_directive_is_no_package(directive: str) -> None:
    text = (
        f"#!/bin/bash\n{directive}\n#SBATCH --nodes=2\n"
        "module load gromacs/2024.1\nsrun gmx_mpi mdrun\n"
    )
    req = parse(text)
    tail = directive.split()[-1].split("=")[-1].lower()
    assert not any(n in tail and n != "gromacs" for n in names(req)), names(req)
    assert "gromacs" in names(req)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Within the PRACEnet work package we run Nek5000 on 16 nodes.", "pracenet"),
        ("We need results before the CASP16-style submission; AlphaFold on one GPU.", None),
        ("Our DeepMIP consortium runs need CESM on 8 nodes for 2 days.", "deepmip"),
        ("It must run on a real BrainScaleS machine, not on a CPU, for 2 hours.", "brainscales"),
        ("The code writes openVDB output through HDF5 on one node.", "openvdb"),
        ("We analyse the CellProfiler outputs with pandas on one node, 8 cores.", None),
    ],
)
def test_a_name_before_a_noun_of_projects_machines_or_formats_is_quoted(
    text: str, word: str | None
) -> None:
    req = parse(text)
    if word is not None:
        assert word not in names(req)
        assert word in quoted(req)


def test_a_package_before_an_ordinary_noun_still_counts() -> None:
    req = parse("Our optuna sweep needs 4 GPUs on one node for 6 hours.")
    assert "optuna" in names(req)


# -- site file systems and chat --------------------------------------------------------------


@pytest.mark.parametrize("fs", ["CVMFS", "BeeGFS", "CephFS", "iRODS"])
def test_a_site_file_system_is_no_package(fs: str) -> None:
    req = parse(f"Our software comes through {fs}, so nodes must see it; SAMtools 1.19, 4 cores.")
    assert fs.lower() not in names(req)
    assert "samtools" in names(req)
    assert fs.lower() in quoted(req) or req.storage  # quoted, or read as a storage need


@pytest.mark.parametrize("slang", ["lol", "btw", "tbh", "imho"])
def test_chat_abbreviations_are_prose(slang: str) -> None:
    req = parse(f"finally installed rfdiffusion {slang}. need 1 GPU for 2 days")
    assert slang not in names(req)
    assert slang not in quoted(req)
    assert "rfdiffusion" in names(req)


@pytest.mark.parametrize(
    "text",
    [
        "The study tags warranty and right-of-first-refusal clauses in 2 million leases.",
        "We classify termination and change-of-control provisions with spaCy on one node.",
        "It annotates liability and right-of-way disputes in court records, 8 cores.",
    ],
)
def test_a_list_of_english_terms_makes_no_packages(text: str) -> None:
    req = parse(text)
    assert not any("-" in n and n != "scikit-learn" for n in names(req)), names(req)
    assert not {"warranty", "termination", "liability"} & set(names(req))


def test_a_list_with_an_unknown_word_still_makes_packages() -> None:
    req = parse("We need xformers and flash-attn on one GPU for 3 hours.")
    assert {"xformers", "flash-attn"} <= set(names(req))


def test_a_program_after_a_node_count_directive_still_counts() -> None:
    req = parse("#!/bin/bash\n#SBATCH -N 2\nminiProt --gff ref.fa prot.fa\n")
    assert "miniprot" in names(req)
    req = parse("#!/bin/bash\n#PBS -N polish-r2\nmedaka_consensus -i reads.fq\n")
    assert "r2" not in names(req)
