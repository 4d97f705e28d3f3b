"""Inputs and data of a program named like packages: basis sets, functionals, force fields.

Requests name many things a program reads that are shaped like package names: a basis set
("def2-TZVP", "aug-cc-pVQZ", "6-311+G**"), a density functional or a semi-empirical level
("wB97X-D", "GFN1-xTB"), a force field or a water model ("CHARMM36", "ff14SB", "TIP4P-Ew"), a
climate scenario ("SSP2-4.5", "HighResMIP"), a BUSCO lineage, a spaCy pipeline, a data format
("mzXML", "POD5"), a vision model with its patch size ("ViT-B/32"), an executable file
("Tool.dll", "case.run"), an instrument after a verb of sequencing or recording, and a source
of data after "from" or a plural noun of data sets. The parser reads them by their shape or by
the words around them.

Fail-safe: each such word is quoted in ``unresolved`` (no site answers READY on it), never
dropped, and the packages named beside it stay packages.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing.parser import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _reading(text: str) -> tuple[set[str], str]:
    """The package names read from ``text``, and all it quotes as one lower-case string."""
    req = parse_requirements(text, now=NOW)
    return {s.name for s in req.software}, " | ".join((*req.unresolved, *req.unparsed)).lower()


SET_ASIDE = [
    # basis sets and functionals, by their grammar
    ("Psi4 1.9 on one node, 32 cores: SAPT0/jun-cc-pVDZ interaction energies.", "jun-cc-pvdz"),
    ("NWChem 7.2 for aug-cc-pVQZ single points, 4 nodes, 10 hours.", "aug-cc-pvqz"),
    ("Please give me PySCF 2.6 and 64 GB for def2-QZVPPD polarisabilities.", "def2-qzvppd"),
    ("Optimise with 6-311+G** in Gaussian 16, 16 cores for 2 days.", "6-311+g"),
    ("ORCA 5.0.4, wB97X-D geometries then r2SCAN-3c frequencies, 1 node.", "wb97x-d"),
    ("ORCA 5.0.4, wB97X-D geometries then r2SCAN-3c frequencies, 1 node.", "r2scan-3c"),
    ("Q-Chem 6.1 with M06-2X/ma-def2-TZVP on 8 cores for 3 hours.", "m06-2x/ma-def2-tzvp"),
    ("Screen 2000 conformers at the GFN1-xTB level using CREST 3.0, 64 cores.", "gfn1-xtb"),
    ("cp2k 2024.1, TZV2P-MOLOPT basis and PBE0 hybrid, 8 nodes x 128 cores.", "tzv2p-molopt"),
    # force fields and water models
    ("GROMACS 2024 with GROMOS54a7 lipids on 2 GPUs, 24 hours.", "gromos54a7"),
    ("Run pmemd from Amber 24 with ff14SB and TIP4P-Ew, 4 GPUs.", "ff14sb"),
    ("Run pmemd from Amber 24 with ff14SB and TIP4P-Ew, 4 GPUs.", "tip4p-ew"),
    ("openmm 8.1 on one GPU; protein in amber99sb-ildn, solvent SPC/E.", "amber99sb-ildn"),
    ("A Martini3 membrane with GROMACS 2023.3, 8 nodes, 12 hours.", "martini3"),
    ("ligand parameters from GAFF2, OpenMM 8.1, one A100 for 6 hours", "gaff2"),
    ("protein in ff99SB with the TIP5P water on 2 GPUs using openmm 8", "tip5p"),
    # scenarios, lineages, pipelines, formats, models, executables
    ("Regrid the HighResMIP and SSP2-4.5 fields with cdo 2.3 on 16 cores.", "ssp2-4.5"),
    ("Regrid the HighResMIP and SSP2-4.5 fields with cdo 2.3 on 16 cores.", "highresmip"),
    ("Need BUSCO 5.7 with bacteria_odb12 on 32 cores for 4 hours.", "bacteria_odb12"),
    ("spaCy 3.7 with de_core_news_lg for tagging, 16 cores, 6 hours.", "de_core_news_lg"),
    ("About 900 GB of mzXML to search with Sage 0.14 on one 64-core node.", "mzxml"),
    ("Basecall the POD5 with dorado 0.7 on 4 A100 GPUs, 12 hours.", "pod5"),
    ("Fine-tune a DeiT-S/16 with timm 1.0 on 4 GPUs for 10 hours.", "deit-s"),
    # instruments and sources of data, by the words around them
    (
        "We sequenced 90 libraries on the Quillseq Z2 last year; now STAR 2.7 on 32 cores.",
        "quillseq",
    ),
    ("Cells were imaged on a Brakka 900 scope; CellProfiler 4.2 on 16 cores.", "brakka"),
    (
        "Elevations from Terranox-30 and forcing from Nimbara-Land, ParFlow 3.13 on 2 nodes.",
        "terranox-30",
    ),
    (
        "Elevations from Terranox-30 and forcing from Nimbara-Land, ParFlow 3.13 on 2 nodes.",
        "nimbara-land",
    ),
    ("The bathymetry comes from\nOceafloor 2024 and we run ROMS 4.1 on 5 nodes.", "oceafloor"),
    (
        "We use the databases Plumref50 and\nGlobFoldDB, 3 TB; ColabFold 1.5.5 on 4 A100s.",
        "globfolddb",
    ),
]


@pytest.mark.parametrize(("text", "word"), SET_ASIDE)
def test_science_inputs_are_quoted_not_packages(text: str, word: str) -> None:
    names, quoted = _reading(text)
    assert not any(word in n or n in word for n in names if len(n) > 3 and n != "amber"), names
    assert word.split("/")[0].split("-")[0] in quoted, quoted  # never dropped


KEPT = [
    # the packages beside the inputs stay packages
    ("Psi4 1.9 on one node, 32 cores: SAPT0/jun-cc-pVDZ interaction energies.", "psi4"),
    ("Run pmemd from Amber 24 with ff14SB and TIP4P-Ew, 4 GPUs.", "amber"),
    ("Screen 2000 conformers at the GFN1-xTB level using CREST 3.0, 64 cores.", "crest"),
    ("Need BUSCO 5.7 with bacteria_odb12 on 32 cores for 4 hours.", "busco"),
    ("spaCy 3.7 with de_core_news_lg for tagging, 16 cores, 6 hours.", "spacy"),
    ("module load mzmine/4.1; mono ProteoWizardCmd.dll on 8 cores for 2 hours", "mzmine"),
    # names that look alike but are packages: engines, toolkits, a tool before "from"
    ("We need CHARMM 48 and NAMD 3.0 on 4 nodes.", "charmm"),
    ("Please install xtb 6.7.1 and crest on one node.", "xtb"),
    ("The structures from hexfold 2.1 need refinement; 1 GPU for 6 hours.", "hexfold"),
    ("Outputs from trimbolt 0.9 are merged with samtools 1.20, 8 cores.", "trimbolt"),
    ("pip install gaffkit==1.2 and run it on 8 cores.", "gaffkit"),
    ("We need ScaLAPACK 2.2 and ELPA 2024.03 on 8 nodes.", "scalapack"),
    ("Please load amber/24 and cuda/12.4 for 2 GPUs.", "amber"),
    ("Run zentool.x with spack load zentool@3.1 on 16 cores.", "zentool"),
    ("Please migrate us from flowtangle 1.4 to 2.0 on 8 cores.", "flowtangle"),
    ("Benchmarked on 4 nodes with quarkbench 2.1, we now need 8.", "quarkbench"),
    ("Data are converted with mzconvo 3.2 on one node, 8 cores.", "mzconvo"),
]


FILES = [
    ("module load mzmine/4.1; mono ProteoWizardCmd.dll on 8 cores for 2 hours", "dll"),
    ("qsub -l walltime=04:00:00 myexp.run # WRF 4.5 on 2 nodes", "myexp.run"),
    ("java -jar Pipelinor.jar with 16 cores and 64 GB", "pipelinor"),
]


@pytest.mark.parametrize(("text", "word"), FILES)
def test_executable_files_are_no_packages(text: str, word: str) -> None:
    """An executable or installer file is bookkeeping, as a script's name is (the package it
    belongs to is named on its own)."""
    assert not any(word in n for n in _reading(text)[0])


@pytest.mark.parametrize(("text", "name"), KEPT)
def test_packages_beside_science_inputs_stay_packages(text: str, name: str) -> None:
    assert name in _reading(text)[0]
