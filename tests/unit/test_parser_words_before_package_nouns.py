"""An everyday word right before a package noun may be the package's name: quoted, never dropped.

"the vegan package", "the harmony library" and "the stylo package" name R and Python packages
whose names are English words. When no reader takes such a word for a name, it must still stay
in ``unresolved``: dropped as prose, it would let a site without the package answer READY.
A word that only says which package is meant ("the whole package", "the standard library")
names nothing and is not quoted.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _kept(text: str, word: str) -> bool:
    """Whether ``word`` is read as a package or quoted as unresolved."""
    parsed = parse_requirements(text, now=NOW)
    names = {s.name for s in parsed.software}
    quoted = " ".join(parsed.unresolved).lower()
    return word in names or word in quoted


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Please install the vegan package for R 4.3; 8 cores are plenty.", "vegan"),
        ("our ordination runs with the vegan package, one node for 3 hours", "vegan"),
        ("I would like the stylo package under R, 2 cores, 1 hour.", "stylo"),
        ("The analysis needs the tensor package from our group, 1 node.", "tensor"),
        ("the mesh library we wrote ourselves; 2 nodes for 5 hours", "mesh"),
        ("needs the harmony package for batch correction, 64 GB", "harmony"),
        ("we load the salmon module and quantify 40 samples", "salmon"),
        ("Can the site provide the shiny package? 4 cores.", "shiny"),
        ("Our workflow imports the caret library; 16 cores for 2 hours", "caret"),
        ("it calls the glue package, 1 core is enough", "glue"),
        ("the patchwork package for figures, 2 cores", "patchwork"),
        ("we depend on the tidy packages and the broom package", "broom"),
        ("please make the lattice toolkit available, 8 cores", "lattice"),
        ("the trinity module, 1 node with 256 GB for 2 days", "trinity"),
        ("Is the spatial toolbox installed? 4 cores for an hour", "spatial"),
    ],
)
def test_an_everyday_word_before_a_package_noun_is_read_or_quoted(text: str, word: str) -> None:
    assert _kept(text, word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("We need the whole package installed, 4 cores", "whole"),
        ("the standard library is fine, 4 cores", "standard"),
        ("the main module of our code runs for 2 hours", "main"),
        ("the same package as last time, 8 cores", "same"),
        ("the default module is fine for us, 1 node", "default"),
        ("the usual module is fine, 2 hours", "usual"),
        ("an extra library is not needed, 16 cores", "extra"),
    ],
)
def test_a_word_that_only_says_which_package_is_not_quoted(text: str, word: str) -> None:
    parsed = parse_requirements(text, now=NOW)
    assert word not in " ".join(parsed.unresolved).lower()
    assert word not in {s.name for s in parsed.software}
