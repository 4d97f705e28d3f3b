"""The text under parse, and the pattern pieces every extractor shares.

Extractors run one after another over the same :class:`Scanner`. Each one blanks out the spans it
understood, so a later extractor can neither read them again ("4 nodes" is never also "version
4") nor join words across them. Whatever is left at the end is, by construction, exactly what no
extractor understood, and becomes ``Requirements.unparsed``.

Every numeric pattern here is bounded in length, so no input can produce a number too large for
``int``/``float`` conversion or a catastrophic regex backtrack.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.triggers import IGNORECASE_TO_ASCII, fold, trigger_clauses

BARRIER = "\x00"
"""Replaces understood text. Neither a word character nor whitespace, so no pattern spans it."""

FLAGS = re.IGNORECASE
_SEPARATOR_RE = re.compile(r"[\s_-]+")


class Scanner:
    """Request text with the understood spans blanked out."""

    def __init__(self, text: str) -> None:
        self._chars = list(text)
        self.text = text
        self.original = text
        """The text before anything was blanked (same length, so spans line up)."""
        self._folded = fold(text)
        self._folded_from = text
        """:attr:`text` case-folded for the trigger test, and the string it was folded from."""
        self._clause_found: dict[Callable[[str], bool], bool] = {}
        """Whether each trigger clause occurs in :attr:`_folded`: many patterns share a clause
        (every size pattern needs a unit letter), so each is searched once per state of the
        text."""
        self._absent: set[Callable[[str], bool]] = set()
        """The clauses found in no state of the text so far. Blanking only removes text, so such
        a clause stays absent until :meth:`restore` puts text back; it is not searched again
        each time the text changes (about half of all clause tests fail)."""

    @property
    def folded(self) -> str:
        """:attr:`text` case-folded (see :func:`~endpoint_plugins.parsing.triggers.fold`), made
        once per state of the text and shared with the trigger test, for stages that test
        words themselves."""
        text = self.text
        if self._folded_from is not text:
            self._folded, self._folded_from = fold(text), text
            self._clause_found.clear()
        return self._folded

    def take(self, pattern: re.Pattern[str], handle: Callable[[re.Match[str]], bool]) -> int:
        """Offer every match of ``pattern`` to ``handle``; blank out those it accepts.

        Matches are found on one snapshot of the text and blanked together afterwards, so a
        handler never sees text another match of the same pattern already claimed.

        Returns:
            How many matches were accepted.
        """
        known = _TRIGGERS.get(id(pattern))
        if known is None or known[0] is not pattern:
            known = _entry(pattern)
        if known[2] and not self._holds_all(known[2]):
            return 0  # provably no match (see :mod:`triggers`): skip the scan
        accepted = 0
        for match in pattern.finditer(self.text):  # blanking edits _chars, not this string
            if handle(match):
                self._blank(*match.span())
                accepted += 1
        if accepted:
            self.text = "".join(self._chars)
        return accepted

    def blank(self, start: int, end: int) -> None:
        """Blank one span now (for stages that walk the text themselves)."""
        self._blank(start, end)
        self.text = "".join(self._chars)

    def restore(self, start: int, end: int) -> None:
        """Put back the original text of a span an earlier stage blanked (it misread it)."""
        self._chars[start:end] = self.original[start:end]
        self.text = "".join(self._chars)
        self._absent.clear()

    def _blank(self, start: int, end: int) -> None:
        self._chars[start:end] = BARRIER * (end - start)

    def _holds_all(self, clauses: tuple[Callable[[str], bool], ...]) -> bool:
        """Whether the case-folded current text contains a trigger of every clause.

        Runs on the current text, so words an earlier extractor already claimed no longer wake
        the patterns that would read them. The folded copy is refreshed only when the text has
        changed since it was made (most takes accept nothing), and a clause once absent is not
        searched again (see :attr:`_absent`).
        """
        folded = self.folded
        found = self._clause_found
        for clause in clauses:
            known = found.get(clause)
            if known is None:
                if clause in self._absent:
                    return False
                known = found[clause] = clause(folded)
                if not known:
                    self._absent.add(clause)
            if not known:
                return False
        return True


_Entry = tuple[re.Pattern[str], tuple[tuple[str, ...], ...], tuple[Callable[[str], bool], ...]]
_TRIGGERS: dict[int, _Entry] = {}
"""Each pattern's trigger clauses, derived on first use and keyed by identity: hashing a
compiled pattern hashes its whole compiled program, which for the catalogue patterns cost more
than the trigger test itself. The pattern is kept in the entry, so its id cannot be reused."""

_FEW_STRINGS = 10
"""Up to this many strings, a clause is tested string by string; above it, as one pattern."""


def _entry(pattern: re.Pattern[str]) -> _Entry:
    """The pattern's trigger entry, derived on first use."""
    known = _TRIGGERS.get(id(pattern))
    if known is None or known[0] is not pattern:
        known = _TRIGGERS[id(pattern)] = _trigger_entry(pattern)
    return known


def may_match(pattern: re.Pattern[str], folded: str) -> bool:
    """Whether ``folded`` (a text after :func:`fold`) holds a string of each of the pattern's
    trigger clauses; False proves that the pattern cannot match the text. For a stage that
    scans the text itself rather than through :meth:`Scanner.take`."""
    return all(test(folded) for test in _entry(pattern)[2])


def _trigger_entry(pattern: re.Pattern[str]) -> _Entry:
    """(pattern, its trigger clauses, one test per clause: whether folded text holds any of
    its strings).

    A clause of a few strings is tested with ``in``, which scans for one string faster than
    any pattern; a longer one as one alternation of literals, so the engine jumps from one
    possible first character to the next and twenty strings cost about what a few do.
    Measured on the dev corpus, the break-even is about ten strings.
    """
    clauses = trigger_clauses(pattern)
    return pattern, clauses, tuple(_clause_test(c) for c in clauses)


@functools.cache
def _clause_test(strings: tuple[str, ...]) -> Callable[[str], bool]:
    """The test for one clause; one object per distinct clause, so that patterns sharing a
    clause share its remembered answer (:meth:`Scanner._holds_all`)."""
    if len(strings) <= _FEW_STRINGS:
        return lambda text: any(map(text.__contains__, strings))
    finder = re.compile("|".join(map(re.escape, strings)))
    return lambda text: finder.search(text) is not None


# -- building patterns from the lexicon ------------------------------------------------------


def spelling_pattern(spelling: str) -> str:
    """A regex for one spelling in which any run of spaces, hyphens or underscores is optional.

    People write ``open mpi``, ``open-mpi``, ``openmpi`` and ``Open_MPI`` for the same thing;
    listing one spelling in the lexicon should cover them all.
    """
    parts = [re.escape(p) for p in _SEPARATOR_RE.split(spelling.strip()) if p]
    return r"[\s_-]*".join(parts)


_SEP = ""
"""The trie token for "any run of separators" (no character spells it)."""
_END = "\x00end"


def alternation(spellings: Iterable[str]) -> str:
    """A non-capturing alternation of spellings in which the longest spelling wins.

    The spellings are merged into a trie ("cuda", "cuda toolkit", "cudnn" share ``cud``), so
    the regex engine tests each character once instead of once per spelling: the catalogue
    holds hundreds of names and the parser runs these patterns over every request.

    Letters are written as explicit classes (``[hH]``) inside a case-sensitive group, which
    matches exactly what ``re.IGNORECASE`` would: the engine skips a trie branch whose first
    class rejects the character in one step, a shortcut it never takes for case-folded
    literals. The alternation is therefore case-insensitive wherever it is used.
    """
    return "(?-i:" + _emit(_trie(spellings)) + ")"


def letter_led(spellings: Iterable[str]) -> tuple[str, str]:
    """:func:`alternation` split after its first character: the characters that can start a
    spelling (every case, written for a class in a case-sensitive group), and the rest, each
    branch behind a one-character look-behind that names its first letter.

    A pattern whose first item is a consumed character class lets the regex engine jump from
    one candidate character to the next; one that starts with a look-around is tried at every
    position of the text, which costs several times more when few characters can start a
    match (measured on the dev corpus). Whatever the pattern checked before the word must then
    be checked one character later, after the class (``(?<!\\w.)`` for ``(?<!\\w)``).
    """
    trie = _trie(spellings)
    firsts = sorted(trie, key=str.lower)
    if not firsts or _SEP in firsts or _END in trie:
        raise ValueError("every spelling needs a first character")
    branches = [f"(?<={_any_case(first)}){_emit(trie[first])}" for first in firsts]
    return "".join(_any_case(first).strip("[]") for first in firsts), "(?-i:" + "|".join(
        branches
    ) + ")"


def _trie(spellings: Iterable[str]) -> dict[str, dict]:
    """The spellings as a trie of tokens (characters, and :data:`_SEP` for any separators)."""
    trie: dict[str, dict] = {}
    for spelling in set(spellings):
        node = trie
        for token in _tokens(spelling):
            node = node.setdefault(token, {})
        node[_END] = {}
    return trie


def _depth(node: dict[str, dict]) -> int:
    """Tokens in the longest spelling below ``node``."""
    return max((1 + _depth(c) for t, c in node.items() if t != _END), default=0)


def _tokens(spelling: str) -> list[str]:
    parts = [p for p in _SEPARATOR_RE.split(spelling.strip()) if p]
    tokens: list[str] = []
    for i, part in enumerate(parts):
        if i:
            tokens.append(_SEP)
        tokens.extend(part)
    return tokens


def _emit(node: dict[str, dict]) -> str:
    """The regex for a trie node; a greedy ``?`` after a word's end tries longer words first.

    Branches are ordered by the longest spelling below them, because a separator branch can
    match nothing: "py-torch" must not win over "pytorch lightning" at ``py``.
    """
    children = sorted(
        ((t, c) for t, c in node.items() if t != _END), key=lambda tc: (-_depth(tc[1]), tc[0])
    )
    parts = [
        (r"[\s_-]*" if token == _SEP else _any_case(token)) + _emit(child)
        for token, child in children
    ]
    if not parts:
        return ""
    body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    return f"(?:{body})?" if _END in node else body


_CASE_PARTNERS = "".join(map(chr, IGNORECASE_TO_ASCII))
"""The non-ASCII characters an ASCII letter matches under ``re.IGNORECASE`` ("\u212a" is the
Kelvin sign, which matches "k")."""


@functools.cache
def _any_case(char: str) -> str:
    """A regex for one character that matches what ``re.IGNORECASE`` would match, written
    without the flag: ``k`` becomes ``[Kk\u212a]``, ``7`` stays ``7``."""
    if not char.isascii():
        return f"(?i:{re.escape(char)})"
    candidates = {char, char.lower(), char.upper(), *_CASE_PARTNERS}
    matches = sorted(c for c in candidates if re.fullmatch(re.escape(char), c, re.IGNORECASE))
    if len(matches) == 1:
        return re.escape(char)
    return "[" + "".join(re.escape(c) for c in matches) + "]"


def starts_with(spellings: Iterable[str], digits: bool = False) -> str:
    """A look-ahead for the first letters of ``spellings`` (and any digit, if ``digits``).

    Put before an alternation that tries many words at every position of the text, it lets the
    regex engine reject a position with one character test instead of one per word. It must
    list the first character of every alternative, or the pattern loses matches: callers pass
    every word their pattern can start with. Used with ``re.IGNORECASE``, as the patterns are,
    each letter matches all its cases.
    """
    firsts = sorted({_tokens(spelling)[0].lower() for spelling in spellings})  # as alternation
    return "(?=[" + (r"\d" if digits else "") + "".join(map(re.escape, firsts)) + "])"


def lookup(table: dict[str, tuple[str, ...]], found: str) -> str | None:
    """The canonical key whose spelling matches ``found`` (separators and case ignored)."""
    return _index(id(table), table).get(squash(found))


_INDEXES: dict[int, dict[str, str]] = {}


def _index(key: int, table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """Squashed spelling -> canonical key, built once per table (tables are module data)."""
    index = _INDEXES.get(key)
    if index is None:
        index = {}
        for canonical, spellings in table.items():
            for spelling in (canonical, *spellings):
                index.setdefault(squash(spelling), canonical)
        _INDEXES[key] = index
    return index


def squash(text: str) -> str:
    """Lower case with every space, hyphen and underscore removed: the form spellings share."""
    if text.isalnum():
        return text.lower()  # nothing to remove (no alphanumeric character is a separator)
    return _SEPARATOR_RE.sub("", text).lower()


# -- shared pattern fragments ----------------------------------------------------------------

WORD_START = r"(?<![\w.+-])"
WORD_END = r"(?![\w+]|[-.][^\W\d_])"
"""After a name: no more name ("nccl-tests" is not "nccl", "llama.cpp" not "llama")."""

NUMBER_WORD = alternation(lexicon.NUMBER_WORDS) + r"(?!\w)"
NOT_NEGATIVE = r"(?<![\s(=:,~\[]-)(?<!^-)"
"""Before a number: not a minus sign. "-1 nodes", "for -3 hours" are never read as amounts;
they stay in the text, where the open vocabulary quotes them as unresolved."""
_GROUPED = r"\d{1,3}(?:,\d{3}){1,2}"
"""Digits in groups of three: "1,152 MPI tasks", "20,000 cores". Counts match any digits with
such groups after them (cheaper to scan); :func:`to_count` accepts only true groupings."""
_NOT_NEGATIVE_BEFORE_DIGIT = r"(?<![\s(=:,~\[]-\d)(?<!^-\d)"
""":data:`NOT_NEGATIVE` checked one digit later: after the first digit has been read."""
_NUMBER_FIRST, _NUMBER_REST = letter_led(lexicon.NUMBER_WORDS)
_DIGITS_AFTER_FIRST = (
    rf"(?<=\d){_NOT_NEGATIVE_BEFORE_DIGIT}(?<![\w.,$]\d)\d{{0,6}}(?:,\d{{3}}){{0,2}}(?![\d.,]\d)"
)
"""The digits of a count after its first digit, with the checks on what stood before it
moved one character later (see :data:`_NOT_NEGATIVE_BEFORE_DIGIT`)."""
COUNT = (
    rf"(?-i:[\d{_NUMBER_FIRST}])"
    rf"(?:{_DIGITS_AFTER_FIRST}|(?<!\w.){_NUMBER_REST}(?!\w))"
)
"""A whole count: digits, or a number word ("two", "a", "a couple of"). Its first character
is consumed first (see :func:`letter_led`): counts are looked for in every request."""

COUNT_NO_ARTICLE = (
    rf"(?-i:[\d{_NUMBER_FIRST}])"
    rf"(?:{_DIGITS_AFTER_FIRST}|(?<!\w.)(?!(?<=[Aa])n?\s){_NUMBER_REST}(?!\w))"
)
"""A count that is not just the article: "a CPU or GPU build" counts no cores."""

DECIMAL = rf"(?=\d){NOT_NEGATIVE}(?<![\w.,$])\d{{1,7}}(?:\.\d{{1,4}})?(?![\d.]\d)"

_LONG_SIZE_UNITS = [u for u in lexicon.SIZE_UNITS_GB if len(u) > 1]
_SHORT_SIZE_UNITS = [u for u in lexicon.SIZE_UNITS_GB if len(u) == 1]
_SIZE_NUMBER = (
    r"(?-i:[\dAaOoHhQq])"
    rf"(?:(?<=\d){_NOT_NEGATIVE_BEFORE_DIGIT}"
    r"(?:(?<![\w.,$]\d)\d{0,6}(?:\.\d{1,4})?(?![\d.]\d)"
    r"|(?<![\w.,$'\u2009\u202f\u00a0]\d)\d{0,2}(?:(?P<sep>[,'\u2009\u202f\u00a0])\d{3})"
    r"(?:(?P=sep)\d{3}){0,2}(?![\d.,]\d)"
    r"|(?<![\w.,$]\d)\d{0,3},\d{1,2}(?![\d.,]\d))"
    r"|(?<!\w.)"
    r"(?:(?:(?<=[Aa])n?|(?<=[Oo])ne)\s+(?=(?:giga|terr?a|peta)bytes?(?!\w))"
    r"|(?:(?<=[Hh])alf|(?<=[Aa])\s+quarter|(?<=[Qq])uarter)\s+(?:of\s+)?(?:an?|one)\s+"
    r"(?=(?:(?:giga|terr?a|peta)bytes?|[gtp]i?b)(?!\w))))"
)
"""The number of a size, as people write it: "1.5", thousands grouped with a comma, an
apostrophe or a thin space ("1,500", "1'000", "2\u202f000"), a decimal comma ("1,5 TB": one or
two digits after the comma, so never a thousands group), and "a"/"one" before a unit spelled
out ("a terabyte of disk"), and a fraction of one unit ("half a terabyte", "a quarter of a TB");
"terrabyte" is the common misspelling of the unit and reads as it.

Every form starts with a digit or one of eight letters, so the pattern starts by reading that
character and checks what stood before it afterwards (each look-behind one character wider):
the regex engine then jumps from one such character to the next instead of trying every
position of the text, which matters because sizes are looked for in every request."""

SIZE = (
    rf"(?P<num>{_SIZE_NUMBER})"
    rf"(?:\s*(?P<unit>{alternation(_LONG_SIZE_UNITS)})|(?P<short>[{''.join(_SHORT_SIZE_UNITS)}])"
    r"|\s?(?-i:(?P<octets>[GT])o)(?!\s*\d))"
    r"(?!\w)(?!/(?!\s*(?:node|host|machine|server|instance|vm|core|cpu|gpu|task|rank)s?(?!\w)))"
)
"""An amount of bytes: "64 GB", "512GB", "1.5 TiB", "64G" (one-letter units only attached), and
the French octets ("128 Go", "1,5 To"): written exactly so, capital then small "o", and never
before a number, so "2 to 4 nodes" and "from 1 To 3" stay words."""

PER_NODE = (
    r"(?:\s*(?:on|in|for)\s+each\s+of\s+(?:the\s+|those\s+|these\s+)?\x00+"
    r"|\s*(?:per|/|each|every|on\s+each|on\s+every|in\s+each|for\s+each|a)\s*-?\s*"
    r"(?:node|nod|host|machine|server|instance|vm|box)(?!\w)"
    r"|\s*(?:each|apiece|per[\s-]node)(?!\w)"
    r"|\s*(?:on|in)\s+each(?:\s+one)?(?![ \t]*\w))"
)
"""The scope of one node; "per nod" is the node word with its last letter lost in a hurry.
"128 cores on each, 512 GB apiece" after a node count: "on each" with the node word left out."""
TOTAL = (
    r"(?:\s*(?:in\s+total|total|totla|toal|totl|overall|altogether|combined|in\s+aggregate|"
    r"aggregate|summed|(?:across|accross|acros|for|over)\s+"  # "accross": the common typo
    r"(?:all\s+)?(?:the\s+)?(?:nodes|(?:whole|hole|entire|full)\s+(?:job|run|"
    r"allocation|cluster|workflow))|(?:for|across|over)\s+(?:all\s+)?(?:the\s+)?(?:job|run|allocation)"
    r"|(?:across|accross|over)\s+(?:all\s+)?(?:of\s+)?(?:them|those|these)))(?!\w)"
)
PER_CORE = (
    r"(?:\s*(?:per|/|each|a|by|for\s+every|for\s+each|for\s+each\s+of\s+the)\s*(?:cpu\s+)?"
    r"(?:core|cpu|rank|task|process(?:or)?)s?(?!\w))"
)

NOT_RATE = r"(?!\s*-?\s*(?:hours?|hrs?|h)(?!\w))"
"""Stops "100 core hours" or "node-hours" from being read as a count of cores or nodes."""

_DIGITS_RE = re.compile(r"\d+")


_GROUPED_RE = re.compile(_GROUPED)


def to_count(text: str) -> int | None:
    """A count from digits or a number word; None when it is neither."""
    text = " ".join(text.split()).lower()
    if _DIGITS_RE.fullmatch(text) or _GROUPED_RE.fullmatch(text):
        return int(text.replace(",", ""))
    for spelling, value in lexicon.NUMBER_WORDS.items():
        if squash(spelling) == squash(text):
            return value
    return None


def size_number(text: str) -> float:
    """The value of a :data:`SIZE` number: "1,5" is 1.5, "1,500" and "1'000" are thousands."""
    text = text.strip().lower()
    if not text[-1].isdigit():
        if text.startswith("half"):
            return 0.5  # "half a terabyte"
        if "quarter" in text:
            return 0.25  # "a quarter of a terabyte"
        return 1.0  # "a terabyte", "one gigabyte"
    if re.fullmatch(r"\d{1,4},\d{1,2}", text):
        return float(text.replace(",", "."))
    return float(re.sub(r"[,'\s\u2009\u202f\u00a0]", "", text))


def size_in_gb(match: re.Match[str]) -> float | None:
    """Decimal gigabytes from a match of :data:`SIZE`; None for zero or absurd sizes."""
    unit = (match.group("unit") or match.group("short") or match.group("octets") or "").lower()
    factor = lexicon.SIZE_UNITS_GB.get(unit)
    if factor is None:
        return None
    value = round(size_number(match.group("num")) * factor, 6)
    return value if 0 < value < 1e9 else None


def sentence_around(
    ends: re.Pattern[str], text: str, start: int, end: int
) -> tuple[list[int], int]:
    """The sentence holding ``text[start:end]``, cut where ``ends`` (a module's own idea of a
    sentence end) matches: the offsets where the sentences before it end (the last one is
    where this sentence starts), and where this sentence ends."""
    before = [m.end() for m in ends.finditer(text, 0, start)]
    after = ends.search(text, end)
    return before, after.start() if after else len(text)


def sentence_start(ends: re.Pattern[str], text: str, at: int) -> int:
    """Where the sentence holding ``text[at]`` starts (see :func:`sentence_around`)."""
    before, _ = sentence_around(ends, text, at, at)
    return before[-1] if before else 0


def in_range(value: float | None, low: float, high: float) -> bool:
    """True when a parsed value is plausible; implausible ones stay in ``unparsed``."""
    return value is not None and low <= value <= high
