"""Named things with versions: container runtimes, MPI libraries and software packages.

They run in that order because the names overlap: "Intel MPI" is an MPI, not the Intel
compilers; "singularity" is a runtime, not a package. Packages come last, first the catalogued
ones, then unknown names, which count here only when a version clearly follows them ("foo 1.2",
"foo>=1", "foo version 2"); a bare "foo 2" is too often not a package at all. Unknown names
without a version are read by :mod:`endpoint_plugins.parsing.vocabulary`.

Build variants are read first of all (:func:`extract_variants`), and "or" between packages
makes them alternatives once every name is known (:func:`group_alternatives`). A catalogued
name is never read out of a longer one: ``nccl-tests`` is not ``nccl``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.constraints import (
    AFTER_WORDS,
    APPOSED_NOUN,
    NAME_OPERATOR_WORDS,
    OPERATOR_WORDS,
    PRODUCT_NOUN,
    SEPARATOR,
    SPEC,
    VERSION,
    clean_version,
    looks_like_version,
    parse_constraints,
    word_comparator,
)
from endpoint_plugins.parsing.draft import Draft
from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.history import (
    QUOTED_LINES_RE,
    past_only_packages,
    pasted_only,
    said_now_first,
)
from endpoint_plugins.parsing.negation import in_condition
from endpoint_plugins.parsing.not_names import (
    CITED_BEFORE_RE,
    COUNTED_AFTER_RE,
    MEASURED_AFTER_RE,
    ORDINAL_RE,
    VENUE_AFTER_RE,
    data_source,
    named_as_data,
    on_own_machine,
    placed_as_non_name,
    record_number,
    series_position,
    shaped_as_no_package,
)
from endpoint_plugins.parsing.proper_names import (
    instrument_name,
    language_name,
    list_or_group_name,
)
from endpoint_plugins.parsing.scanner import (
    FLAGS,
    WORD_END,
    WORD_START,
    Scanner,
    alternation,
    lookup,
    may_match,
    sentence_around,
    sentence_start,
    squash,
    starts_with,
)
from endpoint_plugins.parsing.triggers import fold
from endpoint_plugins.parsing.vocabulary import (
    HARDWARE_RE,
    filler_words,
    name_shaped,
    near_catalogue_name,
)
from providers.wire.requirements import (
    Comparator,
    ContainerRequirement,
    Feature,
    MPIRequirement,
    VersionConstraint,
)

_PRODUCT_NOUN_RE = re.compile(rf"(?<!\w){PRODUCT_NOUN}(?!\w)", FLAGS)
_WITH_SPEC = rf"(?:{SEPARATOR}(?P<spec>{SPEC})(?:\s*\))?)?"

# -- containers ------------------------------------------------------------------------------

_RUNTIME_SPELLINGS = [s for k, v in lexicon.CONTAINER_RUNTIMES.items() for s in (k, *v)]
_ROOTLESS = alternation(lexicon.ROOTLESS_WORDS)
_CONTAINER_NOUN = r"(?:\s+(?:container|image|runtime|engine)s?(?!\w))?"
_RUNTIME_RE = re.compile(
    starts_with([*lexicon.ROOTLESS_WORDS, *_RUNTIME_SPELLINGS])
    + rf"{WORD_START}(?P<rootless>{_ROOTLESS}\s+)?(?P<name>{alternation(_RUNTIME_SPELLINGS)})"
    rf"{WORD_END}{_WITH_SPEC}{_CONTAINER_NOUN}",
    FLAGS,
)
_FREIGHT_BEFORE = r"(?<!shipping )(?<!cargo )(?<!freight )(?<!intermodal )(?<!reefer )"
_FREIGHT_AFTER = (
    r"(?!\s+(?:terminals?|ships?|vessels?|ports?|yards?|cranes?|trucks?|lorr(?:y|ies)|"
    r"freight|cargo|shipping|traffic|handling|logistics|stacks?|berths?|lines?)(?!\w))"
)
"""The other container, the one ships carry ("the container terminal", "shipping
containers"): a word of freight and ports next to it, so no container runtime is asked for."""
_CONTAINER_RE = re.compile(
    rf"(?<!\w){_FREIGHT_BEFORE}(?P<rootless>{_ROOTLESS}\s+)?"
    rf"{alternation(lexicon.CONTAINER_WORDS)}(?!\w){_FREIGHT_AFTER}",
    FLAGS,
)
_ROOTLESS_RE = re.compile(rf"(?<!\w){_ROOTLESS}(?:\s+mode)?(?!\w)", FLAGS)

# -- MPI -------------------------------------------------------------------------------------

_MPI_SPELLINGS = [s for k, v in lexicon.MPI_IMPLEMENTATIONS.items() for s in (k, *v)]
_MPI_RE = re.compile(
    starts_with([*_MPI_SPELLINGS, *lexicon.GENERIC_MPI_WORDS])
    + rf"{WORD_START}(?P<name>{alternation([*_MPI_SPELLINGS, *lexicon.GENERIC_MPI_WORDS])})"
    rf"{WORD_END}(?:\s+(?:library|implementation|stack))?{_WITH_SPEC}",
    FLAGS,
)

# -- software --------------------------------------------------------------------------------

_SOFTWARE_SPELLINGS = [s for k, v in lexicon.SOFTWARE.items() for s in (k, *v)]
_CATALOGUED = alternation(_SOFTWARE_SPELLINGS)
_PRE_OP = (
    rf"(?:{starts_with(lexicon.VERSION_WORDS_BEFORE)}"
    rf"(?:(?P<preop>{NAME_OPERATOR_WORDS})|under|over)\s+(?:the\s+)?"
    r"(?:(?:version|release)s?\s+(?:of\s+)?)?|)"
)
"""An operator word before the name ("at least GROMACS 2023"). Written ``(?:...|)`` rather
than ``(?:...)?``: the regex engine enters an optional group through a costly repeat, an
alternation cheaply, and the look-ahead rejects most words (no operator) in one test; it tries
this at every word of the text."""
_OR_VERSION = (
    r"(?P<orver>(?:\s*,\s*(?:version\s+|v)?\d{1,4}(?:\.\d[\w.]{0,20})?(?![\w.])){0,4}"
    r"\s*,?\s*or\s+(?:version\s+|v)?\d{1,4}(?:\.\d[\w.]{0,20})?(?![\w.])"
    r"(?!\s*(?:-\s*)?(?:nodes?|cores?|cpus?|gpus?|ranks?|tasks?|threads|hours?|hrs?|h|days?|"
    r"min(?:ute)?s?|gb|tb|g|x)(?!\w))"
    r"|\s*(?:\(|,|;|-{1,2}|\u2013|\u2014)\s*(?:but\s+|though\s+)?(?:version\s+|v)?"
    r"\d{1,4}(?:\.\d[\w.]{0,20})?(?![\w.])\s+"
    r"(?:(?:is|are|would\s+be|will\s+be|would|will|should|could|can|does)\s+)?"
    r"(?:(?:also|equally)\s+(?:fine|ok|okay|acceptable|good|usable|works?|do|be\s+fine)"
    r"|(?:fine|ok|okay|acceptable|good|works?|would\s+(?:work|do)|will\s+do)\s+"
    r"(?:too|as\s+well))(?![\w'\u2019]))?"
)
"""More exact versions of the same package: "python 3.9, 3.10 or 3.11", "gcc 12 or 13" (not
"lammps 2 or 4 nodes": a unit after the number makes it a count), or one more offered as
acceptable too: "TensorFlow 2.15 (2.16 also fine)", "gcc 12, 13 works too"."""
_CATALOGUE_RE = re.compile(
    rf"{WORD_START}{_PRE_OP}(?P<name>{_CATALOGUED})"
    rf"(?P<attached>\d[\d.]{{0,20}})?{WORD_END}{_WITH_SPEC}{_OR_VERSION}",
    FLAGS,
)
_NAME = r"[a-z][a-z0-9_+]*+(?:[-.][a-z0-9][a-z0-9_+]*+){0,3}"
_RELEASE_TAG_RE = re.compile(
    rf"{WORD_START}(?P<name>{_NAME})(?:\s*\(\s*|\s+)"
    r"(?:(?P<word>version|release|checkpoint|tag)\s*)?"
    r"(?P<tag>v?\d{1,2}p\d{1,2}(?:r\d{1,2})?|(?-i:c)\d{2}[a-z]|\d{2,3}[a-z]{1,2})"
    r"(?:\s*\))?(?![\w.])",
    FLAGS,
)
"""A lettered release tag after a name: TELEMAC's "v8p5" (version 8, patch 5), MITgcm's
"c67w" and "checkpoint 68y". They start with a letter or carry one inside, so the version
reader skips them, and the bare tag was read as a package of its own."""
_RELEASE_TAG_HINT_RE = re.compile(r"\d\d?[a-z]", FLAGS)
"""What every match of :data:`_RELEASE_TAG_RE` contains: a digit or two before a letter ("8p5",
"67w", "68y"). Few texts hold one once counts and sizes are read, and one search for it, which
the engine runs from digit to digit, spares them the scan that tries a name at every word."""
_UNIT_TAG_RE = re.compile(
    r"\d+(?:h|hr|d|m|s|ms|g|k|t|b|x|w|gb|tb|mb|kb|st|nd|rd|th|pm|am|mm|cm|km)", FLAGS
)
"""A number with a unit or an ordinal ending: "checkpoint 48h" is when, not a tag."""
_UNKNOWN_RE = re.compile(
    rf"{WORD_START}(?P<name>{_NAME}){SEPARATOR}(?P<spec>{SPEC})(?:\s*\))?{_OR_VERSION}",
    FLAGS,
)
_LANGUAGES = ("python", "julia", "matlab", "octave", "perl", "ruby", "stata")
_LANGUAGE_PACKAGE_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}[^\S\n]+"
    r"(?:package|library|module|toolbox|extension|plugin|add-?on)\s+(?:for|in)\s+"
    rf"(?P<lang>(?-i:R)|{alternation(_LANGUAGES)})(?![\w+])(?:\s+language)?"
    rf"\s*,\s*(?:release\s*(?=v?\d)|(?=(?:version|v)\s*\d))(?P<spec>{SPEC})",
    FLAGS,
)
"""A package of a language, the version said after the language: "the INLA package for R,
version 24.05" is INLA 24.05, not R 24.05. Only with the word "version" after a comma: "the
Rcpp package for R 4.3" may give R's own release, and is left to the catalogue."""
_FAMILY_BRACKET = r"\s*\(\s*(?P<family>[a-z][\w-]{2,20})\s+(?=v?\d)"
_FAMILY_VERSION_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}){WORD_END}{_FAMILY_BRACKET}(?P<spec>{SPEC})\s*\)",
    FLAGS,
)
"""A version in brackets behind the name of the family the package belongs to: "the Intel
compilers (oneAPI 2024.2)" is intel-oneapi-compilers 2024.2, not a package "oneAPI". Only
when the bracketed word is part of the package's own name (see ``family_version``): "GROMACS
(CUDA 12.2)" gives CUDA's release, not GROMACS's."""
_FAMILY_HINT_RE = re.compile(r"\(\s*[a-z][\w-]{2,20}\s+v?\d", FLAGS)
"""What every match of :data:`_FAMILY_VERSION_RE` contains, led by the bracket the engine
skips to; few texts have one, and they alone pay for the catalogue scan."""
_VERSION_HINT_RE = re.compile(r"\d")
"""What every match of :data:`_VERSION_OF_RE` and :data:`_UNKNOWN_RE` contains: a digit, since
each reads a version, and every form of a version has one. By the time they run, most numbers
have been read as counts and amounts, so many texts have none left and skip both scans."""
_VERSION_OF_RE = re.compile(
    rf"(?<![\w.])(?:(?P<op>{OPERATOR_WORDS})\s+)?(?:the\s+)?(?:version\s+|release\s+|v)?"
    rf"(?P<version>\d[\w.]{{0,30}})\s+(?:(?:releases?|versions?|series|builds?)\s+)?of\s+"
    rf"(?:the\s+)?(?P<name>{_CATALOGUED}|[a-z][\w.+-]{{1,40}}?\+*){WORD_END}",
    FLAGS,
)
"""The version before the name: "nothing older than the 2022 releases of LAMMPS", "version
1.2.5 of AutoDock-Vina"."""
_VERSION_OF_HINT_RE = re.compile(
    r"\d[\w.]{0,30}+\s+(?:(?:releases?|versions?|series|builds?)\s+)?of\s", FLAGS
)
"""What every match of :data:`_VERSION_OF_RE` contains ("2022 releases of "): led by a digit,
which the engine skips to, while the full pattern tries an operator word at every word."""
_PAREN_VARIANT_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}\s*\(\s*(?:a\s+|the\s+)?\+?"
    rf"(?P<v>{alternation(lexicon.VARIANT_WORDS)})[\s-]+(?:build|version|variant|enabled|flavou?r)"
    r"\s*\)",
    FLAGS,
)
"""A variant in brackets after the package: "LAMMPS 29Aug2024 (Kokkos build)", "ParFlow (CUDA
build)", "SU2 8.0 (the +openmp build)" (an uncatalogued name only when it is shaped like one,
see :func:`_variant_owner`)."""

_PAREN_SPEC_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}\s*\(\s*"
    r"(?P<variants>[+~][a-z][\w-]*(?:[\s,]*[+~][a-z][\w-]*)*)\s*\)",
    FLAGS,
)
"""Spack variants in brackets after the package: "gromacs 2024.3 (+mpi)", "hdf5 (~mpi)"."""
_PAREN_HINT_RE = re.compile(
    rf"\(\s*(?:(?:a\s+|the\s+)?\+?(?:{alternation(lexicon.VARIANT_WORDS)})[\s-]|[+~][a-z])", FLAGS
)
"""What both bracketed-variant patterns must contain ("(Kokkos build", "(+mpi"): one search for
it skips their costly scans, which try every catalogue name at every word, on most texts."""
_SPACED_SPEC_RE = re.compile(
    r"(?<![\w.+~-])(?P<name>[a-z][a-z0-9_-]*?[a-z0-9])"
    rf"(?:@(?P<spec>{VERSION})|[^\S\n]+v?(?P<bspec>\d{{1,4}}(?:\.\d{{1,4}}){{1,3}}))?"
    r"(?P<variants>(?:[^\S\n]+[+~][a-z][a-z0-9_-]*)+)(?![\w+~.])",
    FLAGS,
)
"""A Spack spec with blanks before its variants, as Spack allows: "amrex@24.06 +mpi", and
"hdf5 +mpi +fortran +hl" with no version when the name is catalogued (see :func:`_spaced`),
and a catalogued name with a dotted version after a blank, as a list item writes it: "quda
1.1.0 +rocm"."""
_PLAIN_VERSION_RE = re.compile(r"^\s*v?(?:\d{1,4}(?:\.\d{1,4}){0,3}|\d{6}|\d{8})\s*$")
"""A version of digits and dots only: "flash-attn 2" yes, "cryo-em 2D" and "llama-3 70B" no.
A date release is one too ("FHI-aims 240507", "foo 20240507")."""
_VARIANT_WORDS = alternation(lexicon.VARIANT_WORDS)


_CASES = {"i": "iI\u0130\u0131", "k": "kK\u212a", "s": "sS\u017f"}
"""The letters ``re.IGNORECASE`` matches beyond their two ASCII cases ("\u212a" is the Kelvin
sign)."""


def _letter_led(alternatives: Iterable[str]) -> str:
    """``alternatives`` (regexes, each starting with a plain letter) as one alternation led by
    a case-sensitive class of their first letters.

    Python's ``re`` skips straight to a possible start only when a pattern's first item is a
    class without case folding; a leading case-folded alternation is tried at every position.
    The class consumes the letter and a one-letter look-behind picks the alternatives it
    starts, so the pattern matches exactly what the plain alternation matches.
    """
    words = list(alternatives)
    firsts = sorted({w[0].lower() for w in words})
    letters = "".join(_CASES.get(c, c + c.upper()) for c in firsts)
    return f"(?-i:[{letters}])(?:" + "|".join(f"(?<={w[0]}){w[1:]}" for w in words) + ")"


_SQUASHED_VARIANTS = {squash(k): v for k, v in lexicon.VARIANT_WORDS.items()}
"""The variant words as looked up: "double-precision" and "double precision" are one key."""
_BRACKETED_RELEASE = (
    r"[^\S\n]*\([^\S\n]*(?:version[^\S\n]+|release[^\S\n]+)?v?(?P<v4>\d{1,2}[a-z]{3}\d{4}"
    r"|\d{1,4}\.\d{1,4}(?:\.\d{1,4})?|(?:19|20)\d\d)[^\S\n]*\)"
)
"""A release in brackets right after a spec: "LAMMPS+kokkos (2Aug2023)", "gromacs+cuda
(2024.1)". Only a dotted version, a dated release or a year: "(4)" may count anything."""
_SPACK_SPEC_RE = re.compile(
    r"(?<![\w.+~-])(?P<name>[a-z][a-z0-9_-]*?[a-z0-9])"
    rf"(?:@(?P<v1>{VERSION}?))?(?P<variants>(?:[+~][a-z][a-z0-9_-]*)+)"
    rf"(?:@(?P<v2>{VERSION})|[^\S\n]+v?(?P<v3>\d{{1,4}}\.\d{{1,4}}(?:\.\d{{1,4}})?)"
    r"(?![\w.]|\.\d|\s*(?:[kmgtp]i?b|[kmgt]|%|hours?|hrs?|h|days?|x|nodes?|cores?|gpus?)(?!\w))"
    rf"|{_BRACKETED_RELEASE})?"
    r"(?![\w+~.])",
    FLAGS,
)
"""Spack specs: ``lammps+kokkos+cuda``, ``hdf5~mpi``, ``gromacs@2023+cuda``, and a dotted
version after a blank (``kokkos+rocm 4.3``; "lammps+kokkos 2 nodes" has no dot: a count)."""
_EXPLICIT_SPEC = (
    rf"(?:(?:version|release|v)\s*{VERSION}(?:\s+(?:or\s+(?:later|newer|above)|and\s+up))?"
    rf"|(?:{OPERATOR_WORDS})\s+(?:version\s+)?{VERSION}|(?:>=|<=|==|>|<)\s*{VERSION}"
    rf"|{VERSION}(?:\+|\s+(?:{AFTER_WORDS})))(?!\w)"
)
"""A version that says it is one, after a variant: "GROMACS with CUDA, version 2024 or later"."""
_BUILT = r"built|compiled|linked|configured|buit|bulit|biult|complied|compield"
"""The verbs of a build, with the slips fast typing makes of them ("XGBoost buit with CUDA")."""
_WITH_TYPOS = "wiht|wtih|whith|wih|witn"
"""Slips of the keyboard for "with" (swapped, doubled or dropped letters): "LAMMPS wiht Kokkos"."""
_WITH_ALTERNATIVES = rf"with|without|w/o|w/|minus|plus|{_WITH_TYPOS}"
_WITH_WORDS = rf"(?:{_WITH_ALTERNATIVES})"
_BRACKET_VERSION = (
    r"(?:\s*\(\s*(?:(?:stable|feature|latest|current)\s+)?(?:(?:version|release)\s+)?"
    rf"(?P<pspec>{VERSION})(?:\s+(?:stable\s+|feature\s+)?(?:version|release))?\s*\))?"
)
"""A version in brackets described by a word before it, between the package and its build:
"LAMMPS (stable 2Aug2023 version) with the KOKKOS package" (the plain "LAMMPS (2Aug2023)" is
read by :data:`SEPARATOR`); without it "stable" would be read as the package."""
_BUILD_NOUNS = r"build|buld|biuld|bulid|buid|version|variant|flavou?r"
_BUILD_NOUN = rf"(?:{_BUILD_NOUNS})"
"""What a build is called, with the slips of fast typing ("QE 7.3 GPU buld (cuda)")."""
_THE_BUILD = rf"(?:(?:the|a|an|its)\s+{_BUILD_NOUN}\s+)?"
"""The build named as the subject of its verb, in brackets after a version: "XBeach (version
1.24 or newer, the build compiled with OpenMP)"."""
_NAMED_BUILD = rf"(?:(?:in|as)\s+)?(?:the|a|an|its)\s+{_BUILD_NOUN}\s+(?=with\s)"
"""A build named by its noun with no verb, right after the package: "GROMACS 2024.4 in the
version with CUDA", "LAMMPS, the build with KOKKOS". The noun makes "with" say how the package
is built, as "built with" does, so any variant word counts, not only a GPU back end."""
_GPU_VARIANTS = frozenset(
    ("cuda", "rocm", "hip", "kokkos", "sycl", "opencl", "plumed", "openmp", "openacc", "egl")
    + ("osmesa",)
)
"""After "with", only these read as variants: "LAMMPS with MPI" asks for MPI, a library; an
accelerator or rendering back end ("ParaView with EGL") is a way the package is built."""
_OPTION_VARIANTS = frozenset(("double", "int64", "complex"))
"""Variants said in words that name no package ("with 64-bit indices", "with complex
scalars", "in double precision"): after "with" they can only be how the package is built."""
_BACKEND_WORDS = alternation(
    k for k, v in lexicon.VARIANT_WORDS.items() if v in _GPU_VARIANTS | _OPTION_VARIANTS
)
"""The variant words a plain "with" ties to the package, as more items of one list."""
_WITH_VARIANT_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}{_BRACKET_VERSION}\s*[,(]?\s*"
    rf"(?P<built>{_NAMED_BUILD}|{_THE_BUILD}(?:that\s+is\s+|which\s+is\s+|(?:has|have|needs?)\s+to\s+be\s+|must\s+be\s+|"
    rf"should\s+be\s+)?(?:{_BUILT}|patched)\s+)?"
    rf"(?P<how>{_WITH_WORDS})\s+(?:the\s+)?(?:(?P<v>{_VARIANT_WORDS})"
    r"(?P<support>\s+(?:support|enabled|backend|acceleration|offload|package|variant))?)"
    r"(?![\w-]|\.\w|\s+v?\d)"
    rf"(?P<more>(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)(?:{_BACKEND_WORDS})"
    r"(?![\w-]|\.\w|\s*[@/]?\s*v?\d)){0,3})"
    rf"(?:\s*\)?\s*,?\s*(?P<spec2>{_EXPLICIT_SPEC}))?",
    FLAGS,
)
"""Variants after the name: "GROMACS 2023 with CUDA", "hdf5 built without MPI", and more
variant words after the first ("LAMMPS with KOKKOS and CUDA"; see ``after`` in
:func:`extract_variants` for which of them a plain "with" ties to the package). A word with a
version of its own ("with KOKKOS and CUDA 12") is a package beside it and is not taken."""
_WITH_HINT_RE = re.compile(
    rf"{_letter_led(_WITH_ALTERNATIVES.split('|'))}\s+(?:the\s+)?(?:{_VARIANT_WORDS})", FLAGS
)
"""What every match of :data:`_WITH_VARIANT_RE` contains ("with CUDA"): a cheap test that
skips the costly pattern on most texts."""
_WITH_AND_WITHOUT_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}\s*,?\s*"
    rf"(?P<how>with|without|w/o|w/)\s+(?:the\s+)?(?P<v>{_VARIANT_WORDS})(?:\s+support)?"
    r"\s*[,;]?\s*(?:and\s+|but\s+)?"
    rf"(?P<how2>with|without|w/o|w/)\s+(?:the\s+)?(?P<v2>{_VARIANT_WORDS})(?:\s+support)?"
    r"(?![\w-]|\.\w|\s*[@/]?\s*v?\d)",
    FLAGS,
)
"""A build said by what it has and what it lacks: "Boost 1.84 with Python, without MPI",
"HDF5 without MPI but with Fortran". "LAMMPS with MPI" alone may ask for an MPI beside it
(see ``after`` in :func:`extract_variants`); "without" in the same breath makes both words
options of the package's build. Two "with"s or two "without"s are no such contrast."""
_MORE_ITEM = (
    rf"(?:with|without|w/o)\s+(?:the\s+)?(?:{_VARIANT_WORDS}|{_CATALOGUED})|(?:{_VARIANT_WORDS})"
)
"""One more thing the package is built with, after "and" or a comma: a variant word ("... with
Kokkos and CUDA"); or, when "with"/"without" is said again, any catalogued library, since the
repeated word keeps the build as its subject ("compiled with OpenMP and with ELPA", "built with
CUDA and without MPI")."""
_MORE_ITEM_RE = re.compile(
    rf"{WORD_START}(?P<how>with|without|w/o)?\s*(?:the\s+)?(?P<v>{_VARIANT_WORDS}|{_CATALOGUED}){WORD_END}",
    FLAGS,
)
_BUILT_WITH_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}"
    r"(?:\s+(?:code|library|package|solver|tool|toolkit|framework))?(?:\s*\([^()]{1,40}\))?\s*,?\s*"
    r"(?:(?:that|which)\s+is\s+|(?:has|have|needs?)\s+to\s+be\s+|must\s+be\s+|should\s+be\s+)?"
    rf"(?:{_BUILT})\s+(?P<how>with|without|against|for)\s+(?:the\s+)?"
    rf"(?P<v>{_CATALOGUED}|[A-Za-z][a-z]*[A-Z][A-Za-z]*|(?-i:[A-Z]{{3,8}}))(?:\s+support)?{WORD_END}"
    r"(?!\s*[@/]?\s*v?\d)"
    rf"(?P<more>(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)(?:{_MORE_ITEM})(?:\s+support)?"
    r"(?![\w-]|\s*[@/]?\s*v?\d|\s+(?:versions?|releases?|libraries|library|modules?|is|are|has|must)"
    r"(?!\w))){0,3})",
    FLAGS,
)
"""An explicit build with a catalogued library: "PETSc built with MUMPS", "IDG (image domain
gridder) built with CUDA", or with a CamelCase add-on the catalogue lacks ("NEURON built with
CoreNEURON"). A library with a version ("built with CUDA 12") and a compiler
("built with GCC") are requirements of their own, not variants."""
_PATCHED_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}\s*,?\s*"
    r"(?:(?:that|which)\s+is\s+|(?:has|have|needs?)\s+to\s+be\s+|must\s+be\s+)?"
    r"patched\s+(?:with|by|for)\s+(?:the\s+)?"
    rf"(?=(?P<v>{_VARIANT_WORDS}|{_CATALOGUED}){WORD_END})",
    FLAGS,
)
"""A package patched with a plugin: "GROMACS 2023 patched with PLUMED 2.9" is GROMACS built
with PLUMED (``+plumed``). Unlike "built against FFTW 3.3", a patch always changes the
package's build, so the plugin's own version does not make it a separate library only; the
plugin and its version are left for the software stage to read as a requirement too."""
_INTERPRETERS = frozenset(("python", "perl", "ruby", "lua", "php", "tcl"))
"""Languages whose interpreter is run by a name with its major version ("python3", "perl5"):
the digit is a version of the language. Any other name glued to one digit ("namd3") is a name
of its own, written as it is (the labelling convention keeps a name's digits)."""
_COMPILERS = frozenset(("gcc", "llvm", "intel-oneapi-compilers", "nvhpc", "aocc"))
_BUILT_HINT_RE = re.compile(rf"{_letter_led(_BUILT.split('|'))}\s+(?:with|against|for)", FLAGS)
_ENABLED_AFTER_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}){WORD_END}{_WITH_SPEC}"
    rf"(?:\s*,\s*|[^\S\n]+(?=(?:{_VARIANT_WORDS})[^\S\n-]*-?[^\S\n]*build(?!\w)))"
    rf"(?P<v>{_VARIANT_WORDS})[\s-]+(?:enabled|support|build|variant)(?!\w)",
    FLAGS,
)
"""A variant named after the package and a comma: "QE 7.3, ELPA enabled"; or right after it
as a kind of build ("NAMD 3.0 CUDA build", "LAMMPS Kokkos-build"): a catalogued package before
a catalogued variant word and "build" leaves no other reading."""
_ENABLED_HINT_RE = re.compile(
    r"[\s-](?<=[\w-].)[\s-]*(?:enabled|support|build|variant)(?!\w)", FLAGS
)
"""What every match of :data:`_ENABLED_AFTER_RE` contains ("ELPA enabled", "Kokkos-build"): a
word, then a space or hyphen before the word of the build. Led by that space's class, which
the engine skips to, instead of trying the word before it at every space."""
_DESCRIBED_BUILD_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}"
    r"(?P<noun>(?:[^\S\n]+[a-z][a-z-]{2,30}){0,2}[^\S\n]+"
    r"(?:code|library|package|solver|model|toolkit|framework|program|application|simulator))?"
    r"\s*[,;:]\s*(?:(?:the|a|an|its|in)\s+)?"
    rf"(?P<v>{_VARIANT_WORDS})[\s-]+(?:enabled\s+)?{_BUILD_NOUN}(?![\w-])",
    FLAGS,
)
"""A variant after the package and a describing noun, as a comment line names a code: "GENE
gyrokinetic code, double-precision build", "GENE 3.0, double-precision build". The noun (or
a version) makes an uncatalogued word the package (see ``described`` in
:func:`extract_variants`)."""
_GLOSSED_BUILD_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}[^\S\n]+"
    r"(?:(?:the|a|an|its)\s+)?(?:gpu|gpu-enabled|accelerated|cpu|parallel|threaded|hybrid)"
    rf"[\s-]+{_BUILD_NOUN}\s*\(\s*(?P<v>{_VARIANT_WORDS})\s*\)",
    FLAGS,
)
"""A kind of build glossed in brackets by its back end: "QE 7.3 GPU buld (cuda)" is the
CUDA build of QE, not QE and a CUDA toolkit beside it."""
_DESCRIBED_HINT_RE = re.compile(
    rf"[,;:]\s*(?:(?:the|a|an|its|in)\s+)?(?:{_VARIANT_WORDS})[\s-]+(?:enabled\s+)?{_BUILD_NOUN}"
    r"(?![\w-])",
    FLAGS,
)
"""What every match of :data:`_DESCRIBED_BUILD_RE` contains (", double-precision build"): led
by the punctuation, which the engine skips to, where the full pattern tries a name at every
word of a text that merely holds a build noun."""
_GLOSSED_HINT_RE = re.compile(rf"\(\s*(?:{_VARIANT_WORDS})\s*\)", FLAGS)
"""What every match of :data:`_GLOSSED_BUILD_RE` contains: the back end in brackets ("(cuda)")."""
_BUILD_NOUN_HINT_RE = re.compile(rf"{_letter_led(_BUILD_NOUNS.split('|'))}(?![a-z])", FLAGS)
"""What every match of :data:`_DESCRIBED_BUILD_RE` and :data:`_GLOSSED_BUILD_RE` contains
("build", "buld"): skips their scans."""
_PREFIX_VARIANT_RE = re.compile(
    rf"(?<![\w-])(?:(?:a|an|the)\s+)?(?:parallel\s+\((?P<vb>{_VARIANT_WORDS})\)"
    rf"|(?P<v>{_VARIANT_WORDS}))[\s-]+"
    r"(?:enabled|aware|accelerated|capable|powered|build\s+of|version\s+of|variant\s+of|"
    r"flavou?r\s+of|compiled|built)\s+(?:(?:build|version)\s+of\s+)?(?:the\s+)?"
    rf"(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}",
    FLAGS,
)
"""Variants before the name: "CUDA-enabled GROMACS", "a CUDA build of GROMACS", "a CUDA build
of ParFlow" (an uncatalogued name when it is shaped like one, see :func:`_variant_owner`), and
the variant glossing a kind of build in brackets: "a parallel (MPI) build of HDF5"."""
_BUILD_CHOICE_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}\s*[,:;(]?\s*"
    r"(?:(?:and\s+)?either\s+)?(?:the\s+|a\s+|an\s+|its\s+)?"
    rf"(?P<v1>{_VARIANT_WORDS})[\s-]+(?:build|version|variant|flavou?r)\s+or\s+"
    rf"(?:the\s+|a\s+|an\s+|its\s+)?(?P<v2>{_VARIANT_WORDS})[\s-]+"
    r"(?:build|version|variant|flavou?r)(?!\w)",
    FLAGS,
)
"""Two builds of the package just named, either one fine: "WarpX 24.08, either the CUDA build
or the HIP build". Read as two packages (CUDA and HIP) both would be required."""
_BUILD_CHOICE_HINT_RE = re.compile(
    r"[\s-](?:build|version|variant|flavou?r)\s+or\s+(?:the\s+|a\s+|an\s+|its\s+)?"
    rf"(?:{_VARIANT_WORDS})[\s-]+(?:build|version|variant|flavou?r)(?!\w)",
    FLAGS,
)
"""What every match of :data:`_BUILD_CHOICE_RE` contains ("build or the HIP build"): led by
the blank before the first noun, which the engine skips to."""
_BUILD_IS_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}\s*[,;]?\s*"
    r"(?:(?:which|that|(?:and|but)\s+it|it)\s+)?(?:must|should|has\s+to|have\s+to|needs\s+to|need\s+to|will\s+have\s+to|is\s+to)\s+be\s+"
    rf"(?:the|a|an|its)\s+(?P<v>{_VARIANT_WORDS})[\s-]+(?:enabled\s+|accelerated\s+)?"
    r"(?:build|version|variant|flavou?r|one)(?!\w)",
    FLAGS,
)
"""A variant stated as what the package must be: "GROMACS must be the CUDA build", "LAMMPS
has to be a Kokkos-enabled build". Only a must: "GROMACS is the CUDA build" may describe what
a site has, not what the job needs. "it" right after the name points back to it: "marian-nmt
1.12, and it must be the CUDA build"."""
_IN_BUILD_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}|{_NAME}){WORD_END}{_WITH_SPEC}{_BRACKET_VERSION}\s*,?\s*"
    rf"(?:(?:in|as)\s+(?:the|its|a|an)\s+(?P<v>{_VARIANT_WORDS})[\s-]+(?:enabled\s+)?"
    r"(?:build|version|variant|flavou?r)|in\s+(?P<p>double[\s-]+precision)(?:\s+mode)?)(?![\w-])",
    FLAGS,
)
"""A variant said as the build the package runs in: "TELEMAC (release 8.4) in its MPI build",
"LS-DYNA R13 in the double precision version", "NAMD 3.0 as the CUDA build", "GROMACS 2024
in double precision"."""
_IN_BUILD_PHRASE = (
    r"\s+(?:the|its|a|an)\s+[\w-]+[\s-]+(?:\w+[\s-]+)?(?:build|version|variant|flavou?r)(?!\w)"
)
_IN_BUILD_HINT_RE = re.compile(
    _letter_led([f"in{_IN_BUILD_PHRASE}", f"as{_IN_BUILD_PHRASE}", r"in\s+double[\s-]+precision"]),
    FLAGS,
)
_PRECISION_BEFORE_RE = re.compile(
    r"(?<![\w-])double[\s-]+precision[\s-]+(?:(?:build|version)\s+of\s+)?(?:the\s+)?"
    rf"(?P<name>{_CATALOGUED}){WORD_END}{_WITH_SPEC}",
    FLAGS,
)
"""A catalogued package named after its precision: "a double-precision GROMACS 2024",
"double precision build of CP2K"."""
"""What every match of :data:`_IN_BUILD_RE` contains ("in its MPI build"): skips its scan."""
_SUFFIXED_MODULE_RE = re.compile(
    r"(?<![\w.+/-])(?P<name>[a-z][\w.+-]{0,40}?[-_](?:cuda|rocm|hip|kokkos|sycl|openmp|openacc))"
    rf"[/@](?P<spec>{VERSION})(?![\w.+/-])",
    FLAGS,
)
"""A module name with its build and version in running text: "lammps-kokkos/2Aug2023 for the
MD runs" is LAMMPS built with Kokkos, release 2Aug2023 (see :func:`build_suffix`)."""
_OF_BUILD_RE = re.compile(r"(?:build|version|variant|flavou?r)\s+of\s", FLAGS)
"""A prefix variant said as "a CUDA build of X": the phrase makes X a package."""
_BUILD_IS_HINT_RE = re.compile(
    r"\s+be\s+(?:the|a|an|its)\s+[\w-]+[\s-]+(?:\w+\s+)?(?:build|version|variant|flavou?r|one)(?!\w)",
    FLAGS,
)
"""What every match of :data:`_BUILD_IS_RE` contains ("be the CUDA build"): skips its scan."""
_DATED_RELEASE_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}){WORD_END}"
    r"(?:\s+(?:stable\s+|feature\s+)?(?:version|release)s?(?:\s+(?:of|from|dated))?\s+"
    r"|\s*\(\s*(?:(?:stable\s+|feature\s+)?(?:version|release)\s+)?(?:of\s+|from\s+)?)"
    rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?[^\S\n]+(?P<month>{alternation(lexicon.MONTHS)})\.?,?[^\S\n]+"
    r"(?P<year>(?:19|20)\d\d)(?![\w.])(?:\s+(?:stable\s+)?(?:version|release))?"
    rf"(?P<after>\s+{AFTER_WORDS}(?!\w))?\s*\)?"
    r"(?:\s*,?\s*(?:(?:that\s+is|which\s+is|and)\s+)?(?:built|compiled|configured)\s+with\s+(?:the\s+)?"
    rf"(?P<variants>(?:{_VARIANT_WORDS})(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)(?:{_VARIANT_WORDS})){{0,3}})"
    r"(?![\w-]|\s*[@/]?\s*v?\d))?",
    FLAGS,
)
"""A release named by its date, as LAMMPS names them ("2Aug2023"), written out in words:
"LAMMPS version of 2 August 2023", "LAMMPS (29 Aug 2024 release)", read as ``==2Aug2023``
(">=" with "or later" after it; the compact "27Jun2024" is an ordinary version),
with the variants it is built with after it ("... compiled with KOKKOS and CUDA"). Only a
catalogued name after which "version", "release" or a bracket says the date is a release;
read before anything else, since the date's words would otherwise be read as a name
("August 2023") or a deadline."""
_MONTH_ABBREVIATIONS = tuple("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())
"""The months as a dated release spells them ("2Aug2023"), January first."""
_DATED_HINT_RE = re.compile(
    rf"\d(?:st|nd|rd|th)?[^\S\n]*(?:{alternation(lexicon.MONTHS)})\.?,?[^\S\n]*(?:19|20)\d\d", FLAGS
)
"""What every match of :data:`_DATED_RELEASE_RE` contains ("2 August 2023"): skips its scan."""
_ITEM = r"(?:the\s+)?[a-z][a-z0-9_-]{1,30}"
_PACKAGE_LIST_RE = re.compile(
    rf"{WORD_START}(?P<name>{_CATALOGUED}){WORD_END}{_WITH_SPEC}\s+"
    r"(?:needs?|requires?|must\s+have|should\s+have|has\s+to\s+have|with)\s+"
    rf"(?P<items>(?:{_ITEM}(?:\s+package)?\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)){{0,4}}{_ITEM}\s+packages?)"
    r"(?!\w)",
    FLAGS,
)
"""Optional packages of a code, as LAMMPS calls its build options: "our LAMMPS needs the REAXFF
package and the OPENMP package", "LAMMPS with the REAXFF, QEQ and OPENMP packages". Each
item must be a variant word or an add-on acronym written in capitals, as LAMMPS writes its
packages (see :func:`_add_on`), or nothing is read: "R with the BiocManager package" and
"LAMMPS with the MOLECULE package" (an English word) are left to the other stages."""
_PACKAGE_LIST_HINT_RE = re.compile(r"\spackages?(?!\w)", FLAGS)
"""What every match of :data:`_PACKAGE_LIST_RE` contains (" package"): skips its scan."""


_JOIN_OR_RE = re.compile(
    r"\s*(?:\([^()\n]{1,30}\)\s*)?(?:#\s*)?(?:[,(]\s*)?"
    r"(?:or|or\s+else|or\s+alternatively|alternatively|otherwise|or\s+maybe|"
    r"or\s+perhaps|or\s+possibly|or\s+even)\s*",
    FLAGS,
)
_JOIN_COMMA_RE = re.compile(r"\s*,\s*")
_NOT_NAMES = (
    lexicon.STOP_WORDS
    | lexicon.RESERVED_WORDS
    | set(lexicon.WEEKDAYS)
    | set(lexicon.MONTHS)
    | {squash(w) for w in lexicon.NUMBER_WORDS}
    | {squash(w) for ws in lexicon.VERSION_WORDS_BEFORE for w in ws.split()}
    | {squash(w) for ws in lexicon.VERSION_WORDS_AFTER for w in ws.split()}
)


def _hyphen_numbered(m: re.Match[str], name: str) -> bool:
    """A capitalised or all-capital name with a whole number after a hyphen ("COVID-19",
    "Sentinel-2", "GPT-4") numbers a thing; a package's version has a dot ("WRF-4.5")."""
    between = m.string[m.end("name") : m.start("spec")]
    return between == "-" and not name.islower() and m.group("spec").isdigit()


_MODEL_SIZE_AFTER_RE = re.compile(r"[\s-]*\d{1,4}(?:\.\d)?[bm](?!\w)", FLAGS)
"""A parameter count after a name and number: the name is a model's ("Llama 3 70B")."""
_DOTTED_RE = re.compile(r"\s*(?:(?:version|release|ver\.?)\s*)?v?\d+\.\d", FLAGS)
"""A release number with a dot: "CLASS 3.2" names the code; "STEP 2" only counts. Acronyms
("DLC 1.2", a design load case) are no English words, so they never count as shouted."""
_NOT_SPEC_NAMES = frozenset(("mpi", "gpu", "gpus", "cpu", "cpus", "openmp", "hybrid"))
"""Words written like a Spack spec's name that name a way of running, not a package."""
_MODULE_ITEM_RE = re.compile(
    rf"^(?P<name>[a-z][\w.+-]{{0,63}}?)(?:(?:[/@:]|(?P<op>==|>=|<=|~=|!=|>|<))"
    rf"(?P<version>{VERSION}))?$",
    FLAGS,
)
"""A module or install item: ``gcc/12.2.0``, ``lammps@2Aug2023``, pip's ``flax==0.8.5``."""


def extract_containers(scanner: Scanner, draft: Draft) -> None:
    """Runtimes ("podman >= 4"), then "container" alone (runtime ``any``), then "rootless"."""

    named: list[tuple[int, str, list[VersionConstraint], str]] = []
    unset = draft.container is None

    def runtime(m: re.Match[str]) -> bool:
        if _failed_runtime(scanner.original, m, draft):
            return True  # "no containers, our code breaks under Singularity": the reason
        name = lookup(lexicon.CONTAINER_RUNTIMES, m.group("name")) or m.group("name").lower()
        named.append((m.start(), name, _constraints(m), m.group(0)))
        draft.rootless = draft.rootless or bool(m.group("rootless"))
        return True

    def generic(m: re.Match[str]) -> bool:
        draft.set_container("any", [], m.group(0))
        draft.rootless = draft.rootless or bool(m.group("rootless"))
        return True

    def rootless(_: re.Match[str]) -> bool:
        draft.rootless = True
        return True

    any_runtime: list[bool] = []

    def accepted(m: re.Match[str]) -> bool:
        any_runtime.append(bool(m.group("container")))
        return True

    scanner.take(_ANY_RUNTIME_RE, accepted)
    scanner.take(_RUNTIME_RE, runtime)
    for i in said_now_first(scanner.original, [at for at, *_ in named]):
        draft.set_container(*named[i][1:])
    if unset and named:
        draft.runtime_spots["container"] = [at for at, *_ in named]
    scanner.take(_CONTAINER_RE, generic)
    scanner.take(_ROOTLESS_RE, rootless)
    if any_runtime and (draft.container is not None or any(any_runtime)):
        draft.container = ContainerRequirement(runtime="any")  # "Docker, but any runtime will do"


_RUNTIME_FAILED_RE = re.compile(
    r"(?<!\w)(?:(?:is|are|was|were|does|do|did)(?:\s+not|n't)\s+(?:working|work|run|running)"
    r"|not\s+(?:working|work)|(?:never|won't|can't|cannot)\s+(?:work|worked|run|ran)"
    r"|breaks?|broke|broken|fails?|failed|failing|crash(?:es|ed)?|segfaults?|hangs?)(?!\w)",
    FLAGS,
)
"""What went wrong with a runtime ("not working inside Singularity", "breaks under Apptainer",
"MPI inside Apptainer never worked"): gated on containers being refused in the same request,
see :func:`_failed_runtime`."""


def _failed_runtime(text: str, m: re.Match[str], draft: Draft) -> bool:
    """Whether a runtime is named only as the reason containers are refused.

    "Please no containers, our code is not working inside Singularity" refuses containers and
    says why; reading Singularity as the runtime asked for would contradict the refusal. Only
    when the request excludes containers and the runtime's own sentence tells of a failure:
    "no containers on the login node, run it in Podman later" keeps Podman."""
    if Feature.CONTAINER not in draft.excluded:
        return False
    begin = max(text.rfind(". ", 0, m.start()), text.rfind("\n\n", 0, m.start()), -1) + 1
    ends = [i for i in (text.find(". ", m.end()), text.find("\n\n", m.end())) if i >= 0]
    return bool(_RUNTIME_FAILED_RE.search(text, begin, min(ends, default=len(text))))


_ANY_RUNTIME_RE = re.compile(
    r"(?<!\w)any\s+(?:other\s+|recent\s+|oci\s+|standard\s+)?(?P<container>container\s+)?"
    r"(?:runtime|engine)(?:\s+(?:that|which)\s+[^.;!?\n]{1,40}?)?\s+"
    r"(?:(?:should\s+be|would\s+be|is|will\s+be)\s*(?:fine|ok(?:ay)?|acceptable|good)"
    r"|(?:will|would|should|can)\s+(?:do|work))(?!\w)",
    FLAGS,
)
"""Any container runtime accepted in so many words, as for MPI: "Docker is our usual, but any
runtime that takes our image will do" asks for a container, not for Docker. A bare "any runtime"
counts only where a container is asked for too ("runtime" alone may mean the run time)."""


def extract_mpi(scanner: Scanner, draft: Draft) -> None:
    """An MPI library, named ("Open MPI 4.1") or not ("with MPI": any implementation).

    "We use Open MPI, but any MPI will do" asks for any MPI: the named one is what they have,
    not what they need."""

    named: list[tuple[int, str | None, list[VersionConstraint], str]] = []
    unset = draft.mpi is None

    def handle(m: re.Match[str]) -> bool:
        implementation = lookup(lexicon.MPI_IMPLEMENTATIONS, m.group("name"))
        named.append((m.start(), implementation, _constraints(m), m.group(0)))
        return True

    any_mpi = scanner.take(_ANY_MPI_RE, lambda m: True)
    low = scanner.text.lower()
    if (" or " in low or "/" in low) and sum(low.count(w) for w in ("mpi", "mvapich", "mpt")) > 1:
        any_mpi += scanner.take(_MPI_CHOICE_RE, _distinct_implementations)
    scanner.take(_MPI_RE, handle)
    for i in said_now_first(scanner.original, [at for at, *_ in named]):
        draft.set_mpi(*named[i][1:])
    if unset and named and not any_mpi:
        draft.runtime_spots["mpi"] = [at for at, *_ in named]
    if any_mpi:
        draft.mpi = MPIRequirement()
    folded = fold(scanner.original)
    if may_match(_WRAPPER_RANKS_RE, folded) and _WRAPPER_RANKS_RE.search(scanner.original):
        draft.mpi_implied = True  # "the ranks do the counting with mpi4py": MPI underneath


_MPI_WRAPPERS = r"(?<![\w-])(?:mpi4py|mpi4jax|dask-mpi|petsc4py)(?![\w-])"
_RANK_WORDS = (
    r"(?<![\w-])(?:ranks|(?:each|every|per|one|the\s+root)\s+rank|mpi\s+(?:processes|tasks))"
    r"(?![\w-])(?!\s+(?:of|among)(?!\w))"
)
"""Ranks as processes: plural, or one counted ("each rank"); "rank the runs" is a verb."""
_WRAPPER_RANKS_RE = re.compile(
    rf"{_RANK_WORDS}[^.;!?\n]{{0,80}}?{_MPI_WRAPPERS}|{_MPI_WRAPPERS}[^.;!?\n]{{0,80}}?{_RANK_WORDS}",
    FLAGS,
)
"""Ranks and a Python MPI wrapper in one sentence ("the ranks do sharded counting with mpi4py",
"mpi4py spreads the grid over the ranks"): the wrapper's ranks run on an MPI, so any MPI is
asked for. "Each rank drives one GPU" alone says nothing of MPI (torchrun has ranks too)."""

_ANY_MPI_RE = re.compile(
    r"(?<!\w)any\s+(?:other\s+|recent\s+|modern\s+|standard\s+|decent\s+)?mpi"
    r"(?:\s+(?:implementation|library|flavou?r|stack))?\s+(?:should\s+be|would\s+be|is|will\s+be)?"
    r"\s*(?:fine|ok(?:ay)?|acceptable|good|do|work)"
    r"|(?<!\w)any\s+(?:other\s+|recent\s+|modern\s+)?mpi(?:\s+implementation|\s+library)?"
    r"\s+(?:will|would|should|can)\s+(?:do|work)(?!\w)",
    FLAGS,
)
"""Any MPI accepted in so many words: "any recent MPI should be fine", "any MPI will do"."""
_MPI_NAMED = alternation(_MPI_SPELLINGS)
_MPI_VERSION = r"(?:\s+v?\d[\w.]{0,20})?"
_MPI_CHOICE_RE = re.compile(
    rf"(?<!\w)(?:either\s+)?{_MPI_NAMED}{_MPI_VERSION}"
    rf"(?:\s*(?:,\s*)?(?:or|/|and/or|,)\s*{_MPI_NAMED}{_MPI_VERSION})+(?!\w)",
    FLAGS,
)
"""Two MPI libraries offered as alternatives ("Open MPI or MPICH is fine"): any MPI will do,
since the field holds one implementation; requiring either one would turn away the other."""


def _distinct_implementations(m: re.Match[str]) -> bool:
    found = {
        lookup(lexicon.MPI_IMPLEMENTATIONS, n.group(0))
        for n in re.finditer(_MPI_NAMED, m.group(0), FLAGS)
    }
    return len(found - {None}) > 1


def extract_variants(scanner: Scanner, draft: Draft) -> None:
    """Packages asked for with a build variant, before anything else reads their words.

    It runs before negation and MPI, so "hdf5 built without MPI" is a variant of HDF5 (``~mpi``)
    and neither an exclusion of MPI nor a request for it.
    """

    def dated(m: re.Match[str]) -> bool:
        month = lexicon.MONTHS.get(m.group("month").lower())
        name = _canonical(m.group("name"))
        if month is None or name is None or not 1 <= int(m.group("day")) <= 31:
            return False
        day, year = int(m.group("day")), m.group("year")
        version = f"{day}{_MONTH_ABBREVIATIONS[month - 1]}{year}"
        said = re.findall(_VARIANT_WORDS, m.group("variants") or "", FLAGS)
        variants = [f"+{_variant(v)}" for v in said]
        constraints = parse_constraints(f"{version}{m.group('after') or ''}")[0]
        if len(constraints) != 1:
            return False
        draft.add_software(name, constraints, m.span(), variants)
        return True

    if _DATED_HINT_RE.search(scanner.text):
        scanner.take(_DATED_RELEASE_RE, dated)

    def build_choice(m: re.Match[str]) -> bool:
        first, second = _variant(m.group("v1")), _variant(m.group("v2"))
        found = m.group("name")
        name = _canonical(found) or (found.lower() if m.group("spec") else None)
        if first == second or name is None:
            return False
        draft.add_software(name, _constraints(m), m.span())
        draft.variant_choices.append((name, [f"+{first}", f"+{second}"]))
        return True

    if " or " in scanner.text.lower() and _BUILD_CHOICE_HINT_RE.search(scanner.text):
        scanner.take(_BUILD_CHOICE_RE, build_choice)

    def packages(m: re.Match[str]) -> bool:
        said = [
            w
            for w in re.findall(r"[a-z][a-z0-9_-]{1,30}", m.group("items"), FLAGS)
            if w.lower() not in ("the", "and", "package", "packages")
        ]
        variants = [_variant(w) if squash(w) in _SQUASHED_VARIANTS else w.lower() for w in said]
        if not said or not all(
            squash(w) in _SQUASHED_VARIANTS or (w.isupper() and _add_on(w)) for w in said
        ):
            return False  # "R with the BiocManager package": a package of its own
        return _record(draft, m, [f"+{v}" for v in variants], built=True)

    if _PACKAGE_LIST_HINT_RE.search(scanner.text):
        scanner.take(_PACKAGE_LIST_RE, packages)

    def spack(m: re.Match[str]) -> bool:
        found = m.group("name")
        name = _canonical(found)
        if name is None and (squash(found) in _NOT_NAMES | _NOT_SPEC_NAMES or len(found) < 2):
            return False  # "MPI+OpenMP" is a programming model, not MPI built with OpenMP
        version = m.group("v1") or m.group("v2") or m.group("v3") or m.group("v4")
        signed = re.findall(r"[+~][a-z][a-z0-9_-]*", m.group("variants").lower())
        if m.group("v1"):  # "petsc@3.21.4+mumps+hypre~debug": after "@", a sign starts a variant
            version, *tail = re.split(r"(?=[+~][a-z])", m.group("v1"))
            signed = [t.lower() for t in tail] + signed
        constraints = (
            [VersionConstraint(op=Comparator.EQ, version=v)]
            if (version and (v := clean_version(version)))
            else []
        )
        draft.add_software(name or found.lower(), constraints, m.span(), signed)
        return True

    def after(m: re.Match[str]) -> bool:
        variant = _variant(m.group("v"))
        how = m.group("how").lower()
        how = "with" if re.fullmatch(_WITH_TYPOS, how) else how
        plain = how in ("with", "w/", "plus") and not m.group("support") and not m.group("built")
        more = re.findall(_BACKEND_WORDS, m.group("more") or "", FLAGS)
        if plain and variant not in _GPU_VARIANTS | _OPTION_VARIANTS and not more:
            # "LAMMPS with MPI" asks for MPI; "HDF5 with MPI support" is +mpi, and so is "FFTW
            # with MPI and OpenMP": a back end in the same list makes every item a build option
            return False
        sign = "~" if how in ("without", "w/o", "minus") else "+"
        said = [f"{sign}{variant}"]
        said += [f"{sign}{_variant(found)}" for found in more]  # "with KOKKOS and CUDA"
        return _record(draft, m, said, built=bool(m.group("built")))

    def contrast(m: re.Match[str]) -> bool:
        signs = [
            "~" if how.lower() in ("without", "w/o") else "+"
            for how in (m.group("how"), m.group("how2"))
        ]
        if signs[0] == signs[1]:
            return False
        said = [f"{signs[0]}{_variant(m.group('v'))}", f"{signs[1]}{_variant(m.group('v2'))}"]
        return _record(draft, m, said, built=True)

    def before(m: re.Match[str]) -> bool:
        said = m.groupdict().get("vb") or m.group("v")
        found = m.group("name")
        if _canonical(found) is None and _OF_BUILD_RE.search(m.group(0)) and _proper(found):
            # "the CUDA build of Chroma", "the MPI version of SWASH": only a package has builds
            draft.add_software(found.lower(), _constraints(m), m.span(), [f"+{_variant(said)}"])
            return True
        return _record(draft, m, [f"+{_variant(said)}"])

    def suffixed(m: re.Match[str]) -> bool:
        split = build_suffix(m.group("name"))
        if split is None:
            return False
        draft.add_software(split[0], _constraints(m), m.span(), [split[1]])
        return True

    def in_build(m: re.Match[str]) -> bool:
        return _record(draft, m, [f"+{_variant(m.group('v') or m.group('p'))}"], built=True)

    def built(m: re.Match[str]) -> bool:
        said = m.group("v")
        variant = _SQUASHED_VARIANTS.get(squash(said)) or _canonical(said)
        if variant is None and (_add_on(said) or _shouted_add_on(said, m.group("how"))):
            variant = said.lower()  # "NEURON built with CoreNEURON", "MILC built with QUDA"
        if variant is None or variant in _COMPILERS:
            return False
        how = m.group("how").lower()
        if how == "for" and variant not in _GPU_VARIANTS:
            return False  # "built for ROCm" is a back end; "compiled for Linux" says no variant
        sign = "~" if how == "without" else "+"
        said = [f"{sign}{variant}"]
        for item in _MORE_ITEM_RE.finditer(m.group("more") or ""):  # "with Kokkos and CUDA"
            again = (item.group("how") or "").lower()
            more_sign = {"": sign, "with": "+"}.get(again, "~")
            found = item.group("v")
            more = _SQUASHED_VARIANTS.get(squash(found)) or _canonical(found) or _variant(found)
            said.append(f"{more_sign}{more}")
        return _record(draft, m, said, built=True)

    def listed(m: re.Match[str]) -> bool:
        if squash(m.group("name")) in _NOT_NAMES | _NOT_SPEC_NAMES:
            return False  # "MPI (+OpenMP)": a way of running, not a package
        variants = re.findall(r"[+~][a-z][a-z0-9_-]*", m.group("variants").lower())
        return _record(draft, m, variants, built=True)

    if _PAREN_HINT_RE.search(scanner.text):
        scanner.take(_PAREN_VARIANT_RE, before)
        scanner.take(_PAREN_SPEC_RE, listed)

    def spaced(m: re.Match[str]) -> bool:
        """Without a version, only a catalogued name owns the variants after it: "hdf5 +mpi
        +hl" is a spec, while "results +/- 2%" or "nodes +gpus" are no package's build."""
        found = m.group("name")
        name = _canonical(found)
        if m.group("bspec") and name is None and _word_like(found):
            return False  # "run 3.5 +mpi": a word, not a package, before the version
        if not m.group("spec") and not m.group("bspec") and name is None:
            return False
        if m.group("bspec"):  # "quda 1.1.0 +rocm"
            name = name or found.lower()
            variants = re.findall(r"[+~][a-z][a-z0-9_-]*", m.group("variants").lower())
            constraints = parse_constraints(m.group("bspec"))[0]
            draft.add_software(name, constraints, m.span(), variants)
            return True
        return listed(m)

    scanner.take(_SPACED_SPEC_RE, spaced)

    def patched(m: re.Match[str]) -> bool:
        said = m.group("v")
        variant = _SQUASHED_VARIANTS.get(squash(said)) or _canonical(said)
        if variant is None or variant in _COMPILERS:
            return False
        return _record(draft, m, [f"+{variant}"], built=True)

    if _BUILT_HINT_RE.search(scanner.text):
        scanner.take(_BUILT_WITH_RE, built)
    if "patched" in scanner.text.lower():
        scanner.take(_PATCHED_RE, patched)

    scanner.take(_SUFFIXED_MODULE_RE, suffixed)
    scanner.take(_SPACK_SPEC_RE, spack)
    if _WITH_HINT_RE.search(scanner.text):
        if "without" in scanner.text.lower() or "w/o" in scanner.text.lower():
            scanner.take(_WITH_AND_WITHOUT_RE, contrast)
        scanner.take(_WITH_VARIANT_RE, after)
    if _ENABLED_HINT_RE.search(scanner.text):  # the full pattern is costly; most texts lack it
        scanner.take(_ENABLED_AFTER_RE, before)
    if _BUILD_NOUN_HINT_RE.search(scanner.text):
        if _GLOSSED_HINT_RE.search(scanner.text):
            scanner.take(_GLOSSED_BUILD_RE, lambda m: _described(draft, m))
        if _DESCRIBED_HINT_RE.search(scanner.text):
            scanner.take(_DESCRIBED_BUILD_RE, lambda m: _described(draft, m))
    scanner.take(_PREFIX_VARIANT_RE, before)
    if _BUILD_IS_HINT_RE.search(scanner.text):
        scanner.take(_BUILD_IS_RE, before)
    if _IN_BUILD_HINT_RE.search(scanner.text):
        scanner.take(_IN_BUILD_RE, in_build)
    if "precision" in scanner.text.lower():
        scanner.take(_PRECISION_BEFORE_RE, lambda m: _record(draft, m, ["+double"]))


def extract_software(scanner: Scanner, draft: Draft) -> None:
    """Module items, catalogued packages, versions before names, then unknown names with
    versions. Names with no version and outside the catalogue are read later, by the
    open-vocabulary stage."""

    def catalogued(m: re.Match[str]) -> bool:
        found = m.group("name")
        name = lexicon.SOFTWARE_CASE_SENSITIVE.get(found) or lookup(lexicon.SOFTWARE, found)
        attached = m.group("attached")
        if name is None or (attached and (found[-1].isdigit() or len(found) == 1)):
            return False  # "R14", "r24.03.1": a release tag of something else, not R
        if len(found) == 1 and _INITIAL_RE.match(m.string, m.end("name")):
            named = _NAMED_BEFORE_RE.search(m.string[max(0, m.start() - 20) : m.start()])
            if named and not english_word(named.group("first") or ""):
                return False  # "Dr. R. Osei", "Priya C. Nair": an initial, not R or C
        if attached and lookup(lexicon.SOFTWARE, found + attached) == name:
            attached = None  # "iqtree2" is a spelling of IQ-TREE, not IQ-TREE version 2
        if attached and len(attached) == 1 and name not in _INTERPRETERS:
            return False  # "namd3", "cp2k9": a name written with its digit, read as written
        if attached and m.group("spec") and squash(found) in lexicon.SOFTWARE_NEEDS_VERSION:
            return False  # "beast2/2.7.6": the digits belong to another name, not "beast 2"
        constraints = _constraints(m)
        if attached and (version := clean_version(attached)):
            constraints.insert(0, VersionConstraint(op=Comparator.EQ, version=version))
        needs_version = squash(found) in lexicon.SOFTWARE_NEEDS_VERSION
        if needs_version and not constraints and found not in lexicon.SOFTWARE_CASE_SENSITIVE:
            return False
        constraints = _apply_operator(m.group("preop"), constraints)
        if _version_choice(draft, name, constraints, m):
            return True
        draft.add_software(name, constraints, m.span())
        return True

    def version_of(m: re.Match[str]) -> bool:
        found = m.group("name")
        name = _canonical(found)
        if name is None and found.lower() not in filler_words() and found.lower() not in _NOT_NAMES:
            name = found.lower()  # "version 61.0.1 of SWAT+": a version makes the name
        version = clean_version(m.group("version"))
        if name is None or version is None or _DURATION_VERSION_RE.match(m.group("version")):
            return False  # "3h of blender": a run time, not version 3h
        if _SIZE_VERSION_RE.match(m.group("version")):
            return False  # "500GB of scratch": an amount, not version 500GB
        if _NUMBERED_PART_BEFORE_RE.search(m.string[max(0, m.start() - 12) : m.start()]) or (
            CITED_AFTER_RE.match(m.string, m.end())
        ):
            return False  # "Fig. 4 of Ito et al.": a part of a paper, not version 4 of Ito
        op = word_comparator(m.group("op")) if m.group("op") else Comparator.EQ
        draft.add_software(
            name, [VersionConstraint(op=op or Comparator.EQ, version=version)], m.span()
        )
        return True

    def unknown(m: re.Match[str]) -> bool:
        name = m.group("name")
        if squash(name) in _NOT_NAMES or len(name) > 64 or HARDWARE_RE.match(name):
            return False  # "Ubuntu 22.04" is a requirement, but not a package: left unread
        if _LIST_NUMBER_RE.match(m.string, m.start("spec")) and "\n" in m.group(0):
            return False  # "BiocParallel\n2. a node": the next item's number, no version
        if series_position(m.string, m.start("spec")):
            return False  # "at q-point 3 of 20": a place in a series, no version; left unread
        lower = name.lower()
        shouted = (  # "CLASS 3.2", "SWIFT 1.0": a code named by a word, in capitals
            name.isupper() and english_word(name) and _DOTTED_RE.match(m.group("spec"))
        )
        if lower in _COUNTED_NOUNS and not shouted:
            return False  # "Step 2", "Section 3.2", "capability 8.0": things counted, not code
        if lower in filler_words() and not shouted:
            return False  # "step 2.0", "capability 8.0": ordinary words, left unread
        capital = _capitalised(name) and _release_number_after(m)
        between = m.string[m.end("name") : m.start("spec")]
        if name.islower() and english_word(name) and _PRODUCT_NOUN_RE.search(between):
            return False  # "(Raven) hydrological modelling framework 3.8": a describing word
        if _english_before_year_or_comma(m, name):
            return False  # "covers 2019-2023", "after, version 4.3": English, left unread
        constraints, explicit = parse_constraints(m.group("spec"))
        # "GROMCAS 2023" and "flash-attn 2" read like names with versions; "foo 2" does not
        named = (
            near_catalogue_name(name) is not None
            or bool(re.search(r"[-.+\d]", name[1:]))
            or (name.isupper() and len(name) >= 3)  # "SKIRT 9", "HACC 1"
            or capital  # "Octopus 14", "Maya 2024": a capitalised word with a release number
            or name_shaped(name)  # "MetaBAT 2", "miniAMR 1"
        )
        named = named and bool(_PLAIN_VERSION_RE.match(m.group("spec").rstrip(".")))
        if _hyphen_numbered(m, name):
            return False  # "COVID-19", "GPT-4": a numbered name of something else
        if placed_as_non_name(scanner.original, m.start("name"), m.end("name")):
            return False  # "coresMin: 36", "s3://bucket/2026": a key or a path, no package
        if _MODEL_SIZE_AFTER_RE.match(m.string, m.end()):
            return False  # "Llama 3 70B", "Qwen 2.5 7B": a trained model, not a package
        if _not_a_release(m, name):
            return False  # "Nature 2013", "simulates 2.3 million", "frames 1-2400"
        if data_source(scanner.original, m.start("name"), name):
            return False  # "GTEx v8 samples", "BraTS 2023 + KiTS23 data": a data set's release
        if near_catalogue_name(name) is None and (
            named_as_data(scanner.original, m.start("name"), name)
            or shaped_as_no_package(scanner.original, m.start("name"), name)
            or language_name(name)
            or list_or_group_name(name)
            or instrument_name(name)
        ):
            return False  # "trained on BraTS 2023", "OM4 0.25 degree", "(Wang 2015)", "Fortran
            # 2008": unread
        if not constraints or not (explicit or named or looks_like_version(m.group("spec"))):
            return False
        if _version_choice(draft, name.lower(), constraints, m):
            return True  # "pyhton 3.11 or 3.12": either version, of a name as written
        draft.add_software(name.lower(), constraints, m.span())
        return True

    def release_tag(m: re.Match[str]) -> bool:
        found, tag, word = m.group("name"), m.group("tag"), m.group("word")
        name = _canonical(found)
        if name is None:
            lower = found.lower()
            if squash(found) in _NOT_NAMES or lower in filler_words() or english_word(lower):
                return False
            if not (name_shaped(found) or re.search(r"[-\d]", found[1:]) or found.isupper()):
                return False  # "ward c12": no name, left unread
            name = lower
        tag = tag.lower()
        if tag[0].isdigit() and not (word and (word.lower() == "checkpoint" or "p" in tag)):
            return False  # "run 48h", "8p5" alone: not clearly a release tag
        if tag[0].isdigit() and _UNIT_TAG_RE.fullmatch(tag):
            return False  # "checkpoint 48h": a time, not a tag
        version = clean_version(tag) or tag
        draft.add_software(name, [VersionConstraint(op=Comparator.EQ, version=version)], m.span())
        return True

    def language_package(m: re.Match[str]) -> bool:
        found = m.group("name")
        name = _canonical(found)
        if name is None:
            lower = found.lower()
            if squash(found) in _NOT_NAMES or lower in filler_words() or english_word(lower):
                return False  # "a package for R, version 4.3": R's own release
            name = lower
        constraints, _ = parse_constraints(m.group("spec"))
        language = lookup(lexicon.SOFTWARE, m.group("lang"))
        if not constraints or language is None:
            return False
        draft.add_software(language, [], m.span("lang"))
        draft.add_software(name, constraints, m.span())
        return True

    def family_version(m: re.Match[str]) -> bool:
        name = _canonical(m.group("name"))
        family = squash(m.group("family"))
        if (
            name is None
            or family not in squash(name)
            or _canonical(m.group("family"))
            not in (
                None,
                name,
            )
        ):
            return False
        constraints, _ = parse_constraints(m.group("spec"))
        if not constraints:
            return False
        draft.add_software(name, constraints, m.span())
        return True

    _read_module_items(draft)
    _rejoin_gpu_names(scanner)
    skip_rejected_versions(scanner, draft)
    if _VERSION_HINT_RE.search(scanner.text):  # almost half the texts have no digit left
        if _RELEASE_TAG_HINT_RE.search(scanner.text):
            scanner.take(_RELEASE_TAG_RE, release_tag)
        if _VERSION_OF_HINT_RE.search(scanner.text):
            scanner.take(_VERSION_OF_RE, version_of)
        scanner.take(_LANGUAGE_PACKAGE_RE, language_package)
        if _FAMILY_HINT_RE.search(scanner.text):
            scanner.take(_FAMILY_VERSION_RE, family_version)
    scanner.take(_CATALOGUE_RE, catalogued)
    if _VERSION_HINT_RE.search(scanner.text):
        scanner.take(_UNKNOWN_RE, unknown)


_REJECTED_RE = re.compile(
    r"(?<![\w.@/-])(?P<name>[a-z][\w.+-]{0,40}+)[^\S\n]++(?P<version>v?\d{1,4}(?:\.\d{1,4}){0,3}[a-z]?)"
    r"[^\S\n]++(?:is|was|are|were|'s)[^\S\n]++"
    r"(?:(?:way|far|much|a[^\S\n]+bit|rather|simply|just)[^\S\n]++)?"
    r"(?:too[^\S\n]+old|outdated|out[^\S\n]+of[^\S\n]+date|obsolete|deprecated"
    r"|not[^\S\n]+(?:new|recent)[^\S\n]+enough|no[^\S\n]+longer[^\S\n]+supported)"
    r"(?![\w-])(?=[^.!?\n\d]{0,60}?(?<![\w.])(?P<bound>v?\d{1,4}(?:\.\d{1,4}){0,3}[a-z]?"
    r"[^\S\n]*+(?:\+|or[^\S\n]+(?:later|newer|above|higher|more[^\S\n]+recent)|onwards?))"
    r"(?![\w+]))",
    FLAGS,
)
"""A version turned down, then a newer bound asked for in the same sentence: "r5py 0.1 is too
old, we need 1.0 or later", "gromacs 2018 is outdated; 2023 or newer please". The old number
is no requirement: read as one, it asked for exactly the release the writer refuses. The name
gets the newer bound, which says the refusal too ("1.0 or later" rules 0.1 out), so nothing is
lost; the words between are left to the readers after this one. Without a bound after it, or
before a word that names no package ("Ubuntu 20.04 is too old"), the phrase is read as before."""


def skip_rejected_versions(scanner: Scanner, draft: Draft) -> None:
    """Read a turned-down version as the newer bound after it (see :data:`_REJECTED_RE`)."""
    if not may_match(_REJECTED_RE, scanner.folded):
        return  # most texts hold none of its words ("old", "obsolete"): spare the scan
    for m in _REJECTED_RE.finditer(scanner.text):
        found = m.group("name")
        name = lookup(lexicon.SOFTWARE, found)
        if name is None:
            lower = found.lower()
            if squash(found) in _NOT_NAMES or HARDWARE_RE.match(found) or lower in filler_words():
                continue
            if english_word(lower) and not found.isupper():
                continue  # "the old one 2.1 is too old": a word, not a package
            name = lower
        constraints, _ = parse_constraints(m.group("bound"))
        if not constraints:
            continue
        draft.add_software(name, constraints, m.span("name"))
        scanner.blank(m.start("name"), m.end("version"))
        scanner.blank(*m.span("bound"))
        draft.notes.append(f"{found} {m.group('version')} (a version turned down; not used)")


def _version_choice(
    draft: Draft, name: str, constraints: list[VersionConstraint], m: re.Match[str]
) -> bool:
    """More exact versions after "or" ("python 3.11 or 3.12"): any one of them will do."""
    orver = m.group("orver")
    if not orver or len(constraints) != 1 or constraints[0].op is not Comparator.EQ:
        return False
    others = [
        v
        for found in re.findall(r"\d{1,4}(?:\.\d[\w.]{0,20})?", orver)
        if (v := clean_version(found))
    ]
    if not others:
        return False
    draft.version_choices.append((name, [constraints[0].version, *others]))
    draft.add_software(name, [], m.span())
    return True


def group_alternatives(scanner: Scanner, draft: Draft) -> None:
    """Packages joined by "or" are alternatives: "lammps or gromacs", "namd, amber or charmm".

    A run of names joined by commas and "or" (at least one "or", no "and") is one group; a
    name mentioned elsewhere on its own stays required.
    """
    _drop_optional(scanner.original, draft)
    spans = _restatements_merged(sorted(set(draft.software_spans)), scanner.original)
    run: list[tuple[int, int, str]] = []
    saw_or = False
    groups: list[list[str]] = []

    def close() -> None:
        names = list(dict.fromkeys(name for _, _, name in run))
        if saw_or and len(names) > 1:
            groups.append(names)
        elif saw_or and len(run) > 1:
            _versions_as_choices(draft, names[0])  # "OpenFOAM v2312 or OpenFOAM 11"

    for span in spans:
        if run:
            between = scanner.original[run[-1][1] : span[0]]
            if _JOIN_OR_RE.fullmatch(between):
                saw_or = True
                run.append(span)
                continue
            if _JOIN_COMMA_RE.fullmatch(between):
                run.append(span)
                continue
            close()
        run, saw_or = [span], False
    if run:
        close()
    if "either" in scanner.original.lower():
        groups.extend(_either_one(spans, scanner.original, groups))
    fallbacks, restated = _fallbacks(spans, scanner.original)
    grouped = {n for g in groups for n in g}
    for pair in fallbacks:
        if not grouped & set(pair):
            groups.append(pair)
            grouped.update(pair)
    compared = _compared(spans, scanner.original)
    counted = [sp for sp in spans if sp not in compared and sp not in restated]
    required = _named_alone(_choices_restated(counted, scanner.original, groups), groups)
    for group in groups:
        kept = [n for n in group if n not in required]
        if len(kept) > 1:
            draft.alternatives.append(kept)


_ALSO_WORKS_RE = re.compile(
    r"\s*\)?\s*(?:would|will|should|could|can|does)?\s*(?:also|too|equally)\s+"
    r"(?:works?|do(?:es)?|(?:be|is|are)\s+(?:(?:just\s+as|perfectly)\s+)?(?:fine|ok|okay|acceptable|good|usable))(?![\w'\u2019])"
    r"|\s*\)?\s*(?:is|are|would\s+be)\s+(?:also|equally)\s+(?:fine|ok|okay|acceptable|good|usable)(?!\w)"
    r"|\s*\)?\s*(?:works?|would\s+(?:work|do)|will\s+do|is\s+(?:fine|ok|okay|acceptable))"
    r"\s+(?:too|as\s+well|equally(?:\s+well)?|instead)(?!\w)",
    FLAGS,
)
_TOGETHER_AFTER_RE = re.compile(r"\s*(?:with|alongside|together|next\s+to|on\s+top)(?!\w)", FLAGS)
"""After the second package: it would do as well ("SGLang 0.3 (vLLM 0.6 also works for us)",
"Amber 22; NAMD 3 would do too"). Not when :data:`_TOGETHER_AFTER_RE` follows: "also works
with it" (both are used together)."""
_ALSO_LEAD_RE = re.compile(
    r"\s*(?:\(|,|;|-{1,2}|\u2013|\u2014)\s*(?:but\s+|though\s+|although\s+)?"
)
"""What may stand between the two: a bracket, comma, semicolon or dash, maybe "but"."""
_ABSENT_BEFORE_RE = re.compile(
    r"(?<!\w)(?:if\s+not|if\s+(?:there\s+is|there'?s|you\s+have)\s+no|failing)\s+(?:the\s+)?$"
    r"|(?<!\w)if\s+(?:you|they|the\s+\w+|it)\s+(?:do(?:es)?\s+not|do(?:es)?n'?t)\s+have\s+(?:the\s+)?$"
    r"|(?P<condition>(?<!\w)if\s+(?:the\s+)?$)",
    FLAGS,
)
"""Before the first package: a condition on its absence ("if not", "if you don't have"), or a
bare "if" whose condition :data:`_ABSENT_AFTER_RE` must then state after the package."""
_ABSENT_AFTER_RE = re.compile(
    r"\s+(?:is|are)(?:\s+not|n'?t)\s+(?:available|installed|there|an\s+option|possible)(?!\w)",
    FLAGS,
)
"""After the first package, when "if" stands before it: "if OpenFOAM 11 is not available"."""
_FALLBACK_VERB_RE = re.compile(
    r"(?<!\w)(?:use|port\s+(?:it|this|them|the\s+\w+)\s+to|switch\s+(?:it\s+)?to|"
    r"fall\s+back\s+(?:to|on)|go\s+with|move\s+(?:it\s+)?to|try|rewrite\s+(?:it|this)\s+(?:in|with|for)|"
    r"take|run\s+(?:it\s+)?(?:with|on|in))\s+(?:the\s+|a\s+|an\s+)?$",
    FLAGS,
)
"""Right before the second package: a verb that takes it in the first one's place ("port it
to", "switch to", "use"); without one, a package after the condition is only named."""


def _fallbacks(
    spans: list[tuple[int, int, str]], original: str
) -> tuple[list[list[str]], set[tuple[int, int, str]]]:
    """Packages offered in place of another with no "or": "SGLang 0.3 (vLLM 0.6 also works)",
    and "does the site have Stata 18? If not Stata, I could port it to fixest": the second is
    a choice beside the first. A mention inside the condition ("if not Stata") refers back to
    the package and is returned too, so that it does not count as a requirement of its own;
    so are the earlier mentions of that package ("Subject: Stata on the new cluster?"), since
    the condition offers to do without it.

    Only two distinct names, and only a fallback the text offers with an acceptance phrase
    or a verb of substitution ("use", "port it to", "switch to") right before it; anything
    less keeps both packages required."""
    pairs: list[list[str]] = []
    restated: set[tuple[int, int, str]] = set()
    for a, b in zip(spans, spans[1:], strict=False):
        if a[2] == b[2]:
            continue
        if (
            _ALSO_LEAD_RE.fullmatch(original[a[1] : b[0]])
            and (m := _ALSO_WORKS_RE.match(original, b[1]))
            and not _TOGETHER_AFTER_RE.match(original, m.end())
            and not _NEGATED_RE.search(original[b[1] : m.end()])
        ):
            pairs.append([a[2], b[2]])
            continue
        before = original[max(0, a[0] - 40) : a[0]]
        cue = _ABSENT_BEFORE_RE.search(before)
        absent = bool(cue) and (
            not cue["condition"] or bool(_ABSENT_AFTER_RE.match(original, a[1]))
        )
        gap = original[a[1] : b[0]]
        if absent and not _SENTENCE_END_RE.search(gap) and _FALLBACK_VERB_RE.search(gap):
            pairs.append([a[2], b[2]])
            others = {sp for sp in spans if sp[2] == a[2] and sp != a}
            if others:  # "Stata 18? ... If not Stata": the same package again, and the
                restated.add(a)  # condition says the text could do without it anywhere
                restated.update(sp for sp in others if sp[0] < a[0])
    return pairs, restated


_EITHER_ONE_RE = re.compile(  # led by the class of "e", which the engine skips to
    r"(?-i:[Ee])(?<!\w.)ither(?:\s+(?:one|of\s+(?:them|these|those|the\s+two)))?(?:\s+(?:is|are|would|will|"
    r"should|can|could))?(?:\s+(?:be|do|work))?\s+(?:(?:totally|perfectly|just|equally)\s+)?"
    r"(?:fine|ok|okay|good|acceptable|works?|do|suffices?|usable)(?!\w)",
    FLAGS,
)
""""either one is fine", "either of them works", "either will do": the two packages named just
before are offered as a choice, though no "or" joins them."""
_NEGATED_RE = re.compile(r"(?<!\w)(?:not|no|never|nor|neither)(?!\w)|n't(?!\w)", FLAGS)
_OR_WORD_RE = re.compile(r"(?<!\w)or(?!\w)", FLAGS)
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|\n\s*\n")
_AND_RUN_RE = re.compile(
    r"\s*(?:,\s*)?(?:and|&)(?:\s+also)?(?:\s+(?:to|in|for|into|on))?\s*|\s*,\s*", FLAGS
)


def _either_one(
    spans: list[tuple[int, int, str]], original: str, groups: list[list[str]]
) -> list[list[str]]:
    """ "written for PySpark 3.5, but a Dask port exists, so either one is fine": the two
    packages of the sentence before "either" are alternatives. Only exactly two distinct
    names qualify, and only when no "or" group already holds them."""
    found: list[list[str]] = []
    grouped = {n for g in groups for n in g}
    for m in _EITHER_ONE_RE.finditer(original):
        start = sentence_start(_SENTENCE_END_RE, original, m.start())
        if _NEGATED_RE.search(original, max(start, m.start() - 30), m.start()):
            continue  # "we don't think either is fine"
        named = [sp for sp in spans if start <= sp[0] < m.start()]
        names = list(dict.fromkeys(n for _, _, n in named))
        if len(names) != 2:
            continue
        first_end = next(e for _, e, n in named if n == names[0])
        second_at = next(s for s, _, n in named if n == names[1])
        if any(
            not first_end <= o.start() < second_at
            for o in _OR_WORD_RE.finditer(original, start, m.start())
        ):
            continue  # "runs on CPU or on GPUs; either is fine": the choice is the "or"
        # an "or" between the two ("use MrBayes 3.2.7 again or try RevBayes 1.2; either one is
        # fine") is the same choice in other words
        if not grouped & set(names):
            found.append(names)
            grouped.update(names)
    return found


def _choices_restated(
    spans: list[tuple[int, int, str]], original: str, groups: list[list[str]]
) -> list[tuple[int, int, str]]:
    """Mentions that only list the members of a choice before offering it ("the code exists in
    both Julia and R, so either Julia 1.9+ or R 4.2+ will do"): an "and" run naming exactly
    a group's packages, in the same sentence before the group, does not require them alone."""
    if not groups:
        return spans
    dropped: set[tuple[int, int, str]] = set()
    i = 0
    while i < len(spans):
        j = i
        while j + 1 < len(spans) and _AND_RUN_RE.fullmatch(original[spans[j][1] : spans[j + 1][0]]):
            j += 1
        run = spans[i : j + 1]
        names = {n for _, _, n in run}
        later = [sp for sp in spans[j + 1 :] if sp[2] in names]
        if (
            j > i
            and any(names == set(g) for g in groups)
            and later
            and not _SENTENCE_END_RE.search(original, run[-1][1], later[0][0])
        ):
            dropped.update(run)
        i = j + 1
    return [sp for sp in spans if sp not in dropped]


def _versions_as_choices(draft: Draft, name: str) -> None:
    """One package named twice with two exact versions, joined by "or": either version will
    do. Kept as two exact constraints on one package, no release could ever satisfy it."""
    constraints = draft.software.get(name, [])
    versions = [c.version for c in constraints if c.op is Comparator.EQ]
    if len(versions) > 1 and len(versions) == len(constraints):
        draft.version_choices.append((name, versions))


def _restatements_merged(
    spans: list[tuple[int, int, str]], original: str
) -> list[tuple[int, int, str]]:
    """ "GROMACS built without CUDA (gromacs~cuda)": the same package named again right
    after, in brackets, is one mention, not a second requirement."""
    merged: list[tuple[int, int, str]] = []
    for span in spans:
        if merged and merged[-1][2] == span[2]:
            between = original[merged[-1][1] : span[0]]
            if re.fullmatch(r"\s*[(\[:,-]?\s*", between):
                merged[-1] = (merged[-1][0], max(merged[-1][1], span[1]), span[2])
                continue
        merged.append(span)
    return merged


_NOT_NEEDED = (
    r"(?:needed|required|necessary|essential|a\s+must|used|wanted|involved|part\s+of\s+(?:it|this)"
    r"|in\s+use)"
)
_OPTIONAL_AFTER_RE = re.compile(
    r"\s*(?:\(\s*(?:optional|not\s+" + _NOT_NEEDED + r")\s*\)"
    r"|,?\s*(?:would|could|will|might)\s+be\s+(?:nice|handy|helpful|useful|good|great|welcome|"
    r"convenient|a\s+(?:plus|bonus|nice-to-have))"
    r"(?:\s+(?:to\s+have|too|as\s+well))?\s*,?\s*but\s+(?:(?:is|it'?s)\s+not|isn'?t|not)\s+"
    + _NOT_NEEDED
    + r"|\s+(?:is|are)\s+optional|\s+if\s+(?:available|possible|you\s+have\s+it)"
    r"|\s+(?:(?:is|are)(?:\s+not|n'?t)|not)\s+(?:\w+\s+)?" + _NOT_NEEDED + r")(?!\w)",
    FLAGS,
)
"""After a package: it is wanted but not needed ("jupyter would be nice but not needed",
"RStudio would be helpful but is not required"), or not used at all ("TensorFlow is not used
this year", "CUDA (not needed)")."""
_NEGATED_BEFORE_RE = re.compile(
    r"(?:^|[(,;:.\-\u2013\u2014]|\s)\s*(?:but\s+|and\s+)?(?:not|no|instead\s+of|rather\s+than"
    r"|no\s+need\s+(?:for|of)|(?:(?:do|does|will|would)(?:n'?t|\s+not)|won'?t)\s+(?:really\s+|even\s+)?"
    r"(?:need|require|want|use)|(?:is|are)(?:n'?t|\s+not)\s+(?:needed|required))"
    r"\s+(?:the\s+|a\s+|an\s+|any\s+)?$",
    FLAGS,
)
"""Before a package: it is set aside ("Nek5000 (not NekRS)", "GROMACS rather than NAMD"), or
said not to be needed ("we don't need Hadoop", "no need for Kokkos")."""
_CANNOT = (
    r"(?:can'?t|cannot|can\s+not|could\s+not|couldn'?t|(?:are|am)(?:n'?t|\s+not)\s+allowed\s+to"
    r"|(?:are|am)\s+not\s+permitted\s+to|(?:may|must)\s+not)"
)
_CANNOT_USE_BEFORE_RE = re.compile(
    rf"(?<!\w)(?:we|i|they)\s+{_CANNOT}\s+(?:really\s+|even\s+)?use\s+(?:the\s+|a\s+|an\s+|any\s+)?$",
    FLAGS,
)
_CANNOT_USE_AFTER_RE = re.compile(
    rf"\s*,?\s+(?:we|i|they)\s+{_CANNOT}\s+(?:really\s+|even\s+)?use(?=\s*(?:[.,;:!?)]|$))"
    r"|\s+(?:is|are)(?:n'?t|\s+not)\s+an\s+option(?!\w)",
    FLAGS,
)
_CANNOT_USE_UNLESS_RE = re.compile(
    r"[^.;!?\n]{0,40}?(?<!\w)(?:without|unless|until|if|yet|with|on|in|for|at|anymore|any\s+more"
    r"|here|there)(?!\w)",
    FLAGS,
)
"""A package the writer cannot use ("we can't use Gurobi, we have no licence", "a commercial
solver like Gurobi we can not use", "CPLEX is not an option for us"): it is named to be set
aside, not asked for. Said after the package, the refusal must end its clause, so that "HiGHS
1.7, we cannot use Gurobi" still asks for HiGHS. Said before the package, only a plain refusal
counts: "we cannot use LAMMPS without KOKKOS", "we can't use GROMACS on our cluster" or "...
with the old build" name what they need, so anything that conditions or places the refusal
keeps the package."""
_NEGATED_OR_RE = re.compile(r"\s*,?\s*(?:or|nor)\s+(?:the\s+|any\s+|a\s+|an\s+)?", FLAGS)
"""Between the packages of a negated choice: "don't need Hadoop or HDFS" needs neither."""
_PRODUCT_AFTER_RE = re.compile(r"[^\S\n]+(?-i:[A-Z][a-z]+)(?=\s)", FLAGS)
"""A capitalised product word after a package's name ("RStudio Server", "Jupyter Notebook")."""
_NEGATED_START_RE = re.compile(
    r"(?:not|no)\s+(?!(?:older|newer|later|earlier|below|above|"
    r"before|after|less|more|lower|higher|greater|prior)\b)",
    FLAGS,
)
"""A mention read with the "not" before it ("not NekRS"), which is no operator here."""


def _drop_optional(original: str, draft: Draft) -> None:
    """A package said to be optional is no requirement: asking for it would turn away sites
    that can run the job. Named elsewhere without the qualifier, it stays required."""
    optional: set[str] = set()
    plain: set[str] = set()
    last: tuple[int, bool] = (-1, False)
    for start, end, name in sorted(draft.software_spans):
        window = max(0, start - 40)
        before = _NEGATED_BEFORE_RE.search(original[window:start])
        inner = _NEGATED_START_RE.match(original, start, end)
        if inner and in_condition(original, start):
            # "if not GROMACS 2024 is there": the "not" is the condition's, not the version's
            draft.unresolved.append(original[start:end])
        cannot = _CANNOT_USE_BEFORE_RE.search(original, window, start)
        if cannot and _CANNOT_USE_UNLESS_RE.match(original, end):
            cannot = None
        negated = bool(
            (before and not in_condition(original, window + before.start()))
            or (cannot and not in_condition(original, cannot.start()))
            or (_CANNOT_USE_AFTER_RE.match(original, end) and not in_condition(original, start))
            or (inner and not in_condition(original, start))
            or (last[1] and _NEGATED_OR_RE.fullmatch(original, last[0], start))
        )
        last = (end, negated)
        after = _PRODUCT_AFTER_RE.match(original, end)  # "RStudio Server would be nice"
        said_optional = _OPTIONAL_AFTER_RE.match(original, after.end() if after else end)
        own = on_own_machine(original, end)
        if own and not negated and not said_optional:
            said_optional = True  # "GaussView is on my laptop already": quoted, not asked for
            draft.unresolved.append(original[start:own].strip())
        (optional if negated or said_optional else plain).add(name)
    quoted = _quoted_only(original, draft.software_spans)
    _drop_quoted_versions(original, draft)
    past = past_only_packages(original, draft.software_spans) - quoted
    draft.notes.extend(
        f"{name} (said of an earlier job; not used)" for name in sorted(past - optional)
    )
    optional |= quoted | past
    _drop_pasted_runtimes(original, draft)
    plain -= quoted | past
    for name in optional - plain:
        draft.software.pop(name, None)
        draft.variants.pop(name, None)
    draft.software_spans[:] = [sp for sp in draft.software_spans if sp[2] not in optional - plain]


def _drop_pasted_runtimes(original: str, draft: Draft) -> None:
    """An MPI library or container runtime named only in pasted output ("module list" of a
    stack that is gone, an error log) while the request names packages of its own: what ran
    before, not what is asked for (see :func:`pasted_only`). It is noted, never dropped
    silently."""
    named = (
        ("mpi", draft.mpi, draft.mpi and draft.mpi.implementation),
        ("container", draft.container, draft.container and draft.container.runtime),
    )
    for field, current, name in named:
        spots = draft.runtime_spots.get(field, [])
        if current is not None and pasted_only(original, draft.software_spans, spots):
            setattr(draft, field, None)
            draft.notes.append(
                f"{name or field} in pasted output (said of an earlier job; not used)"
            )


def _drop_quoted_versions(original: str, draft: Draft) -> None:
    """A version said only in the quoted lines of a reply, when the reply names the package
    with a version of its own: "> We're running E3SM v2 ..." above "E3SM 3.0 with PnetCDF"
    asks for 3.0, not for both. A version found in the reply's own mention is kept, and with
    none there the quoted one stays."""
    if ">" not in original or not QUOTED_LINES_RE.search(original):
        return
    quotes = [(m.start(), m.end()) for m in QUOTED_LINES_RE.finditer(original)]
    said: dict[str, tuple[list[str], list[str]]] = {}
    for start, end, name in draft.software_spans:
        inside = any(a <= start < b for a, b in quotes)
        said.setdefault(name, ([], []))[inside].append(original[start:end].lower())
    for name, (reply, quoted) in said.items():
        constraints = draft.software.get(name)
        if not reply or not quoted or not constraints:
            continue
        kept = [c for c in constraints if _written_in(c.version.lower(), reply)]
        if kept and len(kept) < len(constraints):
            dropped = ", ".join(f"{c.op.value}{c.version}" for c in constraints if c not in kept)
            draft.notes.append(f"{name} {dropped} (said only in quoted lines; not used)")
            constraints[:] = kept


def _written_in(version: str, mentions: list[str]) -> bool:
    """Whether ``version`` is written whole in one of ``mentions``: "6" is not in "6.1"."""
    written = re.compile(rf"(?<![\w.]){re.escape(version)}(?!\.?\w)")
    return any(written.search(m) for m in mentions)


def _quoted_only(original: str, spans: list[tuple[int, int, str]]) -> set[str]:
    """Packages named only in the quoted lines of a reply ("> Is VASP 6 available?") while the
    reply itself names others ("then we'll use QE instead"): the other poster's words, not
    what this request asks for. With no package in the reply, the quoted ones stay."""
    if ">" not in original:
        return set()
    quotes = [(m.start(), m.end()) for m in QUOTED_LINES_RE.finditer(original)]
    inside = {n for s, _, n in spans if any(a <= s < b for a, b in quotes)}
    outside = {n for s, _, n in spans if not any(a <= s < b for a, b in quotes)}
    return inside - outside if outside else set()


_VERSUS_RE = re.compile(r"\s*(?:vs\.?|versus)\s*", FLAGS)


def _compared(spans: list[tuple[int, int, str]], original: str) -> set[tuple[int, int, str]]:
    """Mentions set against each other ("GROMACS 2024 vs NAMD 3.0?" in a subject line): they
    neither require a package alone nor offer a choice. If nothing else in the text groups
    them as alternatives, both stay required (a comparison may need both)."""
    found: set[tuple[int, int, str]] = set()
    for a, b in zip(spans, spans[1:], strict=False):
        if _VERSUS_RE.fullmatch(original[a[1] : b[0]]):
            found.update((a, b))
    return found


def _named_alone(spans: list[tuple[int, int, str]], groups: list[list[str]]) -> set[str]:
    """Names that appear more often than their groups account for (also required alone)."""
    counts: dict[str, int] = {}
    for _, _, name in spans:
        counts[name] = counts.get(name, 0) + 1
    in_groups: dict[str, int] = {}
    for group in groups:
        for name in group:
            in_groups[name] = in_groups.get(name, 0) + 1
    return {n for n, c in counts.items() if c > in_groups.get(n, 0)}


def _read_module_items(draft: Draft) -> None:
    """``module load`` items: MPI libraries and runtimes go to their fields, the rest are
    packages, whatever their names."""
    for item in _dependency_items(_joined_variants(draft.module_items)):
        item, variants = _split_variants(item.strip().strip(",;"))
        spack_range = _SPACK_RANGE_RE.match(item)
        m = spack_range or _MODULE_ITEM_RE.match(item)
        if m is None:
            draft.unresolved.append(item[:80])
            continue
        name, version = m.group("name"), m.group("version")
        if spack_range:
            constraints = _spack_range(spack_range)
        elif m.group("op") and version:
            constraints = parse_constraints(m.group("op").replace("~=", ">=") + version)[0]
        else:
            constraints = (
                [VersionConstraint(op=Comparator.EQ, version=v)]
                if version and (v := clean_version(version))
                else []
            )
        mpi = lookup(lexicon.MPI_IMPLEMENTATIONS, name)
        if mpi is not None:
            draft.set_mpi(mpi, constraints, item)
            continue
        runtime = lookup(lexicon.CONTAINER_RUNTIMES, name)
        if runtime is not None:
            draft.set_container(runtime, constraints, item)
            continue
        if (split := build_suffix(name)) is not None:  # "module load grid-cuda/0.9.1"
            name, variants = split[0], [*variants, split[1]]
        draft.add_software(_canonical(name) or name.lower(), constraints, None, variants)


_ITEM_VARIANT_RE = re.compile(r"[+~][a-z][a-z0-9_-]*", FLAGS)
_SPACK_RANGE_RE = re.compile(
    rf"^(?P<name>[a-z][\w.-]{{0,63}}?)@(?P<version>(?P<low>{VERSION})?:(?P<high>{VERSION})?)$",
    FLAGS,
)
"""Spack's version ranges: ``hypre@2.29:`` (2.29 or newer), ``petsc@:3.20``, ``@3.19:3.20``."""


def _dependency_items(items: list[str]) -> list[str]:
    """Spack's ``^dep@version`` names a dependency the build must use (``petsc@3.21
    ^openmpi@5.0.3``): a package (or MPI) the job needs, read as an item of its own."""
    return [part for item in items for part in item.split("^") if part.strip(" ,;")]


def _joined_variants(items: list[str]) -> list[str]:
    """Spack lets blanks stand before variants (``spack load amrex@24.06 +mpi``): a lone
    ``+mpi`` item belongs to the item before it."""
    joined: list[str] = []
    for item in items:
        if joined and _ITEM_VARIANT_RE.fullmatch(item.strip().strip(",;")):
            joined[-1] += item.strip().strip(",;")
        else:
            joined.append(item)
    return joined


def _split_variants(item: str) -> tuple[str, list[str]]:
    """``gromacs+cuda~mpi@2024`` -> ``gromacs@2024`` and its variants (a ``+`` with no letter
    after it is part of the name: ``blast+``, ``athena++``)."""
    variants = [v.lower() for v in _ITEM_VARIANT_RE.findall(item)]
    if not variants:
        return item, []
    return _ITEM_VARIANT_RE.sub("", item), variants


def _spack_range(m: re.Match[str]) -> list[VersionConstraint]:
    constraints = []
    if m.group("low") and (low := clean_version(m.group("low"))):
        constraints.append(VersionConstraint(op=Comparator.GE, version=low))
    if m.group("high") and (high := clean_version(m.group("high"))):
        constraints.append(VersionConstraint(op=Comparator.LE, version=high))
    return constraints


_YEARISH_RE = re.compile(r"^\s*(?:from\s+|between\s+)?(?:19|20)\d\d(?!\.)\b")


_YEAR_RANGE_RE = re.compile(r"^\s*(?:19|20)\d\d\s*(?:-|\u2013|to\s|until\s|through\s)")
_COUNTED_NOUNS = frozenset(
    """
    step steps phase phases section sections chapter chapters table tables figure figures fig
    part parts stage stages level levels tier tiers round rounds page pages item items room eq
    equation appendix version versions release releases run runs case cases test tests batch
    batches group groups week weeks day days option options plan plans type types class grade
    sample samples lot lots team teams year years model models task tasks job jobs node nodes
    wave waves season seasons cycle cycles trial trials series volume issue number no
    """.split()
)
"""Nouns that take a number without being software: "Phase 2", "Section 3.2", "Run 4"."""


_PROPER_BEFORE_RE = re.compile(r"(?<![\w.])[A-Z][\w-]*\s+$")


def _release_number_after(m: re.Match[str]) -> bool:
    """A release number set apart by a space, after a name that is not the second word of a
    proper noun: "Octopus 14" yes; "Sentinel-2" (a satellite) and "Windows Server 2019" no."""
    between = m.string[m.end("name") : m.start("spec")]
    before = m.string[max(0, m.start("name") - 40) : m.start("name")]
    return between.isspace() and not _PROPER_BEFORE_RE.search(before)


def _capitalised(name: str) -> bool:
    """A word written with a capital first letter and lower case after it ("Octopus")."""
    return len(name) >= 3 and name[0].isupper() and name[1:].isalpha() and name[1:].islower()


_INITIAL_RE = re.compile(r"\.\s*[A-Z][a-z]+")
_NAMED_BEFORE_RE = re.compile(
    r"(?:\b(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sir|Dame)\.?|(?<![\w.])(?P<first>[A-Z][a-z]+)"
    r"|(?<![\w.])[A-Z]\.)\s+$"
)
"""A title, an initial or a first name before a letter and a surname: the letter is an
initial. A first name must be no English word: in "Install R. Then" the R is the language."""
_SIZE_VERSION_RE = re.compile(r"^\d+(?:\.\d+)?(?:[kmgtp]i?b|[kmgtp])$", FLAGS)
_RANGE_SPEC_RE = re.compile(r"^\d+\s*(?:-|\u2013|to)\s*\d+$")


_NUMBERED_PART_BEFORE_RE = re.compile(
    r"(?<!\w)(?:fig|figs|figure|figures|table|tab|eq|eqn|equation|sec|section|ch|chap|chapter|"
    r"appendix|panel|page|pp?|part|step|stage|item|lemma|theorem)\.?\s*$",
    FLAGS,
)
"""A numbered part of a paper or a plan before "N of X": "Fig. 4 of Ito", "step 2 of the"."""
CITED_AFTER_RE = re.compile(r"\s+(?:et\s+al\b|and\s+colleagues|and\s+co-?workers)", FLAGS)
"""After a name: an author of a paper ("Ito et al."), not a package."""
_LIST_NUMBER_RE = re.compile(r"(?<=\n)[^\S\n]*\d{1,2}[.)](?=\s)", FLAGS)
"""The number of a list item at the start of a line ("2. a single node")."""
_AMOUNT_AFTER_RE = re.compile(
    r"(?:,\d{3}(?!\d)|\s*(?:us\s*)?(?:\$|dollars?|usd|eur|euros?|gbp|pounds?|chf|francs?)(?!\w))",
    FLAGS,
)
"""After a number: the rest of a sum of money ("up to 1,200", "500 US dollars")."""


def _not_a_release(m: re.Match[str], name: str) -> bool:
    """A number after a word that is no release of it: a grant or sample number
    ("AH/X001234/1"), a journal or venue with its year ("Ostrem et al., Nature 2013", "our
    CoRL 2023 paper"), a count ("simulates 2.3 million households over 40 years") or, after
    an English word, a range of items ("frames 1-2400")."""
    spec = m.group("spec")
    if record_number(name) or COUNTED_AFTER_RE.match(m.string, m.end()):
        return True
    if _quantity_or_ordinal(m, name):
        return True  # "masses 0.8 to 20 Msun", "claimed 1.1 \u00b5s", "OCR over 19th-century"
    if _AMOUNT_AFTER_RE.match(m.string, m.end()):
        return True  # "will pay up to 1,200 dollars": a sum of money, not a version
    before = m.string[max(0, m.start("name") - 30) : m.start("name")]
    if _YEARISH_RE.match(spec) and (
        CITED_BEFORE_RE.search(before) or VENUE_AFTER_RE.match(m.string, m.end())
    ):
        return True
    english = english_word(name) and not name_shaped(name)
    return english and bool(_RANGE_SPEC_RE.match(spec.strip()))


_VERB_FORM_ENDS = ("ed", "ly")
_NOT_DIGITS_LEAD_RE = re.compile(r"^[^\d]*")
_NAME_MARK_RE = re.compile(r"[\d.+-]")


def _quantity_or_ordinal(m: re.Match[str], name: str) -> bool:
    """A number that measures or ranks, after a word that is no package: a unit follows it
    ("masses 0.8 to 20 Msun", "roughly 500 GB input"), it is an ordinal ("over 19th-century"),
    or the word is an English past form or adverb ("the vendor claimed 1.1", "reached 2.5") or a
    misspelling of an everyday word of six letters or more ("rougly 500") that no catalogued
    name is near. A name shaped as packages are ("WSClean 3.4", "cp2k 2024.1") or written in
    capitals ("ROMS 4.1") keeps its version; a short word is too near too many words to be
    called a typo ("roms 4.1")."""
    from endpoint_plugins.parsing.vocabulary import typo_of_common

    spec = m.group("spec").strip()
    if ORDINAL_RE.match(_NOT_DIGITS_LEAD_RE.sub("", spec)):
        return True
    if _NAME_MARK_RE.search(name) or name_shaped(name) or near_catalogue_name(name) is not None:
        return False
    if MEASURED_AFTER_RE.match(m.string, m.end()):
        return True
    lower = name.lower()
    if name.isupper():
        return False  # "ROMS 4.1": a code named in capitals
    verb_form = len(lower) >= 5 and lower.endswith(_VERB_FORM_ENDS) and english_word(lower)
    return verb_form or (len(lower) >= 6 and typo_of_common(name))  # "roms" is no typo


_DURATION_VERSION_RE = re.compile(r"^\d{1,4}(?:\.\d)?(?:h|hrs?|hours?|m|mins?|d|days?|s)$", FLAGS)
_GPU_SUFFIXED_RE = re.compile(
    r"(?<![\w.-])(?P<stem>[a-z][\w.]*(?:-[\w.]+)*)-(?P<gpu>\x00{3})(?![\w-])", FLAGS
)
_GPU_PREFIX_WORDS = frozenset(
    """
    multi single dual quad many non per cpu any all one two four eight big small full nvidia
    amd intel
    """.split()
)


def _rejoin_gpu_names(scanner: Scanner) -> None:
    """ "AutoDock-GPU", "pennylane-lightning-gpu": a package whose name ends in "-GPU". The
    compute stage read the GPU; the name gets its last part back when the rest of it is no
    English word ("multi-GPU" and "single-GPU" stay adjectives)."""
    if "-\x00\x00\x00" not in scanner.text:
        return  # no blanked GPU after a hyphen: most texts, spared the scan of every word
    for m in list(_GPU_SUFFIXED_RE.finditer(scanner.text)):
        start, end = m.span("gpu")
        if scanner.original[start:end].lower() != "gpu":
            continue
        parts = m.group("stem").lower().split("-")
        if any(p in _GPU_PREFIX_WORDS or lookup(lexicon.GPU_MODELS, p) for p in parts):
            continue  # "multi-GPU", "A100-GPU"
        if any(not p.isdigit() and not english_word(p) for p in parts):
            scanner.restore(start, end)


_APPOSED_RE = re.compile(
    rf"\s*,\s*(?:the|an?|our)\s+(?:[\w-]+\s+){{0,3}}?{APPOSED_NOUN}\s*,", FLAGS
)


def _english_before_year_or_comma(m: re.Match[str], name: str) -> bool:
    """An English word before a year or a year range ("covers 2019-2023") or before a comma and
    a version ("after, version 4.3") is prose; "stream 5.10", "foo 1.2" stay packages.

    A capitalised word before a single year is a product release ("Maya 2024"); before a
    range it is still prose ("Data 2019-2023")."""
    if name_shaped(name) or near_catalogue_name(name) is not None or not english_word(name):
        return False
    between = m.string[m.end("name") : m.start("spec")]
    if "," in between:
        return not _APPOSED_RE.match(between)  # "Kraken, the OCR engine, version 5": a name
    if not _YEARISH_RE.match(m.group("spec")):
        return False
    spec_on = m.string[m.start("spec") :]
    return not (_capitalised(name) or name.isupper()) or bool(_YEAR_RANGE_RE.match(spec_on))


def _record(draft: Draft, m: re.Match[str], variants: list[str], built: bool = False) -> bool:
    found = m.group("name")
    name = _canonical(found)
    if name is None and (_variant_owner(found, built) or m.group("spec")):
        name = found.lower()  # "bitsandbytes 0.43 with ROCm": a version makes it a name
    if name is None and built and found.lower() == "it":
        name = _antecedent(m.string, m.start("name"))  # "Octopus 14 ... have it built with CUDA"
    if name is None and built and _named_package(draft, m, found):
        name = found.lower()  # "NEST 3.6 ... NEST has to be built with MPI support"
    if name is None:
        return False
    constraints = _constraints(m)
    for later in (m.groupdict().get("pspec"), m.groupdict().get("spec2")):
        if later:
            constraints += parse_constraints(later)[0]
    draft.add_software(name, constraints, m.span(), variants)
    return True


_PACKAGE_NOUN_AFTER_RE = re.compile(
    r"\s+(?:code|library|package|solver|toolkit|framework|simulator)(?!\w)", FLAGS
)
_PACKAGE_LABEL_BEFORE_RE = re.compile(
    r"(?:^|\n)[^\S\n]*(?:[-*\u2022][^\S\n]*)?(?:codes?|software|packages?|librar(?:y|ies)|"
    r"applications?|programs?)[^\S\n]*[:=][^\S\n]*$",
    FLAGS,
)
_UNIT_AFTER = (
    r"(?:nodes?|cores?|cpus?|gpus?|ranks?|tasks?|threads|hours?|hrs?|h|days?|min(?:ute)?s?|"
    r"[kmgtp]i?b|[kmgt]|x|%|percent|times|people|users|years?|months?|weeks?)"
)


_VERSIONED_WORD_RE = re.compile(
    r"(?<![\w.-])(?P<name>[A-Z][\w+-]*)[^\S\n]+v?\d{1,4}(?:\.\d{1,4}){0,3}(?![\w.])"
    rf"(?![^\S\n]*-?[^\S\n]*{_UNIT_AFTER}(?!\w))"
)


def _antecedent(text: str, at: int) -> str | None:
    """The package "it" stands for in "does any site have it built with CUDA?": the one package
    named in this sentence or the one before it (catalogued, or a capitalised name with a
    version, "Octopus 14"). With none, or with two or more to choose from, "it" stays unread
    and the library a requirement of its own."""
    ends, _ = sentence_around(_SENTENCE_END_RE, text, at, at)
    start = ends[-2] if len(ends) > 1 else 0
    window = text[start:at]
    if "\n\n" in window.rstrip():
        window = window[window.rstrip().rfind("\n\n") :]
    found = {
        name
        for word in re.findall(r"[A-Za-z][\w+.-]*[\w+]|[A-Za-z]", window)
        if (name := _canonical(word)) is not None and name not in _COMPILERS
    }
    for v in _VERSIONED_WORD_RE.finditer(window):
        word = v.group("name")
        if _canonical(word) is None and word.lower() not in filler_words():
            found.add(word.lower())
    return found.pop() if len(found) == 1 else None


def _named_package(draft: Draft, m: re.Match[str], found: str) -> bool:
    """An English word written with a capital ("NEST", "Grid", "Octopus") owns the build it is
    said to be built with when the text names it as a package too: a package noun after it
    ("the Grid library compiled for CUDA"), a label before it ("Code: Grid, built with SYCL"),
    a value of a form's software key (whose key the form reader has read already), or the
    same spelling with a version elsewhere ("NEST 3.6" ... "NEST has to be built with MPI
    support"). Lower-case prose ("the model built with CUDA") and stop words ("Our code
    compiled for CUDA") never do: the library then stays a requirement of its own."""
    if not found[0].isupper() or found.lower() in filler_words() or squash(found) in _NOT_NAMES:
        return False
    if HARDWARE_RE.match(found) or squash(found) in _SQUASHED_VARIANTS:
        return False
    text = m.string
    if _PACKAGE_NOUN_AFTER_RE.match(text, m.end("name")):
        return True
    if _PACKAGE_LABEL_BEFORE_RE.search(text[max(0, m.start() - 40) : m.start()]):
        return True
    if any(start <= m.start("name") < end for start, end in draft.name_spans):
        return True
    versioned = re.compile(
        rf"(?<![\w.-]){re.escape(found)}[^\S\n]+v?\d{{1,4}}(?:\.\d{{1,4}}){{0,3}}(?![\w.])"
        rf"(?![^\S\n]*-?[^\S\n]*{_UNIT_AFTER}(?!\w))"
    )
    return any(v.start() != m.start("name") for v in versioned.finditer(text))


def _add_on(said: str) -> bool:
    """An uncatalogued library a package is built with, read as its variant: a CamelCase name
    ("CoreNEURON") or an acronym that is no English word and no hardware or way of running
    ("QUDA"; not "GPU", "AVX", "ARM"), since "built with" ties it to the package. An MPI
    library, a container runtime or a GPU ("SU2 compiled against MPICH", "NAMD built with
    OpenMPI") is read as what it is, by its own stage."""
    key = squash(said)
    if (
        len(key) < 3
        or english_word(said)
        or HARDWARE_RE.match(said)
        or key in _NOT_NAMES | _NOT_SPEC_NAMES
    ):
        return False
    tables = (lexicon.MPI_IMPLEMENTATIONS, lexicon.CONTAINER_RUNTIMES, lexicon.GPU_MODELS)
    if any(lookup(t, said) for t in tables) or key in lexicon.DOMAIN_ACRONYMS:
        return False
    if key in {squash(v) for v in lexicon.GPU_VENDORS}:
        return False
    return name_shaped(said) or said.isupper()


def _described(draft: Draft, m: re.Match[str]) -> bool:
    """A build named after the package: a catalogued or versioned name owns it as
    :func:`_record` reads it; an uncatalogued one only when a describing noun says it is a
    program ("GENE gyrokinetic code") and it is written as a proper name, never a word of
    prose ("the simulation code, double-precision build" names no package)."""
    variants = [f"+{_variant(m.group('v'))}"]
    found = m.group("name")
    if lookup(lexicon.MPI_IMPLEMENTATIONS, found) or lookup(lexicon.CONTAINER_RUNTIMES, found):
        return False  # "MVAPICH2 2.3.7, the MPI build the code was validated with": an MPI
    noun = m.groupdict().get("noun")
    if _canonical(found) is None and not m.group("spec"):
        if not noun or not (found.isupper() or (_proper(found) and not _word_like(found))):
            return False
        if squash(found) in _NOT_NAMES | _NOT_SPEC_NAMES or HARDWARE_RE.match(found):
            return False
        draft.add_software(found.lower(), [], m.span(), variants)
        return True
    return _record(draft, m, variants, built=True)


def _shouted_add_on(said: str, how: str) -> bool:
    """A library named by an English word in capitals after "built with" or "compiled
    against": "ADCIRC compiled with SWAN" is ADCIRC's coupled build (``+swan``). The build verb
    ties the word to the package as :func:`_add_on` does for the words no dictionary holds; a
    capitalised word of prose ("built with Care") is no such name, nor is hardware, a way of
    running or a word of the request ("compiled with AVX", "built with MPI", "with THE")."""
    key = squash(said)
    return (
        how.lower() in ("with", "against")
        and said.isupper()
        and len(key) >= 4
        and english_word(said)
        and not HARDWARE_RE.match(said)
        and key not in _NOT_NAMES | _NOT_SPEC_NAMES
        and key not in lexicon.DOMAIN_ACRONYMS
        and said.lower() not in filler_words()
    )


def _variant_owner(found: str, built: bool = False) -> bool:
    """An uncatalogued word may own a variant when it reads as a package name: a near miss of
    a catalogued one ("lammmps with kokkos") or name-shaped ("amg2023+cuda"), never prose
    ("run with CUDA")."""
    lower = found.lower()
    if lower in filler_words() or squash(found) in _NOT_NAMES:
        return False
    if built and not english_word(found):
        return True  # "IDG built with CUDA": only a package is built, and IDG is no word
    return (
        near_catalogue_name(found) is not None
        or bool(re.search(r"\d|[-.+]", found[1:]))
        or (name_shaped(found) and not found.isupper())  # "ParFlow", "miniAMR"
    )


def _word_like(found: str) -> bool:
    """A word of prose or of a form, which no spec names: "run", "nodes", "MPI"."""
    return (
        english_word(found)
        or found.lower() in filler_words()
        or squash(found) in _NOT_NAMES | _NOT_SPEC_NAMES
    )


def _proper(found: str) -> bool:
    """A name written as a proper noun ("Chroma", "SWASH", "ParFlow"), not a filler word or a
    word no package is called ("the CUDA build of the code", "the MPI version of Monday")."""
    return (
        found[:1].isupper()
        and found.lower() not in filler_words()
        and squash(found) not in _NOT_NAMES | _NOT_SPEC_NAMES
        and not HARDWARE_RE.match(found)
    )


_BUILD_SUFFIXES = frozenset(("cuda", "rocm", "kokkos", "sycl", "openmp", "openacc"))
"""Back ends a module name may end in: ``grid-cuda/0.9.1``, ``lammps-kokkos/2Aug2023``. Not
MPI: sites name their parallel builds ``hdf5-mpi`` or ``fftw-mpi`` as modules of their own,
which a request may ask for beside the serial one."""
_BUILD_SUFFIX_RE = re.compile(r"(?P<base>[a-z][\w.+-]{0,40}?)[-_](?P<tag>[a-z]{3,7})", FLAGS)


def build_suffix(name: str) -> tuple[str, str] | None:
    """A module named after the package and its build (``grid-cuda``, ``lammps-kokkos``): the
    package and the variant, or None. A name the catalogue holds whole keeps its hyphen
    (``netcdf-fortran``), and so do the Python packages that wrap MPI (``dask-mpi``)."""
    m = _BUILD_SUFFIX_RE.fullmatch(name)
    if m is None or _canonical(name) is not None or re.fullmatch(_MPI_WRAPPERS, name, FLAGS):
        return None
    tag = _SQUASHED_VARIANTS.get(m.group("tag").lower())
    base = m.group("base")
    if tag not in _BUILD_SUFFIXES or squash(base) in _NOT_NAMES | _NOT_SPEC_NAMES:
        return None
    if lookup(lexicon.MPI_IMPLEMENTATIONS, name) or lookup(lexicon.CONTAINER_RUNTIMES, name):
        return None  # "cray-mpich" is an MPI, "intel-mpi" too
    return _canonical(base) or base.lower(), f"+{tag}"


def _canonical(found: str) -> str | None:
    return lexicon.SOFTWARE_CASE_SENSITIVE.get(found) or lookup(lexicon.SOFTWARE, found)


def _variant(word: str) -> str:
    key = squash(word)
    return _SQUASHED_VARIANTS.get(key, key)


def _apply_operator(
    word: str | None, constraints: list[VersionConstraint]
) -> list[VersionConstraint]:
    """ "at least Python 3.10": an operator before the name applies to a bare version."""
    if not word:
        return constraints
    op = word_comparator(word)
    if op is None or len(constraints) != 1 or constraints[0].op is not Comparator.EQ:
        return constraints
    return [constraints[0].model_copy(update={"op": op})]


def _constraints(m: re.Match[str]) -> list[VersionConstraint]:
    spec = m.group("spec")
    return parse_constraints(spec)[0] if spec else []
