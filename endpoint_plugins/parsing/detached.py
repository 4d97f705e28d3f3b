"""Versions written apart from the name they belong to.

People often name a package first and give its version a few words later: "an Apptainer
container (1.3 or newer)", "R for the analysis, version 4.3 or more new", "we still use
version 2.12", "it needs to be 2Aug2023 or newer". No pattern of a name followed by a version
reads these, so the version would be quoted as unresolved: safe, but the request names a
package and its version, and a reader ties the two.

The rule: a version phrase left unread belongs to the nearest thing named before it in the same
sentence (a package, a container runtime or an MPI library), when that thing has no version yet
and no other unread word stands right before the version ("Ubuntu version 22.04" stays quoted).
With no name in its sentence, it belongs to the one package of a request that names exactly
one. A version phrase here is one a reader cannot take for a count, a size or a year of
history: it carries the word "version"/"release" or a "v" ("v11"), or an operator word after it
("2022 or newer"), in parentheses or after a copula ("needs to be 2Aug2023 or newer"), or is
a release of three parts in parentheses ("our VASP licence (6.4.2)"), which nothing else is
written as. A number without those marks ("since 2021", "data from 2019") is never taken.

A name right before a version with nothing but a product noun between ("the sarek pipeline
3.4") or nothing at all ("SWarp 2.41", "foldseek 9,") is read the same way: the name was
accepted as a package by other means, and the number next to it is left by every extractor
of counts and sizes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.constraints import AFTER_WORDS, clean_version, parse_constraints
from endpoint_plugins.parsing.draft import Draft
from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.scanner import (
    BARRIER,
    FLAGS,
    Scanner,
    alternation,
    lookup,
    sentence_start,
)
from providers.wire.requirements import Comparator, VersionConstraint

_VERSION = r"(?:\d{1,2}[a-z]{3}\d{4}|\d{1,4}(?:\.\d{1,4}){0,3}[a-z]?)"
"""A release number, or a date-style release ("2Aug2023")."""
_NEWER = r"(?:or|and)\s+(?:newer|later|above|up|more\s+recent|more\s+new|a\s+later\s+version)"
"""Operator words after a version that only a version takes ("or higher", "or more" may
follow a count)."""
_UNIT_AFTER = (
    r"(?!\s*(?:-\s*)?(?:nodes?|cores?|cpus?|gpus?|ranks?|tasks?|threads|hours?|hrs?|h|days?|"
    r"min(?:ute)?s?|gb|tb|mb|gib|tib|g|x|%|times|of|million|k|samples?|runs?|jobs?|files?)(?!\w))"
)
_DETACHED_RE = re.compile(
    r"(?<![\w.])(?:"
    rf"(?P<open>\(\s*)?(?:version|release|ver\.?)(?:\s+(?:is|=|:)|\s*[:=])?\s*"
    rf"(?P<v1>{_VERSION})(?!\w|\.\w)(?P<s1>\s+(?:{AFTER_WORDS})(?!\w))?(?(open)\s*\))"
    rf"|(?P<open2>\(\s*)?v(?P<v2>\d{{1,4}}(?:\.\d{{1,4}}){{0,3}})(?!\w|\.\w)(?(open2)\s*\))"
    rf"|(?P<open3>\(\s*)?(?P<v3>{_VERSION})\s+(?P<s3>{_NEWER})(?![\w])(?(open3)\s*\))"
    r"|\(\s*(?P<v4>\d{1,4}\.\d{1,4}\.\d{1,4}(?:\.\d{1,4})?)\s*\)"
    rf"){_UNIT_AFTER}",
    FLAGS,
)
_COPULA_RE = re.compile(
    r"(?:^|[(,:;\-\u2013\u2014]|\b(?:be|is|are|needs?|requires?|use|using|want|with))\s*$",
    FLAGS,
)
"""What may stand before a version with no "version" word: "(", ",", "needs to be", "use"."""
_NOUN = (
    r"(?:pipeline|toolkit|toolbox|suite|framework|library|package|code|software|solver|"
    r"simulator|model|tool|workflow|program)"
)
_NEXT_TO_NAME_RE = re.compile(
    rf"[^\S\n]+(?:{_NOUN}[^\S\n]+)?(?P<v>\d{{1,4}}(?:\.\d{{1,4}}){{1,3}}|\d{{1,2}})"
    rf"(?=[^\S\n]*(?:[,;)]|\+|\band\b|\bover\b|\bon\b|\bfor\b|\bwith\b|$|\n)|\.(?:\s|$))"
    rf"{_UNIT_AFTER}",
    FLAGS,
)
"""A number right after a name ("SWarp 2.41 over", "foldseek 9, 64 cores", "the sarek
pipeline 3.4"): a dotted release, or one or two digits before a list break."""
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s)|\n\s*\n|\n\s*[-*>#]")
_RUNTIMES = [s for k, v in lexicon.CONTAINER_RUNTIMES.items() for s in (k, *v)]
_MPIS = [s for k, v in lexicon.MPI_IMPLEMENTATIONS.items() for s in (k, *v)]
_OWNER_RE = re.compile(
    rf"(?<!\w)(?P<runtime>{alternation(_RUNTIMES)})(?!\w)|(?<!\w)(?P<mpi>{alternation(_MPIS)})(?!\w)",
    FLAGS,
)
_PREFIX_RE = re.compile(r"^(?:version|release|ver\.?)(?:\s+(?:is|=|:)|\s*[:=])?\s*", FLAGS)
_WORD_BEFORE_RE = re.compile(r"([A-Za-z][\w+-]*)[^\w\x00]*$")


def attach_detached_versions(
    scanner: Scanner, draft: Draft, prose: Callable[[str], bool]
) -> list[tuple[int, int]]:
    """Give unread version phrases to the name they follow; returns the spans read."""
    text = scanner.text
    if not any(map(str.isdigit, text)):  # one C-level pass, no Python step per character
        return []
    owners = _owners(scanner, draft)
    if not owners:
        return []
    read: list[tuple[int, int]] = []
    for _, end, kind, name in owners:
        if kind != "software" or draft.software.get(name):
            continue
        m = _NEXT_TO_NAME_RE.match(text, end)
        if m and (version := clean_version(m.group("v"))):
            if _owner_free(draft, kind, name):
                draft.add_software(name, [_eq(version)])
                read.append((end, m.end("v")))
                scanner.blank(end, m.end("v"))
    text = scanner.text
    for m in _DETACHED_RE.finditer(text):
        before = text[: m.start()]
        owner = _owner_before(owners, m.start(), text, draft)
        if owner is None:
            continue
        word = _WORD_BEFORE_RE.search(before[-40:])
        if word and not _prose_or_owner(word, owner, prose, before):
            continue  # "Ubuntu version 22.04": the version of an unread word, left quoted
        if m.group("v3") and not _COPULA_RE.search(before[-30:].replace(BARRIER, " ")):
            if not m.group("open3"):
                continue  # "data from 2019 or later": a year of data, no version
        spec = m.group(0).strip(" ()")
        spec = _PREFIX_RE.sub("", spec)
        spec = re.sub(r"^v(?=\d)", "", spec)
        constraints, _ = parse_constraints(spec)
        if not constraints:
            continue
        _apply(draft, owner, constraints)
        read.append(m.span())
        scanner.blank(*m.span())
        text = scanner.text
    return read


def _eq(version: str) -> VersionConstraint:
    return VersionConstraint(op=Comparator.EQ, version=version)


def _owners(scanner: Scanner, draft: Draft) -> list[tuple[int, int, str, str]]:
    found = [(s, e, "software", n) for s, e, n in draft.software_spans if n in draft.software]
    if draft.container is not None or draft.mpi is not None:
        for m in _OWNER_RE.finditer(scanner.original):
            kind = "runtime" if m.group("runtime") else "mpi"
            name = (
                lookup(lexicon.CONTAINER_RUNTIMES, m.group(0))
                if kind == "runtime"
                else lookup(lexicon.MPI_IMPLEMENTATIONS, m.group(0))
            )
            if name:
                found.append((m.start(), m.end(), kind, name))
    return sorted(found)


def _owner_before(
    owners: list[tuple[int, int, str, str]], at: int, text: str, draft: Draft
) -> tuple[int, int, str, str] | None:
    """The nearest name before ``at`` in its sentence, or the request's only package."""
    sentence = sentence_start(_SENTENCE_END_RE, text, at)
    before = [o for o in owners if sentence <= o[0] and o[1] <= at]
    if before:
        owner = before[-1]
        return owner if _owner_free(draft, owner[2], owner[3]) else None
    names = {(o[2], o[3]) for o in owners}
    if len(names) == 1 and all(o[1] <= at for o in owners):
        owner = owners[0]
        return owner if _owner_free(draft, owner[2], owner[3]) else None
    return None


def _owner_free(draft: Draft, kind: str, name: str) -> bool:
    """Whether the owner has no version yet (a second one would be a guess between two)."""
    if kind == "software":
        return name in draft.software and not draft.software[name]
    if kind == "runtime":
        return (
            draft.container is not None
            and draft.container.runtime == name
            and not draft.container.constraints
        )
    return draft.mpi is not None and draft.mpi.implementation == name and not draft.mpi.constraints


def _prose_or_owner(
    word: re.Match[str], owner: tuple[int, int, str, str], prose: Callable[[str], bool], before: str
) -> bool:
    start = len(before) - len(before[-40:]) + word.start(1)
    said = word.group(1)
    return owner[0] <= start < owner[1] or prose(said) or (said.islower() and english_word(said))


def _apply(
    draft: Draft, owner: tuple[int, int, str, str], constraints: list[VersionConstraint]
) -> None:
    _, _, kind, name = owner
    if kind == "software":
        draft.add_software(name, constraints)
    elif kind == "runtime":
        draft.set_container(name, constraints, name)
    else:
        draft.set_mpi(name, constraints, name)
