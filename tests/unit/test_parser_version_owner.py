"""A version goes to the package it belongs to, not to a word written between them.

A kind of tool ("sim", "pipeline", "coupler", "FEM", "GUI", "simulator") may stand between a
name and its version, and some codes tag their releases with letters (TELEMAC's "v8p5",
MITgcm's "c67w" or "checkpoint 68y"). The sentences are written for these tests, not copied
from the labelled corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from providers.wire import Requirements

NOW = datetime(2026, 3, 10, 8, 30, tzinfo=UTC)


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def versions(req: Requirements) -> dict[str, list[str]]:
    return {s.name: [f"{c.op.value}{c.version}" for c in s.constraints] for s in req.software}


@pytest.mark.parametrize(
    ("text", "package", "version"),
    [
        ("we drive the AirSim sim (1.8.1) on one GPU node", "airsim", "==1.8.1"),
        ("our robots train in the Webots simulator 2023.1 for 6 hours", "webots", "==2023.1"),
        ("the Gazebo simulator (11.14) needs 2 GPUs", "gazebo", "==11.14"),
        ("please run the nf-core Rnaseq pipeline (3.14) on 2 nodes", "rnaseq", "==3.14"),
        ("I launch the Ampliseq pipeline 2.9 through Nextflow", "ampliseq", "==2.9"),
        ("the Viralrecon pipeline (version 2.6) on 2 nodes", "viralrecon", "==2.6"),
        ("our solids runs use CalculiX FEM 2.21 on 1 node", "calculix", "==2.21"),
        ("FreeFem FEM 4.14 with 64 ranks", "freefem", "==4.14"),
        ("ocean and ice joined by the CPL7 coupler (version 2.1)", "cpl7", "==2.1"),
        ("we couple via the MCT coupler 2.11 across 8 nodes", "mct", "==2.11"),
        ("the Vivado GUI 2023.2 must be installed on the login node", "vivado", "==2023.2"),
        ("post-processing in the Ovito GUI 3.10", "ovito", "==3.10"),
        ("the Snakemake workflow 8.4 orchestrates the jobs", "snakemake", "==8.4"),
        ("our hydrodynamics use TELEMAC-3D v8p4 on 4 nodes", "telemac-3d", "==8p4"),
        ("TOMAWAC (v7p3r1) for the wave part", "tomawac", "==7p3r1"),
        ("the MITgcm c66h build, 16 nodes", "mitgcm", "==c66h"),
        ("a patched MITgcm (checkpoint 67z) with Open MPI", "mitgcm", "==67z"),
        ("the state estimate uses ECCO-MITgcm checkpoint 66j", "ecco-mitgcm", "==66j"),
    ],
)
def test_the_version_goes_to_the_named_package(text: str, package: str, version: str) -> None:
    got = versions(parse(text))
    assert got.get(package) == [version], got


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("we drive the AirSim sim (1.8.1) on one GPU node", "sim"),
        ("please run the nf-core Rnaseq pipeline (3.14) on 2 nodes", "pipeline"),
        ("ocean and ice joined by the CPL7 coupler (version 2.1)", "coupler"),
        ("our solids runs use CalculiX FEM 2.21 on 1 node", "fem"),
        ("our hydrodynamics use TELEMAC-3D v8p4 on 4 nodes", "v8p4"),
        ("the MITgcm c66h build, 16 nodes", "c66h"),
    ],
)
def test_the_word_between_is_no_package(text: str, word: str) -> None:
    assert word not in versions(parse(text))


@pytest.mark.parametrize(
    ("text", "package", "version"),
    [
        ("GROMACS PLUMED 2.9 for metadynamics", "plumed", "==2.9"),  # two packages side by side
        ("LAMMPS with Kokkos 4.2 on 2 nodes", "kokkos", "==4.2"),
        ("PyTorch 2.3 with geometric augmentations", "pytorch", "==2.3"),
    ],
)
def test_a_second_package_keeps_its_own_version(text: str, package: str, version: str) -> None:
    assert versions(parse(text)).get(package) == [version]


@pytest.mark.parametrize(
    "text",
    [
        "checkpoint 48h into the run, then restart on 2 nodes",
        "the job wrote checkpoint 12h ago",
        "our sim ran 40h last week",
        "the pipeline took 36h end to end",
        "ward c12 of the hospital dataset",
    ],
)
def test_a_time_or_a_label_is_no_release_tag(text: str) -> None:
    got = versions(parse(text))
    assert not any(v for vs in got.values() for v in vs), got


def test_a_descriptor_without_a_name_before_it_is_left_for_the_reader() -> None:
    req = parse("the rnaseq pipeline (3.14) on two nodes")
    assert "pipeline" not in versions(req)
    assert req.software or req.unparsed  # never dropped silently
