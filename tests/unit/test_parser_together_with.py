"""A package joined to another by "together with" or "along with" is listed with it, as with
"and" or "+": "we need Chroma together with QUDA 1.1". Without the join, a capitalised word
such as "Chroma" was only quoted as unresolved; prose joined the same way stays prose."""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing.parser import parse_requirements


def _names(text: str) -> set[str]:
    return {s.name for s in parse_requirements(text).software}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we need Chroma together with QUDA 1.1 on NVIDIA GPUs", {"chroma", "quda"}),
        ("we need Chroma along with QUDA 1.1", {"chroma", "quda"}),
        ("please install rcarbon together with bchron", {"rcarbon", "bchron"}),
        ("Trinity along with Salmon 1.10 for the assembly", {"trinity", "salmon"}),
        ("need Hadrons together with Grid 0.9 on 8 nodes", {"hadrons", "grid"}),
        ("run Kraken2 together with Bracken 2.9", {"kraken2", "bracken"}),
        ("GROMACS 2024 together with PLUMED 2.9, 4 nodes", {"gromacs", "plumed"}),
        ("PyTorch 2.3 along with torchaudio, 1 GPU", {"pytorch", "torchaudio"}),
        ("Seurat 5 together with Signac 1.13 in R", {"seurat", "signac"}),
        ("we use bakta along with Prokka 1.14", {"bakta", "prokka"}),
        ("need WRF 4.5 together with WPS 4.5", {"wrf", "wps"}),
        ("Nextflow 24.04 along with nf-core/sarek", {"nextflow"}),
        ("the Fluidity code together with Zoltan 3.8", {"fluidity", "zoltan"}),
    ],
)
def test_joined_names_are_read(text: str, expected: set[str]) -> None:
    assert expected <= _names(text)


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("the data together with the logs is 2 TB", {"data", "logs"}),
        ("please send results together with GROMACS 2024 logs", {"results", "send"}),
        ("we came along with our own scripts, LAMMPS 2023", {"scripts", "came"}),
        ("the input together with QUDA 1.1 output", {"input"}),
    ],
)
def test_prose_joined_the_same_way_stays_prose(text: str, absent: set[str]) -> None:
    assert not (absent & _names(text))


def test_an_unread_word_stays_quoted() -> None:
    parsed = parse_requirements("the xq9 thing together with nothing else")
    assert "xq9" in {s.name for s in parsed.software} or any("xq9" in u for u in parsed.unresolved)
