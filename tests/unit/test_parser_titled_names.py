"""A capitalised name one letter from an English word is not dropped as a typo of that word.

"Essentia" is one edit from "essential"; read as a misspelling it vanished, so a site without
the package could answer READY. A version or a package noun after a capitalised word says it
is a name; a misspelt ordinary word carries neither and is still prose.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _kept(text: str, name: str) -> bool:
    """The name is a package to check, or quoted as unresolved: never silently gone."""
    requirements = parse_requirements(text, now=NOW)
    software = {s.name for s in requirements.software}
    return name in software or any(name in u.lower() for u in requirements.unresolved)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Essentia 2.1 for the audio features, 4 cores", "essentia"),
        ("we extract descriptors with the Essentia library on one node", "essentia"),
        ("Could you install the Essentia package? 8 cores are enough.", "essentia"),
        ("Essentia 2.1b6 with 8 cores", "essentia"),
        ("the coupler is Oasis 3.0, 4 nodes for a day", "oasis"),
        ("I need the Spectre package on one node for the circuit runs", "spectre"),
        ("Spectre 21.1 on 2 nodes", "spectre"),
        ("our solver links against the Hermes library, 16 cores", "hermes"),
        ("Hermes 4.2 please, 2 nodes", "hermes"),
        ("debugging with Forge 22.1 on 4 nodes", "forge"),
        ("Ember 1.4 on 2 nodes, about 6 hours", "ember"),
        ("the Lotus toolkit, 8 cores and 32 GB", "lotus"),
        ("Rover 3.2 please, one GPU", "rover"),
        ("is the Rover module installed? we need 2 nodes", "rover"),
        ("the Charm library on 64 cores", "charm"),
    ],
)
def test_a_capitalised_name_with_a_version_or_package_noun_is_kept(text: str, name: str) -> None:
    assert _kept(text, name), text


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Plese give me 4 nodes for the weekend", "plese"),
        ("Shoud finish by Friday, 2 nodes", "shoud"),
        ("Thnaks a lot, 16 cores would do", "thnaks"),
        ("Pleae allocate one GPU node", "pleae"),
        ("Hopefuly 8 hours is enough on 2 nodes", "hopefuly"),
    ],
)
def test_a_misspelt_ordinary_word_stays_prose(text: str, word: str) -> None:
    requirements = parse_requirements(text, now=NOW)
    assert word not in {s.name for s in requirements.software}
    assert not any(word in u.lower() for u in requirements.unresolved)
