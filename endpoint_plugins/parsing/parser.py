"""Free text to :class:`~providers.wire.requirements.Requirements`, deterministically.

The parser is a fixed pipeline of extractors over one :class:`Scanner`. Each extractor blanks
out what it understood, so the order below is part of the grammar: deadlines before walltime
("within 3 hours" is a deadline), compute before packages ("lammps 4 nodes" is four nodes, not
LAMMPS version 4), runtimes and MPI before packages ("Intel MPI" is not the Intel compilers).
What no extractor claimed is reported in ``unparsed``, word for word, minus stop words.

It never raises: input is capped at :data:`MAX_INPUT_CHARS`, every number pattern is bounded,
and an extractor that fails anyway is logged and reported in ``unparsed`` while the rest of the
request is still read.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import datetime

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.command import extract_command, requirement_text, split_command
from endpoint_plugins.parsing.compute import extract_compute
from endpoint_plugins.parsing.draft import Draft
from endpoint_plugins.parsing.letter import extract_frame
from endpoint_plugins.parsing.negation import extract_exclusions
from endpoint_plugins.parsing.resources import extract_budget, extract_network, extract_storage
from endpoint_plugins.parsing.scanner import Scanner
from endpoint_plugins.parsing.software import (
    extract_containers,
    extract_mpi,
    extract_software,
    extract_variants,
    group_alternatives,
)
from endpoint_plugins.parsing.structured import extract_structured, flatten_json
from endpoint_plugins.parsing.timing import (
    default_now,
    extract_deadline,
    extract_urgency,
    extract_walltime,
)
from endpoint_plugins.parsing.triggers import IGNORECASE_TO_ASCII
from endpoint_plugins.parsing.vocabulary import extract_open_vocabulary
from providers.wire.requirements import Requirements

__all__ = ["MAX_INPUT_CHARS", "extract_command", "parse_requirements", "split_command"]

logger = logging.getLogger(__name__)

MAX_INPUT_CHARS = 20_000
"""Longest request read; the wire model's ``source_text`` holds no more."""

MAX_FRAGMENTS = 100
MAX_FRAGMENT_WORDS = 8
MAX_FRAGMENT_CHARS = 80
PARSER_ERROR = "[parser error"
"""Prefix of the note left in ``unparsed`` when an extractor fails (tests look for it)."""

_SPLIT_RE = re.compile(r"[\x00,;!?()\[\]{}\"|`]+|[.:](?=\s|$)|\s[-\u2013\u2014]+\s")
_MEANINGFUL_RE = re.compile(r"[^\W_]|[<>=$%+#@\u2264\u2265\u2260]")
_EDGE_CHARS = ".,;:!?'\"`*_~()[]{}"

Stage = Callable[[Scanner, Draft], None]


def parse_requirements(text: str, *, now: datetime | None = None) -> Requirements:
    """Read a request written in plain words.

    Args:
        text: The request, e.g. "LAMMPS >= 2023 on 4 nodes with 2 GPUs each, InfiniBand, soon".
            A command in backticks is cut out first (see :func:`split_command`).
        now: The clock for relative deadlines ("within 3 hours", "by Friday"); defaults to the
            current time in UTC. Passing it makes parsing reproducible.

    Returns:
        The requirements. ``source_text`` is the request as given (up to
        :data:`MAX_INPUT_CHARS`); words not understood are in ``unparsed``.
    """
    source = _sanitise(text)
    notes: list[str] = []
    if len(source) > MAX_INPUT_CHARS:
        notes.append(
            f"[input truncated: {len(source) - MAX_INPUT_CHARS} characters after the first "
            f"{MAX_INPUT_CHARS} were not read]"
        )
        source = source[:MAX_INPUT_CHARS]
    remaining = requirement_text(source)
    clock = now or default_now()
    scanner, draft = Scanner(flatten_json(_ascii_letters(remaining))), Draft()
    for name, stage in _stages(clock):
        _run(name, stage, scanner, draft)
    return _build(draft, notes, scanner.text, source, clock)


def _stages(now: datetime) -> list[tuple[str, Stage]]:
    """The extractors, in the order that resolves their overlaps (see module docstring)."""
    return [
        ("structured", lambda s, d: extract_structured(s, d, now)),
        ("frame", extract_frame),
        ("variants", extract_variants),
        ("negation", extract_exclusions),
        ("deadline", lambda s, d: extract_deadline(s, d, now)),
        ("budget", extract_budget),
        ("walltime", extract_walltime),
        ("compute", extract_compute),
        ("storage", extract_storage),
        ("network", extract_network),
        ("urgency", extract_urgency),
        ("container", extract_containers),
        ("mpi", extract_mpi),
        ("software", extract_software),
        ("vocabulary", extract_open_vocabulary),
        ("alternatives", group_alternatives),
    ]


def _run(name: str, stage: Stage, scanner: Scanner, draft: Draft) -> None:
    """Run one extractor; a failure costs that part of the request, never the whole parse.

    The part that was not read stays in the text, so the open-vocabulary stage still turns it
    into unresolved phrases; the note makes the failure visible and blocks READY too.
    """
    try:
        stage(scanner, draft)
    except Exception:
        logger.exception("request parser: the %s extractor failed", name)
        note = f"{PARSER_ERROR} in {name}: that part of the request was not read]"
        draft.notes.append(note)
        draft.unresolved.append(note)


def _build(
    draft: Draft, notes: list[str], leftover: str, source: str, now: datetime
) -> Requirements:
    """Freeze the draft; if the result is somehow invalid, keep at least the text and notes.

    Invalid means a bug, not bad input; even then nothing requirement-like is dropped: every
    fragment left over goes to ``unresolved`` so that no site can answer READY on it.
    """
    fragments = leftover_fragments(leftover)
    try:
        parts = {
            "software": draft.build_software(),
            "alternatives": draft.build_alternatives(),
            "compute": draft.build_compute(),
            "network": draft.build_network(),
            "storage": draft.build_storage(),
            "container": draft.build_container(),
            "mpi": draft.build_mpi(),
            "urgency": draft.urgency.value if draft.urgency else None,
            "deadline": draft.deadline.value if draft.deadline else None,
            "deadline_within_s": draft.deadline_within_s,
            "requested_at": now,
            "budget_usd": draft.budget.value if draft.budget else None,
            "excluded": draft.build_excluded(),
        }
        unresolved = _limit([*notes, *draft.unresolved])  # unread text may hold a requirement
        blanked = [u for u in draft.unresolved if not any(u in f or f in u for f in fragments)]
        unparsed = _limit([*notes, *draft.notes, *blanked, *fragments])
        return Requirements(**parts, unresolved=unresolved, unparsed=unparsed, source_text=source)
    except Exception:
        logger.exception("request parser: the parsed request did not validate")
        error = f"{PARSER_ERROR}: the request could not be assembled]"
        unread = _limit([*draft.unresolved, *fragments, error])
        unparsed = _limit([*notes, *draft.notes, *unread])
        return Requirements(unresolved=unread, unparsed=unparsed, source_text=source)


def leftover_fragments(text: str) -> list[str]:
    """Short runs of the words no extractor understood, stop words and punctuation removed.

    Runs break at understood spans, punctuation and stop words, so each fragment is a phrase
    the user can recognise ("hello", "foo bar"), not one long blob.
    """
    fragments: list[str] = []
    for segment in _SPLIT_RE.split(text):
        run: list[str] = []
        for raw in segment.split():
            word = raw.strip(_EDGE_CHARS)
            if not word or not _MEANINGFUL_RE.search(word) or word.lower() in lexicon.STOP_WORDS:
                _flush(run, fragments)
                continue
            run.append(word)
            if len(run) >= MAX_FRAGMENT_WORDS:
                _flush(run, fragments)
        _flush(run, fragments)
    return fragments


def _limit(items: list[str]) -> tuple[str, ...]:
    """Each note once, and at most :data:`MAX_FRAGMENTS` of them, with a count of the rest.

    A 20,000-character paste of junk would otherwise produce thousands of entries that no one
    reads; the count still says that they were there.
    """
    unique = list(dict.fromkeys(items))
    if len(unique) <= MAX_FRAGMENTS:
        return tuple(unique)
    hidden = len(unique) - MAX_FRAGMENTS
    return (*unique[:MAX_FRAGMENTS], f"[{hidden} more unparsed fragments not listed]")


def _flush(run: list[str], fragments: list[str]) -> None:
    if run:
        fragments.append(" ".join(run)[:MAX_FRAGMENT_CHARS])
        run.clear()


_CASE_PARTNERS = {
    code: ascii.upper() if chr(code).isupper() else ascii
    for code, ascii in IGNORECASE_TO_ASCII.items()
}
"""The non-ASCII letters that case-insensitive patterns match as ASCII letters (dotted capital
I, dotless i, long s, Kelvin sign), mapped to those letters in the same case."""


def _ascii_letters(text: str) -> str:
    """The text with :data:`_CASE_PARTNERS` replaced, one character for one.

    A pattern reads "FR\u0130DAY" as "Friday", but the extractor then looks the matched word
    up in a table of plain spellings, where "fr\u0130day".lower() is not found; the stage
    would fail and lose everything it read. Replacing the four letters up front keeps every
    span in place (same length) and makes every lookup see the spelling the pattern saw.
    """
    return text if text.isascii() else text.translate(_CASE_PARTNERS)


def _sanitise(text: str) -> str:
    """The text as valid Unicode: lone surrogates (unencodable as JSON) become ``?``."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    return text.encode("utf-8", "replace").decode("utf-8")
