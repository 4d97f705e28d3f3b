"""Programs built as ``<name>.x`` and input files of science codes are no packages (dev-s round).

Fortran codes install their programs as ``ph.x``, ``dos.x``, ``matdyn.x``: the package is named
beside them and is the requirement; the program is kept quoted (fail-safe), never a second
package. Input files of science codes (NEXUS alignments, meshes, interatomic potentials,
pseudopotentials, SIESTA inputs, reference maps) are files, like ``.py`` and ``.bam``. A
catalogued program alias ("pw.x" for Quantum ESPRESSO) still names its package.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.not_names import dotted_non_name

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def software_of(text: str) -> set[str]:
    return {s.name for s in parse_requirements(text, now=NOW).software}


@pytest.mark.parametrize(
    ("text", "word", "package"),
    [
        ("Quantum ESPRESSO 7.2 (pw.x then dos.x) on 4 nodes", "dos.x", "quantum-espresso"),
        ("Run QE with pw.x, ph.x and matdyn.x on 2 nodes.", "matdyn.x", "quantum-espresso"),
        ("QE 7.3 and its projwfc.x step, 64 cores", "projwfc.x", "quantum-espresso"),
        ("Yambo 5.2 with p2y.x conversion first, 8 nodes", "p2y.x", "yambo"),
        ("MrBayes 3.2.7 reads the alignment birds_coi.nex on 24 cores", "birds_coi.nex", "mrbayes"),
        ("RAxML-NG on the supermatrix.phy file, 32 cores", "supermatrix.phy", "raxml-ng"),
        ("IQ-TREE 2 with guide tree start.nwk on 16 cores", "start.nwk", "iq-tree"),
        ("LAMMPS 2Aug2023 with the potential GaN.tersoff on 2 nodes", "GaN.tersoff", "lammps"),
        ("LAMMPS with the Cu_mishin.eam file on 4 nodes", "Cu_mishin.eam", "lammps"),
        ("LAMMPS with the Stillinger-Weber file Ge.sw on 1 node", "Ge.sw", "lammps"),
        ("OpenFOAM v2312 with the wing.stl geometry on 16 nodes", "wing.stl", "openfoam"),
        ("Gmsh 4.12 writes rotor.msh for 8 cores", "rotor.msh", "gmsh"),
        ("MFEM 4.6 on the star-hole.mesh grid, 4 nodes", "star-hole.mesh", "mfem"),
        ("SIESTA 5.0 with the input graphene.fdf on 2 nodes", "graphene.fdf", "siesta"),
        (
            "QE 7.2 with the Si.pbe-n-kjpaw.upf pseudopotential, 2 nodes",
            "si.pbe-n-kjpaw.upf",
            "quantum-espresso",
        ),
        ("ParaView 5.12 renders flow_0100.vtu on 1 node", "flow_0100.vtu", "paraview"),
    ],
)
def test_a_program_or_input_file_of_a_named_code_is_no_package(
    text: str, word: str, package: str
) -> None:
    found = software_of(text)
    assert word.lower() not in found
    assert package in found


@pytest.mark.parametrize("word", ["ph.x", "matdyn.x", "q2r.x", "job.nex", "a.mesh", "Si.sw"])
def test_dotted_program_and_file_shapes(word: str) -> None:
    assert dotted_non_name(word)


@pytest.mark.parametrize("word", ["py-torch.x86", "version.x.y", "hdf5.1", "a.b.x", "node.js"])
def test_other_dotted_words_are_not_read_as_programs_or_files(word: str) -> None:
    assert not dotted_non_name(word)


def test_a_program_shaped_word_is_kept_quoted_not_dropped() -> None:
    req = parse_requirements("Quantum ESPRESSO 7.2 (pw.x and ph.x), 4 nodes", now=NOW)
    assert "ph.x" in " ".join(req.unresolved)


@pytest.mark.parametrize(
    "text",
    ["mpirun -np 128 pw.x -nk 4 -in scf.in on 2 nodes", "Need pw.x 7.2 on 4 nodes"],
)
def test_a_catalogued_program_alias_still_names_its_package(text: str) -> None:
    assert "quantum-espresso" in software_of(text)
