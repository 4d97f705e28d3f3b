"""Words that say what the run is, not what it needs installed.

A request describes its job as well as asking for things: a ``purpose``/``goal``/``pipeline``
value of several words in a key=value or YAML form, the name a batch script gives its job
(``#SBATCH -J``, ``#PBS -N``, ``#BSUB -J``) and that name's words repeated in a comment, the
agent or person a form says requested the job. Their plain words ("quadruped", "sweep",
"rupture") are no packages. The names below are made up where they could be packages.

Fail-safe: such a word is quoted in ``unresolved`` (or is known prose), never silently
dropped; a catalogued package, or one written with a dotted version, stays a package.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing.parser import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _parse(text: str):
    return parse_requirements(text, now=NOW)


def _names(text: str) -> set[str]:
    return {s.name for s in _parse(text).software}


def _quoted(text: str) -> str:
    return " ".join(_parse(text).unresolved).lower()


DESCRIPTIONS = [
    ('[request]\npurpose = "hexapod walking sweep over rough terrain"\nnodes = 1', "hexapod"),
    ('purpose: "larval zebrafish swimming kinematics study"\nnodes: 2', "zebrafish"),
    ('goal = "fine grained vortex shedding campaign"\nnodes = 4', "vortex"),
    ("objective: glacier calving front tracking experiments\ncores: 32", "calving"),
    ('summary = "regional drought index reanalysis runs"\nnodes = 2', "drought"),
    ('{"pipeline": "tidal marsh sediment budget estimation", "nodes": 1}', "marsh"),
    ('workflow = "peatland methane flux upscaling"\nnodes = 3', "peatland"),
    ('aim: "seabird colony counting from drone imagery"\ngpus: 1', "seabird"),
    ('[job]\ntask = "beetle wing venation morphometrics batch"\nmemory = "64GB"', "beetle"),
    ('science = "magma chamber crystal mush rheology"\nnodes = 8', "mush"),
    ('motivation: "lichen growth rate regression across transects"\nnodes: 1', "lichen"),
    ('study = "bird song syllable clustering sweep"\ncores = 16', "syllable"),
]


@pytest.mark.parametrize(("text", "word"), DESCRIPTIONS)
def test_a_description_value_is_no_list_of_packages(text: str, word: str) -> None:
    names = _names(text)
    assert word not in names
    assert not names & {"sweep", "study", "runs", "batch", "experiments", "campaign"}


JOB_NAMES = [
    (
        "#!/bin/bash\n#SBATCH -J quellor-tts\n#SBATCH -N 2\n"
        "# Quellor-TTS base model, 900 hours\nsrun ./train.sh",
        "quellor-tts",
    ),
    (
        "#!/bin/bash\n#SBATCH --job-name=vantrix-sweep\n#SBATCH -N 1\n"
        "# sweep over Vantrix configs\nsrun ./go.sh",
        "vantrix",
    ),
    (
        "#PBS -N brelloq-design\n#PBS -l select=2:ncpus=32\n"
        "# binder design against Brelloq-4\nmodule load gromacs/2024.2\n./run.sh",
        "brelloq",
    ),
    (
        "#BSUB -J skarn-rupture\n#BSUB -n 64\n# dynamic rupture of the skarn fault\n./x",
        "skarn",
    ),
    (
        "#SBATCH -J delphox-flap\n#SBATCH -N 2\n# a delphox flap in cross flow\n"
        "module load openfoam/2312\nsrun pimpleFoam -parallel",
        "delphox",
    ),
    (
        "#SBATCH --job-name=orvane_ablation\n#SBATCH -N 4\n# ORVANE ablation, 8 GPUs a node\n"
        "srun python train.py",
        "orvane",
    ),
]


@pytest.mark.parametrize(("text", "word"), JOB_NAMES)
def test_a_word_the_job_is_named_after_is_quoted_not_installed(text: str, word: str) -> None:
    assert word not in _names(text)
    assert word in _quoted(text) or word.split("-")[0] in _quoted(text)


REQUESTERS = [
    '[job]\nrequested_by = "flux-capacitor-agent"\nnodes = 2',
    'requester: "tessaline-bot"\nnodes: 1',
    'submitted_by = "quorra-pipeline-agent"\ncores = 8',
]


@pytest.mark.parametrize("text", REQUESTERS)
def test_who_requested_the_job_is_no_package(text: str) -> None:
    assert _names(text) == set()


VARIABLES = [
    "# restart the LES from t=0.12 s\nmodule load openfoam/11",
    "we continue the run from x=1.5 with gromacs 2024 on 2 nodes",
    "sweep with k=3 and then n=4.2 on one node, lammps 2023",
    "the solver diverges past z=0.75 so please give us 4 nodes with openfoam 11",
]


@pytest.mark.parametrize("text", VARIABLES)
def test_a_one_letter_variable_with_a_value_is_no_pinned_package(text: str) -> None:
    req = _parse(text)
    assert not {s.name for s in req.software if len(s.name) == 1}
    assert "=" in " ".join(req.unresolved)  # quoted, not dropped


CLUSTERS = [
    ("we image the Virgoth 4121 cluster with wsclean 3.5", "virgoth"),
    ("our old Quembra cluster had gromacs 2024, please install it here", "quembra"),
    ("X-ray maps of the Zwellin and Tarrik clusters with casa 6.6", "zwellin"),
]


@pytest.mark.parametrize(("text", "word"), CLUSTERS)
def test_a_name_called_a_cluster_is_quoted(text: str, word: str) -> None:
    assert word not in _names(text)
    assert word in _quoted(text)


SCRIPTS = [
    "nextflow run main.nf -profile apptainer, nextflow 24.04",
    "snakemake -s rules/align.smk --cores 32 with snakemake 8.1",
    "cromwell run joint.wdl with cromwell 86",
    "cwltool --parallel wf.cwl on 2 nodes, cwltool 3.1",
    "mpirun -np 64 ./ocean params.nml, needs nemo 4.2",
    "aspect 2.5 with input convection.prm on 4 nodes",
]


@pytest.mark.parametrize("text", SCRIPTS)
def test_a_workflow_or_input_file_is_no_package(text: str) -> None:
    names = _names(text)
    assert not any("." in n for n in names), names


TOOLS = [
    ("We run GATK 4.5 (GenomicsDBImport and GenotypeGVCFs) on 2 nodes", "genotypegvcfs"),
    ("picard 3.1 (MarkDuplicates) and samtools 1.19, 8 cores", "markduplicates"),
    ("zorblat 2.4 (ReadSorter, PeakFinder and MotifScan) on one node", "peakfinder"),
    ("subread 2.0.6 (featureCounts) with 16 cores", "featurecounts"),
]


@pytest.mark.parametrize(("text", "word"), TOOLS)
def test_a_tool_in_parentheses_after_a_versioned_package_is_quoted(text: str, word: str) -> None:
    assert word not in _names(text)
    assert word in _quoted(text)


# --- negative cases: these must stay packages -------------------------------------------


def test_a_catalogued_package_in_the_job_name_stays() -> None:
    text = "#SBATCH -J gromacs-bench\n#SBATCH -N 2\nmodule load gromacs/2024.2\nsrun gmx_mpi mdrun"
    assert "gromacs" in _names(text)


def test_a_package_with_a_dotted_version_stays_whatever_the_job_is_called() -> None:
    text = "#SBATCH -J nekbone-scaling\n#SBATCH -N 4\n# needs nekbone 17.0 built with MPI\nsrun x"
    assert "nekbone" in _names(text)


def test_a_package_word_not_in_the_job_name_stays() -> None:
    text = "#SBATCH -J zephyr-run\n#SBATCH -N 2\n# uses miniAMR and nekbone\nsrun ./a.out"
    assert {"miniamr", "nekbone"} <= _names(text)


def test_a_short_task_value_stays_a_name() -> None:
    assert "lammps" in _names("task: lammps 2023\nnodes: 2")


def test_a_pinned_value_of_a_description_key_is_read_as_before() -> None:
    assert "gromacs" in _names('pipeline = "gromacs 2024.2 md"\nnodes = 2')


def test_a_package_named_inside_a_description_stays() -> None:
    names = _names('purpose = "RNA folding sweep with ViennaRNA 2.6"\nnodes = 1')
    assert "viennarna" in names


def test_amounts_inside_a_description_are_not_lost() -> None:
    req = _parse('purpose = "glacier sweep, needs 4 GPUs"\nnodes = 1')
    assert req.compute.gpus_per_node == 4 or req.unresolved


def test_a_catalogued_package_before_cluster_stays() -> None:
    assert "dask" in _names("a Dask cluster with 8 workers and dask 2024.5")


def test_a_one_letter_catalogued_package_with_a_pin_stays() -> None:
    assert "r" in _names("R=4.3 on one node")


def test_a_julia_package_is_no_file() -> None:
    assert "oceananigans.jl" in _names("Oceananigans.jl 0.91 on 4 GPUs")


def test_packages_in_parentheses_with_a_preposition_stay() -> None:
    names = _names("PyTorch 2.3 (with torchvision and DeepSpeed) on 4 GPUs")
    assert {"torchvision", "deepspeed"} <= names


def test_a_camel_case_package_in_parentheses_of_its_own_stays() -> None:
    assert "miniAMR".lower() in _names("two proxy apps (miniAMR and nekbone) on 4 nodes")
