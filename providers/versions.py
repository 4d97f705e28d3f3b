"""Version ordering that works for the versions HPC sites really have.

PEP 440 versions (``3.11.7``, ``2.14``) are ordered by :mod:`packaging`. Everything else falls
back to a natural ordering of numeric and text runs, with dates such as ``2Aug2023`` (LAMMPS)
or ``29Sep2021`` turned into ``2023.08.02`` first, and Spack's ``@`` prefixes and ``develop``
handled. "2.14" sorts above "2.7", which float comparison got wrong.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import total_ordering
from typing import Any

from packaging.version import InvalidVersion, Version

from providers.wire.requirements import Comparator, VersionConstraint

_DATE_RE = re.compile(r"^(\d{1,2})([A-Za-z]{3})[a-z]*(\d{4})$")
_ISO_DATE_RE = re.compile(r"^(\d{4})[-.](\d{1,2})[-.](\d{1,2})$")
_TOKEN_RE = re.compile(r"\d+|[A-Za-z]+")
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_TEXT_RANK = {"develop": 10**9, "main": 10**9, "master": 10**9, "latest": 10**9}


def _date_form(text: str) -> str | None:
    m = _DATE_RE.match(text)
    if m and m.group(2).lower() in _MONTHS:
        day, month, year = int(m.group(1)), _MONTHS[m.group(2).lower()], int(m.group(3))
        try:
            datetime(year, month, day)
        except ValueError:
            return None
        return f"{year}.{month:02d}.{day:02d}"
    m = _ISO_DATE_RE.match(text)
    if m:
        return f"{int(m.group(1))}.{int(m.group(2)):02d}.{int(m.group(3)):02d}"
    return None


def _natural_key(text: str) -> tuple[tuple[int, Any], ...]:
    key: list[tuple[int, Any]] = []
    for tok in _TOKEN_RE.findall(text.lower()):
        if tok.isdigit():
            key.append((1, int(tok)))
        elif tok in _TEXT_RANK:
            key.append((2, _TEXT_RANK[tok]))
        else:
            # pre-release words sort below numbers at the same position
            key.append((0, tok))
    return tuple(key)


@total_ordering
class SiteVersion:
    """A version as a site reports it, comparable with any other ``SiteVersion``.

    ``normalised`` is the text actually compared: dates are rewritten as ``YYYY.MM.DD`` so that
    ``2Aug2023 > 29Sep2021`` and a year constraint such as ``>= 2023`` works against them.
    """

    __slots__ = ("normalised", "pep440", "raw")

    def __init__(self, raw: str) -> None:
        self.raw = raw
        text = raw.strip().lstrip("@=vV") if raw.strip()[:1] in "@=vV" else raw.strip()
        self.normalised = _date_form(text) or text
        try:
            self.pep440: Version | None = Version(self.normalised)
        except InvalidVersion:
            self.pep440 = None

    def _key(self, other: SiteVersion) -> tuple[Any, Any]:
        if self.pep440 is not None and other.pep440 is not None:
            return self.pep440, other.pep440
        return _natural_key(self.normalised), _natural_key(other.normalised)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SiteVersion):
            return NotImplemented
        a, b = self._key(other)
        return bool(a == b)

    def __lt__(self, other: SiteVersion) -> bool:
        a, b = self._key(other)
        return bool(a < b)

    def __hash__(self) -> int:
        return hash(self.normalised)

    def __repr__(self) -> str:
        return f"SiteVersion({self.raw!r})"


def _prefix_equal(have: SiteVersion, want: SiteVersion) -> bool:
    """``== 3.11`` accepts 3.11.7: equality on the components the user wrote."""
    want_key = _natural_key(want.normalised)
    have_key = _natural_key(have.normalised)
    return have_key[: len(want_key)] == want_key


def satisfies(version: str, constraint: VersionConstraint) -> bool:
    """True when ``version`` meets ``constraint``.

    ``==`` compares only the components the constraint names (``== 3.11`` matches ``3.11.7``);
    ``>=``/``<=`` treat a version that equals the named prefix as equal, so ``<= 3.11`` accepts
    ``3.11.7`` as people mean it. ``>`` and ``<`` use the strict ordering (``4.1.4 > 4.1``).
    """
    have, want = SiteVersion(version), SiteVersion(constraint.version)
    equal = have == want or _prefix_equal(have, want)
    op = constraint.op
    if op is Comparator.EQ:
        return equal
    if op is Comparator.NE:
        return not equal
    if op is Comparator.GE:
        return equal or have > want
    if op is Comparator.LE:
        return equal or have < want
    if op is Comparator.GT:
        return have > want
    return have < want  # Comparator.LT


def satisfies_all(
    version: str, constraints: tuple[VersionConstraint, ...] | list[VersionConstraint]
) -> bool:
    """True when ``version`` meets every constraint (an empty list accepts any version)."""
    return all(satisfies(version, c) for c in constraints)
