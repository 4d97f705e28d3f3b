"""Packages the writer asked for must be read, or at least quoted; never dropped.

Three ways a real package was lost:

* a job script's shell line (``source venv/bin/activate``, ``cd``, ``export``) was blanked to
  its end, taking a trailing comment that names the job's packages with it: nothing was read
  and nothing quoted, the dangerous direction;
* a package one edit away from an everyday word ("fixest" from "finest") was taken for a
  misspelt word even inside a list of packages;
* a hyphenated coined name right before "package" or "library" ("the microsoft-aurora
  package") was treated like an English compound ("the post-processing package").
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _names(text: str) -> dict[str, list[str]]:
    return {s.name: [str(c) for c in s.constraints] for s in parse_requirements(text).software}


SCRIPT_HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=02:00:00\n"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("source venv/bin/activate   # torch 2.5.1, accelerate, trl", {"pytorch", "accelerate"}),
        ("source ~/envs/sim/bin/activate  # needs gromacs 2024", {"gromacs"}),
        ("cd $SCRATCH/run01   # lammps 2Aug2023 inside", {"lammps"}),
        ("export OMP_NUM_THREADS=8  # cp2k 2024.1 hybrid run", {"cp2k"}),
        ("ml purge   # then openfoam 2312 is loaded by the wrapper", {"openfoam"}),
        ("mkdir -p out  # uses scanpy and anndata", {"scanpy"}),
        ("cp input.nml $TMPDIR  # wrf 4.5 namelist", {"wrf"}),
    ],
)
def test_a_trailing_comment_of_a_shell_line_is_read(line: str, expected: set[str]) -> None:
    names = _names(SCRIPT_HEAD + line + "\nsrun ./a.out\n")
    assert expected <= set(names)


def test_the_version_in_a_trailing_comment_is_kept() -> None:
    names = _names(SCRIPT_HEAD + "source env/bin/activate   # torch 2.5.1\n")
    assert names["pytorch"] == ["==2.5.1"]


@pytest.mark.parametrize(
    "line",
    [
        'echo "run#3 started"',
        "cd /scratch/proj#12/run",
        "export TAG=v1#beta",
    ],
)
def test_a_hash_inside_a_shell_word_is_no_comment(line: str) -> None:
    parsed = parse_requirements(SCRIPT_HEAD + line + "\n")
    assert not parsed.software


@pytest.mark.parametrize(
    "text",
    [
        "I estimate the models in R 4.3 using the fixest and data.table packages, 8 cores",
        "R job with data.table + fixest, 16 cores, 3 hours",
        "need R 4.4, data.table and fixest on one node",
        "packages: fixest, data.table, ggplot2",
        "CPU only: fixest plus data.table in R, 32 GB",
        "could you install fixest, data.table and modelsummary for R 4.3?",
    ],
)
def test_a_near_typo_of_a_word_in_a_package_list_is_a_package(text: str) -> None:
    assert "fixest" in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "I need gromacs and shoud run it on 4 nodes for 2 hours",
        "lammps, then i wuold like 4 nodes",
        "gromacs and wolud be enough for us, 2 nodes",
        "with cp2k, plase give me 4 nodes and 8 hours",
    ],
)
def test_a_misspelt_word_in_running_prose_is_no_package(text: str) -> None:
    names = _names(text)
    assert not {"shoud", "wuold", "wolud", "plase"} & set(names)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("needs PyTorch 2.3 and the microsoft-aurora package, 8 GPUs", "microsoft-aurora"),
        ("please install the scikit-allel package for the popgen run", "scikit-allel"),
        ("we rely on the hydro-bmi library for coupling, 2 nodes", "hydro-bmi"),
        ("our code uses the pyxis-tools package on 4 cores", "pyxis-tools"),
        ("it needs the kgrid-utils module on 1 node", "kgrid-utils"),
    ],
)
def test_a_coined_hyphenated_name_before_a_package_noun_is_a_package(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("the post-processing package is slow on 4 nodes", "post-processing"),
        ("we wrote the cross-section library ourselves, 2 nodes", "cross-section"),
        ("using the third-party package, 8 cores", "third-party"),
        ("the high-level library needs 2 GPUs", "high-level"),
        ("the open-source toolkit runs on 16 cores", "open-source"),
    ],
)
def test_an_english_compound_before_a_package_noun_is_no_package(text: str, phrase: str) -> None:
    assert phrase not in _names(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("needs the arch package on 8 cores", "arch"),
        ("I use the harmony package in R, 1 node", "harmony"),
        ("Seurat v5 + harmony running in R 4.3", "harmony"),
        ("estimation with the tidy and broom packages, 4 cores", "tidy"),
    ],
)
def test_an_english_word_before_a_package_noun_is_at_least_quoted(text: str, word: str) -> None:
    """An everyday word named a package only by its noun or its list is read or quoted,
    never dropped: the site is never READY on it unseen."""
    parsed = parse_requirements(text)
    read = {s.name for s in parsed.software}
    assert word in read or any(word in u for u in parsed.unparsed)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I collaborate with a lab in Lyon and I use Fiji for the stitching, 32 cores", "fiji"),
        ("we work on cryo images and use Fiji macros, 1 node", "fiji"),
        ("our team shares one node and runs Spark jobs, 8 cores", "spark"),
        ("a hierarchical model in Stan (via cmdstanpy), 4 cores", "stan"),
        ("the posterior is sampled in Stan (through the brms package), 8 cores", "stan"),
        ("fitted in Stan (using rstan) on 16 cores", "stan"),
        ("I image cells at the lab and I use\nFiji for segmentation, 8 cores", "fiji"),
        ("a mixed model in Stan (through the cmdstanr\npackage), 4 cores", "stan"),
    ],
)
def test_a_catalogued_word_used_as_a_tool_is_a_package(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "I talked it over with Stan (via email), 4 nodes",
        "I discussed the setup with Ray, 2 nodes",
        "our team works together with Ray on 2 nodes",
        "we met in Fiji last year; now 4 nodes for 3 hours",
    ],
)
def test_a_person_or_place_is_no_package_but_stays_quoted(text: str) -> None:
    parsed = parse_requirements(text)
    assert not {"stan", "ray", "fiji"} & {s.name for s in parsed.software}
    assert any(w in u for u in parsed.unparsed for w in ("Stan", "Ray", "Fiji"))
