"""Literal "triggers" of a regex: a cheap test that tells when a pattern cannot match at all.

The parser runs some ninety patterns over every request, and most of them find nothing: a
request that never says "budget" gives the budget pattern nothing to read. Python's regex
engine still tries such a pattern at every position of the text (a leading look-behind defeats
its own literal-prefix search), and those fruitless scans were over half of the parse time.

:func:`trigger_clauses` reads a compiled pattern's syntax tree once and derives a few sets
of lower-case ASCII strings such that **every** possible match contains at least one string of
**each** set. A pattern one of whose sets is absent from the (case-folded) text cannot match,
so :class:`Scanner.take <endpoint_plugins.parsing.scanner.Scanner.take>` skips it. The
derivation is conservative by construction: anything it cannot reason about (character
categories, back-references, optional parts, non-ASCII literals) contributes no requirement,
and a pattern with no provable requirement gets no set and is always run. Skipping only ever
replaces "scan and find nothing" with "find nothing", so the parse result cannot change.
"""

from __future__ import annotations

import re

try:  # Python 3.11+
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover - older layout
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_MAX_STRINGS = 64
"""Largest set of alternative strings tracked; beyond it a part counts as unconstrained."""
_MAX_RANGE = 8
"""Widest character range (``[a-f]``) expanded into single characters."""

IGNORECASE_TO_ASCII = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}
"""The only non-ASCII characters that an ASCII letter matches under ``re.IGNORECASE``.

Found by testing every code point against ``[a-z0-9]`` with ``re.IGNORECASE``; a unit test
repeats that search so a future Python cannot silently add one.
"""

_Strings = frozenset[str]
_Info = tuple[_Strings | None, tuple[_Strings, ...]]
"""(exact, needs): every string the part can match (None: unknown or too many), and sets of
strings each of which every match must meet (contain at least one string of the set); an
empty tuple when no requirement is known."""

_EMPTY: _Info = (frozenset({""}), ())
_UNKNOWN: _Info = (None, ())

_MAX_CLAUSES = 3
"""Most requirements tested per pattern: each costs one scan of the folded text."""


def fold(text: str) -> str:
    """Lower case, with the non-ASCII letters that ASCII letters match case-insensitively
    mapped to those letters, so a trigger found by :func:`triggers` is a plain substring test.
    """
    if not text.isascii():
        text = text.translate(IGNORECASE_TO_ASCII)
    return text.lower()


def triggers(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Strings of which every match of ``pattern`` contains one (lower case), or None.

    None means no such set could be proven (or the pattern could not be analysed) and the
    pattern must always be run. This is the most selective of :func:`trigger_clauses`.
    """
    clauses = trigger_clauses(pattern)
    return clauses[0] if clauses else None


def trigger_clauses(pattern: re.Pattern[str]) -> tuple[tuple[str, ...], ...]:
    """Up to :data:`_MAX_CLAUSES` sets of strings, most selective first, such that every match
    of ``pattern`` contains a string of **each** set; empty when none could be proven.

    One set alone is often weak: a duration pattern needs one of its unit words, which reduce
    to single letters, but it also needs "within" or "next"; requiring every set skips the
    pattern whenever any one of them is missing.
    """
    try:
        exact, needs = _sequence(_p.parse(pattern.pattern, pattern.flags))
    except (re.error, RecursionError, LookupError, TypeError, ValueError, AttributeError):
        # an unexpected syntax tree (a future Python): play safe, never skip the pattern
        return ()
    chosen: list[_Strings] = []
    for clause in _ranked([*needs, *([exact] if exact is not None else [])]):
        if not any(all(any(o in s for o in clause) for s in c) for c in chosen):
            chosen.append(clause)  # not implied by a more selective one already chosen
    return tuple(tuple(sorted(c)) for c in chosen[:_MAX_CLAUSES])


def _ranked(candidates: list[_Strings]) -> list[_Strings]:
    """The usable requirements, each once, most selective first: longest shortest string,
    then fewest strings."""
    usable = {_minimal(c) for c in candidates if c and "" not in c and len(c) <= _MAX_STRINGS}
    return sorted(usable, key=lambda c: (-min(map(len, c)), len(c), sorted(c)))


def _best(candidates: list[_Strings]) -> _Strings | None:
    """The most selective usable requirement (see :func:`_ranked`), or None."""
    ranked = _ranked(candidates)
    return ranked[0] if ranked else None


def _minimal(strings: _Strings) -> _Strings:
    """Drop each string that contains another one: finding the shorter one already suffices."""
    return frozenset(s for s in strings if not any(o != s and o in s for o in strings))


def _product(left: _Strings, right: _Strings) -> _Strings | None:
    if len(left) * len(right) > _MAX_STRINGS:
        return None
    return frozenset(a + b for a in left for b in right)


def _sequence(items) -> _Info:
    """A concatenation: exact strings multiply; every item's requirements, and every run of
    exactly-known neighbours, are requirements of the whole."""
    candidates: list[_Strings] = []
    run: _Strings = frozenset({""})
    whole: _Strings | None = frozenset({""})
    for item in items:
        exact, needs = _item(item)
        candidates.extend(needs)
        if exact is None:
            candidates.append(run)
            run, whole = frozenset({""}), None
            continue
        joined = _product(run, exact)
        if joined is None:
            candidates.append(run)
            joined = exact
        run = joined
        whole = _product(whole, exact) if whole is not None else None
    candidates.append(run)
    return whole, tuple(_ranked(candidates))


def _item(item) -> _Info:
    op, av = item
    if op is _c.LITERAL:
        return _char_set([av])
    if op is _c.IN:
        codes: list[int] = []
        for sub_op, sub_av in av:
            if sub_op is _c.LITERAL:
                codes.append(sub_av)
            elif sub_op is _c.RANGE and sub_av[1] - sub_av[0] < _MAX_RANGE:
                codes.extend(range(sub_av[0], sub_av[1] + 1))
            else:  # NEGATE, CATEGORY, wide ranges
                return _UNKNOWN
        return _char_set(codes)
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return _EMPTY  # consumes nothing
    if op is _c.SUBPATTERN:
        return _sequence(av[3])
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _sequence(av)
    if op is _c.BRANCH:
        return _branch(av[1])
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
        low, high, body = av
        exact, needs = _sequence(body)
        if low == 0:
            optional = exact | {""} if exact is not None and high == 1 else None
            return optional, ()
        own = needs or tuple(_ranked([exact] if exact is not None else []))
        if low == high == 1:
            return exact, own
        return None, own
    return _UNKNOWN  # ANY, NOT_LITERAL, CATEGORY, GROUPREF, GROUPREF_EXISTS, ...


def _char_set(codes: list[int]) -> _Info:
    """One character out of ``codes``; unknown if any is non-ASCII or the barrier."""
    chars = {chr(c) for c in codes}
    if not chars or any(not c.isascii() or c == "\x00" for c in chars):
        return _UNKNOWN
    folded = frozenset(c.lower() for c in chars)
    return (folded if len(folded) <= _MAX_STRINGS else None), ()


def _branch(alternatives) -> _Info:
    """An alternation: the union of what each alternative can match or must contain (its
    most selective requirement; a union of all of them would no longer be one set)."""
    exacts: set[str] | None = set()
    needs: set[str] | None = set()
    for alternative in alternatives:
        exact, own = _sequence(alternative)
        if exacts is not None:
            exacts = exacts | exact if exact is not None else None
            if exacts is not None and len(exacts) > _MAX_STRINGS:
                exacts = None
        best = own[0] if own else _best([exact] if exact is not None else [])
        if needs is not None:
            needs = needs | best if best is not None else None
            if needs is not None and len(needs) > _MAX_STRINGS:
                needs = None
    return (
        frozenset(exacts) if exacts is not None else None,
        (frozenset(needs),) if needs else (),
    )
