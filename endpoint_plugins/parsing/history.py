"""Amounts that describe the past, or someone else's job, are not the request.

Long tickets tell a story before they ask: "last year we used 8 nodes ... so please give us
16", "we tried 2 GPUs and it ran out of memory, so we now need 4", and a mailing-list reply
quotes the other poster's numbers ("> I needed 3 nodes"). Every extractor reads those amounts
as well as the requested ones, and the first one said would win.

The text is cut into clauses (sentences, quoted lines, and the parts of a sentence on either
side of "so", "but", "this time"...). A clause with a history marker ("last year", "we tried",
"on the old cluster", "previously", a quoted line) is *past*, unless it also asks for
something ("so we need ..."). For each quantity (nodes, cores, GPUs, GPU model, memory,
walltime), mentions in past clauses are dropped when the same quantity is also said outside
them. A quantity said only in the past is kept as it was read: nothing requirement-like is
silently lost.

Among what is left, when one scope of a count or of memory still has two different values and
only some of them sit in a clause that asks ("I need 1 node with 16 GB", not "each task needs
32 GB"), the asked-for values are kept. A duration written as an adjective ("I need to run a
72-hour forecast") names simulated time, not the run's, so it never counts as asked for.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from endpoint_plugins.parsing.draft import Count, Draft, Mention
from endpoint_plugins.parsing.scanner import FLAGS, starts_with
from endpoint_plugins.parsing.triggers import fold

_SENTENCE_END_RE = re.compile(
    r"[.!?](?=\s)|;|\n[ \t]*\n"
    r"|,?\s+(?=(?:so|but|however|whereas|instead|this\s+time|and\s+now)\s)|,\s+(?=now\s)"
    r"|,\s+(?=(?:we|i)(?:'re|'m|\s+are|\s+am|'ll|\s+will)\s+(?:now\s+)?"
    r"(?:switching|moving|changing|migrating)\s)",
    FLAGS,
)
"""Where one clause ends inside a run of lines that are not quoted ("..., we're switching to"
begins a new one)."""
QUOTED_LINES_RE = re.compile(
    r"(?:^[ \t]*(?:>|(?:on\s[^\n]{0,60}?,\s*)?[^\n]{0,40}\bwrote:[ \t]*$)[^\n]*(?:\n|$))+",
    FLAGS | re.M,
)
"""Quoted lines of a reply ("> I needed 3 nodes") and the "Alice wrote:" line above them."""
_PAST_RE = re.compile(
    # the first word of every alternative below: the look-ahead rejects most positions with one
    # test, before the look-behind and the alternatives are tried
    starts_with(
        "last previously historically in used years months weeks days back during previous"
        " earlier prior past former older on at i we they he she it with against from of old"
        " jobs runs job run ran pipeline stack version setup module no any our for".split()
    )
    + r"(?<!\w)(?:"
    r"last\s+(?:year|month|week|time|summer|winter|spring|autumn|fall|semester|term|round|run"
    r"|campaign|attempt|allocation|project)"
    r"|previously|historically|in\s+the\s+past|used\s+to|(?:years?|months?|weeks?|days?)\s+ago|back\s+then"
    r"|(?:in|during)\s+(?:our|my|the|their)\s+(?:last|previous|earlier|prior)(?=\s)"
    r"|(?:previous|earlier|prior|past|former|older)\s+(?:\w+\s+)?(?:runs?|jobs?|campaigns?|"
    r"attempts?|simulations?|experiments?|allocations?|tests?|rounds?|iterations?|batch(?:es)?)"
    r"|(?:on|at)\s+(?:another|a\s+different|some\s+other)\s+(?:cluster|machine|system|site)"
    r"|(?:i|we|they|he|she|it)\s+(?:\w+\s+)?(?:tried|used|ran|had|needed|requested|got|did|were\s+"
    r"using|was\s+using|have\s+been\s+(?:using|running))"
    r"|(?:on|with|in)\s+(?:the|our|my)\s+(?:old|previous|former|last)(?=\s)"
    r"|(?:against|from|of)\s+(?:the|our|my)\s+old(?=\s)"
    r"|(?:old|previous|former)\s+(?:cluster|machine|system|allocation|set-?up|account|site"
    r"|environment|stack|modules?|build|installation|pipeline|workflow|code)"
    r"|(?:i|we|they)\s+(?:\w+\s+)?(?:processed|analy[sz]ed|simulated|computed|benchmarked)"
    r"|(?:jobs?|runs?)\s+(?:\w+\s+)?(?:failed|crashed|died|aborted|segfaulted)"
    r"|(?:pipeline|stack|version|setup|module)\s+is\s+"
    r"(?:retired|gone|deprecated|obsolete)"
    r"|it\s+took|(?:run|job|jobs|runs)\s+took|ran\s+out\s+of"
    r"|no\s+longer|any\s?more"
    r"|our\s+(?:laptop|workstation|desktop|group\s+server|local\s+machine)s?\s+(?:has|have)"
    r"|for\s+the\s+(?:19|20)\d\d\s+\w+"
    r")(?!\w)",
    FLAGS,
)
"""Markers of a clause about what was done before, not what is asked for now."""
_PAST_WORDS = (
    *"last previous historically past used ago back earlier prior former old other different"
    " tried ran had needed requested got did using running processed analy simulated computed"
    " benchmarked failed crashed died aborted segfaulted retired gone deprecated obsolete took"
    " longer more laptop workstation desktop group local".split(),
)
"""One of these is in every match of :data:`_PAST_RE` but "for the 2019 runs", which holds "for"
and "19" or "20" (folded text, see :func:`_may_be_past`)."""
_ASK_RE = re.compile(
    starts_with("i we please could can may give is are would".split())  # as for _PAST_RE
    + r"(?<!\w)(?:(?:i|we)\s+(?:\w+\s+)?(?:need|want|require|request|would\s+like|'d\s+like)"
    r"|(?:i|we)'d\s+like|(?:i|we)\s+am\s+asking|(?:i|we)'m\s+asking|please|"
    r"(?:could|can|may)\s+(?:i|we|you)|give\s+(?:me|us)|(?:i'd|we'd)\s+need|"
    r"(?:is|are)\s+enough|would\s+be\s+(?:enough|fine|great|comfortable)"
    r"|(?:i|we)(?:['\u2019]ve|\s+have)\s+(?:just\s+|already\s+|now\s+)?(?:requested|asked\s+for)"
    r"|(?:i|we)(?:['\u2019](?:m|re)|\s+am|\s+are)\s+(?:now\s+)?requesting)(?!\w)",
    FLAGS,
)
"""Markers of a clause that asks for something; "I've requested 6 nodes", "we are requesting 4
GPUs" ask now, whatever an earlier clause says was run before."""
_INSTEAD_RE = re.compile(r"(?<!\w)instead(?!\s+of)(?!\w)", FLAGS)
_INSTEAD_WORDS = ("instead",)
"""A clause that replaces a value said elsewhere ("the same script, but on 6 nodes and with a
20 hour limit instead"): what it names is asked for, over the pasted script's values. It does
not make a past clause current: "we used 2 nodes instead" is still history."""
_THAT_WAS_RE = re.compile(
    r"\s*(?:but\s+|though\s+|although\s+)?(?:that|those|these|this|it)\s+(?:was|were)(?!\w)",
    FLAGS,
)
"""A clause that looks back at the one before it ("Eight V100s, but that was with the old
model", "4 nodes - those were the 2019 runs"): when it is past, so is what it points at."""
DATA_LENGTH = (
    r"(?:observations?|observing\s+(?:runs?|sessions?)|recordings?|footage|videos?|audio|movies?"
    r"|measurements?|exposures?|time\s+series|data(?:sets?)?)\s*(?:\(|of(?!\w)|lasting|totall?ing)"
)
"""Before a duration: the length of the data ("LOFAR observations (8 hours, 2019 cycle)",
"recordings of about 40 hours"), not the run's. The walltime reader keeps such a duration only
when nothing else gives the run time, and it never counts as asked for here."""
_DATA_LENGTH_BEFORE_RE = re.compile(
    rf"(?<!\w){DATA_LENGTH}(?:\s+(?:about|around|roughly|nearly|almost|over|some))?\s*$", FLAGS
)
_ADJECTIVE_RE = re.compile(
    r"\d+\s*-\s*(?:hours?|days?|minutes?|weeks?|years?)\s+"
    r"(?!(?:slot|job|run|allocation|reservation|walltime|wall\s+time|limit|window)s?(?!\w))[a-z]",
    FLAGS,
)
"""A duration that describes a noun ("a 72-hour forecast"): simulated time, not the run's."""


_PASTED_RE = re.compile(
    r"^(?P<intro>[^\n]*:)[ \t]*\n(?:[ \t]*\n)*(?P<block>(?:[ \t]+\S[^\n]*(?:\n|$))+)", FLAGS | re.M
)
"""An indented block under a line that ends in a colon: pasted output, a list or a script."""
_OUTPUT_INTRO_RE = re.compile(
    r"(?<!\w)(?:log|logs|excerpt|output|error|errors|traceback|backtrace|stack\s+trace|fail(?:s|ed)"
    r"|crash(?:es|ed)|dies|died|killed|module\s+list|loaded\s+modules|looked\s+like)(?!\w)",
    FLAGS,
)
"""Words by which a writer introduces what a program printed ("log excerpt:", "dies with:")."""
_OUTPUT_INTRO_WORDS = (
    *"log excerpt output error trace fail crash dies died killed module looked".split(),
)
"""One of these is in every match of :data:`_OUTPUT_INTRO_RE` (folded text)."""
_COMMENT_LINE_RE = re.compile(r"^[ \t]*#(?![!]|(?:SBATCH|PBS|BSUB|flux|\$)\b)[^\n]*", FLAGS | re.M)
"""A comment line of a script ("# previous attempt with RAxML-NG hit the limit"): its own
clause, so that its history does not spread over the directives around it."""


_BEHIND_RE = re.compile(
    r"(?<!\w)(?:that(?:'s|\s+is|\s+was)\s+(?:all\s+)?(?:history|in\s+the\s+past|behind\s+(?:us|me))"
    r"|(?:enough|so\s+much\s+for\s+the)\s+(?:background|history)"
    r"|end\s+of\s+(?:the\s+)?(?:background|history|story))(?!\w)",
    FLAGS,
)
"""Words by which a writer closes the story before the ask ("Anyway, that's history: for the
new campaign we need ..."): every clause before them is history unless it asks."""
_BEHIND_WORDS = ("past", "behind", "background", "story")
"""One of these is in every match of :data:`_BEHIND_RE` (folded text; "history" holds "story").

These word lists let a substring test rule a text out before a pattern led by a look-behind is
tried at every position of it: most requests tell no story."""


@functools.lru_cache(maxsize=8)
def _folded(text: str) -> str:
    """The text as the word lists above are looked for in it; asked several times per parse."""
    return fold(text)


def _holds(text: str, words: tuple[str, ...]) -> bool:
    folded = _folded(text)
    return any(map(folded.__contains__, words))  # as in compute._holds: no generator


def _may_be_past(text: str) -> bool:
    """Whether :data:`_PAST_RE` can find anything in ``text`` (see :data:`_PAST_WORDS`)."""
    folded = _folded(text)
    return _holds(text, _PAST_WORDS) or ("for" in folded and ("19" in folded or "20" in folded))


@functools.lru_cache(maxsize=8)
def _pasted_output(text: str) -> tuple[tuple[int, int], ...]:
    """Indented blocks a writer pasted as what an earlier run printed: the line that introduces
    them ends in a colon, names output or a failure ("log excerpt:", "it dies with:", "(module
    list output):") and asks for nothing. A block under "What I need now:" stays a request.

    Several stages ask this of the same text (history, and the MPI and container readers), so
    the answer is kept for the few texts last asked about."""
    blocks: list[tuple[int, int]] = []
    for m in _PASTED_RE.finditer(text):
        line_start = text.rfind("\n", 0, max(0, m.start() - 1)) + 1
        intro = text[line_start : m.end("intro")]
        if "\n\n" in intro:
            intro = m.group("intro")
        if _OUTPUT_INTRO_RE.search(intro) and not _ASK_RE.search(intro):
            blocks.append((m.start("block"), m.end("block")))
    return tuple(blocks)


@functools.lru_cache(maxsize=8)
def _maybe_history(text: str) -> bool:
    """Whether the text can hold history at all (a cheap test before cutting it up).

    The compute, software and version readers all ask this of the same text in one parse, so
    the answer is kept for the few texts last asked about, as :func:`_pasted_output`."""
    return bool(
        ">" in text
        or _markers_in(text)[1]
        or (_holds(text, _OUTPUT_INTRO_WORDS) and _OUTPUT_INTRO_RE.search(text))
        or (_holds(text, _BEHIND_WORDS) and _BEHIND_RE.search(text))
    )


@functools.lru_cache(maxsize=8)
def _clauses(text: str) -> tuple[tuple[int, int, bool, bool], ...]:
    """Each clause as (start, end, past, asks); quoted lines and pasted output are one past
    clause each. Kept for the few texts last asked about, as :func:`_pasted_output`."""
    past_blocks = sorted(
        [*((m.start(), m.end()) for m in QUOTED_LINES_RE.finditer(text)), *_pasted_output(text)]
    )
    clauses: list[tuple[int, int, bool, bool]] = []
    at = 0
    for block in [*past_blocks, None]:
        stop = block[0] if block else len(text)
        if stop >= at:
            clauses.extend(_prose_clauses(text, at, stop))
        if block and block[0] >= at:
            clauses.append((block[0], block[1], True, False))
            at = block[1]
    behind = [m.start() for m in _BEHIND_RE.finditer(text)] if _holds(text, _BEHIND_WORDS) else []
    if behind:
        clauses = [
            (a, b, past or (b <= behind[-1] and not asks), asks) for a, b, past, asks in clauses
        ]
    return tuple(clauses)


def _prose_clauses(text: str, start: int, stop: int) -> list[tuple[int, int, bool, bool]]:
    """Clauses of unquoted text; each comment line of a script is one on its own."""
    clauses: list[tuple[int, int, bool, bool]] = []
    for comment in [*_COMMENT_LINE_RE.finditer(text, start, stop), None]:
        end = comment.start() if comment else stop
        clauses.extend(_sentences(text, start, end))
        if comment:
            clauses.extend(_sentences(text, comment.start(), comment.end()))
            start = comment.end()
    return clauses


def _sentences(text: str, start: int, stop: int) -> list[tuple[int, int, bool, bool]]:
    """Clauses of ``text[start:stop]``.

    A clause starts after a character that is no word character and ends before one, and the
    ask and past markers look no further around them than one such character, so a marker
    found in a clause is also found in the whole text: a marker pattern that finds nothing in
    the whole text is not run on each clause (:func:`_markers_in`)."""
    clauses: list[tuple[int, int, bool, bool]] = []
    ask_re, past_re = _markers_in(text)
    may_replace = _holds(text, _INSTEAD_WORDS)  # no piece holds "instead" if the text does not
    for m in [*_SENTENCE_END_RE.finditer(text, start, stop), None]:
        end = m.start() if m else stop
        if end > start:
            piece = text[start:end]
            asks = bool(ask_re and ask_re.search(piece))
            past = bool(past_re and past_re.search(piece)) and not asks
            instead = may_replace and _INSTEAD_RE.search(piece)
            if instead and not piece[: instead.start()].strip(" ,") and clauses:
                first, last, was_past, _ = clauses[-1]  # "on 6 nodes | instead please"
                clauses[-1] = (first, last, was_past, True)
            if past and clauses and _THAT_WAS_RE.match(piece) and not clauses[-1][3]:
                first, last, _, _ = clauses[-1]  # "Eight V100s | but that was last spring"
                clauses[-1] = (first, last, True, False)
            clauses.append((start, end, past, asks or bool(instead)))
        start = m.end() if m else stop
    return clauses


@functools.lru_cache(maxsize=8)
def _markers_in(text: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """:data:`_ASK_RE` and :data:`_PAST_RE`, each None when it finds nothing anywhere in
    ``text``: then no clause of it holds that marker either (see :func:`_sentences`). Kept for
    the few texts last asked about, as :func:`_pasted_output`."""
    return (
        _ASK_RE if _ASK_RE.search(text) else None,
        _PAST_RE if _may_be_past(text) and _PAST_RE.search(text) else None,
    )


def _where(text: str, said: str) -> list[int]:
    """Where the words ``said`` (blanked spans match anything) occur in ``text``."""
    pattern = _said_pattern(said)
    if pattern is None:
        return []
    if isinstance(pattern, str):  # no blanked span: a plain search, no pattern to compile
        spots: list[int] = []
        at = text.find(pattern)
        while at >= 0:
            spots.append(at)
            at = text.find(pattern, at + len(pattern))
        return spots
    return [m.start() for m in pattern.finditer(text)]


@functools.lru_cache(maxsize=1024)
def _said_pattern(said: str) -> str | re.Pattern[str] | None:
    """``said`` itself when it has no blanked span, else a pattern in which each blanked
    character matches anything; None when nothing but dots and blanks is left to look for."""
    pattern = "".join("." if ch == "\x00" else re.escape(ch) for ch in said)
    if not pattern.strip(". "):
        return None
    return said if "\x00" not in said else re.compile(pattern, re.S)


def demote_history(text: str, draft: Draft) -> None:
    """Drop amounts said of the past when the same quantity is also asked for (module doc)."""
    c = draft.compute
    memory = [c.memory_per_node, c.memory_total, c.memory_per_core]
    groups = ([c.nodes], [c.cores], [c.gpus], [c.gpu_models], memory, [c.walltime])
    if all(sum(map(len, group)) < 2 for group in groups):
        return  # a mention is dropped only for another of its quantity: the cheapest test first
    if (
        not _maybe_history(text)
        and not _markers_in(text)[0]
        and not (_holds(text, _INSTEAD_WORDS) and _INSTEAD_RE.search(text))
    ):
        return
    clauses = _clauses(text)
    if not any(past or asks for _, _, past, asks in clauses):
        return  # every mention would be marked neither past nor asked: nothing to drop

    seen: dict[str, tuple[bool, bool]] = {}
    said = {
        m.text for group in ([c.nodes], [c.cores], [c.gpus], memory) for ms in group for m in ms
    }

    def marks(mention: Mention[Any] | Count) -> tuple[bool, bool]:
        """(past, asks) for a mention: past only when every place it was said is past."""
        known = seen.get(mention.text)
        if known is None:
            longer = [t for t in said if mention.text in t and t != mention.text]
            known = seen[mention.text] = _marks(text, clauses, mention.text, longer)
        return known

    for group in groups:
        _drop_past(draft, group, marks)
    for scoped in _scopes(c):
        _keep_asked(draft, scoped, marks)


def _marks(
    text: str,
    clauses: Sequence[tuple[int, int, bool, bool]],
    said: str,
    longer: Sequence[str] = (),
) -> tuple[bool, bool]:
    """(past, asks) of the places ``said`` is written; a place inside a longer mention
    ("64 cores" inside "8 nodes of 64 cores each") is that mention's, not this one's, unless
    no other place is left."""
    spots = _where(text, said)
    inside = [(at, at + len(t)) for t in longer for at in _where(text, t)]
    own = [at for at in spots if not any(a <= at < b for a, b in inside)]
    spots = own or spots
    found = [c for at in spots for c in clauses if c[0] <= at < c[1]]
    if not found:
        return False, False
    adjective = any(
        _ADJECTIVE_RE.match(text, at) or _DATA_LENGTH_BEFORE_RE.search(text, max(0, at - 40), at)
        for at in spots
    )
    return all(c[2] for c in found), any(c[3] for c in found) and not adjective


def _drop_past(
    draft: Draft,
    group: Sequence[list[Any]],
    marks: Callable[[Any], tuple[bool, bool]],
) -> None:
    everything = [m for mentions in group for m in mentions]
    past = [m for m in everything if marks(m)[0]]
    if not past or len(past) == len(everything):
        return
    for mentions in group:
        for m in [m for m in mentions if any(m is p for p in past)]:
            _remove(mentions, m)
            draft.notes.append(f"{_clean(m.text)} (said of an earlier job; not used)")


def _scopes(c: Any) -> list[tuple[list[Any], Callable[[Any], bool]]]:
    """Each quantity split by scope: only values of one scope can contradict each other."""

    def counts(kind: list[Count]) -> list[tuple[list[Any], Callable[[Any], bool]]]:
        return [
            (kind, lambda x: x.per_node and not x.total),
            (kind, lambda x: x.total),
            (kind, lambda x: not x.per_node and not x.total),
        ]

    every: Callable[[Any], bool] = lambda x: True  # noqa: E731
    return [
        (c.nodes, every),
        *counts(c.cores),
        *counts(c.gpus),
        (c.memory_per_node, every),
        (c.memory_total, every),
        (c.walltime, every),
    ]


def _keep_asked(
    draft: Draft,
    scoped: tuple[list[Any], Callable[[Any], bool]],
    marks: Callable[[Any], tuple[bool, bool]],
) -> None:
    mentions, in_scope = scoped
    chosen = [m for m in mentions if in_scope(m)]
    if len({m.value for m in chosen}) < 2:
        return
    asked = [m for m in chosen if marks(m)[1]]
    if not asked or len(asked) == len(chosen):
        return
    for m in chosen:
        if not any(m is a for a in asked) and m.value not in {a.value for a in asked}:
            _remove(mentions, m)
            draft.notes.append(f"{_clean(m.text)} (not what the request asks for; not used)")


def _remove(mentions: list[Any], gone: Any) -> None:
    mentions[:] = [m for m in mentions if m is not gone]


def _clean(text: str) -> str:
    return " ".join(text.replace("\x00", " ").split())[:80]


def drop_past_versions(text: str, draft: Draft) -> None:
    """A version said only of the past is dropped when the same package also has one asked for.

    "Our earlier work used MuJoCo 2.1 ...; now we need MuJoCo 3.1", or a reply quoting "We ran
    RELION 4.0 last year" above "we'll use RELION 5.0": the old version is history, and keeping
    both would ask for a package that is 2.1 and 3.1 at once. A version is past when every
    place its number is written sits in a past clause; one said only in the past is kept.
    """
    chosen = {n for n, _ in draft.version_choices}
    several = [
        (name, constraints)
        for name, constraints in draft.software.items()
        if len(constraints) > 1 and name not in chosen
    ]
    tools = [
        attr
        for attr in ("mpi", "container")
        if (current := getattr(draft, attr)) is not None and len(current.constraints) > 1
    ]
    if not (several or tools) or not _maybe_history(text):
        return  # the cheap test first: most requests name no package with two versions
    clauses = _clauses(text)
    for name, constraints in several:
        kept = _asked_versions(text, clauses, constraints)
        if kept is not None:
            draft.notes.extend(_dropped(name, constraints, kept))
            constraints[:] = kept
    for attr in tools:
        current = getattr(draft, attr)
        kept = _asked_versions(text, clauses, list(current.constraints))
        if kept is not None:
            setattr(draft, attr, current.model_copy(update={"constraints": tuple(kept)}))


def _asked_versions(
    text: str, clauses: Sequence[tuple[int, int, bool, bool]], constraints: list[Any]
) -> list[Any] | None:
    """The constraints not said only in the past, or None when nothing is to be dropped."""
    past = [c for c in constraints if _version_past(text, clauses, c.version)]
    if not past or len(past) == len(constraints):
        return None
    return [c for c in constraints if c not in past]


def _version_past(text: str, clauses: Sequence[tuple[int, int, bool, bool]], version: str) -> bool:
    spots = [
        m.start()
        for m in re.finditer(rf"(?<![\w.]){re.escape(version)}(?!\w|\.\d)", text, re.IGNORECASE)
    ]
    found = [c for at in spots for c in clauses if c[0] <= at < c[1]]
    return bool(found) and all(c[2] for c in found)


def _dropped(name: str, constraints: list[Any], kept: list[Any]) -> list[str]:
    return [
        f"{name} {c.op.value}{c.version} (said of an earlier job; not used)"
        for c in constraints
        if c not in kept
    ]


_MOVED_ON_RE = re.compile(
    r"(?<!\w)(?:switch(?:ing|ed)?\s+(?:over\s+)?to|mov(?:e|es|ed|ing)\s+(?:over\s+)?to"
    r"|chang(?:e|es|ed|ing)\s+to|migrat(?:e|es|ed|ing)|replac(?:e|es|ed|ing)|instead"
    r"|retired|(?:is|are)\s+gone|no\s+longer|any\s?more|upgrade[ds]?|rebuilt|deprecated"
    r"|this\s+(?:time|round)|licen[cs]e\s+(?:has\s+)?expired)(?!\w)",
    FLAGS,
)
"""Words by which a writer says the old tools are left behind ("we change to Quantum
Espresso", "that pipeline is retired", "switching to IQ-TREE", "but this time we run
FreeSurfer directly", "our licence expired, so for this round ...")."""
_STILL_RE = re.compile(r"(?<!\w)(?:again|still|same|keep|continue|as\s+before)(?!\w)", FLAGS)
"""Words by which a past clause says the old tool is used again."""


def past_only_packages(text: str, spans: Sequence[tuple[int, int, str]]) -> set[str]:
    """Packages named only in the history of a request, while it asks for others outside it.

    "Before, I have used VASP 5.4.4 on 16 nodes, but now we change to Quantum Espresso", "Last
    spring's pilot ran CESM 2.1.3 ... this time we're moving to E3SM", or a log excerpt that
    prints "/tmp/relion-4.0.1/src/acc/cuda/...": the old tools are what was run, not what is
    asked for. A package counts only when every mention sits in pasted output, or in a past
    clause of a text that says the old tools are left behind (_MOVED_ON_RE, or a story closed
    by "that's history") and that clause
    does not say they are used again ("we used GROMACS before and keep it"). With no package
    named outside the history, nothing is dropped: the request would lose every package.
    """
    if not spans or not _maybe_history(text):
        return set()
    pasted = _pasted_output(text)
    moved_on = bool(
        _MOVED_ON_RE.search(text) or (_holds(text, _BEHIND_WORDS) and _BEHIND_RE.search(text))
    )
    clauses = _clauses(text)

    def history(at: int) -> bool:
        if any(a <= at < b for a, b in pasted):
            return True
        clause = next((c for c in clauses if c[0] <= at < c[1]), None)
        return (
            moved_on
            and clause is not None
            and clause[2]
            and not _STILL_RE.search(text, clause[0], clause[1])
        )

    inside = {n for s, _, n in spans if history(s)}
    outside = {n for s, _, n in spans if not history(s)}
    return inside - outside if outside else set()


def said_now_first(text: str, spots: Sequence[int]) -> list[int]:
    """The indexes of ``spots`` (where an MPI library or a container runtime was named), the
    ones said now before the ones said only of the past.

    The field holds one implementation and the first named wins, but a long ticket names the
    one that failed before the one it asks for: "the module was built against MPICH ... could
    you provide Open MPI 4.1", a reply quoting "> We upgraded Singularity 3.8" above "I need
    rootless Podman", an error line that prints the old library. A mention in quoted lines,
    pasted output or a past clause comes after every other; among the rest, one in a clause
    that asks comes first. The order is otherwise kept, and the mentions not used are still
    reported as conflicts, so nothing is lost.
    """
    if len(spots) < 2:
        return list(range(len(spots)))
    clauses = _clauses(text)
    pasted = _pasted_output(text)

    def rank(at: int) -> int:
        if any(a <= at < b for a, b in pasted):
            return 0
        clause = next((c for c in clauses if c[0] <= at < c[1]), None)
        if clause is None:
            return 1
        return 0 if clause[2] else 2 if clause[3] else 1

    ranks = [rank(at) for at in spots]
    return sorted(range(len(spots)), key=lambda i: -ranks[i])


def pasted_only(text: str, spans: Sequence[tuple[int, int, str]], said: Sequence[int]) -> bool:
    """Whether an MPI library or container runtime, named at ``said``, is only in pasted output.

    A pasted ``module list`` of a stack that is gone ("2) openmpi/3.1.6") or an error log names
    what ran before, as for packages (see :func:`past_only_packages`). It counts only when every
    mention sits in such a block and the request names some package outside them, so a text
    that asks for nothing else keeps it. A past clause in prose is not enough here ("we used
    Open MPI before, now we're moving to your site" may still need it).
    """
    if not said or not _maybe_history(text):
        return False
    pasted = _pasted_output(text)

    def inside(at: int) -> bool:
        return any(a <= at < b for a, b in pasted)

    return all(inside(at) for at in said) and any(not inside(s) for s, _, _ in spans)
