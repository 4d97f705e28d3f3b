"""Versions written as series, exclusions and build tags, and product nouns between a name
and its version: wordings of our own, not the corpus texts."""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _software(text: str) -> dict[str, tuple[list[str], list[str]]]:
    req = parse_requirements(text)
    return {
        s.name: ([f"{c.op.value}{c.version}" for c in s.constraints], list(s.variants))
        for s in req.software
    }


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("Please install vllm 0.6.x on one H100.", "vllm", [">=0.6.0", "<0.7"]),
        ("numpy 1.26.X is what the notebook pins", "numpy", [">=1.26.0", "<1.27"]),
        ("We need scipy 1.* for this job, 4 cores.", "scipy", [">=1.0", "<2"]),
        ("requirements: pandas ~=2.1 and 8 GB RAM", "pandas", [">=2.1", "<3"]),
        ("the env pins torchvision ~=0.17.2", "torchvision", [">=0.17.2", "<0.18"]),
        ("vllm 0.5.x (>=0.5.0, <0.6) on 2 GPUs", "vllm", [">=0.5.0", "<0.6"]),
    ],
)
def test_release_series_is_a_range(text: str, name: str, versions: list[str]) -> None:
    assert _software(text)[name][0] == versions


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        ("bcftools 1.17 or newer (but not 1.18), 16 cores", "bcftools", [">=1.17", "!=1.18"]),
        ("python 3.10+ (not 3.12) on one node", "python", [">=3.10", "!=3.12"]),
        ("htslib, anything but 1.20, for 2 hours", "htslib", ["!=1.20"]),
        ("numpy excluding 2.0 please", "numpy", ["!=2.0"]),
        ("gcc anything other than 13.1", "gcc", ["!=13.1"]),
    ],
)
def test_excluded_release_is_kept(text: str, name: str, versions: list[str]) -> None:
    assert _software(text)[name][0] == versions


@pytest.mark.parametrize(
    ("text", "name", "version", "variant"),
    [
        ("module load relion/5.0-cuda", "relion", "==5.0", "+cuda"),
        ("module load gromacs/2024.3-rocm\nsrun gmx_mpi mdrun", "gromacs", "==2024.3", "+rocm"),
        ("load lammps 2Aug2023-kokkos on 2 nodes", "lammps", "==2Aug2023", "+kokkos"),
        ("please use cp2k 2024.1-openmp", "cp2k", "==2024.1", "+openmp"),
    ],
)
def test_build_tag_after_version_is_a_variant(
    text: str, name: str, version: str, variant: str
) -> None:
    versions, variants = _software(text)[name]
    assert versions == [version]
    assert variants == [variant]


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("module load foo/1.0-rc1", "==1.0-rc1"),  # a pre-release, not a build
        ("module load bar/2.3-beta", "==2.3-beta"),
    ],
)
def test_other_suffixes_stay_in_the_version(text: str, version: str) -> None:
    [(versions, variants)] = _software(text).values()
    assert versions == [version]
    assert variants == []


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("We run COMSOL Multiphysics 6.1 on 2 nodes", "comsol", "==6.1"),
        ("I simulate detectors with the Geant4 toolkit (11.1).", "geant4", "==11.1"),
        ("Our pipeline needs the SPM toolbox 12.5 and 8 cores", "spm", "==12.5"),
        ("the WRF model 4.5 on 8 nodes for 12 hours", "wrf", "==4.5"),
        ("We need the MOOSE framework 2.0 for 6 hours", "moose", "==2.0"),
        ("the NEMO ocean code 4.2 with 256 cores", "nemo", "==4.2"),
        ("We use the ORCA chemistry suite 6.0 on 1 node", "orca", "==6.0"),
    ],
)
def test_product_noun_between_name_and_version(text: str, name: str, version: str) -> None:
    found = _software(text)
    assert found[name][0] == [version]
    nouns = {"multiphysics", "toolkit", "toolbox", "model", "framework", "code", "suite"}
    assert not nouns & set(found), found


@pytest.mark.parametrize(
    "text",
    [
        "our code 2.5 hours on 4 nodes",
        "the model 1.5 GB of weights, on one GPU",
        "the analysis code 1.5 times faster than before",
    ],
)
def test_product_noun_before_a_quantity_is_no_version(text: str) -> None:
    found = _software(text)
    assert not {"code", "model", "our", "the", "analysis"} & set(found), found


def test_describing_word_is_not_the_name() -> None:
    found = _software("We run the Raven hydrological modelling framework (v3.8) on 2 nodes")
    assert found == {"raven": (["==3.8"], [])}
