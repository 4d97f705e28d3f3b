"""Catalogued names that are also everyday words ("orca", "amber", "root", "boost").

Such a name counts only with a version ("boost 1.84"), so "a boost" and "go ahead" stay prose.
Without a version it was dropped even where a reader sees the package, and a site without it
could then answer READY. Two cues now make it the package: capitals in a text that is not
written in capitals, and a verb of running with the word placed on resources.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


def _names(text: str) -> list[str]:
    return sorted(s.name for s in parse_requirements(text).software)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Please set up ORCA on 4 nodes for the DFT runs.", "orca"),
        ("We want AMBER on a node with 2 GPUs.", "amber"),
        ("The analysis uses ROOT, 8 cores, 4 hours.", "root"),
        ("need TAU for profiling on 2 nodes", "tau"),
        ("could you run orca on 3 nodes tonight", "orca"),
        ("we need to launch amber across 2 GPU nodes", "amber"),
        ("try salmon on 16 cores please", "salmon"),
    ],
)
def test_a_word_like_name_with_a_cue_is_the_package(text: str, name: str) -> None:
    assert name in _names(text)


@pytest.mark.parametrize(
    "text",
    [
        "Go ahead and book 4 nodes for me.",
        "A boost in priority would help; 2 nodes.",
        "THE STAR OF THE SHOW IS THE SOLVER, on 1 node",  # written in capitals
        "Amber from the lab needs 2 nodes",  # a person, capitalised only
        "the root cause was the scratch quota; 4 nodes again",
        "Go on 2 nodes",  # two letters: never an acronym
    ],
)
def test_the_everyday_word_stays_prose(text: str) -> None:
    names = _names(text)
    assert not set(names) & {"go", "boost", "star", "amber", "root", "orca"}, names
