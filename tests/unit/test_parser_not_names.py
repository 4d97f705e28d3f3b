"""Words shaped like package names that name something else (the dev-h, dev-i, dev-j round).

Each class is stated in sentences written for the test, not copied from the corpus: trained
models with a parameter count, names of runs, files and data sets, variables, methods of
science in mixed case or capitals, English compounds, journals and venues with a year, counts
after English words, people in signatures. Such a word must never become a software
requirement; when it is not known prose it is quoted in ``unresolved`` (fail-safe). Negative
cases check that real package names of the same shapes still count.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.not_names import (
    camel_identifier,
    cited_work,
    model_checkpoint,
    not_a_package,
    record_number,
    run_identifier,
    science_abbreviation,
)
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(req: Requirements) -> list[str]:
    return [s.name for s in req.software]


def quoted(req: Requirements) -> str:
    return " ".join(req.unresolved).lower()


# -- trained models named with their size ----------------------------------------------------


@pytest.mark.parametrize(
    "word",
    [
        "Gemma-2-27B",
        "Falcon-180B",
        "DeepSeek-V3-671B",
        "Phi-3.5-3.8B-mini",
        "Mistral-7B-v0.3",
        "Yi-1.5-34b-chat",
        "Qwen1.5-110B",
        "Arctic-8x7B",
        "esm2_t36_3B",
        "dinov2-vitl14-300M",
    ],
)
def test_a_model_with_a_parameter_count_is_no_package(word: str) -> None:
    assert model_checkpoint(word)
    req = parse(f"please fine-tune {word} on 8 H100 GPUs for 20 hours with deepspeed")
    assert word.lower() not in names(req)
    assert "deepspeed" in names(req)


@pytest.mark.parametrize(
    "word", ["bwa-mem2", "hdf5", "stable-baselines3", "cp2k", "mpi4py", "gromacs", "x264"]
)
def test_package_names_with_digits_are_no_model(word: str) -> None:
    assert not model_checkpoint(word)


def test_a_served_model_and_its_server() -> None:
    req = parse("Could I serve Gemma-2-27B-it with vllm 0.6.3 on two A100s for a day?")
    assert names(req) == ["vllm"]


# -- names of runs, files, data sets and variables --------------------------------------------


@pytest.mark.parametrize(
    "word",
    [
        "coastal_mesh_v7",
        "hindcast_2023_q4",
        "restart_files_2d",
        "grid_level_12",
        "storm_surge_run3",
        "uniprot_2025_01",
        "max_iterations",
    ],
)
def test_an_underscore_identifier_is_no_package(word: str) -> None:
    assert run_identifier(word)
    req = parse(f"run the case {word} with OpenFOAM 11 on 4 nodes for 6 hours")
    assert word.lower() not in names(req)
    assert word.lower() in quoted(req)  # quoted, not dropped


@pytest.mark.parametrize(
    "word", ["specfem3d_globe", "code_saturne", "pytorch_lightning", "qiime2_tools", "gpu"]
)
def test_an_underscore_package_name_is_no_identifier(word: str) -> None:
    assert not run_identifier(word)


@pytest.mark.parametrize("word", ["windTurbine", "pitchDamper", "numParticles", "maxSteps"])
def test_a_camel_case_variable_is_no_package(word: str) -> None:
    assert camel_identifier(word)
    req = parse(f"the {word} tutorial case, OpenFOAM v2312, 64 cores, 3 hours")
    assert word.lower() not in names(req)


@pytest.mark.parametrize("word", ["openPMD", "cuDNN", "libMesh", "pyMOR", "oneAPI", "PyTorch"])
def test_camel_case_package_names_stay_names(word: str) -> None:
    assert not camel_identifier(word)


@pytest.mark.parametrize("word", ["Z004321", "SRR1234567", "GSE123456", "ab987654"])
def test_grant_and_accession_numbers_are_no_packages(word: str) -> None:
    assert record_number(word)
    req = parse(f"Funded by grant EP/{word}/1. We need 2 nodes for 5 hours with lammps.")
    assert word.lower() not in names(req)
    assert "lammps" in names(req)


@pytest.mark.parametrize("word", ["amg2023", "hpl", "gromacs", "x264", "sd2"])
def test_package_names_are_no_record_numbers(word: str) -> None:
    assert not record_number(word)


# -- methods and data kinds of science ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I train QLoRA adapters with peft on 1 A100 for 4 hours", "qlora"),
        ("assembling PacBio HiFi reads with hifiasm, 64 cores and 500 GB RAM", "hifi"),
        ("we profile mRNA and lncRNA expression with salmon, 16 cores", "mrna"),
        ("a scRNA atlas of 2 million cells, scanpy, 256 GB of memory", "scrna"),
        ("processing InSAR time series with isce2, 4 nodes for a day", "insar"),
        ("a spatial SIR model fitted with cmdstan, 8 cores, 10 hours", "sir"),
        ("our MCMC job with emcee takes 12 hours on 32 cores", "mcmc"),
        ("MHD turbulence runs with athena++ on 8 nodes", "mhd"),
        ("SAPT0 and SAPT2+ energies with psi4, 1 node for 6 hours", "sapt2+"),
        ("reads from our MinION, basecalled with dorado, 2 GPUs", "minion"),
    ],
)
def test_a_method_of_science_is_no_package(text: str, word: str) -> None:
    req = parse(text)
    assert word not in names(req)


@pytest.mark.parametrize("word", ["LoRA", "rRNA", "cDNA", "InSAR", "MoE", "SAPT2+", "ABMs"])
def test_science_abbreviations(word: str) -> None:
    assert science_abbreviation(word)


@pytest.mark.parametrize("word", ["LAMMPS", "athena++", "Brian2", "MPI", "pennylane", "dorado"])
def test_package_names_are_no_science_abbreviations(word: str) -> None:
    assert not science_abbreviation(word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("a phonon calculation with phonopy on 2 nodes", "phonon"),
        ("our metadynamics study uses plumed 2.9 and 4 GPUs", "metadynamics"),
        ("the BEAVRS benchmark with openmc 0.15, 16 nodes", "beavrs"),
        ("an SEIR model with 64 cores for 10 hours", "seir"),
        ("a block-structured AMR code, 16 nodes and 12 hours", "amr"),
    ],
)
def test_a_method_before_a_job_noun_is_no_package(text: str, word: str) -> None:
    assert word not in names(parse(text))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("a quick optuna sweep on 1 GPU for 3 hours", "optuna"),
        ("test my jraph model on a gpu for 2 hours", "jraph"),
        ("an IO500 run on 10 nodes", "io500"),
    ],
)
def test_a_package_before_a_job_noun_stays_a_package(text: str, word: str) -> None:
    assert word in names(parse(text))


# -- English compounds -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "we count k-mers with jellyfish 2.3 on 32 cores",
        "an n-body code, gadget4, 4 nodes",
        "the p-values come from a t-test in R 4.3, 2 cores",
        "a follow-up of the 18th-century letters corpus, spark 3.5, 8 nodes",
        "our ERC-funded project needs lammps on 4 nodes",
        "the NSF-sponsored survey, 2 nodes with gromacs 2024",
        "a roll-out of the book-digitisation pipeline, 16 cores, blender 4.1",
        "a milion-particle run with parcels 3.0 for 5 hours",
        "the cleanup-after-failure step needs 1 node with cdo",
        "for the type-II receptor we need gromacs 2023 on 2 GPUs",
    ],
)
def test_english_compounds_are_no_packages(text: str) -> None:
    req = parse(text)
    extra = [
        n
        for n in names(req)
        if n not in {"jellyfish", "gadget4", "r", "spark", "lammps", "gromacs", "blender"}
        and n not in {"parcels", "cdo"}
    ]
    assert extra == []


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("we need q-chem 6.1 on 2 nodes", "q-chem"),
        ("install c-blosc and zstd", "c-blosc"),
        ("nccl-tests on 2 nodes", "nccl-tests"),
        ("faster-whisper 1.0 on a GPU", "faster-whisper"),
    ],
)
def test_hyphenated_package_names_stay_names(text: str, word: str) -> None:
    assert word in names(parse(text))


# -- journals, venues and years ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "we reproduce Smith et al., Science 2019 with gromacs 2024 on 4 GPUs",
        "as in Chen et al. (Cell 2021), we run alphafold on 1 A100",
        "the model from our NeurIPS 2024 paper needs pytorch 2.3 and 8 GPUs",
        "results for the ICML 2026 deadline: jax 0.4.30 on 4 H100s",
    ],
)
def test_a_journal_or_venue_with_its_year_is_no_package(text: str) -> None:
    req = parse(text)
    for word in ("science", "cell", "neurips", "icml"):
        assert word not in names(req)


def test_cited_work_positions() -> None:
    text = "see Doe et al., Nature 2020 and our SC 2025 talk"
    start = text.index("Nature")
    assert cited_work(text, start, start + len("Nature"))
    start = text.index("SC")
    assert cited_work(text, start, start + 2)
    text = "we need Maya 2024 on a node"
    start = text.index("Maya")
    assert not cited_work(text, start, start + 4)


def test_a_product_release_year_is_still_a_version() -> None:
    req = parse("please install Maya 2024 on the render node")
    assert "maya" in names(req)


# -- counts after English words ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("the model tracks 4.5 million agents over 30 years", "tracks"),
        ("each scenario simulates 1.2 billion particles with gadget4", "simulates"),
        ("we render shots 1-480 of the film in blender 4.2", "shots"),
        ("it covers 2.5 thousand stations, 8 cores", "covers"),
        ("please give 300GB of scratch for cp2k", "scratch"),
    ],
)
def test_a_count_after_an_english_word_is_no_release(text: str, word: str) -> None:
    assert word not in names(parse(text))


def test_a_package_version_before_a_count_of_nodes_is_kept() -> None:
    req = parse("we need octopus 14.1 on 3 nodes")
    assert "octopus" in names(req)


# -- people --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "gromacs 2024 on 2 GPUs please.\n\nBest,\nProf. R. Okafor\nDept. of Chemistry",
        "cheers, Dr. C. Lindgren -- we need lammps on 4 nodes",
        "Signed: Priya R. Field, Marine Ecology. We need 2 nodes with cdo.",
    ],
)
def test_an_initial_is_no_language(text: str) -> None:
    req = parse(text)
    assert "r" not in names(req) and "c" not in names(req)


def test_r_in_a_sentence_is_still_r() -> None:
    assert "r" in names(parse("the analysis uses R 4.3 and needs 8 cores"))
    assert "r" in names(parse("Can you load R. Thanks, 2 cores"))
    assert "r" in names(parse("Please Install R. Then we need 2 cores"))


def test_a_signature_line_names_no_packages() -> None:
    req = parse(
        "We need gromacs 2024 on 8 nodes.\n--\nIvo Ortega, Astroparticle Physics, grant EP/T0001/1"
    )
    assert names(req) == ["gromacs"]
    assert "ortega" in quoted(req)  # unread words stay quoted


def test_a_titled_institution_is_no_package() -> None:
    req = parse("scans digitised by the Royal Library in 2015; we need tesseract on 2 nodes")
    assert "royal" not in names(req)


def test_a_version_after_a_toolbox_is_no_name() -> None:
    req = parse("can I get 1 node for Drake (the MIT robotics toolbox, v1.30) for 5h?")
    assert "v1.30" not in names(req) and "toolbox" not in names(req)


# -- everything not a package still blocks READY -----------------------------------------------


@pytest.mark.parametrize(
    "word",
    ["Falcon-40B", "run_case_7", "tideGauge", "QLoRA", "mtDNA", "ESM-2", "X004567"],
)
def test_not_a_package_words_are_quoted(word: str) -> None:
    assert not_a_package(word)
    req = parse(f"we need {word} on 2 nodes for 3 hours")
    assert word.lower() not in names(req)
    assert word.lower() in quoted(req)
