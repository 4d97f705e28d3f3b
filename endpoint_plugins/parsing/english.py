"""Is a word English? The open vocabulary asks before it takes an unknown word for a package.

An unknown word that is English ("triton", "recipe", "states") is far more often prose than a
package name, so context alone ("run X on 2 nodes", "X and Y") does not make it a package: it
stays an unresolved phrase, which blocks READY just the same. A word no dictionary knows
("optuna", "hifiasm", "xformers") is the package. The dictionaries are GCIDE and Webster's
Second International, as the ``english-words`` package ships them, with plural and verb
endings stripped, since both list base forms. Both are American dictionaries, so a British
spelling ("harbour", "optimise", "analyse", "centre") is looked up in its American form too.
"""

from __future__ import annotations

from functools import cache, lru_cache

from english_words import get_english_words_set


@cache
def _words() -> frozenset[str]:
    return frozenset(get_english_words_set(["gcide", "web2"], lower=True, alpha=True))


@lru_cache(maxsize=8192)
def english_word(word: str, *, inflected: bool = True) -> bool:
    """Whether ``word`` (any case) is an English word, or (``inflected``) an inflection of one.

    Every stage asks this of the words it meets, often of the same word more than once per
    request, so answers are remembered per word: the answer depends on the word and on the
    fixed dictionaries alone, so a remembered one is always the answer a fresh call would give
    (the bound keeps memory flat however many new words arrive).
    """
    lower = word.lower()
    if not lower.isalpha() or len(lower) < 3:
        return False
    words = _words()
    if lower in words:
        return True  # the word itself is always among its stems: most words stop here
    stems = [s for s in _stems(lower) if len(s) >= 4 or s == lower] if inflected else [lower]
    if any(stem in words for stem in stems):
        return True
    return any(american in words for stem in stems for american in _american(stem))


@cache
def _cased_words() -> frozenset[str]:
    return frozenset(get_english_words_set(["gcide", "web2"], lower=False, alpha=True))


def proper_noun_only(word: str) -> bool:
    """Whether the dictionaries list ``word`` only with a capital, as a proper noun ("Pythia",
    "Passim", "Athena") and never as a common word: written in lower case in a request, such
    a word is no everyday English, so it is read as an unknown word is ("the pythia
    framework", "through hermes")."""
    lower = word.lower()
    if not lower.isalpha() or len(lower) < 3:
        return False
    cased = _cased_words()
    return lower not in cased and lower.capitalize() in cased


def transposed_word(word: str) -> bool:
    """Whether ``word`` (no English word itself) is an English word of six letters or more
    with two neighbouring letters swapped: the commonest slip of fast typing ("adjiont" for
    "adjoint", "simualtion"). Such a word is a misspelling, not an unknown package name."""
    lower = word.lower()
    if len(lower) < 6 or not lower.isalpha() or english_word(lower):
        return False
    words = _words()
    return any(
        lower[:i] + lower[i + 1] + lower[i] + lower[i + 2 :] in words
        for i in range(len(lower) - 1)
        if lower[i] != lower[i + 1]
    )


def _stems(word: str) -> list[str]:
    """The word and the base forms its ending may hide (states, studies, relied, mixing)."""
    stems = [word]
    if word.endswith("ies"):
        stems.append(word[:-3] + "y")
    if word.endswith("es"):
        stems.append(word[:-2])
    if word.endswith("s"):
        stems.append(word[:-1])
    if word.endswith("ed"):
        stems += [word[:-2], word[:-1], word[:-3] + "y" if word.endswith("ied") else word[:-2]]
    if word.endswith("ing"):
        stems += [word[:-3], word[:-3] + "e"]
    if word.endswith("ly"):
        stems.append(word[:-2])
    return stems


_BRITISH_ENDINGS = (
    ("our", "or"),
    ("ise", "ize"),
    ("iser", "izer"),
    ("isation", "ization"),
    ("yse", "yze"),
    ("tre", "ter"),
    ("ogue", "og"),
)
"""British endings and their American forms: harbour, optimise, organisation, analyse,
centre, catalogue. Only a whole word of the dictionary in its American form counts, so a
name that merely ends so ("contour" is English anyway) gains nothing it had not."""


def _american(word: str) -> list[str]:
    """The American spellings a British-spelled ``word`` may stand for."""
    return [word[: -len(gb)] + us for gb, us in _BRITISH_ENDINGS if word.endswith(gb)]
