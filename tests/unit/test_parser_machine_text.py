"""Words of machine-written requests that stand where no package name stands.

Agents, workflow tools and launchers write command-line options, spec keys, type names,
e-mail addresses, host names, file names and container image references around the packages
a job needs. None of these is software: each stays an unread word (quoted in ``unresolved``),
while the packages written among them are still read. The texts are written for the tests.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.not_names import dotted_non_name, placed_as_non_name
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(req: Requirements) -> set[str]:
    return {s.name for s in req.software}


def at(text: str, word: str) -> bool:
    start = text.index(word)
    return placed_as_non_name(text, start, start + len(word))


# -- options of launchers and their values ----------------------------------------------------


_OPTION_CASES = [
    (
        "accelerate launch --num_machines 2 --mixed_precision bf16 tune.py\n"
        "# needs optax 0.2.1 and flax 0.8",
        {"num_machines", "mixed_precision", "num-machines"},
        {"optax", "flax"},
    ),
    (
        "torchrun --nproc-per-node=4 --max_restarts=3 --rdzv_conf=join_timeout=900 main.py\n"
        "env: torch 2.4, lightning 2.3",
        {"nproc-per-node", "max_restarts", "rdzv_conf", "join_timeout"},
        {"pytorch", "pytorch-lightning"},
    ),
    (
        "srun --cpu-bind=cores --distribution=block:cyclic ./wavesim  # uses hypre 2.31",
        {"cpu-bind", "distribution", "cores"},
        {"hypre"},
    ),
    (
        "python -m venv env && pip install --no_deps scanpy==1.10 --index_url $MIRROR",
        {"no_deps", "index_url"},
        {"scanpy"},
    ),
    (
        "ray start --head --dashboard_port=8265 --num_cpus=64; need ray 2.9",
        {"dashboard_port", "num_cpus", "head"},
        {"ray"},
    ),
]


def test_option_words_are_placed_as_non_names() -> None:
    line = "deepspeed --num_gpus 8 --master_port=29501 --zero_stage=3 run.py"
    assert at(line, "num_gpus")
    assert at(line, "master_port")
    assert at(line, "zero_stage")


@pytest.mark.parametrize(
    "text",
    [
        "we need gromacs-2024 with plumed",
        "packages - numpy - scipy",
        "use nwchem for this",
    ],
)
def test_hyphens_inside_prose_are_no_options(text: str) -> None:
    word = text.split()[-1]
    assert not at(text, word)


# -- keys and type names of specs ----------------------------------------------------------------


_SPEC_CASES = [
    (
        "kind: JobRequest\nspec:\n  maxRetries: 3\n  nodeSelector: gpu\n"
        "  packages:\n    - xtb 6.7\n",
        {"jobrequest", "maxretries", "nodeselector"},
        {"xtb"},
    ),
    (
        "- class: InlineJavascriptRequirement\n- class: ResourceRequirement\n"
        "  outdirMin: 2048\n- class: SoftwareRequirement\n"
        "  packages: [{package: spades, version: ['3.15.5']}]\n",
        {"inlinejavascriptrequirement", "resourcerequirement", "outdirmin"},
        {"spades"},
    ),
    (
        '{"requestedBy": "pipeline", "queueName": "long", "tools": ["iqtree2 2.3", "mafft"]}',
        {"requestedby", "queuename"},
        {"iq-tree", "mafft"},
    ),
    (
        "rule call_peaks:\n    threads: 8\n    conda: macs3=3.0.1\nstep: merge_replicates\n",
        {"merge_replicates"},
        {"macs3"},
    ),
]


_LABEL_CASES = [
    ("- Workers: 12 nodes, 48 cores each\n- Stack: dask 2024.5", {"workers"}, {"dask"}),
    ("* Preprocessing: 2 TB of scratch\n* Tools: seqkit 2.8", {"preprocessing"}, {"seqkit"}),
    ("[bot:dock-runner] screening request\nsoftware: vina 1.2.5", {"dock-runner"}, {"vina"}),
    ('{"submitter": "hydro-agent", "tools": ["swmm 5.2"]}', {"hydro-agent"}, {"swmm"}),
]
"""Section labels with amounts as values, and names of the agents that sent a request."""


@pytest.mark.parametrize(("text", "absent", "present"), _OPTION_CASES + _SPEC_CASES + _LABEL_CASES)
def test_options_keys_and_type_names_are_no_packages(
    text: str, absent: set[str], present: set[str]
) -> None:
    found = names(parse(text))
    assert not found & absent
    assert present <= found


def test_a_key_before_a_version_is_still_a_package() -> None:
    found = names(parse("software:\n  elk: 9.6.8\n  wannier90: 3.1\n"))
    assert {"elk", "wannier90"} <= found


def test_a_camel_case_word_without_a_colon_is_left_to_the_vocabulary() -> None:
    text = "run openPMD output through the viewer"
    assert not at(text, "openPMD")


# -- addresses, hosts, files and images --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("Contact: j.moreau@lab.example.org. Need nektar++ 5.5 on 2 nodes.", {"j.moreau"}),
        ("results go to store.cluster.internal, 4 nodes, bowtie2", {"store.cluster.internal"}),
        ("run mpirun -np 64 ./lmp -in in.crack with lammps 29Aug2024", {"in.crack"}),
        ("input deck: restart.equil, lammps 2Aug2023", {"restart.equil"}),
        ("python fit.py --cfg sweep.yaml with jax 0.4.30", {"fit.py", "sweep.yaml"}),
    ],
)
def test_addresses_hosts_and_files_are_no_packages(text: str, absent: set[str]) -> None:
    assert not names(parse(text)) & absent


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("train.py", True),
        ("reads.fastq", True),
        ("uni.example", True),
        ("in.melt", True),
        ("node.js", False),
        ("whisper.cpp", False),
        ("data.table", False),
        ("ruamel.yaml", True),
        ("Oceananigans.jl", False),
        ("gromacs", False),
        ("zope.interface", False),
    ],
)
def test_dotted_words(word: str, expected: bool) -> None:
    assert dotted_non_name(word) is expected


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        ("apptainer pull docker://quay.io/biocontainers/salmon:1.10.3", "biocontainers", True),
        ("apptainer pull docker://quay.io/biocontainers/salmon:1.10.3", "quay.io", True),
        ("docker run ghcr.io/acme/solver:2.1", "acme", True),
        ("image: myorg/openfoam:v2312", "myorg", True),
        ("data in s3://survey-frames/2025/ (40 TB)", "survey-frames", True),
        ("module load lammps/2Aug2023 fftw/3.3.10", "lammps", False),
        ("module load cuda/12.4", "cuda", False),
        ("needs foo@1.2 and bar", "foo", False),
    ],
)
def test_image_references_and_paths(text: str, word: str, expected: bool) -> None:
    assert at(text, word) is expected


def test_the_named_image_keeps_its_package() -> None:
    found = names(parse("apptainer exec docker://quay.io/biocontainers/salmon:1.10.3 salmon"))
    assert "salmon" in found
    assert not found & {"biocontainers", "quay.io", "quay.io/biocontainers"}


def test_schedulers_and_sharding_methods_are_no_packages() -> None:
    found = names(parse("Needs: dask 2024.5 on 3 nodes; PBS or Slurm arrays fine; ZeRO stage 2"))
    assert "dask" in found
    assert not found & {"slurm", "pbs", "zero"}


def test_unread_machine_words_stay_quoted() -> None:
    req = parse("launch: deepspeed --num_gpus 4 --offload_dir /nvme train.py, pyscf 2.6")
    assert "pyscf" in names(req)
    assert req.unresolved  # the options are quoted, never silently dropped


def test_a_key_with_a_version_value_keeps_its_package() -> None:
    assert "kokkos" in names(parse("kokkos: 4.3\nnodes: 2"))
