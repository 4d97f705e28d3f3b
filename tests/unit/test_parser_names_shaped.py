"""Words whose shape in the text says they are no package: a unit, a grid, weights, a verb.

The open vocabulary takes a word it does not know for a package when it is shaped like one.
Some such words carry their own evidence that they are something else: a unit after an amount
("14,000 km2", "0.25 ps"), a grid named with its spacing in degrees ("OM4 0.25 degree"), a data
product before its boundary conditions or grid ("GFS 0.25 boundary conditions"), a trained
model with its parameter count or size ("llama-3 70b", "bge-large-en-v1.5") and its publisher
before a slash, a mode of a program ("in blastx mode"), an acronym made a verb ("keeps
OOMing"), an author cited by year or "et al." ("(Wang 2015)"), the value of a type key
("request_type=compute"), and the object of an evaluation whose clause wraps over one line.
The names are mostly made up, so that no list of famous names can pass these tests.

Fail-safe: a word so set aside is quoted in ``unresolved`` (no site answers READY on it),
never dropped; catalogued packages with versions, units or sizes nearby stay packages.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing.not_names import model_checkpoint, shaped_as_no_package
from endpoint_plugins.parsing.parser import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _read(text: str) -> tuple[set[str], str]:
    """The package names read from ``text``, and all it quotes as one lower-case string."""
    req = parse_requirements(text, now=NOW)
    quoted = "\n".join((*req.unresolved, *req.unparsed)).lower()
    return {s.name for s in req.software}, quoted


SET_ASIDE = [
    # a unit glued to its power, or any unit, after an amount
    ("ParFlow 3.13 over a catchment of about 14,000 km2, 6 nodes for 12 hours.", "km2"),
    ("The tank holds 40 m3 of water; OpenFOAM 11 on 2 nodes please.", "m3"),
    ("a 2500 ft2 floor plan, EnergyPlus 23.2 on one node", "ft2"),
    ("the gauge is 0.5 cm2 wide, we run Elmer 9 on 4 cores", "cm2"),
    ("LAMMPS 2023 with a 0.5 fs timestep on 2 nodes", "fs"),
    # a grid named with its spacing in degrees, or before its conditions or grid
    ("MOM6 in the Kestra4 0.25 degree configuration, 20 nodes for 2 days.", "kestra4"),
    ("Our ocean runs use the Pelago7 0.5° setup with MOM6 on 8 nodes.", "pelago7"),
    ("the NEMO model on the Zorb12 1 deg grid, 16 nodes", "zorb12"),
    ("Run WRF with Marlo 0.25 boundary conditions on 8 nodes.", "marlo"),
    ("WRF on 4 nodes, Quorix 0.5 initial conditions from the archive", "quorix"),
    ("regrid to the Talvex025 ocean grid with CDO 2.3 on one node", "talvex025"),
    # weights: a parameter count after the name, a size word inside it, a publisher before "/"
    ("need 2x H100 for vllm>=0.6.3 serving zorblat-3 70b, ~4h", "zorblat-3"),
    ("serve Krenmo-2 13B with vLLM 0.6 on 1 GPU for 3 hours", "krenmo-2"),
    ("embed abstracts with Nexo/qux-large-en-v1.5 using sentence-transformers 3.0", "nexo"),
    ("embed abstracts with Nexo/qux-large-en-v1.5 using sentence-transformers 3.0", "qux-large-en"),
    ("transcribe with acme/murmur-medium-v2 via faster-whisper 1.0 on 1 GPU", "murmur-medium"),
    # a mode of a program
    ("run DIAMOND 2.1 in zapx mode against nr, 32 cores", "zapx"),
    ("Gaussian 16 in quelt mode on 1 node for 6 hours", "quelt"),
    # an acronym made a verb
    ("our parser keeps OOMing on my laptop, need a GPU with PyTorch for 5 hours", "ooming"),
    ("the job got SIGKILLed twice; GROMACS 2024 on 2 nodes please", "sigkilled"),
    # an author cited by year or "et al."
    ("free energies for the ligand set (Wang 2015) with OpenMM 8.1, 8 GPUs", "wang"),
    ("the protocol of (Okafor et al., 2019) with GROMACS 2024 on 2 nodes", "okafor"),
    ("as in (Brandt and Lee 2021), Quantum ESPRESSO 7.3 on 4 nodes", "brandt"),
    ("We follow Haverkamp et al. with LAMMPS 2023 on 4 nodes.", "haverkamp"),
    # the value of a key that names a kind of request
    ("request_type=compute\nsoftware=CDO/2.3.0\nnodes=1", "compute"),
    ('{"job_kind": "batchy", "software": ["gromacs"], "nodes": 2}', "batchy"),
    # the object of an evaluation whose clause wraps over one line break
    (
        "We evaluate two models (Foo-7B and our own\nSFT weights) on Krellbench and QuanSum,"
        " serving through vLLM 0.6 on 4 GPUs.",
        "krellbench",
    ),
]


@pytest.mark.parametrize(("text", "word"), SET_ASIDE)
def test_a_word_its_shape_marks_is_quoted_not_a_package(text: str, word: str) -> None:
    names, quoted = _read(text)
    assert word not in names
    assert word in quoted  # set aside, never dropped


def test_the_packages_beside_the_marked_words_stay() -> None:
    assert "parflow" in _read("ParFlow 3.13 over a catchment of about 14,000 km2, 6 nodes.")[0]
    assert "mom6" in _read("MOM6 in the Kestra4 0.25 degree configuration, 20 nodes.")[0]
    assert "wrf" in _read("Run WRF with Marlo 0.25 boundary conditions on 8 nodes.")[0]
    assert "vllm" in _read("need 2x H100 for vllm>=0.6.3 serving zorblat-3 70b, ~4h")[0]
    assert "openmm" in _read("free energies for the ligand set (Wang 2015) with OpenMM 8.1")[0]
    assert "diamond" in _read("run DIAMOND 2.1 in zapx mode against nr, 32 cores")[0]


KEPT = [
    # versions, units and sizes near a real package do not set it aside
    ("GROMACS 2024.1 on 2 nodes with 4 GPUs", "gromacs"),
    ("CP2K 2024.1 with 0.25 ps steps on 4 nodes", "cp2k"),
    ("LAMMPS and its tools on 4 nodes", "lammps"),
    ("use osu-micro-benchmarks 7.4 on 2 nodes", "osu-micro-benchmarks"),
    ("We need Zentaflow 2.3 for the 14,000 cells, 2 nodes", "zentaflow"),
    ("Please install Quibble 1.4 and run it on 0.25 of a node", "quibble"),
    ("pip install data.table-like tools: Brimstat 2.1 for 3 hours", "brimstat"),
    ("Serve it with vllm 0.6 on 2 GPUs, 70 hours", "vllm"),
    ("(GROMACS 2024) on 2 nodes", "gromacs"),
    ("compile with gcc 12 and run Frobnic 3.2 on one node", "frobnic"),
    ("the kind of job: Frobnic 3.2 on 4 nodes", "frobnic"),
    ("We evaluate models with Qualtex 1.2 on 4 GPUs", "qualtex"),
]


@pytest.mark.parametrize(("text", "name"), KEPT)
def test_a_package_with_a_number_or_unit_nearby_stays_a_package(text: str, name: str) -> None:
    assert name in _read(text)[0]


def test_a_unit_only_after_an_amount() -> None:
    # "km2" with no amount before it is no unit read from the text: it is not set aside here
    assert shaped_as_no_package("about 14,000 km2 of basin", 13, "km2")
    assert not shaped_as_no_package("the km2 tool", 4, "km2")


def test_a_size_word_needs_a_tag_after_it() -> None:
    assert model_checkpoint("qux-large-en")
    assert model_checkpoint("murmur-medium-v2")
    assert not model_checkpoint("osu-micro-benchmarks")
    assert not model_checkpoint("gnu-nano")
