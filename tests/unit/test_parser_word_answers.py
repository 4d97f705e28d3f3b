"""Shortcuts in the open vocabulary that must give exactly the answers of the plain code.

The per-word questions are remembered (:func:`functools.lru_cache`), and the test for a text
written in capitals counts ASCII letters with a byte table; neither may change an answer.
"""

from __future__ import annotations

import random
import string

import pytest

from endpoint_plugins.parsing import vocabulary
from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.not_names import not_a_package


def _shouted_by_letters(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return sum(c.isupper() for c in letters) * 2 > len(letters)


def test_the_ascii_count_of_capitals_agrees_with_the_per_letter_count() -> None:
    texts = ["", "ORCA on 4 NODES", "Run amber", "AB cd", "Ab", "1234 !?", *map(chr, range(128))]
    rng = random.Random(7)
    texts += [
        "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 40)))
        for _ in range(2000)
    ]
    for text in texts:
        assert vocabulary._shouted(text) == _shouted_by_letters(text), repr(text)


def test_a_text_with_non_ascii_letters_is_counted_letter_by_letter() -> None:
    assert vocabulary._shouted("ÉCOLE ÀÉ ok")
    assert not vocabulary._shouted("école àé OK")


_WORDS = (
    "pytroch somone infinband Llama-3-70B motorBike cp2k Kraken2 Run3 states optuna LoRA nccl-tests"
).split()


@pytest.mark.parametrize("word", _WORDS)
def test_remembered_word_answers_are_the_computed_ones(word: str) -> None:
    filler = vocabulary.filler_words()
    for cached, args in [
        (english_word, (word,)),
        (not_a_package, (word,)),
        (vocabulary.name_shaped, (word,)),
        (vocabulary.near_catalogue_name, (word,)),
        (vocabulary._near_filler, (word.lower(), filler)),
        (vocabulary._near_feature_word, (word.lower(),)),
    ]:
        assert cached(*args) == cached.__wrapped__(*args)  # type: ignore[attr-defined]
        assert cached(*args) == cached.__wrapped__(*args)  # type: ignore[attr-defined]
