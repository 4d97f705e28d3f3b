"""Catalogued names that are also English words, written with a capital inside a sentence.

"Hail on Spark", "a de novo assembly with Trinity", "a Trinity assembly": the capital and a
cue (a tool preposition, "on", a verb of use, or a job noun right after) make the package.
Without a cue a capital mid-sentence may be a person or a place ("thanks to Ray", "data from
Fiji"), so the word is quoted, never dropped; at a sentence's start ("Spark joy") and in lower
case ("a spark of interest", "the salmon fishery") it is the everyday word.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _names(text: str) -> set[str]:
    return {s.name for s in parse_requirements(text).software}


def _quoted(text: str) -> str:
    req = parse_requirements(text)
    return " ".join((*req.unresolved, *req.unparsed))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We run Hail 0.2 on Spark across 16 nodes.", "spark"),
        ("the ETL step is written for glow on Spark, 8 nodes, 2 days", "spark"),
        ("I need 1 TB RAM for a de novo assembly with Trinity, about 2 days.", "trinity"),
        ("please book one bigmem node for a Trinity assembly of 40 libraries", "trinity"),
        ("Our lab runs Trinity on 1 node with 64 cores.", "trinity"),
        ("we quantify the transcripts with Salmon, 24 cores for 3 hours", "salmon"),
        ("the group fits the hierarchical model with Stan, 4 chains on 16 cores", "stan"),
        ("each county gets its own Stan model, 200 in total on 8 nodes", "stan"),
        ("I use Fiji on 4 cores for the stitching, 64 GB RAM", "fiji"),
        ("the images are segmented with Fiji, 1 node for 6 hours", "fiji"),
        ("our unit commitment runs use Gurobi, 32 cores and 1.5 TB RAM", "gurobi"),
        ("a Gurobi MIP on one 64-core node for 2 days", "gurobi"),
        ("the aligner calls Kaldi underneath, 1 node with 32 cores", "kaldi"),
        ("speech recognition training with kaldi on 4 GPUs", "kaldi"),
        ("we run the ALS recommender on Spark with 10 executors on 5 nodes", "spark"),
        ("then the reads go through Salmon, 16 cores", "salmon"),
        ("Trinity 2.15 on one node with 1 TB of memory", "trinity"),
    ],
)
def test_a_titled_word_with_a_cue_is_the_package(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("The model was built in Stan last year; now 4 nodes for 10 hours.", "Stan"),
        ("field data from Fiji are on the project share, 2 nodes please", "Fiji"),
        ("thanks to Ray the input is ready, 8 cores for 2 hours", "Ray"),
    ],
)
def test_a_titled_word_without_a_cue_is_quoted_not_dropped(text: str, word: str) -> None:
    assert word in _quoted(text) or word.lower() in _names(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We got a spark of interest from the reviewers, 2 nodes for 5 hours.", "spark"),
        ("the salmon fishery model runs on 4 cores for 2 hours", "salmon"),
        ("Spark joy aside, I need 8 cores for 3 hours.", "spark"),
        ("I talked it over with Stan and we need 2 nodes for 6 hours.", "stan"),
        ("the trinity of mesh, solver and post-processing needs 4 nodes", "trinity"),
        ("a stan of the mill request: 1 node for 1 hour", "stan"),
        ("my colleague Stan discussed with me: 16 cores, 4 hours", "stan"),
        ("the Holy Trinity church survey data, 1 node", "trinity"),
    ],
)
def test_the_everyday_word_is_no_package(text: str, name: str) -> None:
    assert name not in _names(text)
