"""Names used as evidence, results or references are no packages to run.

A benchmark named with its figures ("our HPL 2.3 numbers", "Graph500 results", "Foo 1.2 at 71%
efficiency"), a data set or a benchmark phase a figure was measured on ("perplexity on
WikiText-2", "hit 210 GiB/s on ior-easy-write"), a metric ("top-1"), a reference template or
space ("registered to MNI152NLin6Asym", "in fsLR space"), data listed after a noun of data in
parentheses ("the reference databases (UniClust30, PDB70)"), names said to be staged or
downloaded already, a mistyped noun of data ("GENCODE 44 transcirpts", "molecuels from
ChEMBL 34") and read
formats ("the FASTQ") are quoted in ``unresolved``, never software requirements. Negative
cases: a benchmark that is the program to run, and a package beside such words, stay packages.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def read(text: str) -> tuple[set[str], str]:
    """The package names read from the text, and its quoted (unresolved) words in lower case."""
    req = parse_requirements(text, now=NOW)
    return {s.name for s in req.software}, " ".join(req.unresolved).lower()


@pytest.mark.parametrize(
    ("text", "evidence", "package"),
    [
        # results and numbers of a benchmark
        ("Reviewers want our Graph500 numbers next to Nektar++ 5.5 runs.", "graph500", "nektar++"),
        ("Compare with the HPCG-lite 3.1 results, then run Dedalus 3.0.", "hpcg-lite", "dedalus"),
        ("We already have the Quokka and Wombat scores; need xtb 6.7.", "wombat", "xtb"),
        (
            "Our SPECaccel 2023 submission is done, now we need GROMACS 2024.",
            "specaccel",
            "gromacs",
        ),
        (
            "The BabelStream 5.0 numbers are fine. Please install Firedrake 2025.4.",
            "babelstream",
            "firedrake",
        ),
        (
            "We beat the Kinetics-700 baseline last month; need PyTorch 2.4.",
            "kinetics-700",
            "pytorch",
        ),
        (
            "Vendor sheet: Linpackz 2.3 at 71% efficiency. We need Dedalus 3.0.",
            "linpackz",
            "dedalus",
        ),
        # a figure measured on a data set or a phase of a benchmark
        ("need 1 A100 for llama.cpp (perplexity on PennTB-3)", "penntb-3", "llama.cpp"),
        (
            "Last week we hit 180 GiB/s on io-hard-read; now run h5bench 1.4.",
            "io-hard-read",
            "h5bench",
        ),
        ("We reached 82% accuracy on CUB-200 and want timm 1.0 now.", "cub-200", "timm"),
        ("The model achieved 64 on MathQA-X; please install vLLM 0.6.", "mathqa-x", "vllm"),
        (
            "We want to score three checkpoints (Llama-3.1-8B, Qwen2.5-7B and our own tuned "
            "checkpoint 'mx-v2' from the spring campaign) on ARC-E, BoolQ and WinoGrande2. "
            "Scoring goes through lm-eval 0.4.3.",
            "winogrande2",
            "lm-eval",
        ),
        # a metric
        ("We got 76.1% top-1 before; now PyTorch 2.3 on 8 GPUs.", "top-1", "pytorch"),
        # reference templates and spaces
        ("Images are registered to MNI152NLin6Asym with ANTs 2.5.", "mni152nlin6asym", "ants"),
        ("The surfaces go into fsLR32k space, run with fMRIPrep 23.2.", "fslr32k", "fmriprep"),
        (
            "Outputs in OASIS30ANTs\nspace, about 2 TB; run fMRIPrep 24.1.",
            "oasis30ants",
            "fmriprep",
        ),
        # data listed in parentheses after a noun of data
        ("the reference databases (UniClust30, PDB70) with HH-suite 3.3", "uniclust30", "hh-suite"),
        ("the drought indices (SPEI12, CDD) with CDO 2.2 and NCO", "spei12", "cdo"),
        ("annotation data sets (Pfam35, TIGRFAM15) for InterProScan 5", "pfam35", "interproscan"),
        # staged or downloaded already
        (
            "The AK135 and SEMUCB models are already staged; SPECFEM3D 4.1 please.",
            "semucb",
            "specfem3d",
        ),
        ("We have already downloaded Silva138 and Unite9; run QIIME2 2024.5.", "unite9", "qiime2"),
        # a mistyped noun of released data
        ("salmon 1.10 against the RefTx 45 trnascripts on 32 cores", "reftx", "salmon"),
        ("kallisto 0.50 on the Ensmbl 112 anotations, 16 cores", "ensmbl", "kallisto"),
        ("dock ~900 lignads from ZINC22 with AutoDock-GPU 1.5", "zinc22", "autodock-gpu"),
        ("CREST 3.0 on 500 molecuels from PubChemQC 2, 32 cores", "pubchemqc", "crest"),
        ("fold the protiens from UniProtKB-SP with ColabFold 1.5", "uniprotkb-sp", "colabfold"),
        # read formats
        ("the FASTQ are about 2 TB on the share; STAR 2.7.11b, 48 cores", "fastq", "star"),
        ("inputs = 48 samples (CRAM), tools = samtools 1.20", "cram", "samtools"),
    ],
)
def test_a_name_used_as_evidence_is_quoted_not_software(
    text: str, evidence: str, package: str
) -> None:
    names, quoted = read(text)
    assert evidence not in names
    assert evidence in quoted  # fail-safe: quoted, never dropped
    assert package in names


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("Please run Graph500 3.0 on 4 nodes for 2 hours.", "graph500"),
        ("We need BabelStream 5.0 and HPCG 3.1 on one node.", "hpcg"),
        ("Install Foozle 2.3 for our runs on the cluster.", "foozle"),
        ("Run 4 Quokka 1.2 jobs on the data from last week.", "quokka"),
        ("Build Kripke 1.2 with CUDA on 2 nodes.", "kripke"),
        ("the workflow (Nextflow 24.04, MultiQC 1.21) on 8 cores", "multiqc"),
        ("We have already installed GROMACS 2024; please add PLUMED 2.9.", "plumed"),
    ],
)
def test_a_program_to_run_stays_software(text: str, package: str) -> None:
    names, _ = read(text)
    assert package in names
