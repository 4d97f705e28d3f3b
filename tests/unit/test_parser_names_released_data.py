"""Data sets and references written with their release number.

A reference annotation, a tissue atlas, a taxonomy or a climate scenario is often named with its
release ("the Vortal v8 tissues", "Brimsy 44 transcripts", "scenario QRX3-4.5"), which reads like
a package with its version. The parser sets such a name aside only on evidence in the text: a
noun of data after the release, a noun of references before the name, or a verb whose object is
a reference ("annotated with", "mapped to", "searched against", "forced with"). The names below
are made up, so that no list of famous data sets can pass them.

Fail-safe: a name set aside is quoted (no site answers READY on it), never dropped; a catalogued
package stays a package, and a package after another one stays a package.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing.parser import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _read(text: str, word: str) -> tuple[set[str], bool]:
    """The names read as packages, and whether ``word`` is quoted as not understood."""
    req = parse_requirements(text, now=NOW)
    quoted = any(word in u.lower() for u in (*req.unresolved, *req.unparsed))
    return {s.name for s in req.software}, quoted


SET_ASIDE = [
    # a noun of data after the release
    ("We quantify the Vortal v8 tissues with DESeq2 on one node, 6 hours.", "vortal"),
    ("Expression over the Brimsy 44 transcripts, then edgeR; 1 node, 32 cores.", "brimsy"),
    ("Indices from the QRX3-4.5 output with CDO 2.2, 4 nodes for 20 hours.", "qrx3"),
    ("We download Taxaro release 220 taxonomy first, then Kraken2; 64 cores.", "taxaro"),
    ("Need 2 nodes to regrid Welkin 2023 reanalysis with xarray, about 8 hours.", "welkin"),
    ("The Gorsef v3 annotation goes into featureCounts, 16 cores for 2 hours.", "gorsef"),
    ("We score all Plinth 2.1 database entries with HMMER 3.4 on 1 node for a day.", "plinth"),
    ("The Mervale 12 scenarios run through CDO on 2 nodes, 10 hours.", "mervale"),
    ("Parse the Quilty v5 gene models with gffread; 8 cores, 1 hour.", "quilty"),
    # a noun of references before the name
    ("The reference index (Borrin v46) is 28 GB; run Salmon on 4 nodes.", "borrin"),
    ("Our annotation: Stellan 111, used by STAR 2.7 on one node for 3 hours.", "stellan"),
    ("The genome build Harrow 38 is staged; BWA on 1 node, 32 cores.", "harrow"),
    ("Please run the scenario Tandor2-4.5 with CDO 2.2 on 3 nodes.", "tandor2"),
    # a verb whose object is a reference
    ("Reads are mapped to Corvane 39 with minimap2, 32 cores, 4 hours.", "corvane"),
    ("Genes annotated with Quenmar 44 and counted with Subread on 1 node.", "quenmar"),
    ("Bins classified against Quenmar 7 with Kraken2 on 1 node, 2 hours.", "quenmar"),
    ("Proteins searched against Ulmar 90 with DIAMOND 2.1, 64 cores.", "ulmar"),
    ("The ocean model is forced with Zephon 2023 and runs on 8 nodes.", "zephon"),
    ("All contigs aligned onto Fennic v2 with BLAST on 1 node for 12 h.", "fennic"),
]


@pytest.mark.parametrize(("text", "word"), SET_ASIDE)
def test_a_released_data_set_is_quoted_not_read_as_a_package(text: str, word: str) -> None:
    names, quoted = _read(text, word)
    assert quoted and not any(word in n for n in names), names


KEPT = [
    # a package with its version, even beside a noun of data further on
    ("Please load Vortalix 2.3 and run it over our tissue samples, 1 node.", "vortalix"),
    ("GROMACS 2024 and PLUMED 2.9 on 2 nodes for the membrane runs.", "gromacs"),
    ("GROMACS 2024 and PLUMED 2.9 on 2 nodes for the membrane runs.", "plumed"),
    ("samtools 1.19 and bcftools 1.19 on one node, 16 cores, 4 hours.", "bcftools"),
    ("Python 3.11 with NumPy 1.26 on one node for 2 hours.", "numpy"),
    # nouns a run of the package makes, or its container: the package
    ("Run the Zorbix 3.1.6 scenarios for the 2027 plan on 1 node.", "zorbix"),
    ("It is R 4.3 with Quelmod 2.4 and data.table on one node.", "quelmod"),
    ("Pull the Varcallix 1.6.1 image and run it on 1 node, 8 hours.", "varcallix"),
    ("We need Tessaro 2.1 output written to scratch, 2 nodes.", "tessaro"),
    # linked or tested against a library: a dependency, not a reference
    ("Our code is linked against Kestrelib 2.3, please provide it; 1 node.", "kestrelib"),
    # a catalogued package stays one whatever follows
    ("Run Salmon 1.10 on the transcripts, 1 node with 32 cores.", "salmon"),
    ("Use CDO 2.2 output files for the plots on one node.", "cdo"),
]


@pytest.mark.parametrize(("text", "word"), KEPT)
def test_a_package_with_its_version_stays_a_package(text: str, word: str) -> None:
    names, _ = _read(text, word)
    assert word in names, names


def test_a_bare_name_before_a_data_noun_is_left_to_the_other_checks() -> None:
    """Without a release nothing here sets the name aside, so the answer is unchanged."""
    from endpoint_plugins.parsing.not_names import released_data

    text = "We run Brimsy transcripts on one node."
    assert not released_data(text, text.index("Brimsy"), "Brimsy")
