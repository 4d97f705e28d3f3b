"""Package names behind weak cues in flowing prose (the dev-n and dev-o round).

A scientist writes "I clean the signals through mnelab", "the reghdfe and ftools add-ons",
"Kraken2 does the binning". Each cue is weak alone, so each rule also states what it must not
take: an everyday English word in the same position ("through the portal", "Run3 failed")
stays prose or an unread phrase. The sentences are written for these tests.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements
from endpoint_plugins.parsing.english import proper_noun_only
from endpoint_plugins.parsing.vocabulary import name_shaped

NOW = datetime(2026, 5, 12, 10, 0, tzinfo=UTC)  # a Tuesday


def names_in(text: str) -> list[str]:
    """The package names read from ``text``."""
    return [s.name for s in parse_requirements(text, now=NOW).software]


# -- "through X": a tool the data pass through -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The EEG signals are cleaned through mnelab. One node, 8 cores, 4 hours.", "mnelab"),
        ("we push every read through fastplong, then assemble; 16 cores please", "fastplong"),
        ("Spectra go through specutils2x then into the fit; 2 hours on one node.", "specutils2x"),
    ],
)
def test_a_foreign_word_after_through_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "I submitted the request through the portal; 4 nodes for 6 hours.",
        "Results come back through email. 2 nodes, 12 hours.",
        "We went through everything again, 1 node with 32 cores for 3 hours.",
    ],
)
def test_english_after_through_is_no_package(text: str) -> None:
    assert names_in(text) == []


# -- capitalised names with a release digit ------------------------------------------------------


@pytest.mark.parametrize("word", ["Kraken2", "Bowtie2", "Minimap2", "Prodigal2"])
def test_a_capitalised_word_with_a_release_digit_is_name_shaped(word: str) -> None:
    assert name_shaped(word)


@pytest.mark.parametrize("word", ["Run3", "Case2", "Figure4", "Table1", "Step2", "Phase3"])
def test_a_numbered_everyday_word_is_not_name_shaped(word: str) -> None:
    assert not name_shaped(word)


def test_a_numbered_tool_in_prose_is_read() -> None:
    req = names_in("The contigs are binned by Bowtie2 and then scored; 24 cores, 96 GB, 10 hours.")
    assert "bowtie2" in req


def test_a_numbered_run_label_is_no_package() -> None:
    req = names_in("Run3 crashed after 5 hours, so I need 2 nodes with 64 cores for 8 hours.")
    assert "run3" not in req


# -- proper nouns of the dictionary, written in lower case ---------------------------------------


def test_proper_noun_only_words() -> None:
    assert proper_noun_only("pythia")  # the dictionary lists only "Pythia"
    assert proper_noun_only("athena")
    assert not proper_noun_only("mesh")  # a common noun too
    assert not proper_noun_only("kinetics")
    assert not proper_noun_only("hifiasm")  # no dictionary word at all


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Our runs are driven by the athena framework, 2 nodes for 5 hours.", "athena"),
        ("we couple the models through apollo, 64 cores for 3 hours", "apollo"),
    ],
)
def test_a_lower_case_proper_noun_takes_a_weak_cue(text: str, name: str) -> None:
    assert name in names_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "The code uses the mesh library we wrote ourselves; 2 nodes for 5 hours.",
        "We rely on the kinetics module of our own code, 64 cores for 3 hours.",
        "It needs the tensor package from our group, one node for 2 hours.",
    ],
)
def test_a_common_noun_before_a_tool_noun_stays_a_modifier(text: str) -> None:
    assert names_in(text) == []


# -- agent nouns that describe a tool --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "We run langsniff (a language detector) over 5 million tweets, 16 cores, 6 hours.",
            "langsniff",
        ),
        (
            "the corpus is annotated with udtagr (the part-of-speech tagger), 8 cores for 2 hours",
            "udtagr",
        ),
        ("We segment the scans with cellvit (a nucleus segmenter), 1 GPU for 10 hours.", "cellvit"),
    ],
)
def test_a_name_described_by_a_tool_agent_noun(text: str, name: str) -> None:
    assert name in names_in(text)


def test_a_detector_of_an_experiment_is_no_package() -> None:
    req = names_in("We simulate the ATLAS detector response with Geant4 on 4 nodes for 12 hours.")
    assert "atlas" not in req
    assert "geant4" in req
    req = names_in("Geant4 runs for the Belle detector upgrade, 4 nodes for 12 hours.")
    assert "belle" not in req


# -- an acronym of science inside a description ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The Chroma lattice QCD library needs 8 nodes for 6 hours.", "chroma"),
        ("the Gadget SPH code runs on 4 nodes with 64 cores each for 10 hours", "gadget"),
    ],
)
def test_an_acronym_may_stand_inside_a_description(text: str, name: str) -> None:
    assert name in names_in(text)


def test_a_capitalised_word_inside_still_breaks_the_description() -> None:
    req = names_in("The Carpet Mesh driver needs 2 nodes for 4 hours.")
    assert "carpet" not in req


# -- add-ons and extensions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "The analysis is in Stata 17 with the estout and gtools add-ons, 8 cores, 3 hours.",
            "gtools",
        ),
        ("Postgres with the pgvector extension, one node with 64 GB for 2 days.", "pgvector"),
    ],
)
def test_an_add_on_is_a_package(text: str, name: str) -> None:
    assert name in names_in(text)


def test_a_deadline_extension_is_no_package() -> None:
    req = names_in("We got a deadline extension, so 2 nodes for 8 hours is fine.")
    assert req == []


# -- list joins: "and also", two-letter R packages -----------------------------------------------


def test_and_also_joins_a_list_of_packages() -> None:
    req = names_in("I use GROMACS 2024.1 and also PLUMED for the biasing; 2 nodes, 24 hours.")
    assert {"gromacs", "plumed"} <= set(req)


def test_and_also_after_a_package_takes_an_unknown_capitalised_tool() -> None:
    req = names_in("I run CryoDRGN 3.4 and also TOMOTWIN on the particles; 2 GPUs for 8 hours.")
    assert "tomotwin" in req


def test_a_two_letter_r_package_in_a_list() -> None:
    req = names_in("R 4.4 with the packages data.table, sp and gt; 4 cores, 16 GB, 2 hours.")
    assert {"sp", "gt"} <= set(req)


@pytest.mark.parametrize(
    "text",
    [
        "I need GROMACS, ok? 2 nodes for 4 hours.",
        "LAMMPS and so on, 4 nodes, 6 hours.",
    ],
)
def test_two_letter_prose_after_a_package_is_no_package(text: str) -> None:
    found = names_in(text)
    assert "ok" not in found and "so" not in found


def test_a_report_named_after_the_detector_is_no_package() -> None:
    req = names_in("Geant4 11.2 jobs for the detector TDR: 2,000 cores in total for 10 hours.")
    assert req == ["geant4"]
