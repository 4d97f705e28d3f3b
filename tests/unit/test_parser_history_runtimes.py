"""MPI libraries, container runtimes and amounts of an earlier run are not the request.

Long tickets name the library that failed before the one they ask for, a reply quotes the
other poster's runtime, a pasted ``module list`` shows a stack that is gone, and an allocation
command in backticks shows the shape the writer wants. Every text here was written for the
test.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def runtimes(text: str) -> tuple[str | None, str | None]:
    """The MPI implementation and the container runtime read from ``text``."""
    parsed = parse(text)
    mpi, container = parsed.mpi, parsed.container
    return (mpi.implementation if mpi else None, container.runtime if container else None)


# -- the MPI asked for wins over the one in the story ----------------------------------------


@pytest.mark.parametrize(
    ("text", "implementation"),
    [
        (
            "Our solver died at start-up; the binary was linked against MPICH but mpirun came "
            "from Open MPI. Could you give us LAMMPS with Open MPI 4.1 on 2 nodes?",
            "openmpi",
        ),
        (
            "The previous runs used Intel MPI and hung in MPI_Allreduce. Please provide MVAPICH2 "
            "on 4 nodes.",
            "mvapich",
        ),
        (
            "> We built NEMO against Open MPI 3.1 last spring.\n\n"
            "Thanks. For the new runs I need MPICH 4.2 and 6 nodes.",
            "mpich",
        ),
        (
            "Last year we ran WRF with Intel MPI, so this time we'd like Open MPI 5 on 8 nodes.",
            "openmpi",
        ),
        (
            "Error from the last attempt:\n\n"
            "  [mpich] Fatal error in PMPI_Init: Other MPI error\n"
            "  srun: error: task 0 exited\n\n"
            "Please set us up with Open MPI on 3 nodes and GROMACS 2024.",
            "openmpi",
        ),
        (
            "In the past we were using MPICH, but we want Intel MPI 2021 for the new code on 2 "
            "nodes.",
            "intel-mpi",
        ),
        (
            "> Anna wrote: Spectrum MPI is what we use on Summit.\n\n"
            "Could I get MPICH on 2 nodes instead for my CP2K runs?",
            "mpich",
        ),
        (
            "I suspect the crash came from HPE MPT on the old system. We require Open MPI "
            "(4.1 or newer) and 16 nodes.",
            "openmpi",
        ),
    ],
)
def test_the_mpi_asked_for_wins_over_the_one_in_the_story(text: str, implementation: str) -> None:
    assert runtimes(text)[0] == implementation


def test_the_mpi_not_used_is_still_reported() -> None:
    parsed = parse(
        "The module was built with MPICH, which failed. Please give us Open MPI 4.1 on 2 nodes."
    )
    assert parsed.mpi is not None and parsed.mpi.implementation == "openmpi"
    assert any("mpich" in note.lower() for note in parsed.unparsed)


@pytest.mark.parametrize(
    ("text", "implementation"),
    [
        ("We need MPICH 4.1 on 2 nodes; our code does not work with Open MPI.", "mpich"),
        ("Please install Intel MPI. Open MPI is also on the list for later.", "intel-mpi"),
        ("MPICH please, 4 nodes. I know Open MPI is the default module here.", "mpich"),
        (
            "Open MPI 4.1 or newer is what the code is tested with; MPICH was never tried.",
            "openmpi",
        ),
    ],
)
def test_with_no_history_the_asked_or_first_mpi_still_wins(text: str, implementation: str) -> None:
    assert runtimes(text)[0] == implementation


# -- the container runtime asked for wins over the quoted or old one -------------------------


@pytest.mark.parametrize(
    ("text", "runtime"),
    [
        (
            "> ops: we upgraded Singularity 3.8 to Apptainer 1.3 yesterday.\n\n"
            "Thanks. I need rootless Podman 4.9 for my pipeline on 1 node.",
            "podman",
        ),
        (
            "Last month we ran everything in Docker on our workstation. Now we'd like "
            "Apptainer 1.2 on 4 nodes.",
            "apptainer",
        ),
        (
            "On the old cluster we used Singularity; could you give us Podman on 2 nodes?",
            "podman",
        ),
        (
            "> Bob wrote: Docker works fine for me.\n> Just use docker run.\n\n"
            "Docker is not allowed for us; please provide Apptainer and 1 GPU.",
            "apptainer",
        ),
        (
            "The job failed with this output:\n\n"
            "  FATAL: singularity image is not valid\n"
            "  exit 255\n\n"
            "Please give me Podman 5 and 2 nodes for NAMD.",
            "podman",
        ),
        (
            "We previously used Charliecloud, but I want Apptainer for the new jobs, 3 nodes.",
            "apptainer",
        ),
    ],
)
def test_the_runtime_asked_for_wins_over_the_one_in_the_story(text: str, runtime: str) -> None:
    assert runtimes(text)[1] == runtime


def test_a_quoted_runtime_alone_is_kept() -> None:
    """With nothing asked outside the quote, the quoted runtime is not dropped."""
    assert runtimes("> Can you run Apptainer 1.3 images?\n\nYes please, 2 nodes.")[1] == "apptainer"


# -- an MPI only in a pasted module list is the old stack ------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "My old environment, when it failed (module list output):\n\n"
            "  1) gcc/10.2   2) openmpi/4.0.5   3) netcdf/4.7\n\n"
            "That is gone now. I need WRF 4.6 on 4 nodes for 10 hours.",
            "openmpi",
        ),
        (
            "The crash log excerpt:\n\n"
            "    loaded modules: intel/2020 impi/2019.9\n"
            "    forrtl: severe (174): SIGSEGV\n\n"
            "For the new runs please give me CP2K 2025.1 on 2 nodes.",
            "intel-mpi",
        ),
        (
            "Loaded modules:\n"
            "   mvapich2/2.3.7 fftw/3.3.10\n\n"
            "Please provide Quantum ESPRESSO 7.3 on 8 nodes.",
            "mvapich",
        ),
    ],
)
def test_an_mpi_only_in_pasted_output_is_not_asked_for(text: str, name: str) -> None:
    parsed = parse(text)
    assert (parsed.mpi, [n for n in parsed.unparsed if "pasted output" in n]) == (
        None,
        [f"{name} in pasted output (said of an earlier job; not used)"],
    )


@pytest.mark.parametrize(
    "text",
    [
        "What I need now:\n\n  openmpi/4.1.6\n  gromacs/2024\n\nOn 2 nodes.",
        "Module list output:\n\n  openmpi/4.1.6\n\nThat is all, just the MPI on 2 nodes.",
        "We use Open MPI 4.1 for GROMACS 2024 on 2 nodes.",
    ],
)
def test_an_mpi_asked_for_or_alone_stays(text: str) -> None:
    assert runtimes(text)[0] == "openmpi"


# -- an allocation command in backticks is the shape asked for -------------------------------


@pytest.mark.parametrize(
    ("text", "nodes", "walltime_s"),
    [
        (
            "I normally run `salloc -N2 --ntasks-per-node=32 -t 2:00:00`; please give me the "
            "same with GROMACS.",
            2,
            7200,
        ),
        ("Same as my usual `salloc -N 4 -t 08:00:00 --mem=128G` please.", 4, 28800),
        (
            "Can you match `sbatch --nodes=3 --time=1-00:00:00 run.sh` somewhere with NAMD?",
            3,
            86400,
        ),
        ("Something like `qsub -l nodes=2:ppn=16,walltime=04:00:00` would do.", 2, 14400),
        (
            "At home I do `salloc -N1 -n 16 --mem=64G -t 4:00:00 --gres=gpu:1`, same here pls.",
            1,
            14400,
        ),
    ],
)
def test_an_allocation_command_in_backticks_is_read(text: str, nodes: int, walltime_s: int) -> None:
    compute = parse(text).compute
    assert compute.nodes == nodes
    assert compute.walltime_s == walltime_s


def test_the_allocation_command_is_read_fully() -> None:
    compute = parse(
        "I usually do `salloc -N1 -n 8 --mem=32G -t 3:00:00 --gres=gpu:2` here; give me that."
    ).compute
    assert (compute.nodes, compute.total_cores, compute.gpus_per_node) == (1, 8, 2)
    assert compute.memory_gb_per_node == 32
    assert compute.walltime_s == 10800


@pytest.mark.parametrize(
    "text",
    [
        "run `mpirun -n 4 ./a.out` on 1 node",
        "run `python train.py --epochs 8` on 1 node",
        "please execute `srun -n 64 lmp -in in.lj` on 1 node",
    ],
)
def test_a_program_in_backticks_is_still_cut_out(text: str) -> None:
    parsed = parse(text)
    assert parsed.compute.nodes == 1
    assert parsed.compute.total_cores is None
    assert parsed.software == ()


# -- "CPU-only" said of one step is no exclusion of GPUs -------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The preprocessing step is CPU-only, but training needs 4 A100s on 1 node.",
        "Meshing is CPU only anyway; the solver runs on 2 GPUs per node, 3 nodes.",
        "The alignment stage with BWA is CPU-only; variant calling uses 1 GPU per node.",
        "Our post-processing phase runs CPU-only, the main run wants 8 GPUs on 2 nodes.",
    ],
)
def test_cpu_only_said_of_one_step_excludes_no_gpu(text: str) -> None:
    parsed = parse(text)
    assert "gpu" not in {f.value for f in parsed.excluded}
    assert parsed.compute.gpus_per_node or parsed.compute.total_gpus
    assert any("cpu" in u.lower() for u in parsed.unparsed)


@pytest.mark.parametrize(
    "text",
    [
        "The job is CPU-only: 2 nodes, 64 cores each.",
        "CPU only please, 4 nodes for 6 hours.",
        "It runs CPU-only, no GPUs needed, 1 node.",
    ],
)
def test_cpu_only_said_of_the_job_still_excludes_gpus(text: str) -> None:
    assert "gpu" in {f.value for f in parse(text).excluded}


# -- the story closed by "that's history" ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        (
            "We moved from METIS to ParMETIS and switching helped. Anyway, that's history: now "
            "I need OpenFOAM v2406 on 4 nodes.",
            "parmetis",
            "openfoam",
        ),
        (
            "Replacing FFTW with heFFTe sped it up. That is all history now; for the new runs "
            "please give me LAMMPS 2Aug2023 on 8 nodes.",
            "heffte",
            "lammps",
        ),
        (
            "Switching to MUMPS made it stable. Enough background. I need PETSc 3.21 on 2 nodes.",
            "mumps",
            "petsc",
        ),
    ],
)
def test_packages_before_thats_history_are_the_story(text: str, gone: str, kept: str) -> None:
    names = {s.name for s in parse(text).software}
    assert kept in names
    assert gone not in names


def test_a_package_asked_for_before_thats_history_stays() -> None:
    names = {
        s.name
        for s in parse(
            "Please install GROMACS 2024 for us. We used NAMD before, but that's history."
        ).software
    }
    assert "gromacs" in names


# -- an amount inside a longer mention is that mention's -------------------------------------


@pytest.mark.parametrize(
    ("text", "per_node", "total"),
    [
        (
            "So far we did it on our workstation (64 cores). We need 4 nodes of 64 cores each.",
            64,
            None,
        ),
        (
            "Previously we ran on a desktop with 32 cores; now give me 2 nodes with 32 cores each.",
            32,
            None,
        ),
    ],
)
def test_a_past_amount_written_inside_the_asked_one_is_dropped(
    text: str, per_node: int, total: int | None
) -> None:
    compute = parse(text).compute
    assert compute.cores_per_node == per_node
    assert compute.total_cores == total


def test_a_jobs_crashed_version_gives_way_to_the_asked_one() -> None:
    software = {
        s.name: {c.version for c in s.constraints}
        for s in parse(
            "Our CP2K 2023.1 jobs crashed last night. Please give us CP2K 2025.1 on 2 nodes."
        ).software
    }
    assert software["cp2k"] == {"2025.1"}
