"""Version constraints as people write them: ">= 3.8", "3.8+", "at least 2023", "between 2 and 3".

Two steps, on purpose. :data:`SPEC` is a regex fragment that other patterns embed after a name
to find *where* a constraint list is; :func:`parse_constraints` then reads *what* it says. The
fragment has no named groups, so it can be embedded in many patterns without clashing.
"""

from __future__ import annotations

import re

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.scanner import FLAGS, alternation, starts_with
from providers.wire.requirements import Comparator, VersionConstraint

VERSION = (
    r"(?:(?:19|20)\d\d\s?(?-i:R)[1-4](?!\w)"
    r"|v?\d[0-9a-z._]{0,40}(?:(?<=\.)\*)?(?:[-+][a-z][0-9a-z._]{0,30}){0,3}"
    r"(?:-(?=[0-9a-f]{0,11}[a-f])[0-9a-f]{5,12}(?![\w.]))?"
    r"|(?-i:R)(?:19|20)\d\d[ab](?!\w)"
    r"|(?-i:[rR])\d{1,2}(?:\.\d{1,3}){0,3}(?![\w.]))"
)
"""A version: starts with a digit; ``-rc1`` and ``+cu118`` suffixes kept, a bare ``+`` not.
A release and a short commit hash ("15-6f452") is one version. Release tags are versions
too: MATLAB's "R2023b" (capital R, year, a or b), Ansys's "2024 R2"
(year, capital R, 1 to 4), and "R14" / "r24.03.1" (an R and a short release number)."""

_SYMBOL = alternation(lexicon.VERSION_SYMBOLS)
_BEFORE = alternation(lexicon.VERSION_WORDS_BEFORE)
_AFTER = alternation(lexicon.VERSION_WORDS_AFTER)
_PREFIX = alternation(lexicon.VERSION_PREFIXES)

OPERATOR_WORDS = _BEFORE
AFTER_WORDS = _AFTER
"""Operator words that may stand before a name too ("at least Python 3.10")."""
_PLACE_WORDS = ("under", "over")
NAME_OPERATOR_WORDS = alternation(w for w in lexicon.VERSION_WORDS_BEFORE if w not in _PLACE_WORDS)
"""Operator words read before a *name*. "under" and "over" are left out: before a name they say
where the job runs ("everything runs under Python 3.11", "over MPICH 4.1"), which asks for that
release, not for one below or above it; before a version they still compare ("Python under
3.12")."""

_OPERATOR = rf"(?:{_SYMBOL}\s*|{_BEFORE}\s+(?:the\s+)?(?:{_PREFIX}\s*)?)"
_RELEASES = r"(?:\s+(?:releases?|versions?|series|line)(?!\w))"
_ON = r"on(?=\s*\))"
"""A starting release closed by a bracket: "AMR-Wind (any release from 2.0 on)". Before a
bracket's end "on" can only mean onwards; elsewhere ("2.0 on 8 nodes") it says where."""
_SUFFIX = rf"(?:\+(?![\w+])|\s+(?:{_AFTER}|{_ON})(?!\w)|{_RELEASES}(?:\s+{_AFTER}(?!\w))?)"
"""After a version: "3.10+" (attached: "2.1 + peft" is a list), "or newer", "releases"."""
_RANGE = (
    rf"(?:(?:(?:version|release)s?\s+)?between\s+{VERSION}\s+and\s+{VERSION}"
    rf"|from\s+{VERSION}\s+(?:to|through|until)\s+{VERSION}"
    rf"|{VERSION}\s*(?:-|\u2013|to|through)\s*{VERSION})"
)
_ONE = rf"(?:{_PREFIX}\s*)?{_OPERATOR}?{VERSION}{_SUFFIX}?"
_EXPLICIT = rf"(?:{_PREFIX}\s*)?{_OPERATOR}{VERSION}{_SUFFIX}?"

_SPEC_FIRST = starts_with(
    [*lexicon.VERSION_SYMBOLS, *lexicon.VERSION_PREFIXES, *lexicon.VERSION_WORDS_BEFORE]
    + ["version", "release", "between", "from", "v", "r"],
    digits=True,
)
"""Every character a :data:`SPEC` can start with (a digit, "v", "R", an operator, "between"):
patterns try a spec after every word, and most words are followed by none of them."""
SPEC = (
    rf"{_SPEC_FIRST}(?:{_RANGE}|{_ONE})(?:\s*(?:,|;|&|\()?\s*(?:\band\b|\bbut\b)?\s*{_EXPLICIT}\)?){{0,3}}"
    r"(?!\w|\.\w)"
)
"""One constraint, or a range, optionally followed by more explicit ones (">=2,<3", "1.19 or
newer (but not 1.20)").

It may end a sentence ("3.10 or newer."): only a dot followed by more of a word continues it.
"""

PRODUCT_NOUN = alternation(
    "toolkit toolbox suite studio multiphysics workbench framework library package code software "
    "solver model sim simulator emulator pipeline workflow coupler fem gui".split()
)
"""Nouns of a product that stand between its name and a dotted version: "COMSOL Multiphysics
6.2", "the Geant4 toolkit (11.2)", "the BART toolbox 0.9", "the ICON climate code 2024.01"
(one describing word may come before the noun). A kind of tool is such a noun too: "the CARLA
sim (0.9.15)", "the Sarek pipeline (3.4)", "Elmer FEM 9.0", "the Vivado GUI 2023.2"; the
version is the named product's, never the noun's."""

APPOSED_NOUN = (
    r"(?:engine|code|program|package|library|toolkit|toolbox|solver|simulator|tool|suite|"
    r"framework|software|model|pipeline|aligner|assembler|finder|viewer|compiler)"
)
"""The head of a description set off between a name and its version: "Kraken, the OCR engine,
version 5"."""

_ANY_RELEASE = r"(?:anything|any\s+(?:version|release)s?|any\s+one|whatever(?:\s+is)?)"
"""A word that quantifies over releases before an operator: "pybamm, anything >= 24.1", "xtb:
any version >= 6.6". Said after a comma or a colon it still gives the name before it a lower
bound; without it the operator stood alone and the name was quoted as unresolved."""

_RUN_NOUN = alternation(
    "code package library software module tool toolkit suite framework program run runs job jobs "
    "build installation pipeline workflow coupler sim simulator compiler compilers".split()
)
_STOP_WORD = alternation("and or with for the to of in on at by from as is are was".split())
_DESCRIBING = rf"(?!{_STOP_WORD}\s)(?-i:[a-z]{{3,}}+)"
"""A lower-case word describing a product, before its noun: one or two ("the ICON climate
code 2024.01", "the MALLET topic modelling toolkit (v2.0.8)")."""
_SHORT_NOUN = alternation("code package library software tool toolkit framework program".split())
"""The nouns :data:`SEPARATOR` allows between a name and an explicit version, as tries: it is
tried after every word of a text, and a trie rejects a word in one class test where a list of
case-folded words is entered word by word."""

SEPARATOR = (
    rf"(?:\s*[@/:]\s*[\"']?|\s*\(\s*(?:(?:we|i)\s+)?(?:need|needs|require|requires|want)?\s*"
    rf"(?:the\s+)?(?:anything\s+|any\s+(?:version|release)\s+)?"
    rf"(?:from\s+(?=v?\d[\w.]{{0,30}}\s+(?:onwards?|{_ON}|and\s+(?:later|newer|up))(?!\w)))?"
    rf"|\s+{_RUN_NOUN}\s*\(?\s*(?=(?:version|release|v)\s*\d)"
    rf"|(?:\s+{_SHORT_NOUN}|)"
    rf"\s*\([^()\n]{{1,30}}\)\s*(?=(?:version|release)\s*\d)"
    rf"|-(?=v?\d)"
    rf"|\s+(?:{_DESCRIBING}\s+(?:{_DESCRIBING}\s+|)|)"
    rf"{PRODUCT_NOUN}\s*\(?\s*(?=v?\d+\.\d+[\w.]*+(?!\s*(?:[kmgtp]i?b|%|hours?|h|days?|x)(?!\w)))"
    rf"|\s+in\s+(?:a\s+|the\s+|any\s+)?(?=(?:version|release)s?\s+(?:between\s+)?v?\d)"
    rf"|\s*,\s*(?:the|an?|our)\s+(?:[\w-]+\s+){{0,3}}?{APPOSED_NOUN}\s*,\s*"
    rf"(?=(?:version|release)\s+v?\d)"
    rf"|\s+(?:version|release)\s+(?:must|has\s+to|should|needs\s+to|is\s+to|has\s+got\s+to)"
    rf"\s+be\s+(?:exactly\s+)?(?=(?:between\s+)?v?\d)"
    rf"|\s*,\s*(?=(?:{_BEFORE}|{_PREFIX}|{_SYMBOL}))"
    rf"|\s*[,:]\s*{_ANY_RELEASE}\s*(?=(?:{_BEFORE}|{_SYMBOL}))"
    rf"|\s*,\s*(?:anything\s+|any\s+version\s+|any\s+)?(?={VERSION}(?:\+(?![\w+])|\s+{_AFTER}(?!\w)))"
    rf"|\s*)"
)
"""What may stand between a name and its version: ``gcc@12``, ``lammps/2Aug2023``, ``x-1.2``,
a noun and an explicit version ("the HOOMD run (v4.8)", a product noun and a dotted
version ("COMSOL Multiphysics 6.2"), "OpenMM (anything between 8.0 and
8.1)"), a short bracket before the word "version" ("Grid (lattice QCD) version 0.9"),
a starting release in brackets ("Chroma (any release from 2023 onward)": the "from" is
read only when "onward" ends the version, so a range "from 2 to 3" keeps it), and a comma
when an operator stands before or after the version ("cp2k, at least version
2023.2", "Open MPI, 4.1 at the very least", "openmpi, anything 4.0 or above"), also with a
quantifier before the operator ("pybamm, anything >= 24.1")."""

_RANGE_RE = re.compile(
    rf"^\s*(?:(?:(?:version|release)s?\s+)?between\s+(?P<a1>{VERSION})\s+and\s+(?P<b1>{VERSION})"
    rf"|from\s+(?P<a2>{VERSION})\s+(?:to|through|until)\s+(?P<b2>{VERSION})"
    rf"|(?P<a3>{VERSION})\s*(?:-|\u2013|to|through)\s*(?P<b3>{VERSION}))",
    FLAGS,
)
_CLAUSE_RE = re.compile(
    rf"(?P<prefix>{_PREFIX}\s*)?"
    rf"(?:(?P<symbol>{_SYMBOL})\s*|(?P<word>{_BEFORE})\s+(?:the\s+)?(?:{_PREFIX}\s*)?)?"
    rf"(?P<version>{VERSION})(?P<rel>{_RELEASES})?"
    rf"(?:(?P<plus>\+)(?![\w+])|\s+(?P<after>{_AFTER}|on(?=\s*(?:\)|$)))(?!\w))?",
    FLAGS,
)
_DATE_VERSION_RE = re.compile(r"\d{1,2}[a-z]{3}\d{4}", FLAGS)
_SPACES_RE = re.compile(r"\s+")


def clean_version(text: str) -> str | None:
    """The version as it goes on the wire: no leading ``v``, no trailing punctuation."""
    text = text.strip()
    if text[:1] in ("v", "V") and text[1:2].isdigit():
        text = text[1:]
    text = text.rstrip("._-")
    if _SPACED_RELEASE_RE.fullmatch(text):
        text = text.replace(" ", "")  # "2024 R2" is one release, "2024R2"
    if _RELEASE_RE.fullmatch(text):
        return text  # "R2023b"
    if not text or not text[0].isdigit() or len(text) > 64:
        return None
    return text


_SPACED_RELEASE_RE = re.compile(r"(?:19|20)\d\d\sR[1-4]")
_RELEASE_RE = re.compile(r"R(?:19|20)\d\d[ab]|(?:19|20)\d\dR[1-4]|[rR]\d{1,2}(?:\.\d{1,3}){0,3}")


def _spelled(table: dict[str, Comparator]) -> dict[str, Comparator]:
    """The table keyed by its spellings with hyphens as spaces and blanks collapsed (the first
    spelling of a form wins): built once, so a lookup is one dict access, not a pass over
    every spelling."""
    spelled: dict[str, Comparator] = {}
    for spelling, op in table.items():
        spelled.setdefault(_SPACES_RE.sub(" ", spelling.replace("-", " ")), op)
    return spelled


_SPELLED_BEFORE = _spelled(lexicon.VERSION_WORDS_BEFORE)
_SPELLED_AFTER = {**_spelled(lexicon.VERSION_WORDS_AFTER), "on": Comparator.GE}


def _lookup(spelled: dict[str, Comparator], found: str) -> Comparator | None:
    """The comparator of an operator word, from a table made by :func:`_spelled`."""
    return spelled.get(_SPACES_RE.sub(" ", found.strip().lower()).replace("-", " "))


def _clause(match: re.Match[str]) -> tuple[VersionConstraint | None, bool]:
    """One constraint, and whether anything but the bare version said it was one."""
    version = clean_version(match.group("version"))
    op = Comparator.EQ
    explicit = bool(match.group("prefix") or match.group("rel"))
    if match.group("symbol"):
        op = lexicon.VERSION_SYMBOLS.get(match.group("symbol"), Comparator.EQ)
        explicit = True
    elif match.group("word"):
        op = _lookup(_SPELLED_BEFORE, match.group("word")) or Comparator.EQ
        explicit = True
    elif match.group("plus"):
        op, explicit = Comparator.GE, True
    elif match.group("after"):
        op = _lookup(_SPELLED_AFTER, match.group("after")) or Comparator.EQ
        explicit = True
    if version is None:
        return None, explicit
    return VersionConstraint(op=op, version=version), explicit


def word_comparator(word: str) -> Comparator | None:
    """The comparator an operator word stands for ("at least" -> ``>=``)."""
    return _lookup(_SPELLED_BEFORE, word)


def parse_constraints(spec: str) -> tuple[list[VersionConstraint], bool]:
    """Read a constraint list found by :data:`SPEC`.

    Returns:
        The constraints, and ``explicit``: True when an operator, a range, a ``+`` or the word
        "version" marked the number as a version. A bare "foo 2" is not explicit, which lets
        callers refuse to invent a package from any word followed by a number.
    """
    constraints: list[VersionConstraint] = []
    explicit = False
    rest = spec
    ranged = _RANGE_RE.match(spec)
    if ranged and _hyphenated_release(ranged):
        whole = clean_version(ranged.group(0))
        if whole:
            constraints.append(VersionConstraint(op=Comparator.EQ, version=whole))
            explicit = True
        ranged = None
        rest = spec[_RANGE_RE.match(spec).end() :]
    if ranged:
        low = clean_version(ranged.group("a1") or ranged.group("a2") or ranged.group("a3"))
        high = clean_version(ranged.group("b1") or ranged.group("b2") or ranged.group("b3"))
        if low and high:
            constraints += [
                VersionConstraint(op=Comparator.GE, version=low),
                VersionConstraint(op=Comparator.LE, version=high),
            ]
            explicit = True
        rest = spec[ranged.end() :]
    for match in _CLAUSE_RE.finditer(rest):
        constraint, said = _clause(match)
        explicit = explicit or said
        compatible = match.group("symbol") == "~="
        for one in _series(constraint, compatible) if constraint is not None else ():
            if one not in constraints:
                constraints.append(one)
    return constraints, explicit


_WILDCARD_RE = re.compile(r"(?P<base>\d+(?:\.\d+)*)\.[xX*]")


def _series(constraint: VersionConstraint, compatible: bool) -> list[VersionConstraint]:
    """A release series as the range it stands for.

    A wildcard in the last place ("0.6.x", "2.*", "1.2.X") is every release of that series:
    ``>=0.6.0, <0.7``. The compatible-release operator ``~=`` of PEP 440 keeps the releases up to
    the next change of the second-to-last part: "~=2.1" is ``>=2.1, <3``, "~=1.4.2" is
    ``>=1.4.2, <1.5``. Anything else is returned as it is.
    """
    wildcard = _WILDCARD_RE.fullmatch(constraint.version)
    if wildcard and constraint.op is Comparator.EQ:
        base = wildcard.group("base")
        return [
            VersionConstraint(op=Comparator.GE, version=base + ".0"),
            VersionConstraint(op=Comparator.LT, version=_next_release(base.split("."))),
        ]
    parts = constraint.version.split(".")
    if compatible and len(parts) >= 2 and all(p.isdigit() for p in parts):
        return [constraint, VersionConstraint(op=Comparator.LT, version=_next_release(parts[:-1]))]
    return [constraint]


def _next_release(parts: list[str]) -> str:
    """The first release after a series: ["0", "6"] -> "0.7", ["2"] -> "3"."""
    return ".".join([*parts[:-1], str(int(parts[-1]) + 1)])


_BUILD_TAG_RE = re.compile(r"(?P<version>\d[\w.]*?)[-_](?P<tag>[a-z][a-z0-9]*)", FLAGS)


def build_tag(version: str) -> tuple[str, str] | None:
    """A build tag written after a version, as module names do ("5.0-cuda", "2024.3-rocm"):
    the version and the tag, when the tag is a build variant; None otherwise ("1.0-rc1" is a
    pre-release, part of the version)."""
    m = _BUILD_TAG_RE.fullmatch(version)
    if m is None or m.group("tag").lower() not in lexicon.VARIANT_WORDS:
        return None
    return m.group("version"), lexicon.VARIANT_WORDS[m.group("tag").lower()]


def _hyphenated_release(ranged: re.Match[str]) -> bool:
    """ "0.7-2" is one release, not a range: R packages number theirs so (Rmpi 0.7-2,
    data.table 1.14-8, a dotted version, a hyphen and a bare patch number), and so is a release
    with a commit hash ("15-6f452"). A range writes its
    ends alike ("3.8-3.11", "2022-2024"), or with spaces ("1.2 - 2"). Read as one release the
    request is the stricter one, which a site can only fail, never wrongly pass."""
    low, high = ranged.group("a3"), ranged.group("b3")
    whole = ranged.group(0)
    return bool(
        low
        and high
        and (re.fullmatch(r"\s*v?\d+(?:\.\d+)+-\d+\.?", whole) or _COMMIT_RE.fullmatch(whole))
    )


_COMMIT_RE = re.compile(r"\s*v?\d+(?:\.\d+)*-(?=[0-9a-f]{0,11}[a-f])[0-9a-f]{5,12}", FLAGS)
"""A release and a short commit hash ("15-6f452"): one build, never a range (no release is
numbered in hexadecimal)."""


_VERSION_CHOICE_RE = re.compile(
    r"^\s*(?:v?\d[\w.]*\s*,\s*){0,4}v?\d[\w.]*\s*,?\s*or\s+v?\d[\w.]*\s*$", FLAGS
)


def version_choice(text: str) -> list[str] | None:
    """ "3.10 or 3.11", "12, 13 or 14": bare versions joined by "or" are a choice of releases
    (no release is two at once), or None when ``text`` is not such a list."""
    if not _VERSION_CHOICE_RE.match(text):
        return None
    found = [v for part in re.findall(r"v?\d[\w.]*", text) if (v := clean_version(part))]
    return found if len(found) > 1 else None


def looks_like_version(spec: str) -> bool:
    """True for a bare number that is still clearly a version: "1.2", "2Aug2023"."""
    first = _CLAUSE_RE.search(spec)
    if first is None:
        return False
    version = first.group("version")
    return "." in version.strip(".") or bool(_DATE_VERSION_RE.fullmatch(version))
