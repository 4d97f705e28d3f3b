"""The literal pre-check that lets the scanner skip patterns that cannot match.

Skipping must never change a parse, so these tests pin the two facts it rests on: the
case-folding table is complete, and every match of every pattern the parser offers contains
one of that pattern's triggers.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from endpoint_plugins.parsing import scanner
from endpoint_plugins.parsing.parser import parse_requirements
from endpoint_plugins.parsing.triggers import IGNORECASE_TO_ASCII, fold, trigger_clauses, triggers


def test_the_folding_table_lists_every_non_ascii_character_an_ascii_letter_matches() -> None:
    ascii_letter = re.compile(r"[a-z0-9]", re.IGNORECASE)
    found = {
        cp
        for cp in range(0x80, 0x110000)
        if not 0xD800 <= cp <= 0xDFFF and ascii_letter.fullmatch(chr(cp))
    }
    assert found == set(IGNORECASE_TO_ASCII)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"(?<!\w)budget\s+(?:of\s+)?\d+", ("budget",)),
        (r"(?:gpu|device)s?\s*:\s*\d", ("device", "gpu")),
        (r"(?:a\s+)?total", ("total",)),
        (r"\d+\s*(?:h|hours?)", ("h",)),
        (r"[a-z]+\d", None),
        (r"(?:x|\d)", None),
        (r"(?:foo)?bar?", ("ba",)),
    ],
)
def test_triggers_are_strings_every_match_contains(pattern: str, expected: object) -> None:
    assert triggers(re.compile(pattern, re.IGNORECASE)) == expected


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"within\s+\d+\s*(?:hours|days)", (("within",), ("days", "hours"))),
        (r"(?:a\s+)?total\s+of\s+(?:cores|gpus)", (("total",), ("cores", "gpus"), ("of",))),
        # a clause implied by a more selective one is not tested again
        (r"budget\s+(?:of\s+)?\d+", (("budget",),)),
        (r"[a-z]+\d", ()),
    ],
)
def test_every_clause_is_required_of_every_match(pattern: str, expected: object) -> None:
    assert trigger_clauses(re.compile(pattern, re.IGNORECASE)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "GROMACS with CUDA on 2 nodes, BUDGET OF 300 USD, within 3 HOURS",
        "Need LAMMPS on four nodes, 64 cores each, InfiniBand, by Friday",
        # non-ASCII letters that ASCII letters match case-insensitively
        "need 2 node\u017f with 4 GPU\u017f each, deadl\u0131ne tomorrow, 64 \u212aB",
        "\u0130NF\u0130N\u0130BAND please, 1.5 T\u0130B of \u0131ocal scratch",
    ],
)
def test_every_match_of_every_pattern_holds_a_trigger(text: str) -> None:
    parse_requirements(text)  # fills the trigger cache with every pattern the parser offers
    folded = fold(text)
    for pattern, clauses, _ in list(scanner._TRIGGERS.values()):
        for needed in clauses:
            for match in pattern.finditer(text):
                assert any(t in fold(match.group()) for t in needed), (pattern.pattern, needed)
            if not any(t in folded for t in needed):
                assert pattern.search(text) is None


def test_the_one_edit_index_finds_what_comparing_every_choice_finds() -> None:
    """The deletion-key index behind ``typo_of`` must pick exactly what a full scan picks."""
    import random

    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    from endpoint_plugins.parsing.vocabulary import _long_filler, filler_words, typo_of

    choices = _long_filler(filler_words())
    rnd = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    for _ in range(3000):
        word = list(rnd.choice(choices))
        for _ in range(rnd.randint(0, 2)):
            i = rnd.randrange(len(word))
            kind = rnd.randrange(4)
            if kind == 0 and len(word) > 1:
                del word[i]
            elif kind == 1:
                word.insert(i, rnd.choice(letters))
            elif kind == 2:
                word[i] = rnd.choice(letters)
            elif i + 1 < len(word):
                word[i], word[i + 1] = word[i + 1], word[i]
        text = "".join(word)
        near = [c for c in choices if abs(len(c) - len(text)) <= 1]
        full = process.extractOne(text, near, scorer=OSA.distance, score_cutoff=1) if near else None
        assert typo_of(text, choices, 1) == (full[0] if full else None), text


def _sample_texts() -> list[str]:
    """Many texts that the gated patterns do match: the dev corpus, every string literal of
    the parser's test modules, and upper-case copies of both."""
    import ast
    from pathlib import Path

    from secretary_executor.evaluation.corpus import load_corpus

    here = Path(__file__).parent
    texts = [r.text for r in load_corpus(here.parent / "data" / "requests", "dev-*.yaml")[1]]
    for module in sorted(here.glob("test_parser*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.append(node.value)
    return texts + [t.upper() for t in texts]


def test_a_hand_written_gate_holds_for_every_match_of_its_pattern() -> None:
    """Some costly patterns run only when a cheap hint is found in the text (a hint written by
    hand, where :func:`triggers` cannot derive one). A gate that misses a form the pattern
    learned later silently drops that form, so every match must hold its gate's hint."""
    from endpoint_plugins.parsing import compute, resources, software, structured, timing

    gates = [
        (software._WITH_HINT_RE, software._WITH_VARIANT_RE),
        (software._WITH_HINT_RE, software._WITH_AND_WITHOUT_RE),
        (software._PAREN_HINT_RE, software._PAREN_VARIANT_RE),
        (software._PAREN_HINT_RE, software._PAREN_SPEC_RE),
        (software._BUILT_HINT_RE, software._BUILT_WITH_RE),
        (software._ENABLED_HINT_RE, software._ENABLED_AFTER_RE),
        (software._BUILD_NOUN_HINT_RE, software._DESCRIBED_BUILD_RE),
        (software._BUILD_NOUN_HINT_RE, software._GLOSSED_BUILD_RE),
        (software._BUILD_IS_HINT_RE, software._BUILD_IS_RE),
        (software._IN_BUILD_HINT_RE, software._IN_BUILD_RE),
        (software._DATED_HINT_RE, software._DATED_RELEASE_RE),
        (software._PACKAGE_LIST_HINT_RE, software._PACKAGE_LIST_RE),
        (software._VERSION_HINT_RE, software._VERSION_OF_RE),
        (software._VERSION_HINT_RE, software._UNKNOWN_RE),
        (software._RELEASE_TAG_HINT_RE, software._RELEASE_TAG_RE),
        (software._FAMILY_HINT_RE, software._FAMILY_VERSION_RE),
        (software._VERSION_HINT_RE, software._FAMILY_VERSION_RE),
        (software._VERSION_HINT_RE, software._LANGUAGE_PACKAGE_RE),
        (software._VERSION_OF_HINT_RE, software._VERSION_OF_RE),
        (software._DESCRIBED_HINT_RE, software._DESCRIBED_BUILD_RE),
        (software._GLOSSED_HINT_RE, software._GLOSSED_BUILD_RE),
        (software._BUILD_CHOICE_HINT_RE, software._BUILD_CHOICE_RE),
        (resources._BUDGET_HINT_RE, resources._BUDGET_RE),
        (resources._AVOID_HINT_RE, resources._AVOID_FABRIC_RE),
        (structured._FILE_HINT_RE, structured._FILE_RE),
        (timing._WALLTIME_WORD_HINT_RE, timing._WALLTIME_RE),
        (timing._WALLTIME_WORD_HINT_RE, timing._WALLTIME_AFTER_RE),
    ]
    texts = _sample_texts()
    for gate, pattern in gates:
        matched = [t for t in texts if pattern.search(t)]
        assert matched, f"no sample text matches {pattern.pattern[:60]!r}"
        hidden = [t for t in matched if not gate.search(t)]
        assert not hidden, (gate.pattern, hidden[:3])
    word_gates: list[tuple[Callable[[str], bool], re.Pattern[str]]] = [
        (lambda t: compute._holds(fold(t), compute._SUCH_WORDS), compute._SUCH_HINT_RE),
        (
            lambda t: (
                compute._holds(fold(t), compute._VENDOR_NAMES)
                and compute._holds(fold(t), compute._VENDOR_ALLOWED_HINTS)
            ),
            compute._VENDOR_ALLOWED_RE,
        ),
        (lambda t: compute._may_name_min_model(fold(t), t), compute._MIN_MODEL_RE),
    ]
    for holds, pattern in word_gates:
        matched = [t for t in texts if pattern.search(t)]
        assert matched, f"no sample text matches {pattern.pattern[:60]!r}"
        hidden = [t for t in matched if not holds(t)]
        assert not hidden, (pattern.pattern[:60], hidden[:3])
