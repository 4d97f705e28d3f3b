"""Words that stand where a package could stand but name something else (the dev-n, dev-o round).

Every sentence is written for the test, not copied from the corpus: sign-offs in other
languages with the writer's name, instruments and surveys as sources of data, ordinary words
before a measured number or an ordinal, files and folders in a job script, a program of a
loaded module run as a step, and a build variant glued to a name in a key=value form. None may
become a software requirement; what is not known prose stays quoted in ``unresolved``
(fail-safe). Negative cases put real packages in the same places and check they still count.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.not_names import data_source, file_path, script_step
from providers.wire import Requirements

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def parse(text: str) -> Requirements:
    return parse_requirements(text, now=NOW)


def names(req: Requirements) -> list[str]:
    return [s.name for s in req.software]


def versions(req: Requirements) -> dict[str, list[str]]:
    return {s.name: [str(c) for c in s.constraints] for s in req.software}


def quoted(req: Requirements) -> str:
    return " ".join(req.unresolved).lower()


# -- sign-offs in other languages ------------------------------------------------------------


@pytest.mark.parametrize(
    ("closing", "person"),
    [
        ("Gracias,", "Ximena"),
        ("Muchas gracias!", "Joaquín Herrera"),
        ("Grazie mille,", "Beatrice"),
        ("Ciao,", "Matteo"),
        ("Merci beaucoup,", "Amélie"),
        ("Cordialement,", "Yannick Le Goff"),
        ("Danke,", "Sören"),
        ("Viele Grüße,", "Henrike"),
        ("Pozdrawiam,", "Zbigniew"),
        ("Groetjes,", "Sanne"),
        ("Obrigada!", "Luana"),
        ("Kiitos,", "Aino"),
    ],
)
def test_a_foreign_sign_off_and_the_name_after_it_are_no_packages(
    closing: str, person: str
) -> None:
    text = (
        "Hello,\n\nplease give me 3 nodes for the mixing study with Nek5000 19.0 for about 10"
        f" hours.\n\n{closing}\n{person}\n"
    )
    req = parse(text)
    assert names(req) == ["nek5000"]
    assert req.compute.nodes == 3
    assert person.split()[0].lower() not in quoted(req)


def test_a_foreign_thanks_before_more_request_is_read() -> None:
    req = parse("need 2 nodes for the run\nDanke, and it must have AVX-512 and hifiasm 0.19\n")
    assert "hifiasm" in names(req)
    assert "avx-512" in quoted(req)


def test_a_greeting_word_that_opens_the_message_does_not_close_it() -> None:
    req = parse("Ciao,\nI need 2 nodes with 32 cores and OpenFOAM 12 for 6 hours")
    assert names(req) == ["openfoam"]
    assert req.compute.nodes == 2


def test_a_sign_off_in_english_still_closes_the_message() -> None:
    req = parse("One node with GROMACS 2024 for 2 hours.\n\nCheers,\nOskar\n")
    assert names(req) == ["gromacs"]
    assert "oskar" not in quoted(req)


# -- instruments, telescopes and surveys as sources of data ----------------------------------


@pytest.mark.parametrize(
    ("text", "source"),
    [
        ("we calibrate LOFAR visibilities with DP3 6.0 on 4 nodes", "lofar"),
        ("reducing HiPERCAM frames with hipercam-pipe on 1 node", "hipercam"),
        ("imaging ASKAP spectral cubes with YandaSoft 1.9, 8 nodes", "askap"),
        ("processing WorldView scenes with Orfeo 9.0 on two nodes", "worldview"),
        ("we fit ZTF light curves with the celerite package on 1 node", "ztf"),
        ("stacking MeerLICHT exposures with SWarp 2.41, 1 node", "meerlicht"),
    ],
)
def test_an_instrument_before_its_data_is_no_package(text: str, source: str) -> None:
    req = parse(text)
    assert source not in names(req)
    assert len(names(req)) >= 1  # the tool that reads the data is still a package


def test_the_data_noun_after_a_source_is_no_list_item() -> None:
    req = parse("run SExtractor 2.28 on 900 DECaLS exposures, plus astropy 6.0, 1 node")
    assert "exposures" not in names(req)
    assert "decals" not in names(req)
    assert {"sextractor", "astropy"} <= set(names(req))


@pytest.mark.parametrize(
    "text",
    [
        "we run PyRate over the data on 2 nodes",
        "run MetaPhlAn on the samples, 1 node",
        "pyGIMLi data inversion on one node",
    ],
)
def test_a_tool_that_acts_on_data_is_still_a_package(text: str) -> None:
    assert parse(text).software, text


def test_an_unknown_word_between_a_source_and_its_data_is_never_dropped() -> None:
    req = parse("we cluster the Gaia hdbscan outputs with astropy on 1 node")
    assert "hdbscan" in names(req) or "hdbscan" in quoted(req)


def test_data_source_spots_the_source_and_not_the_tool() -> None:
    text = "the LOFAR visibilities and PyRate over the data"
    assert data_source(text, text.index("LOFAR"), "LOFAR")
    assert not data_source(text, text.index("PyRate"), "PyRate")


# -- ordinary words before a measured number, an ordinal or as a misspelling -----------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("We model stars (radii 0.5 to 12 Rsun) with MESA 24.08 on 1 node", "radii"),
        ("the spectra span energies 0.1 to 50 keV; fit with Sherpa 4.16, 2 nodes", "energies"),
        ("the code achieved 3.4 TFLOPS last year; please give 4 nodes of LAMMPS", "achieved"),
        ("the vendor quoted 0.9 us latency; we test with osu-micro-benchmarks 7.3", "quoted"),
        ("timesteps 2.5 fs, GROMACS 2023 on 1 node", "timesteps"),
        ("apprximately 300 GB of input for CDO 2.2 on one node", "apprximately"),
        ("probaly 2.5 days of runtime with WRF 4.5, 8 nodes", "probaly"),
        ("transcribing scans over 18th-century letters with Kraken 5.2", "scans"),
        ("NER over 20th-century court records with Flair 0.13", "ner"),
    ],
)
def test_a_word_before_a_measure_or_an_ordinal_is_no_package(text: str, word: str) -> None:
    req = parse(text)
    assert word not in names(req), names(req)
    assert req.software  # the real package in the sentence is still read


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("please install geant4 11.2 and ROMS 4.1 on 2 nodes", "roms", "==4.1"),
        ("we need pytroch 2.1 on one GPU", "pytroch", "==2.1"),
        ("need the rougher 1.3 package on 1 node", "rougher", "==1.3"),
        ("install MetaBAT 2.15 and run on 2 nodes", "metabat", "==2.15"),
        ("we need Octopus 14.1 on 4 nodes", "octopus", "==14.1"),
    ],
)
def test_a_package_before_its_version_is_still_read(text: str, name: str, version: str) -> None:
    assert versions(parse(text)).get(name) == [version], versions(parse(text))


def test_a_dropped_quantity_is_still_quoted() -> None:
    req = parse("apprximately 300 GB of input for CDO 2.2 on one node")
    assert "300 gb" in quoted(req)


# -- files, folders and steps in a job script ------------------------------------------------

_SCRIPT = """#!/bin/bash
#SBATCH --nodes=2
#SBATCH --time=04:00:00
module load openfoam/2312 openmpi/4.1.5
blockMesh
snappyHexMesh -overwrite
reconstructPar -latestTime
"""


_HEAD = "#!/bin/bash\n#SBATCH -N 1\n"


def test_a_program_of_a_loaded_module_run_as_a_step_is_no_package() -> None:
    req = parse(_SCRIPT)
    assert names(req) == ["openfoam"]
    assert "snappyhexmesh" in quoted(req)  # quoted, so no site is READY on it unseen


def test_a_command_in_a_script_without_module_loads_is_still_a_package() -> None:
    req = parse("#!/bin/bash\n#SBATCH -N 1\nmetaMDBG asm --in-hifi reads.fq\n")
    assert "metamdbg" in names(req)


def test_a_loaded_module_run_as_a_command_is_the_package() -> None:
    req = parse("#!/bin/bash\n#SBATCH -N 1\nmodule load miniAMR/1.7\nminiAMR --nx 4\n")
    assert versions(req) == {"miniamr": ["==1.7"]}
    assert "miniamr" not in quoted(req)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (_HEAD + "module load nextflow/24.04\nnextflow run main.nf -c x/Hpcfile\n", "x/hpcfile"),
        (_HEAD + "module load snakemake/8.1\nsnakemake -s rules/Snakefile\n", "rules/snakefile"),
        (_HEAD + "module load dorado/0.7\ndorado basecaller hac fast5/ > out.bam\n", "fast5"),
        (_HEAD + "module load samtools/1.19\nsamtools sort -o s2/ in.bam\n", "s2"),
        ("build it with the ci/Dockerfile and MPICH on 2 nodes", "ci/dockerfile"),
    ],
)
def test_a_file_or_a_folder_is_no_package(text: str, word: str) -> None:
    assert word not in names(parse(text)), names(parse(text))


@pytest.mark.parametrize(
    ("token", "part", "expected"),
    [
        ("workflow/Snakefile", "workflow/Snakefile", True),
        ("envs/tools.yaml", "envs", True),
        ("pod5/", "pod5", True),
        ("lammps/2Aug2023", "lammps", False),
        ("openfoam/11", "openfoam", False),
        ("CUDA/cuDNN", "CUDA", False),
    ],
)
def test_file_path(token: str, part: str, expected: bool) -> None:
    start = token.index(part)
    assert file_path(token, start, start + len(part)) is expected


def test_script_step_needs_a_script_with_module_loads() -> None:
    script = "#!/bin/bash\nmodule load openfoam/11\ndecomposePar\n"
    assert script_step(script, script.index("decomposePar"), "decomposePar")
    assert not script_step(script, script.index("openfoam"), "openfoam")
    prose = "I run decomposePar first"
    assert not script_step(prose, prose.index("decomposePar"), "decomposePar")


# -- a variant glued to a name in a form -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("software=namd+cuda version=3.0 nodes=1", "namd", "==3.0"),
        ("app: amber+openmp\nversion: 24\n", "amber", "==24"),
        ("package=blast+ version=2.15", "blast+", "==2.15"),
    ],
)
def test_the_version_key_belongs_to_the_name_without_its_variant(
    text: str, name: str, version: str
) -> None:
    got = versions(parse(text))
    assert got.get(name) == [version], got
    assert not any("+" in n and n != "blast+" for n in got)
