"""Data sets named with their release or beside other data sets are no packages (dev-s round).

A capitalised word before a data noun names where the data come from ("MeerKAT data"). The
same holds when a release of the data set stands between ("the GTEx v8 samples", "the ABCD
Release 5.1 cohort", "ERA5 2023 reanalysis") and when several sources share the noun
("EuroSAT and BigEarthNet tiles", "BraTS 2023 + KiTS23 data"); test splits and corpora are
data too (a bare "benchmark" is not: HPL and HPCG are benchmarks and packages). Such a word
stays quoted in ``unresolved`` (fail-safe: nothing answers READY on it), never a software
requirement. Negative cases: a package with a version before ordinary words, acting on the
data ("Xyzzy 2.1 on the samples") or in a container image, stays a package.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.not_names import data_source

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def read(text: str) -> tuple[set[str], str]:
    """The package names read from the text, and its quoted (unresolved) words in lower case."""
    req = parse_requirements(text, now=NOW)
    return {s.name for s in req.software}, " ".join(req.unresolved).lower()


@pytest.mark.parametrize(
    ("text", "source", "package"),
    [
        ("Align the HapMap v3 samples with bwa 0.7.17 on 16 cores.", "HapMap", "bwa"),
        ("We map the Geuvadis 2013 reads with salmon 1.10, 8 cores.", "Geuvadis", "salmon"),
        ("Regrid the ERA5 2023 reanalysis with CDO 2.4 on 2 nodes.", "ERA5", "cdo"),
        ("QC of the UKB Release 3.1 cohort needs plink2 and 64 GB.", "UKB", "plink2"),
        ("Segment the LiTS v2 scans using MONAI 1.3 on 1 GPU.", "LiTS", "monai"),
        (
            "Index the OpenAlex 2024-11 snapshot with Elasticsearch 8.12.",
            "OpenAlex",
            "elasticsearch",
        ),
        ("Train on the ImageNet v2 test set with pytorch 2.3, 4 GPUs.", "ImageNet", "pytorch"),
        ("Score the MMLU 2024 test split with vllm 0.6 on one H100.", "MMLU", "vllm"),
        ("Process the Gaia DR3 2022 catalogue with astropy 6.0, 8 cores.", "Gaia", "astropy"),
        ("Summarise the CORD19 v12 abstracts with vllm 0.5 on 2 GPUs.", "CORD19", "vllm"),
        ("Classify the EuroSAT and BigEarthNet tiles with keras 3 on 1 GPU.", "EuroSAT", "keras"),
        ("Fine-tune on the Alpaca, Dolly and OASST data with deepspeed.", "Alpaca", "deepspeed"),
        ("Run nnunetv2 2.5 on the BraTS 2023 + KiTS23 data, 2 GPUs.", "BraTS", "nnunetv2"),
        ("Rerun the PoseBusters benchmark set with hmmer 3.4, 32 cores.", "PoseBusters", "hmmer"),
        ("Evaluate codellama on the HumanEval test split with vllm 0.6.", "HumanEval", "vllm"),
        (
            "Tokenise the Pile v1 corpus with sentencepiece 0.2 on 64 cores.",
            "Pile",
            "sentencepiece",
        ),
        ("Build the CMIP6 and MERRA-2 outputs into zarr with xarray.", "CMIP6", "xarray"),
    ],
)
def test_a_data_set_with_its_release_or_its_siblings_is_quoted_not_a_package(
    text: str, source: str, package: str
) -> None:
    packages, unread = read(text)
    assert source.lower() not in packages
    assert source.lower() in unread  # fail-safe: kept unread, never dropped
    assert package in packages


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("Please install Xyzzy 2.1 and run it on the samples, 4 nodes.", "xyzzy"),
        ("We need Xyzzy 2.1 on 8 cores for the job.", "xyzzy"),
        ("Run ProtTool 2.1 over the data, 4 nodes.", "prottool"),
        ("GROMACS 2023 outputs go to scratch, 2 nodes.", "gromacs"),
        ("Need WRF 4.5 data assimilation with WRFDA, 8 nodes.", "wrf"),
        ("Build Foobar 3.1 from source with the samples, 1 node.", "foobar"),
        ("We use MetaBAT 2 for the binning of samples, 16 cores.", "metabat"),
        ("Pull the Quuxcaller 1.6.1 image and run it on 32 cores.", "quuxcaller"),
        ("We compare the Zorblat and HPCG benchmarks on 4 nodes.", "zorblat"),
        ("Time the Frobnix 0.8 Stokes benchmark on 8 nodes.", "frobnix"),
    ],
)
def test_a_package_before_data_words_stays_a_package(text: str, package: str) -> None:
    assert package in read(text)[0]


def test_data_source_reads_a_release_and_sibling_sources() -> None:
    text = "the GTEx v8 samples and the EuroSAT and BigEarthNet tiles, via PyRate 2.1 on data"
    assert data_source(text, text.index("GTEx"), "GTEx")
    assert data_source(text, text.index("EuroSAT"), "EuroSAT")
    assert not data_source(text, text.index("PyRate"), "PyRate")  # acts on the data


def test_a_bare_count_is_no_release_of_a_data_set() -> None:
    text = "Foo 3 files"
    assert not data_source(text, 0, "Foo")
