"""Mailing-list names and files given to an option are no packages: they are quoted."""

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _names(text: str) -> set[str]:
    return {s.name for s in parse_requirements(text, now=NOW).software}


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("[cfdsim-l] Re: walltime\n\nPlease run OpenFOAM 11 on 2 nodes for 4 hours.", "cfdsim-l"),
        ("[astrostat-l] question\nI need R 4.3 on one node with 64 GB.", "astrostat-l"),
        ("[geoproc-dev] Re: Re: cluster\nGDAL 3.8 on 4 cores please.", "geoproc-dev"),
        (
            "To: seismo-compute list\nSubject: SPECFEM3D run\nNeed 8 nodes for 12 h.",
            "seismo-compute",
        ),
        ("Sent to the climlab-users list: CESM 2.1 on 16 nodes, 2 days.", "climlab-users"),
        ("(posted on the neuroimg-help mailing list) FSL 6.0 on 1 node, 8 cores.", "neuroimg-help"),
        ("Cross-posting from proteomics-l: MaxQuant 2.4 on one node with 256 GB.", "proteomics-l"),
        ("hello econ-l readers, Stata 18 on 16 cores for 6 hours please", "econ-l"),
        (
            "As asked on the lingcomp-tools list, spaCy 3.7 on one GPU for 2 hours.",
            "lingcomp-tools",
        ),
        ("srun ./athena -i blast.athinput on 4 nodes with GROMACS 2024", "blast.athinput"),
        ("mpirun -n 64 ./nek5000 --input channel.rea, 3 nodes, 12 hours", "channel.rea"),
        ("./runme -c setup.conf with LAMMPS 2Aug2023 on 2 nodes", "setup.conf"),
        ("please run ./sim -f params.namelist on 8 cores, WRF 4.5", "params.namelist"),
        ("./solver --config case.toml with PETSc 3.20 for 4 hours", "case.toml"),
        ("exec ./model -p forcing.nml on 2 nodes using MOM6", "forcing.nml"),
    ],
)
def test_a_list_name_or_a_file_argument_is_no_package(text: str, word: str) -> None:
    assert word not in _names(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I need py-numpy 1.26 and GROMACS 2024 on one node", "py-numpy"),
        ("spack install -v gromacs and run it on 2 nodes", "gromacs"),
        ("We use hdf5 and the netcdf-c list of patches; 1 node, 1 hour", "hdf5"),
        ("[cfd-l] Re: I need OpenFOAM 11 on 2 nodes", "openfoam"),
        ("Need samtools 1.19 and bcftools 1.19 on a single node", "samtools"),
        ("module load -f gromacs/2024 on 4 nodes", "gromacs"),
    ],
)
def test_packages_beside_lists_and_options_stay_packages(text: str, name: str) -> None:
    assert name in _names(text)


def test_a_list_name_is_quoted_rather_than_dropped() -> None:
    parsed = parse_requirements("To: seismo-compute list\nSPECFEM3D on 8 nodes", now=NOW)
    assert "seismo-compute" not in {s.name for s in parsed.software}
    assert any("seismo-compute" in u for u in parsed.unresolved)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Run TensorRT-LLM with the Triton backend on 4 GPUs for 3 hours.", "backend"),
        ("# neutron star merger inspiral, 2 nodes, Einstein Toolkit 2024_05", "inspiral"),
        ("a galaxy formation run with a new subgrid recipe, SWIFT 2025.04, 8 nodes", "subgrid"),
        ("fit a spatio-temporal model with R-INLA on one node, 32 GB, 6 hours", "spatio-temporal"),
        ("compute gravitational waveform templates with LALSuite 7.2 on 4 nodes", "waveform"),
        ("photometric redshift estimation, scikit-learn 1.4 on 1 node with 64 GB", "redshift"),
        ("diffusion tractography on 200 subjects with MRtrix3 3.0.4, 16 cores", "tractography"),
        ("the React frontend is not needed; Django 5.0 on one core for 2 hours", "frontend"),
        ("hyperparameter sweep with Optuna 3.6 on 8 GPUs for 12 hours", "hyperparameter"),
    ],
)
def test_a_noun_of_the_trade_is_no_package(text: str, word: str) -> None:
    parsed = parse_requirements(text, now=NOW)
    assert word not in {s.name for s in parsed.software}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Run the inspiral search with LALSuite 7.2 on 4 nodes", "lalsuite"),
        ("vLLM 0.6 as the serving backend on 2 GPUs", "vllm"),
        ("MRtrix3 3.0.4 for tractography, 16 cores, 8 hours", "mrtrix3"),
    ],
)
def test_a_package_beside_a_noun_of_the_trade_stays(text: str, name: str) -> None:
    assert name in _names(text)
