"""Proper names that are no software: places, institutions, mailing lists, languages, methods
and instruments.

A request says where its writer works ("the radio astronomy group in Torun, Poland", "our
group (oceanography, Universidad de Concepcion)"), which list it came through ("[chem-hpc]",
"subscribed to econ-hpc"), what its code is written in ("our Fortran code", "the OpenACC
path") and which named method it uses, misspelt ("lattice-Boltzman"). Such words are shaped
like package names, and a comma beside a package makes them look like list items of
packages. The open vocabulary asks :func:`no_software_name` of a word no catalogue knows; a
word so marked is **quoted** (an unresolved phrase, which keeps every site from answering
READY on it), never dropped: a wrong guess costs a question, not a wrong run.
"""

from __future__ import annotations

import re

from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.not_names import concept_word, concept_word_slip

_COUNTRIES = frozenset(
    """
    afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan
    bahamas bahrain bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia
    botswana brazil brunei bulgaria burkina burundi cambodia cameroon canada chile china
    colombia comoros congo croatia cuba cyprus czechia czech denmark djibouti dominica ecuador
    egypt eritrea estonia eswatini ethiopia finland france gabon gambia germany ghana
    greece grenada guatemala guinea guyana haiti honduras hungary iceland india indonesia iran
    iraq ireland israel italy jamaica japan kazakhstan kenya kiribati korea kosovo kuwait
    kyrgyzstan laos latvia lebanon lesotho liberia libya liechtenstein lithuania luxembourg
    malawi malaysia maldives mali malta mauritania mauritius mexico micronesia
    moldova monaco mongolia montenegro morocco mozambique myanmar namibia nauru nepal
    netherlands nicaragua nigeria norway oman pakistan palau palestine panama paraguay peru
    philippines poland portugal qatar romania russia rwanda samoa senegal serbia seychelles
    singapore slovakia slovenia somalia spain sudan suriname sweden switzerland syria taiwan
    tajikistan tanzania thailand togo tonga tunisia turkey turkmenistan tuvalu uganda ukraine
    uruguay uzbekistan vanuatu venezuela vietnam yemen zambia zimbabwe
    scotland wales england
    """.split()
)
"""Countries, written alone as a writer's place ("in Torun, Poland", "a PhD student from
Korea"); the names of several words end in a word of English ("United States"). Fiji and
Madagascar are left out: in a request they are the ImageJ distribution and the seismic
processing package far more often than the islands."""

_INSTITUTION_WORDS = frozenset(
    """
    university universities universidad universidade universite universitat universiteit
    universita uniwersytet univerzita yliopisto institut instituto istituto politecnico
    politecnica polytechnique hochschule
    """.split()
)
"""The first word of a university's or an institute's name in the languages a helpdesk meets
("Universidad de Concepcion", "Universitat Politecnica", "Instituto Superior Tecnico")."""

_COUNTRY_AFTER_RE = re.compile(r",[^\S\n]*(?P<country>[A-Z][a-z]{2,})(?![\w-])")
"""A capitalised word before a country is its town: "Torun, Poland", "Lyon, France"."""

_LIST_TAILS = frozenset(("hpc", "users", "user", "list", "discuss", "announce", "team", "group"))
"""Last parts of the names of mailing lists, user groups and allocations ("chem-hpc",
"geo-users", "econ-hpc", "cfd-discuss"): the channel a request came through. A package whose
name ends so ("hpc-" leads, never ends, the names of HPC toolkits) is not known to us."""

_SPACK_PREFIXES = frozenset(("py", "r", "perl", "lua", "ruby", "julia", "go", "rust", "node"))
"""The language prefixes of Spack and distribution package names ("py-hpc" is a package)."""

_LIST_NAME_RE = re.compile(r"^[a-z][a-z0-9]{1,15}-[a-z]{2,8}$")

_LANGUAGES = frozenset(("fortran", "cobol", "openacc", "openmp"))
"""Languages and directive-based programming models a code is written in ("our Fortran
code", "Fortran 2008", "the OpenACC path"). A compiler for them is the package (gfortran,
nvfortran, ifx); a build with OpenMP is a variant, read before the open vocabulary runs."""


_INSTRUMENTS = frozenset(
    """
    meerkat askap lofar mwa alma vla vlba jwst gaia lsst chime gbt parkes effelsberg apertif
    desi sdss novaseq nextseq miseq hiseq iseq promethion gridion krios glacios
    """.split()
)
"""Telescopes, sequencers and microscopes whose data a job reads ("MeerKAT L-band imaging",
"NovaSeq 6000 runs", "a Titan Krios data set"); the number after a sequencer is its model,
no release. Kepler (a workflow system) and Talos (a tuning library) are left out."""


def instrument_name(word: str) -> bool:
    """Whether ``word`` names a telescope, a sequencer or a microscope."""
    return word.lower() in _INSTRUMENTS


def place_or_institution(text: str, start: int, word: str) -> bool:
    """Whether a capitalised ``word`` is a country, a town named before its country, or the
    first word of a university's or an institute's name."""
    if not word[:1].isupper() or not word.isalpha():
        return False
    lower = word.lower()
    if lower in _COUNTRIES or lower in _INSTITUTION_WORDS:
        return True
    after = _COUNTRY_AFTER_RE.match(text, start + len(word))
    return after is not None and after.group("country").lower() in _COUNTRIES


def list_or_group_name(word: str) -> bool:
    """Whether a lower-case hyphenated ``word`` names a mailing list or user group
    ("chem-hpc", "geo-users")."""
    head, _, tail = word.partition("-")
    return bool(_LIST_NAME_RE.match(word)) and tail in _LIST_TAILS and head not in _SPACK_PREFIXES


_LISTSERV_NAME_RE = re.compile(r"^[a-z][a-z0-9]{1,15}-l$")
"""A LISTSERV list's name: a short lower-case name with "-l" glued on ("matsim-l")."""
_LIST_NOUN_AFTER_RE = re.compile(
    r"[^\S\n]+(?:mailing[^\S\n]+)?(?:list|listserv|mailing[^\S\n]+list)(?![\w-])", re.IGNORECASE
)
_SUBJECT_TAG_RE = re.compile(r"\][^\S\n]+\S")
"""The end of a subject tag: "[matsim-l] Re: ...", where the bracketed word names the list."""


def named_list(text: str, start: int, word: str) -> bool:
    """Whether a lower-case hyphenated ``word`` is called a list ("To: dh-compute list", "(the
    bioinf-l mailing list)"), or is a LISTSERV name, or a bracketed subject tag at the start
    of a line ("[matsim-l] Re: ..."): the channel a request came through, quoted."""
    if not _LIST_NAME_RE.match(word) and not _LISTSERV_NAME_RE.match(word):
        return False
    if word.partition("-")[0] in _SPACK_PREFIXES:
        return False
    end = start + len(word)
    if _LISTSERV_NAME_RE.match(word) or _LIST_NOUN_AFTER_RE.match(text, end):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start] == "[" and bool(_SUBJECT_TAG_RE.match(text, end))


def language_name(word: str) -> bool:
    """Whether ``word`` is a language or programming model a code is written in."""
    return word.lower() in _LANGUAGES


def misspelt_eponym(word: str) -> bool:
    """Whether ``word`` is an eponymous method with a letter of its name dropped
    ("lattice-Boltzman", "Runge-Kuta", "Boltzman"): the other parts are English or eponyms,
    so the whole is the method, no package. A letter added is left out: "eulerr" is an R
    package, no slip of "Euler"; so is a short word alone ("Arnold" renders, with no "i")."""
    parts = word.lower().split("-")
    if not all(p.isalpha() for p in parts):
        return False
    shortest = 4 if len(parts) > 1 else 7  # alone, "Arnold" is a renderer, no "Arnoldi"
    # The set look-up first: a slip is rare, a concept word's own test dearer
    slips = [
        p for p in parts if len(p) >= shortest and concept_word_slip(p) and not concept_word(p)
    ]
    if not slips:
        return False
    rest = [p for p in parts if p not in slips]
    return all(concept_word(p) or english_word(p) for p in rest)


def no_software_name(text: str, start: int, word: str) -> bool:
    """Whether ``word`` at ``start`` of ``text`` is a place, an institution, a mailing list
    or a language: a proper name that no site installs."""
    return (
        place_or_institution(text, start, word)
        or list_or_group_name(word)
        or named_list(text, start, word)
        or language_name(word)
        or misspelt_eponym(word)
        or instrument_name(word)
    )
