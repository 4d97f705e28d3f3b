"""The open vocabulary: what is left after every extractor, sorted into names, phrases, noise.

The catalogue in :mod:`endpoint_plugins.parsing.lexicon` gives aliases and hints; it is not a
gate. A word no extractor claimed is one of three things:

* **a package name**, when it is shaped like one (digits, inner ``-``/``.``/``+``, mixed case:
  ``bitsandbytes``-like names after "install", ``nccl-tests``, ``miniAMR``, ``cp2k``), stands
  where a name stands ("pip install X", "the X library", next to other packages), or is a near
  miss of a catalogued name (``pytroch``). It becomes a software requirement, checked at every
  site; a typo then fails with a "did you mean" hint, never silently;
* **a requirement phrase nobody can read** ("AVX-512", "aarch64", "a Gaussian licence"): it
  goes to ``Requirements.unresolved``, which keeps every site from answering READY on it;
* **prose**: a word in ``filler_words.txt`` or the stop words, ignored.

The rule is fail-safe by construction: a word is ignored only when it is known prose; anything
else either becomes a checked requirement or blocks READY.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.detached import attach_detached_versions
from endpoint_plugins.parsing.draft import Draft, Mention
from endpoint_plugins.parsing.english import english_word, proper_noun_only, transposed_word
from endpoint_plugins.parsing.history import drop_past_versions
from endpoint_plugins.parsing.not_names import (
    CHAT_SLANG,
    camel_identifier,
    cited_work,
    concept_word,
    counted_samples,
    data_source,
    english_part,
    executable_of,
    letter_term,
    named_as_data,
    names_no_software,
    names_the_job,
    not_a_package,
    on_own_machine,
    placed_as_non_name,
    shaped_as_no_package,
    unit_typo,
)
from endpoint_plugins.parsing.proper_names import no_software_name
from endpoint_plugins.parsing.scanner import Scanner, lookup, sentence_start, squash
from providers.wire.requirements import GpuVendor

MAX_NAME_CHARS = 64
_VENDORS = {"nvidia": GpuVendor.NVIDIA, "amd": GpuVendor.AMD, "radeon": GpuVendor.AMD}
NEAR_MISS_CUTOFF = 0.8

_WORD_RE = re.compile(r"[A-Za-z][\w.+#/-]*[\w+#]|[A-Za-z]")
_BREAK_RE = re.compile(r"[\x00,;!?()\[\]{}\"|`\n]+|[.:](?=\s|$)|\s[-\u2013\u2014]+\s")
_NOT_A_NAME_RE = re.compile(
    r"^(?:(?=[A-Za-z\d]*[a-z])(?=[A-Za-z\d]*\d)(?:[A-Z][a-z]?\d{0,3}){2,}[A-Z]?"
    r"|[A-Z]\d{1,4}|v\d[\d.]*|[A-Z]{2,}s)$"
)
"""Shaped like a name but no package: chemical formulas (LiNiO2, Li6PS5X), grades and codes
(E4, F452), a bare version (v0.91), plural acronyms (FFTs, GPUs)."""
_PARALLEL_MODELS = frozenset("mpi openmp cuda hip openacc sycl gpu cpu x threads".split())
_LANGUAGES = frozenset(("c++", "c#", "objective-c"))
"""Languages spelled like package names; a compiler for them is a package (gcc, llvm)."""

_LANGUAGE_PART_RE = re.compile(
    r"[^\S\n]+(?:batch[^\S\n]+mode|scripting[^\S\n]+interface|side|packages?|modules?|"
    r"librar(?:y|ies)|bindings?|apis?|interfaces?|front-?ends?|wrappers?|layer|toolbox(?:es)?|"
    r"extensions?|plug-?ins?|add-?ons?|port|(?:[a-z]{2,20}[^\S\n]+)?models?)(?![\w-])",
    re.IGNORECASE,
)
"""A part of something written in a language: "the Python side", "the python package
aquacrop", "aquacrop (the Python crop model)", "ParaView's Python batch mode", "its Python
API", "R packages". The language describes the package or program named beside it, which
carries the requirement; with a version ("the Python 3.11 bindings") the language is asked
for itself."""
_DESCRIBING_LANGUAGES = frozenset(("python", "r", "julia", "perl"))


_JULIA_PACKAGE_RE = re.compile(r"^(?=[a-z0-9]*[A-Z])[A-Za-z][A-Za-z0-9]*\.jl$")
"""A Julia package: a name with a capital in it and ``.jl`` ("CUDA.jl", "oneAPI.jl"; a script
is ``run.jl``, lower case)."""
_SEPARATED_RE = re.compile(r"^[a-z][a-z0-9]*(?:[-.+_][a-z0-9]+)+\+?$")
"""Inner separators: nccl-tests, llama.cpp, py-spy."""
_DIGITS_INSIDE_RE = re.compile(r"^(?:[a-z]+\d+[a-z0-9]*|[a-z]*\d+[a-z]+[a-z0-9]*)$")
"""Digits inside a lower-case word: cp2k, hdf5, bowtie2."""
_TITLED_DIGITS_RE = re.compile(r"^[A-Z](?P<rest>[a-z]{2,})\d{1,2}$")
"""A capitalised word with a release digit glued on: Kraken2, Bowtie2, Minimap2, Racon2. The
same word in lower case is name-shaped already; an everyday word so numbered is a label of a
run, a case or a figure ("Run3", "Case2", "Figure4"), not a package."""


@lru_cache(maxsize=8192)
def name_shaped(word: str) -> bool:
    """Whether a word is shaped like a package name.

    Inner separators, digits inside a lower-case word, or mixed case beyond a capital first
    letter (miniAMR, PyTorch, MMseqs2, WSClean). All-capital words are left out: acronyms of
    science (MCMC, WGS, MHD) outnumber the packages written that way, which count from their
    context (a list of packages, "module load", a version).

    Remembered per word (a bounded cache): the answer depends on the word and on fixed module
    data alone, and several stages ask it of the same words.
    """
    if _SEPARATED_RE.match(word) or _DIGITS_INSIDE_RE.match(word) or word.endswith("+"):
        return True  # nccl-tests, cp2k, and PEST++ / athena++ / blast+
    titled = _TITLED_DIGITS_RE.match(word)
    if titled:
        return not common_word(word[0] + titled.group("rest"))  # Kraken2, not "Run3"
    has_lower = any(c.islower() for c in word)
    has_upper = any(c.isupper() for c in word)
    title = word[:1].isupper() and not any(c.isupper() for c in word[1:])
    return has_lower and has_upper and not title


_RUN_VERBS = frozenset(
    "run runs running execute launch start test benchmark try need needs want use uses".split()
)
_PLACED_RE = re.compile(r"\s+(?:on|across|over)\s+\x00")
"""A word placed on resources the parser understood: "run cholla on 2 nodes"."""
_JOB_NOUNS = frozenset(
    """
    sweep sweeps run runs job jobs benchmark benchmarks simulation simulations pipeline
    workflow calculation calculations build builds training inference study tests test
    model models code
    """.split()
)
"""Nouns a package name stands before: "an optuna sweep", "the HPCG run"."""
_CONCEPT_NOUNS = frozenset(("study", "studies", "calculation", "calculations"))
"""Job nouns that a method of science stands before more often than a package ("a phonon
calculation", "our metadynamics study"): they make no name alone."""
_DETERMINERS = frozenset("a an the my our this that each every one".split())
_TOOL_BEFORE = frozenset(("with", "using", "via", "through"))
_NUMBER_AFTER_RE = re.compile(r"\s*(?:[<>=~!]=?\s*|v)?\d[\w.]*(?<!\.)")
_VERSION_AFTER_RE = re.compile(r"\s*(?:[<>=~!]=?\s*|v)?\d+\.\d")
_NAME_BEFORE = frozenset(
    """
    install installed installing load loaded module modules package packages library libraries
    lib libs toolkit framework plus tool tools suite via binary called named
    """.split()
)
_NAME_AFTER = frozenset(
    """
    package packages library libraries lib module modules toolkit framework installed available
    suite plugin plugins bindings wrapper installation pkg pkgs add-on add-ons addon addons
    extension extensions
    """.split()
)
HARDWARE_RE = re.compile(
    r"^(?:-?m?avx\w*|sse\w*|bf16|fp16|fp64|tf32|int8|amx\w*|sve\w*|neon|amx\w*|x86\w*|aarch64|arm\w*|amd64|i386|ppc\w*|power\d+|"
    r"riscv\w*|fpgas?|tpus?|ipus?|npus?|nvlink|nvswitch|ecc|hbm\w*|rhel\d*|centos\d*|"
    r"ubuntu\w*|rocky\w*|alma\w*|debian\w*|sles\w*|suse|windows\w*|macos|linux|glibc\w*|"
    r"licen[cs]es?|licen[cs]ed|kernel|bios|numa|hyperthreading|smt|sudo|root|epyc|xeon|zen\d*|"
    r"genoa|milan|rome|bergamo|sapphire|icelake|skylake|cascadelake|grace|neoverse|graviton\d*|"
    r"a64fx|threadripper|ryzen|core-?i\d|cuda-?capable|sm_?\d+|compute-?capability)$",
    re.IGNORECASE,
)
"""Words of requirements no field holds (architecture, OS, licence): unresolved, not names."""


def _word_list(name: str) -> set[str]:
    """The words of a shipped list, one per line, lower case; ``#`` lines are comments."""
    text = resources.files("endpoint_plugins.parsing").joinpath(name).read_text(encoding="utf-8")
    words = {line.strip().lower() for line in text.splitlines()}
    return {w for w in words if w and not w.startswith("#")}


@cache
def filler_words() -> frozenset[str]:
    """Ordinary prose that may be ignored: the shipped word list plus the parser's stop words."""
    numbers = {w for spelling in lexicon.NUMBER_WORDS for w in spelling.split()}
    words = _word_list("filler_words.txt")
    return frozenset(words | lexicon.STOP_WORDS | lexicon.DOMAIN_ACRONYMS | numbers)


@cache
def _common_words() -> frozenset[str]:
    return frozenset(_word_list("common_words.txt"))


def common_word(word: str) -> bool:
    """Whether ``word`` is an everyday English word (about the 7,000 most frequent, measured by
    wordfreq; see ``scripts/parsing/common_words.py``). Such a word becomes a package name only
    on strong evidence: a version, an install or module line, a catalogue entry. Weak evidence,
    such as being listed beside a package, suffices for rarer words ("diffusers", "racon")."""
    return word.lower() in _common_words()


@cache
def _catalogue_spellings() -> dict[str, str]:
    """Squashed spelling -> canonical name, for near-miss detection of typos."""
    spellings: dict[str, str] = {}
    for name, aliases in lexicon.SOFTWARE.items():
        for spelling in (name, *aliases):
            if len(squash(spelling)) >= 4:
                spellings[squash(spelling)] = name
    return spellings


def closest(word: str, choices: Sequence[str], cutoff: float) -> str | None:
    """The choice most like ``word`` with a similarity of at least ``cutoff`` (0-1), or None.

    Similarity is the normalised Indel ratio (as :class:`difflib.SequenceMatcher` gives it,
    computed by rapidfuzz in C++: the parser asks this for every unknown word).
    """
    found = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=cutoff * 100)
    return found[0] if found else None


@lru_cache(maxsize=8192)
def near_catalogue_name(word: str) -> str | None:
    """The catalogued name ``word`` looks like a misspelling of (``pytroch`` -> pytorch).

    A typo is one edit (a letter added, dropped, changed, or two swapped), two in names of
    eight letters or more: "states" is not "rstats", "radio" is not "adios2".

    Remembered per word (a bounded cache): the answer depends on the word and the fixed
    catalogue alone, and the search is the dearest question asked of an unknown word.
    """
    key = squash(word)
    if len(key) < 4 or english_word(word):
        return None  # a real word ("lamps", "states") is not a misspelt package
    spellings = _catalogue_spellings()
    found = typo_of(key, _catalogue_keys(), 1 if len(key) < 8 else 2)
    return spellings[found] if found else None


@cache
def _catalogue_keys() -> tuple[str, ...]:
    return tuple(_catalogue_spellings())


def typo_of(word: str, choices: Sequence[str], edits: int) -> str | None:
    """The choice at most ``edits`` edits from ``word`` (optimal string alignment, so a swap of
    two letters is one edit), closest first; None when there is none.

    Only choices whose length is within ``edits`` of the word's can be that close, so only
    those are compared (the parser asks this for every unknown word).
    """
    near = _near_in_length(choices, len(word), edits)
    if edits == 1 and len(near) > _INDEXED_FROM:
        near = _one_edit_candidates(choices, word)
    if not near:
        return None
    found = process.extractOne(word, near, scorer=OSA.distance, score_cutoff=edits)
    return found[0] if found else None


_INDEXED_FROM = 32
"""Fewer length-matched choices than this are simply all compared."""

_DELETIONS: dict[int, tuple[Sequence[str], dict[str, list[int]]]] = {}


def _one_edit_candidates(choices: Sequence[str], word: str) -> list[str]:
    """Every choice within one edit of ``word`` (and a few more), in the order of ``choices``.

    Comparing an unknown word with each of the ~2,000 ordinary words of the right length was
    most of the typo check. Two strings one insertion, deletion, substitution or swap apart
    always share a "deletion key" (the string itself or it with one letter dropped), so an
    index from keys to choices finds every candidate at once. Keys also pair some strings two
    edits apart; the caller's exact distance check drops those, and because the order of
    ``choices`` is kept the closest-first pick is the same as over the full list.
    """
    known = _DELETIONS.get(id(choices))
    if known is None or known[0] is not choices:
        index: dict[str, list[int]] = {}
        for position, choice in enumerate(choices):
            for key in _deletion_keys(choice):
                index.setdefault(key, []).append(position)
        known = (choices, index)
        _DELETIONS[id(choices)] = known
    index = known[1]
    positions = {p for key in _deletion_keys(word) for p in index.get(key, ())}
    return [choices[p] for p in sorted(positions)]


def _deletion_keys(text: str) -> set[str]:
    return {text, *(text[:i] + text[i + 1 :] for i in range(len(text)))}


_BY_LENGTH: dict[int, tuple[Sequence[str], dict[tuple[int, int], tuple[str, ...]]]] = {}


def _near_in_length(choices: Sequence[str], length: int, edits: int) -> tuple[str, ...]:
    """The choices whose length is within ``edits`` of ``length``, computed once per choice
    list, length and edit count (the lists are module data, asked for every unknown word)."""
    known = _BY_LENGTH.get(id(choices))
    if known is None or known[0] is not choices:
        known = (choices, {})
        _BY_LENGTH[id(choices)] = known
    near = known[1].get((length, edits))
    if near is None:
        near = tuple(c for c in choices if abs(len(c) - length) <= edits)
        known[1][(length, edits)] = near
    return near


def _after_the_job(scanner: Scanner, start: int, word: str) -> bool:
    """An uncatalogued word the job is named after, with no dotted version after it (see
    :func:`names_the_job`); "nekbone 17.0" stays a package whatever the job is called."""
    return (
        names_the_job(scanner.original, word)
        and lookup(lexicon.SOFTWARE, word) is None
        and not _VERSION_AFTER_RE.match(scanner.text, start + len(word))
    )


def extract_open_vocabulary(scanner: Scanner, draft: Draft) -> None:
    """Sort the leftover words into package names, unresolved phrases and prose."""
    filler = filler_words()
    words = leftover_words(scanner.text)
    kinds: list[str] = []
    sourced = 0  # where the data noun after a data source ends
    capitals = not _shouted(scanner.original)  # in a text written in capitals, ROOT is a word
    for i, (start, word) in enumerate(words):
        lower = word.lower()
        versioned = bool(_VERSION_AFTER_RE.match(scanner.text, start + len(word)))
        if lower not in _VENDORS and (
            lower in CHAT_SLANG
            or lower in lexicon.RESERVED_WORDS
            or (lower in filler and not versioned)
        ):
            # Most words: what :func:`_classify` says first of chat, reserved and unversioned
            # filler words, and no check below asks anything of prose
            kinds.append("prose")
            continue
        joined_before = i and _same_segment(scanner.text, words[i - 1], words[i])
        joined_after = i + 1 < len(words) and _same_segment(scanner.text, words[i], words[i + 1])
        before = words[i - 1][1].lower() if joined_before else ""
        after = words[i + 1][1] if joined_after else ""
        named = _inside(start, draft.name_spans) or lower in draft.software
        placed = bool(_PLACED_RE.match(scanner.text, start + len(word)))
        run_verb = placed and _word_before(scanner.original, start) in _RUN_VERBS
        kind = _classify(word, before, after, named, versioned, filler, placed, run_verb)
        if kind == "ambiguous" and (run_verb or (capitals and _acronym(word))):
            kind = "name"  # "ORCA on 4 nodes", "run amber on 2 GPUs": the package, not the word
        elif kind == "ambiguous" and capitals:
            kind = _titled_in_a_sentence(scanner.original, start, word, before, after)
        data = kind in ("name", "unread") and not named
        source = data_source(scanner.original, start, word) if data else 0
        if source:
            kind = "source"  # "MeerKAT continuum data", "DECam exposures": quoted, no package
            sourced = max(sourced, source)
        elif start < sourced and kind in ("unread", "name") and english_word(word):
            kind = "source"  # "continuum data", "exposures": quoted, no list item of packages
        if kind == "name" and cited_work(scanner.original, start, start + len(word)):
            kind = "unread"  # "et al., Nature 2013", "our CoRL 2023 paper"
        elif kind in ("name", "unread") and _not_software_here(
            scanner.original, start, word, named
        ):
            kind = "marked"  # "EUROfusion work package", "15-6f452", "512 corse": quoted, and
            # no list item of packages either
        kinds.append(kind)
    starts = {s for s, _, _ in draft.software_spans}
    versions, ends = _described_names(scanner, words, kinds, starts)
    lent: dict[int, tuple[str, list, list]] = {}  # versions a language lent to a name
    for i, (start, word) in enumerate(words):
        if kinds[i] == "name":
            dropped = _drop_language_qualifier(scanner.original, start + len(word), draft)
            if dropped and dropped[1]:  # "the mace-torch Python package 0.3.6"
                versions[i] = [*versions.get(i, []), *dropped[1]]
                lent[i] = dropped
    _names_in_lists(scanner.original, words, kinds, draft, ends)
    _tools_of_a_step(scanner.original, words, kinds, draft)
    _lists_of_unread(scanner.original, words, kinds)
    _feature_typos(scanner, words, kinds, draft)
    for i, ((start, word), kind) in enumerate(zip(words, kinds, strict=True)):
        if kind != "name":
            continue
        if placed_as_non_name(scanner.original, start, start + len(word)):
            kinds[i] = "unread"  # "--num_gpus", "coresMin:", "in.polymer", "nvcr.io/nvidia/"
        elif _IMAGE_TAG_AFTER_RE.match(scanner.original, start + len(word)):
            kinds[i] = "unread"  # "podman run sb3:latest": an image the job runs, quoted
        elif _part_of_versioned(scanner.original, start, word, draft):
            kinds[i] = "unread"  # "GATK 4.5 HaplotypeCaller": a tool of GATK, quoted
        elif _tool_in_parentheses(scanner.original, start, word, draft):
            kinds[i] = "unread"  # "GATK 4.5 (GenomicsDBImport and GenotypeGVCFs)": quoted
        elif executable_of(word, draft.software):
            kinds[i] = "unread"  # "cp2k.psmp" beside CP2K: a program of a named package
        elif _program_of_named(scanner.original, words, kinds, i, draft):
            kinds[i] = "unread"  # "featureCounts (subread 2.0.6)": a program of that package
        elif on_own_machine(scanner.original, start + len(word)):
            kinds[i] = "unread"  # "GaussView is only used on our desktops": quoted
        elif _after_the_job(scanner, start, word):
            kinds[i] = "unread"  # "#SBATCH -J conformer-ctc", "Conformer-CTC large": quoted
        else:
            name = lookup(lexicon.SOFTWARE, word) or word.lower()[:MAX_NAME_CHARS]
            draft.add_software(name, versions.get(i, []), (start, start + len(word)))
            scanner.blank(start, start + len(word))
    for i, (language, constraints, spans) in lent.items():
        if kinds[i] != "name":  # the name was not read after all: the version stays read
            for first, last, _ in spans:
                draft.add_software(language, constraints, (first, last))
    for first, last in attach_detached_versions(scanner, draft, is_prose):
        for i, (start, _) in enumerate(words):
            if first <= start < last:
                kinds[i] = "applied"  # "version 4.3 or more new" of the name before it
    drop_past_versions(scanner.original, draft)
    _quote_described_languages(scanner.original, draft)
    gpus = _gpus_named(draft)
    # Asked once: in a text with no package noun no word stands right before one
    package_noun = _PACKAGE_NOUN_AFTER_RE.search(scanner.original) is not None
    for i, ((start, word), kind) in enumerate(zip(words, kinds, strict=True)):
        if kind == "vendor" and gpus:  # "as long as they're NVIDIA"
            draft.compute.gpu_vendor.append(Mention(_VENDORS[word.lower()], word))
            scanner.blank(start, start + len(word))
            kinds[i] = "applied"
        elif kind == "vendor":  # a vendor with no GPU in the request: not read, so quoted
            kinds[i] = "unread"
        elif (
            kind == "ambiguous" and capitals and _titled_mid_sentence(scanner.original, start, word)
        ):
            kinds[i] = "unread"  # "thanks to Ray", "in Stan": a proper name, quoted
        elif (
            kind in ("prose", "ambiguous")
            and package_noun
            and _before_package_noun(scanner.original, start, word)
        ):
            kinds[i] = "unread"  # "the vegan package": not read as a name, so quoted
    _unresolved_phrases(scanner, words, kinds, draft)
    _stray_amounts(scanner, draft)


_PROGRAM_OF_AFTER_RE = re.compile(
    r"[^\S\n]*\([^\S\n]*(?P<part>(?:from|part[^\S\n]+of|of)[^\S\n]+)?"
    r"|[^\S\n]+(?:from|of)[^\S\n]+(?:the[^\S\n]+)?",
    re.IGNORECASE,
)
"""What ties a program to the package it ships in, right after the program's name:
"featureCounts (subread 2.0.6)", "hhblits (from HH-suite)", "ESMFold from fair-esm",
"pvbatch of ParaView"; the package follows."""
_POSSESSIVE_BEFORE_RE = re.compile(r"['\u2019]s[^\S\n]+\Z")
"""A possessive right before the word ("OpenFOAM's snappyHexMesh"): the owner is named."""
_VERSION_CLOSES_RE = re.compile(r"(?:[/@=-]|[^\S\n]++v?)\d[\w.+-]*+[^\S\n]*+\)")
"""The owner's version, then the bracket closes: "(subread 2.0.6)"."""
_CLOSES_RE = re.compile(r"[^\S\n]*+\)")
"""The bracket closes right after the owner (whose span already holds its version)."""


_RUNTIME_OWNERS = frozenset(
    "python python3 r julia perl ruby matlab octave java node nodejs lua".split()
)
"""Languages and runtimes: a package credited to one ("statnet (R 4.3)", "Flux from Julia")
is written in it and installed on its own, no program shipped inside it."""


def _program_of_named(
    original: str, words: list[tuple[int, str]], kinds: list[str], i: int, draft: Draft
) -> bool:
    """A program, sub-command or tool credited to a package the request names ("featureCounts
    (subread 2.0.6)", "hhblits from HH-suite 3.3", "OpenFOAM's snappyHexMesh"): the package is
    the requirement a site installs, and the program comes with it, so the program is no
    second package. A bracket alone credits only a package and its version that close it
    ("Tramontex (Quorbix 2.1 also fine)" offers a choice); a language or runtime credits no
    program, nor does a package whose name holds the word's or the other way round (an
    interface and its engine). Kept unread, so the word is quoted."""
    start, word = words[i]
    end = start + len(word)
    owners = {first: last for first, last, _ in draft.software_spans}
    for j, (s, w) in enumerate(words):
        if j != i and kinds[j] == "name":
            owners.setdefault(s, s + len(w))
    gap = _POSSESSIVE_BEFORE_RE.search(original, max(0, start - 4), start)
    if gap is not None and any(
        last == gap.start() and first < start for first, last in owners.items()
    ):
        return True
    tie = _PROGRAM_OF_AFTER_RE.match(original, end)
    if tie is None or tie.end() not in owners:
        return False
    bracket = tie.group(0).lstrip().startswith("(")
    owner = original[tie.end() : owners[tie.end()]]  # the name, and its version if read with it
    head, mine = squash((owner.split() or [""])[0]), squash(word)
    if head in _RUNTIME_OWNERS or head in mine or mine in head:
        return False  # "statnet (R 4.3)", "cmdstanr (CmdStan 2.35)": a package of its own
    if not bracket or tie.group("part"):
        return True
    closes = owner.rstrip().endswith(")") or _CLOSES_RE.match(original, owners[tie.end()])
    return bool(
        _VERSION_CLOSES_RE.match(original, owners[tie.end()])
        or (closes and _DIGIT_RE.search(owner))
    )


_IMAGE_TAG_AFTER_RE = re.compile(r":(?:latest|stable|dev|nightly|main|v?\d[\w.-]*)(?![\w:/])")
"""A container image tag glued to the word ("sb3:latest", "mytool:1.2"): the word names an
image built for the job, not a package a site installs (a Spack or module pin is written
with "@" or "/")."""
_PART_GAP_RE = re.compile(r"[^\S\n]+\Z")


def _part_of_versioned(original: str, start: int, word: str, draft: Draft) -> bool:
    """A name-shaped word right after a package and its version, with only blanks between:
    a tool, mode or method of that package ("GATK 4.5 HaplotypeCaller", "ANTs 2.5.3 SyN
    registrations"), not a package of its own (a list is written with commas or "and").
    Kept unread, so it is quoted."""
    gap = _PART_GAP_RE.search(original, 0, start)
    if gap is None or word.islower():
        return False
    return any(
        end == gap.start() and _DIGIT_RE.search(original[first:end])
        for first, end, _ in draft.software_spans
    )


_PAREN_LIST_BEFORE_RE = re.compile(
    r"[^\S\n]*\([^\S\n]*(?:[A-Za-z][\w.-]*[^\S\n]*(?:,|and|&|\+)[^\S\n]*)*\Z"
)
"""An opening parenthesis and maybe earlier items of its list, right before the word."""
_CAMEL_TOOL_RE = re.compile(r"^[A-Za-z][a-z0-9]*(?:[A-Z][A-Za-z0-9]*)+$")
"""CamelCase with a capital inside ("GenotypeGVCFs", "featureCounts"), the way a package
names its tools and sub-commands; plain words and acronyms are not asked."""


def _tool_in_parentheses(original: str, start: int, word: str, draft: Draft) -> bool:
    """A CamelCase word in parentheses right after a package and its version: the tools of
    that package the job runs ("GATK 4.5 (GenomicsDBImport and GenotypeGVCFs)", "Picard 3.1
    (MarkDuplicates)"), not packages of their own. Kept unread, so it is quoted. The ``(``
    test keeps every other word free of the regex."""
    if "(" not in original[max(0, start - 80) : start] or not _CAMEL_TOOL_RE.match(word):
        return False
    lead = _PAREN_LIST_BEFORE_RE.search(original, max(0, start - 80), start)
    if lead is None:
        return False
    return any(
        end == lead.start() and _DIGIT_RE.search(original[first:end])
        for first, end, _ in draft.software_spans
    )


_ASSEMBLY_NOUNS = frozenset(("assembly", "assemblies", "quantification"))
_HEAD_BREAK_RE = re.compile(r"(?:^|[.!?:;>\"\u201c]|[.!?][)\"'\u201d]|\n[^\S\n]*\n)\s*$")
_SENTENCE_BREAK_RE = re.compile(r"[.!?](?:\s|$)|\n[^\S\n]*\n")


def _titled_in_a_sentence(original: str, start: int, word: str, before: str, after: str) -> str:
    """A catalogued name that is also a word ("spark", "trinity", "stan"), written with one
    capital inside a sentence, is the package right after a tool preposition, "on" or a verb
    of use ("Hail on Spark", "an assembly with Trinity", "I use Fiji"), right before a job
    noun ("a Trinity assembly", "our Stan model") or before the interface it is reached
    through ("in Stan (via cmdstanr)"); a person spoken with ("talked it over with
    Stan") is no tool. Otherwise it stays ambiguous: a list may still make it a name, and if
    nothing does it is quoted (see :func:`_titled_mid_sentence`), never dropped."""
    if not _titled_mid_sentence(original, start, word):
        return "ambiguous"
    job = after.lower() in (_JOB_NOUNS | _ASSEMBLY_NOUNS) - _CONCEPT_NOUNS
    interface = bool(_INTERFACE_ASIDE_RE.match(original, start + len(word)))
    used = bool(_USED_RE.search(original, max(0, start - 24), start))
    if before not in (*_TOOL_BEFORE, *_RUN_VERBS, "on") and not (job or interface or used):
        return "ambiguous"
    if used:
        return "name"  # "I work on microscope images and I use Fiji": a person is met or
        # worked with, never used, so the sentence's social words say nothing here
    sentence = sentence_start(_SENTENCE_BREAK_RE, original, start)
    return "ambiguous" if _SOCIAL_RE.search(original, sentence, start) else "name"


_USED_RE = re.compile(
    r"(?<![\w-])(?:use|uses|using|run|runs|running|execute|launch)[^\S\n]*\n?[^\S\n]*$", re.I
)
"""A verb of use right before the word, maybe across a wrapped line ("I use\nFiji")."""
_INTERFACE_ASIDE_RE = re.compile(
    r"\s*\((?:via|through|using|from)\s+(?:the\s+)?[A-Za-z][\w.-]*[^\S\n]*[,)]"
    r"|\s*\((?:via|through|using|from)\s+(?:the\s+)?[A-Za-z][\w.-]*\s+"
    r"(?:package|library|interface|wrapper|bindings?|frontend|front-end)s?(?![\w-])",
    re.I,
)
"""An aside naming the interface a tool is reached through: "a model in Stan (via cmdstanr)",
"in Stan (through the cmdstanr package)". Only a package is reached through another one."""


def _titled_mid_sentence(original: str, start: int, word: str) -> bool:
    """One capital, inside a sentence: a proper name, which may be a person or a place ("thanks
    to Ray", "field data from Fiji") as well as a package, so it is quoted rather than dropped
    as the everyday word. At a sentence's start ("Spark joy", "Go ahead") a capital says
    nothing."""
    return _capitalised_alone(word) and not _HEAD_BREAK_RE.search(
        original, max(0, start - 8), start
    )


def _shouted(text: str) -> bool:
    """Whether most letters of the text are capitals, so capitals say nothing of a word."""
    if text.isascii():
        # The same count without a Python step per character: an ASCII character is a letter
        # exactly when it is one of A-Z or a-z, and a capital exactly when it is one of A-Z.
        raw = text.encode("ascii")
        capitals = len(raw.translate(None, _NOT_ASCII_CAPITAL))
        return capitals * 2 > len(raw.translate(None, _NOT_ASCII_LETTER))
    letters = [c for c in text if c.isalpha()]
    return sum(c.isupper() for c in letters) * 2 > len(letters)


_NOT_ASCII_CAPITAL = bytes(b for b in range(256) if not chr(b).isupper() or b > 127)
_NOT_ASCII_LETTER = bytes(b for b in range(256) if not chr(b).isalpha() or b > 127)
"""Bytes :func:`_shouted` deletes to leave only the capitals, or only the letters, of an ASCII
text (derived from ``str.isupper``/``str.isalpha`` themselves, so both counts agree)."""


def _slashed_non_names(word: str) -> bool:
    """Two or three things joined by slashes, each no package: an English word, a formula or
    a word :func:`not_a_package` sets aside ("water/TiO2", "POPC/cholesterol"): a system or a
    mixture. A part that could be a package ("gromacs/2024") keeps the whole a name."""
    parts = word.split("/")
    return 1 < len(parts) <= 3 and all(
        p and (english_word(p) or _NOT_A_NAME_RE.match(p) or not_a_package(p)) for p in parts
    )


def _acronym(word: str) -> bool:
    """Written in capitals, three letters or more: "ORCA", "AMBER", "ROOT" (not "GO")."""
    return len(word) > 2 and word.isupper()


def _not_software_here(text: str, start: int, word: str, named: bool) -> bool:
    """A word that its neighbours mark as no package: glued to a number before it (the
    "f452" of "15-6f452", a part of a version, even where a key names packages), a mistyped
    unit after a number ("512 corse"), a name before a noun of projects, events, machines
    or formats ("FluSight submission"), the name of what a count counts ("412 SARS-CoV-2
    genomes", "q-point 3 of 20"), or a place, institution, mailing list or language ("Torun,
    Poland", "[chem-hpc]", "our Fortran code")."""
    if start > 0 and text[start - 1].isdigit():
        return True
    return not named and (
        unit_typo(text, start, word)
        or names_no_software(text, start, word)
        or counted_samples(text, start, word)
        or named_as_data(text, start, word)
        or shaped_as_no_package(text, start, word)
        or no_software_name(text, start, word)
    )


def is_prose(word: str, filler: frozenset[str] | None = None) -> bool:
    """Whether a leftover word is ordinary prose that may be ignored.

    This is the only way a word is dropped: it is in ``filler_words.txt``, the stop words or the
    reserved words; or a compound of such words ("fine-tuning"); or a single letter; or an
    ambiguous name that counts only with a version ("a boost"); or a misspelling one edit away
    from a filler word ("shoud"). Everything else becomes a package name or an unresolved
    phrase.
    """
    filler = filler if filler is not None else filler_words()
    lower = word.lower()
    return (
        lower in filler
        or lower in CHAT_SLANG
        or lower in lexicon.RESERVED_WORDS
        or len(lower) < 2
        or (_is_prose_compound(lower, filler) and not _branded(word))
        or squash(word) in lexicon.SOFTWARE_NEEDS_VERSION
        or (
            not name_shaped(word)
            and near_catalogue_name(word) is None
            and not _near_feature_word(lower)
            and _near_filler(lower, filler)
        )
    )


def _classify(
    word: str,
    before: str,
    after: str,
    named: bool,
    versioned: bool,
    filler: frozenset[str],
    placed: bool = False,
    run_verb: bool = False,
) -> str:
    """``prose``, ``name``, ``vendor``, ``hardware`` or ``unread`` for one leftover word.

    ``versioned``: a version number follows the word ("capability 8.0", "Ubuntu 22.04"), which
    makes even an ordinary word part of a requirement. ``run_verb``: a verb of running stands
    right before the word in the text ("run cholla on 2 nodes").
    """
    lower = word.lower()
    titled = after[:1].isupper()  # "the National Library": one proper name of two words
    after = after.lower()
    if lower in _VENDORS:
        return "vendor"
    if lower in CHAT_SLANG:
        return "prose"  # "finally installed lol", "btw": chat, no requirement
    if (
        lower in filler
        or lower in lexicon.RESERVED_WORDS
        or (_is_prose_compound(lower, filler) and not _branded(word))
    ):
        return "unread" if versioned and lower not in lexicon.RESERVED_WORDS else "prose"
    if squash(word) in lexicon.SOFTWARE_NEEDS_VERSION:
        return "ambiguous"  # "a boost", "go ahead": a name only with a version or in a list
    if len(lower) < 2:
        return "prose"
    # A plain lower-case word is its own only part: asked once
    parts = lower.split("-") if "-" in lower or lower != word else ()
    if HARDWARE_RE.match(word) or any(HARDWARE_RE.match(p) for p in parts):
        return "hardware"  # "AVX-512", "SVE-vectorised", "FPGA-accelerated"
    if "+" in lower.strip("+") and set(lower.split("+")) <= _PARALLEL_MODELS:
        return "unread"  # "MPI+OpenMP", "MPI+CUDA": how the code runs, not a package name
    if lower in _LANGUAGES:
        return "unread"  # "written in C++", "a C++ toolchain": a language, no package to find
    if _JULIA_PACKAGE_RE.match(word):
        return "name"  # "Oceananigans.jl", "CUDA.jl": Julia names its packages so
    if len(word) > MAX_NAME_CHARS or not _LOWER_LETTER_RE.search(lower) or lower.count(".") > 1:
        return "unread"  # "lic.example.ac.uk" is a host, not a package
    if _NOT_A_NAME_RE.match(word):
        return "unread"  # "LiNiO2", "E4", "v0.91", "FFTs": formulas, codes, plural acronyms
    if not_a_package(word) or _slashed_non_names(word):
        return "unread"  # "Llama-3-70B", "inputs_3d", "motorBike", "LoRA": no software
    if _near_feature_word(lower):
        return "unread"
    if named:
        return "name"
    if "-" in lower and _phrase_compound(lower):
        return "unread"  # "MPI-wise", "HIPAA-compliant", "mesoscale-to-LES", "on-prem"
    # Context makes a package of a word no dictionary knows; an English word stays unread. A
    # word the dictionary knows only as a proper noun ("pythia", "passim") is no English.
    english = english_word(word) and not (word.islower() and proper_noun_only(word))
    foreign = not english and not _english_compound(lower) and not _inflected(lower)
    if foreign and after in _NAME_AFTER and word.islower():
        return "name"  # "the reghdfe and ftools add-ons": the noun outweighs a near typo
    # Each asked once: the checks at the end of this function reuse the answers
    shaped = name_shaped(word)
    near = None if shaped else near_catalogue_name(word)
    if (
        not shaped
        and near is None
        and _near_filler(lower, filler)
        and not _titled_name(word, after, versioned)
    ):
        return "prose"  # "somone", "shoud": a misspelled ordinary word
    if foreign and (before in _NAME_BEFORE or after in _NAME_AFTER) and word.islower():
        return "name"
    if after in _NAME_AFTER and before in _DETERMINERS and _capitalised_alone(word) and not titled:
        return "name"  # "the Grid library", "our Octopus installation": a proper name
    if foreign and before in _TOOL_BEFORE and word.islower() and (not after or after in filler):
        return "name"  # "assemble it with hifiasm.", "using optuna for the search"
    plain = foreign and "-" not in word and (_could_be_name(word) or word.isupper())
    if not plain and "-" in lower and word.islower() and after in _JOB_NOUNS:
        plain = _acronym_suffixed(lower)  # "the sumo-rl sweep", before a job noun
    job = after in _JOB_NOUNS and (after not in ("run", "runs") or before in _DETERMINERS)
    acronym = word.isupper() and word.isalpha()  # "an MHD job": science, as "name_shaped" says
    job = job and after not in _CONCEPT_NOUNS and not acronym
    if plain and job:
        return "name"  # "my optuna sweep", "an IO500 run"; not "can someone run"
    runs = before in _RUN_VERBS or before in _TOOL_BEFORE or not before
    if plain and placed and runs:
        return "name"  # "run cholla on 2 nodes": the thing placed on the resources
    if placed and run_verb and _rare_word(word):
        return "name"  # "run cholla on 2 nodes", right after the verb; not "run tests on"
    if shaped:
        return "name" if "-" not in word or _is_name_compound(lower, filler) else "unread"
    if near is not None:
        return "name"
    # Not name-shaped and no catalogue name: the misspelt-filler check above already said no
    return "unread"


_TOOL_PREPOSITION_RE = re.compile(
    r"(?:(?<![\w-])(?P<prev>[A-Za-z][\w-]*)[^\S\n]+)?(?:with|using|via|through)[^\S\n]+$", re.I
)
_CLAUSE_END_RE = re.compile(r"[^\S\n]*(?:[.,;:!?(]|\n|$|(?:and|or|then)(?!\w))")
_SENTENCE_START_RE = re.compile(r"(?:[.!?][\s)]|\n[^\S\n]*\n)")
_SOCIAL_RE = re.compile(
    r"(?<!\w)(?:discuss|talk|spoke|speak|meet|met|work|collaborat|shar|chat|consult|coordinat|"
    r"agree|confirm|sync|liais|team|together|along|joint|partner|visit|call|email|e-mail|"
    r"check)\w*(?!\w)",
    re.I,
)
"""Verbs and words a person follows "with" after ("talked it over with Kwame", "together
with Priya"): in such a sentence a capitalised word after "with" is no tool."""
_NUMBERED_TITLE_RE = re.compile(r"^[A-Z][a-z]{2,}-[1-9]$")
"""A proper name numbered after a hyphen ("Boltz-2", "Chai-1"): a tool's generation."""


def _tools_of_a_step(
    original: str, words: list[tuple[int, str]], kinds: list[str], draft: Draft
) -> None:
    """The tool a step of a pipeline is done with: "dock with AutoDock-GPU and rescore the hits
    with GNINA", "run GADGET-4, then find halos with Rockstar", "shell-model calculations with
    KSHELL". After "with", "using", "via" or "through", at the end of a clause, an unknown
    proper name or acronym names a tool when the sentence has named a package before it, or
    a job noun stands before the preposition. A person ("discussed it with Priya") or a method
    ("neurons with STDP") stands there too, but in no sentence about a package's step."""
    if "unread" not in kinds:
        return  # only an unread word becomes a tool here
    for i, (start, word) in enumerate(words):
        if kinds[i] == "unread" and _made_to_work(original, start, word):
            kinds[i] = "name"
    spans = [s for s, _, _ in draft.software_spans] + [
        s for (s, _), k in zip(words, kinds, strict=True) if k == "name"
    ]
    for i, (start, word) in enumerate(words):
        if kinds[i] != "unread" or not _step_tool_shaped(word):
            continue
        head = original[max(0, start - 60) : start]
        prep = _TOOL_PREPOSITION_RE.search(head)
        if prep is None or not _CLAUSE_END_RE.match(original, start + len(word)):
            continue
        breaks = list(_SENTENCE_START_RE.finditer(original, 0, start))
        sentence = breaks[-1].end() if breaks else 0
        job = (prep.group("prev") or "").lower() in _JOB_NOUNS
        if not word.isupper():
            if _SOCIAL_RE.search(original, sentence, start):
                continue  # "I discussed the GROMACS runs with Priya": a person
            job = False  # "the runs with Priya": only an acronym after a job noun alone
        if job or any(sentence <= s < start for s in spans):
            kinds[i] = "name"
    found = {w.lower() for (_, w), k in zip(words, kinds, strict=True) if k == "name"}
    for i, (_, word) in enumerate(words):
        if kinds[i] == "unread" and word.lower() in found and _step_tool_shaped(word):
            kinds[i] = "name"  # the subject line's "where to run Firedrake?" too


_GET_BEFORE_RE = re.compile(r"(?<![\w-])(?:get|gets|got|getting|gotten)[^\S\n]+$", re.I)
_WORKING_AFTER_RE = re.compile(
    r"[^\S\n]+(?:working|running|installed|built|compiled|"
    r"to[^\S\n]+(?:work|run|build|compile|install))(?P<on>[^\S\n]+on(?!\w))?",
    re.I,
)


def _made_to_work(original: str, start: int, word: str) -> bool:
    """ "Has anyone got Firedrake working?", "we cannot get swarpx to build": only software is
    got working, built or installed. "get it working" and "get things running" are everyday
    words; a capitalised word no dictionary knows, working *on* something, is a person ("got
    Priya working on the mesh")."""
    if not _GET_BEFORE_RE.search(original, max(0, start - 20), start) or common_word(word):
        return False
    after = _WORKING_AFTER_RE.match(original, start + len(word))
    if after is None:
        return False
    person = _capitalised_alone(word) and not english_word(word)
    return not (person and after.group("on"))


def _step_tool_shaped(word: str) -> bool:
    """An unknown acronym ("GNINA"), a numbered proper name ("Boltz-2") or a capitalised word
    no dictionary knows, not even as a proper noun ("Oceananigans", "Rockstar")."""
    if _tool_acronym(word) or (_NUMBERED_TITLE_RE.match(word) and not english_word(word[:-2])):
        return True
    return (
        _capitalised_alone(word)
        and not english_word(word)
        and not proper_noun_only(word)
        and not common_word(word)
        and not not_a_package(word)
    )


def _acronym_suffixed(word: str) -> bool:
    """A hyphenated lower-case word of an uncommon word and an acronym of a field ("sumo-rl",
    "gym-md", "torch-ml"): a package named for what it adds to another; "multi-node", "ml-based"
    and "hpc-scale" are English compounds."""
    parts = word.split("-")
    return (
        len(parts) == 2
        and any(p in lexicon.DOMAIN_ACRONYMS for p in parts)
        and any(
            p.isalpha() and len(p) > 2 and p not in lexicon.DOMAIN_ACRONYMS and not common_word(p)
            for p in parts
        )
        and not _phrase_compound(word)
    )


def _rare_word(word: str) -> bool:
    """A lower-case word a dictionary lists but nobody writes every day ("cholla", "swarp"),
    no plural or other English form: placed on resources it is the program run there ("run
    cholla on 2 nodes"), where an everyday word is what is run ("run tests on 2 nodes")."""
    return (
        word.isalpha()
        and word.islower()
        and len(word) > 3
        and not common_word(word)
        and not _inflected(word)
        and not word.endswith(("s", *_ENGLISH_ENDINGS))
    )


def _tool_acronym(word: str) -> bool:
    """An all-capital word of letters that no dictionary, list of science abbreviations or
    domain acronyms knows ("GNINA", "MLIP"): after "with" or "using" it names a tool ("score
    them with GNINA"), where "with MCMC" or "with ECC" name a method or a feature."""
    return (
        word.isupper()
        and word.isalpha()
        and len(word) >= 4
        and word.lower() not in lexicon.DOMAIN_ACRONYMS
        and not not_a_package(word)
        and not english_word(word)
        and not HARDWARE_RE.match(word)
    )


_TOOL_NOUNS = frozenset(
    """
    package library toolkit toolbox framework code solver simulator software program tool
    suite driver finder optimiser optimizer engine plugin compiler assembler aligner integrator
    emulator profiler debugger visualiser visualizer viewer wrapper generator mesher
    recogniser recognizer tagger parser classifier annotator segmenter tokenizer tokeniser
    """.split()
)
"""Nouns that say what kind of software a name is ("the Carpet mesh refinement driver",
"Rockstar, a halo finder"): the generic nouns of software and the agent nouns of tools
(-er/-or words that name a program's job, as in package descriptions on PyPI, CRAN or Spack:
"a part-of-speech tagger", "a speech recogniser")."""
_SET_OFF_NOUNS = frozenset(("detector",))
"""Tool nouns that also name instruments ("the ATLAS detector", "the detector TDR"): they
describe software only in a description set off after the name ("passim (a text-reuse
detector)")."""
_STRICT_TOOL_NOUNS = frozenset("package library toolkit toolbox module".split())
"""The nouns that make even an everyday word a name, right before them ("the arrow package")."""
_DESCRIBED_BEFORE = frozenset("the our a an my their this its".split())
_USED_BEFORE = frozenset("use uses using used run runs running with via for of".split())
_TOOL_NOUN = rf"(?P<head>{'|'.join(sorted(_TOOL_NOUNS))})s?(?![\w-])"
_SET_OFF_NOUN = rf"(?P<head>{'|'.join(sorted(_TOOL_NOUNS | _SET_OFF_NOUNS))})s?(?![\w-])"
_GAP = r"[^\S\n]*\n?[^\S\n]*"
"""Blanks, at most one line break: a description may wrap, a paragraph ends it."""
_SPACE = rf"(?:[^\S\n]+|{_GAP}\n{_GAP})"
_DESCRIBED_VERSION = r"(?:version\s+|release\s+|v)?(?P<version>\d+(?:\.\d+){1,3}[a-z]?)(?![\w.])"
_ATTRIBUTIVE_RE = re.compile(
    rf"(?P<quote>[\"'\u201d\u2019])?{_SPACE}"
    rf"(?P<middle>(?:(?:[a-z][a-z-]*|[A-Z][a-z]+(?:-[A-Z][a-z]+)?|[A-Z]{{2,5}}){_SPACE}){{0,3}})"
    rf"{_TOOL_NOUN}"
    rf"(?:{_GAP}\({_GAP}{_DESCRIBED_VERSION}{_GAP}\)|(?:{_GAP}\([^()\n]{{1,40}}\))?{_GAP},?{_GAP}"
    r"(?:version|release)[^\S\n]+(?P<later>\d+(?:\.\d+){1,3}[a-z]?)(?![\w.]))?"
)
"""After a name: lower-case words (or a scientist's name that stands for a method, see
:func:`concept_word`), a tool noun, maybe a version in brackets or after it ("Raven
hydrological modelling framework (v3.8)", "the "elk" code (an FP-LAPW one) version 9.6", "the
CLASS Boltzmann code")."""
_BUILT_SUBJECT_RE = re.compile(
    rf"{_SPACE}(?:(?:is|was|gets|must{_SPACE}be|has{_SPACE}to{_SPACE}be){_SPACE})?"
    rf"(?:compiled|built|linked){_SPACE}(?:against|with|to)(?!\w)"
)
"""A name a build is said of: "ROMS is compiled against NetCDF" (only software is built)."""
_COUPLED_BEFORE_RE = re.compile(
    r"coupl(?:e|es|ed|ing)\s+(?:(?:with|to)\s+|(?:\S+\s+){1,3}?(?:with|to)\s+)$", re.I
)
"""A name coupled to a model: "ParFlow coupled with CLM", "we couple WRF 4.5 with ROMS"."""
_COUPLED_SUBJECT_RE = re.compile(
    rf"{_SPACE}(?:(?:is|was|are|were|gets|get){_SPACE})?(?:coupled|couples|couple)"
    rf"{_SPACE}(?:(?:to|with|together{_SPACE}with){_SPACE})?"
)
"""A name that is coupled to what follows: "MOOSE coupled to OpenMC", "Cardinal couples NekRS
and OpenMC" (a code only when a package follows, see :func:`_built_or_coupled`)."""
_LANGUAGE_PACKAGE_RE = re.compile(
    rf"{_SPACE}(?P<language>R|Python|python|Julia|Perl|MATLAB|Matlab|Lua|Rust|Haskell|"
    rf"Bioconductor|CRAN|PyPI|conda){_SPACE}(?:package|library|module|toolbox|crate|add-on|"
    r"extension)s?(?![\w-])"
)
"""A language and a package noun after a word: the word names a package written in it ("the
tximport R package", "the harmony Python module")."""
_LANGUAGE_PACKAGE_BEFORE_RE = re.compile(
    r"(?<![\w-])(?:R|Python|python|Julia|Perl|MATLAB|Matlab|Lua|Rust|Haskell|Bioconductor|CRAN|"
    r"PyPI|conda)[^\S\n]+(?:package|library|module|toolbox|crate|add-on|extension)"
    r"[^\S\n]+(?:(?:called|named)[^\S\n]+)?[\"'\u201c\u2018]?\Z"
)
"""The same cue before a word: "the R package limma", "the Python library called pyemu"."""
_PACKAGE_COMPOUND_HEADS = frozenset(
    """
    ecosystem ecosystems index indexes repository repositories repo repos registry registries
    cache caches archive archives mirror mirrors namespace namespaces vignette vignettes
    maintainer maintainers manager managers tree trees landscape
    """.split()
)
"""Nouns that make one compound with a package noun before them ("the R package ecosystem",
"the Python package index"): no name."""
_APPOSITIVE_RE = re.compile(
    rf"{_GAP}(?P<open>\(|,){_GAP}(?:the|a|an|[A-Z][\w-]*(?:{_SPACE}[A-Z][\w-]*)?'s)"
    rf"{_SPACE}(?P<middle>(?:[\w\x00-]+{_SPACE}){{0,4}}?){_SET_OFF_NOUN}"
    rf"(?:{_GAP},{_GAP}{_DESCRIBED_VERSION})?"
)
"""A description set off after a name: "Drake (the MIT robotics toolbox, v1.30)", "passim,
David Smith's text-reuse detection tool", "FRED (the agent-based epidemic simulator)"."""
_NOT_IN_DESCRIPTION = frozenset(
    """
    who whom whose which that is was are were be been has have had do does did not no and or
    but if when where what while because than then there here it they we i you he she
    """.split()
)
_ADJECTIVE_NAME_ENDS = ("ian", "ic", "al", "ous", "ive", "ese", "ish", "ary", "ed", "ing", "ly")
"""Capitalised words that are adjectives, not names: "the Bayesian framework", "the Gaussian
process code", "the European model"."""


def _described_names(
    scanner: Scanner, words: list[tuple[int, str]], kinds: list[str], starts: set[int]
) -> tuple[dict[int, list], dict[int, int]]:
    """An unread word that the text describes as software is a package name.

    A human knows "the Carpet mesh refinement driver" or "Rockstar (Behroozi's phase-space
    halo finder)" names software without knowing the name: a tool noun heads the phrase around
    it. The description and a version written in it ("Drake (the MIT robotics toolbox,
    v1.30)") belong to the name, so they are read with it; a described word that is ordinary
    prose ("the whole package", "the main code") is never a candidate.

    Once described, the name is a name wherever else the text writes it (a subject line).
    ``starts``: where the packages read so far start (a name coupled to one is a code too).

    Returns:
        The version constraints found for each word index that became a name, and where its
        description ends.
    """
    from providers.wire.requirements import Comparator, VersionConstraint

    text = scanner.text
    versions: dict[int, list] = {}
    ends: dict[int, int] = {}
    starts = starts | {s for (s, _), kind in zip(words, kinds, strict=True) if kind == "name"}
    for i, (start, word) in enumerate(words):
        if kinds[i] == "unread" and _coupled_subject(scanner.original, start, word, starts):
            kinds[i] = "name"  # "MOOSE coupled to OpenMC", "Cardinal couples NekRS and ..."
            ends[i] = start + len(word)
            continue
        if kinds[i] == "unread" and _camel_named(scanner.original, start, word):
            kinds[i] = "name"  # "the library turbinesFoam": a package noun names it
            ends[i] = start + len(word)
            continue
        if kinds[i] not in ("unread", "ambiguous") or not _could_be_described(word):
            continue
        end = start + len(word)
        before = _word_before(scanner.original, start)
        if _built_or_coupled(scanner.original, start, word, kinds[i]):
            kinds[i] = "name"
            ends[i] = end
            continue
        if _language_package(scanner.original, end, word) or _language_package_before(
            scanner.original, start, word
        ):
            kinds[i] = "name"  # "the tximport R package", "the R package limma"
            ends[i] = end
            continue
        if _named_after_noun(scanner, start, word, versions, i):
            kinds[i] = "name"  # "the finite-element code Elmer, version 9.0"
            ends[i] = end
            continue
        m = _APPOSITIVE_RE.match(text, end)
        if m and (m.group("open") == "(" or before in _USED_BEFORE):
            pass
        else:
            m = _ATTRIBUTIVE_RE.match(text, end)
            if m is None or before not in _DESCRIBED_BEFORE:
                continue
            quoted = bool(m.group("quote")) and scanner.original[start - 1 : start] in _QUOTES
            if word.islower() and not quoted and not _lower_case_described(word, kinds[i], m):
                continue
            inside = m.group("middle").split()
            if any(w[:1].isupper() and not concept_word(w) and not w.isupper() for w in inside):
                continue  # "the Carpet Mesh driver": only a method's eponym or an acronym of
                # science may stand inside ("the Grid lattice QCD library")
            eponym = any(concept_word(w) for w in inside)
            packaged = not inside and m.group("head") in _STRICT_TOOL_NOUNS
            if packaged and _tool_acronym(word):
                pass  # "the MLIP package": a package noun makes a name of an unknown acronym
            elif not word.islower() and not _capitalised_alone(word) and not eponym:
                continue  # "the MHD code"; but "the CLASS Boltzmann code" names CLASS
        middle = m.group("middle").split()
        if any(w.lower() in _NOT_IN_DESCRIPTION for w in middle):
            continue  # "Alice (the postdoc who wrote the code)": a clause, not a description
        if any(_DIGIT_RE.search(w) or HARDWARE_RE.match(w) for w in middle):
            continue  # "(the AVX-512 solver)": a requirement inside is never read away
        kinds[i] = "name"
        version = m.group("version") or m.groupdict().get("later")
        if version:
            versions[i] = [VersionConstraint(op=Comparator.EQ, version=version)]
        for k, (other, _) in enumerate(words):
            if end <= other < m.end() and kinds[k] in ("unread", "name", "ambiguous"):
                kinds[k] = "described"
        scanner.blank(end, m.end())
        ends[i] = m.end()
    if not ends:
        return versions, ends  # no name described: none to find again elsewhere
    described = {words[i][1].lower() for i in ends}
    for k, (_, word) in enumerate(words):
        if kinds[k] in ("unread", "ambiguous") and word.lower() in described:
            kinds[k] = "name"
    return versions, ends


_NOUN_BEFORE_RE = re.compile(
    rf"(?:^|\s)(?i:the|a|an|our|their|its|my|this){_SPACE}(?:[a-z][\w-]*{_SPACE}){{0,3}}"
    rf"{_TOOL_NOUN}{_SPACE}(?:(?:is|was|called|named){_SPACE})?$"
)
"""A tool noun before a name, as a title before a person's name: "the finite-element code
Elmer", "the halo finder Rockstar", "the code is SERGHEI"."""
_VERSION_AFTER_NAME_RE = re.compile(
    r"[^\S\n]*,?[^\S\n]*(?:version|release|v)[^\S\n]*(?P<version>\d+(?:\.\d+){0,3})(?![\w.])"
)


def _named_after_noun(
    scanner: Scanner, start: int, word: str, versions: dict[int, list], i: int
) -> bool:
    """A proper name right after a tool noun it is the name of, and the version after it."""
    from providers.wire.requirements import Comparator, VersionConstraint

    if word.islower() or not _could_be_described(word) or common_word(word):
        return False  # "the code base", "the tool This": no name
    if word.lower() in _LANGUAGE_NAMES:
        return False  # "the code is Fortran": a language, no package
    if not _NOUN_BEFORE_RE.search(scanner.original[max(0, start - 80) : start]):
        return False
    end = start + len(word)
    version = _VERSION_AFTER_NAME_RE.match(scanner.text, end)
    if version:
        versions[i] = [VersionConstraint(op=Comparator.EQ, version=version.group("version"))]
        scanner.blank(end, version.end())
    return True


_PACKAGE_NOUN_BEFORE_RE = re.compile(
    rf"(?:^|\s)(?i:the|a|an|our|their|its|my|this){_SPACE}(?:package|library|toolkit|toolbox|"
    rf"module){_SPACE}(?:(?:is|was|called|named){_SPACE})?\Z"
)


def _camel_named(original: str, start: int, word: str) -> bool:
    """A camel-case word ("turbinesFoam") is most often an identifier of a case or a key
    ("motorBike"); right after "the library" or "the package" it is the package's name."""
    if not camel_identifier(word):
        return False
    return bool(_PACKAGE_NOUN_BEFORE_RE.search(original, max(0, start - 40), start))


def _quote_described_languages(original: str, draft: Draft) -> None:
    """A language read only from words that describe a part ("the Python side uses mpi4py",
    "the python package aquacrop", "its Python API") is no requirement of its own when
    another package is named: that package is checked, and it carries the language. The
    words are quoted, never dropped. Named alone ("the official R package") the language is
    the one requirement there is, so it stays; with a version it is asked for."""
    others = [n for n in draft.software if n not in _DESCRIBING_LANGUAGES] or draft.alternatives
    for name in _DESCRIBING_LANGUAGES:
        if not others or name not in draft.software or draft.software[name]:
            continue
        spans = [span for span in draft.software_spans if span[2] == name]
        if name in draft.variants or not spans:
            continue  # "srun python train.py": the interpreter a job line runs, no span
        parts = [_LANGUAGE_PART_RE.match(original, end) for _, end, _ in spans]
        if not all(parts):
            continue
        del draft.software[name]
        draft.software_spans[:] = [span for span in draft.software_spans if span[2] != name]
        for (first, _, _), part in zip(spans, parts, strict=True):
            draft.unresolved.append(" ".join(original[first : part.end()].split())[:80])


def _drop_language_qualifier(
    original: str, end: int, draft: Draft
) -> tuple[str, list, list] | None:
    """In "the tximport R package" R says what tximport is written in; once tximport is a
    name, R read from that word alone (no other mention) is no requirement of its own: the
    package is checked, and no site has it without R.

    Returns:
        The language dropped, the versions read for it there and its spans. The versions
        belong to the package: in "the mace-torch Python package 0.3.6" the version follows
        the package noun of mace-torch. None when nothing was dropped.
    """
    m = _LANGUAGE_PACKAGE_RE.match(original, end)
    if m is None:
        return None
    at = original.index(m.group("language"), end)
    name = lexicon.SOFTWARE_CASE_SENSITIVE.get(m.group("language")) or lookup(
        lexicon.SOFTWARE, m.group("language")
    )
    spans = [span for span in draft.software_spans if span[2] == name]
    if name not in draft.software or name in draft.variants or not spans:
        return None
    if not all(first == at for first, _, _ in spans):
        return None
    if draft.software[name] and not all(last > m.end() for _, last, _ in spans):
        return None  # a version before the package noun is the language's own
    moved = draft.software.pop(name)
    draft.software_spans[:] = [span for span in draft.software_spans if span[2] != name]
    return name, moved, spans


def _lower_case_described(word: str, kind: str, m: re.Match[str]) -> bool:
    """A lower-case word before a tool noun is most often a modifier ("the vendor toolbox",
    "our eikonal solver", "the cross-section library"). It names the tool only right before
    a package noun, and only when it is a known package spelling that is also a word ("the
    arrow package") or no English at all ("the hifiasm assembler")."""
    middle = m.group("middle").split()
    if any(w.lower().removesuffix("s") not in _TOOL_NOUNS for w in middle):
        return False  # "the hifiasm tokenizer library" is one: a tool noun is no modifier
    if kind == "ambiguous":
        return m.group("head") in _STRICT_TOOL_NOUNS
    if "-" in word and not middle and m.group("head") in _STRICT_TOOL_NOUNS:
        return _coined_compound(word)  # "the microsoft-aurora package"; not "the
        # cross-section library", whose parts are all English
    return (
        "-" not in word
        and (not english_word(word) or proper_noun_only(word))  # "the pythia framework"
        and not transposed_word(word)  # "the adjiont solver": "adjoint" mistyped
        and not word.endswith(_ADJECTIVE_NAME_ENDS)
        and not common_word(word)
    )


_PACKAGE_NOUN_AFTER_RE = re.compile(
    r"[ \t]+(?:package|library|toolkit|toolbox|module)s?(?![\w-])", re.IGNORECASE
)
_GENERIC_MODIFIERS = frozenset(
    "whole entire same main base core default standard new old own other official right "
    "correct required needed necessary full latest current usual common basic extra "
    "additional optional graphics math maths kernel".split()
)
"""Words that say which or what kind of package without naming one ("the whole package", "the
standard library", "the kernel module")."""


def _before_package_noun(original: str, start: int, word: str) -> bool:
    """An everyday word right before a package noun ("the vegan package", "the arrow
    library") that no reader took for a name. It may well be the name, so it is quoted and no
    site can answer READY on it unseen; a word that only says which package is meant ("the
    whole package") is not."""
    end = start + len(word)
    if original[end : end + 1] not in (" ", "\t"):
        return False
    return (
        word.lower() not in _GENERIC_MODIFIERS
        and word.lower() not in lexicon.STOP_WORDS
        and _PACKAGE_NOUN_AFTER_RE.match(original, end) is not None
    )


def _coined_compound(word: str) -> bool:
    """A hyphenated lower-case word with a part no dictionary knows ("microsoft-aurora",
    "scikit-allel"): a coined name, where "third-party" or "post-processing" is English."""
    parts = word.split("-")
    if not all(p.isalnum() for p in parts) or any(p.isdigit() for p in parts):
        return False
    return any(
        len(p) >= 3 and p.isalpha() and not english_word(p) and not transposed_word(p)
        for p in parts
    )


def _could_be_described(word: str) -> bool:
    """A name a description may follow: a proper name that is no adjective ("Raven", not
    "Bayesian"), an all-capital one ("FRED"), or a lower-case word ("passim", "arrow")."""
    if len(word) < 2 or "/" in word or concept_word(word):
        return False  # "the Boltzmann solver": a method's eponym describes, it names nothing
    if word.islower() or word.isupper() or _branded(word):
        return True  # "k-Wave (the MATLAB toolbox)" too
    return _capitalised_alone(word) and not word.lower().endswith(_ADJECTIVE_NAME_ENDS)


_QUOTES = "\"'\u201c\u2018"
_LANGUAGE_NAMES = frozenset(
    """
    fortran cobol java javascript typescript haskell ocaml pascal ada lisp prolog kotlin swift
    scala assembly assembler
    """.split()
)
"""Programming languages (the common ones of TIOBE's list that are no package of their own):
a program in them is compiled, but the language is not what a site installs."""


def _built_or_coupled(original: str, start: int, word: str, kind: str) -> bool:
    """ "ROMS is compiled against ...", "coupled with CLM": only software is built or coupled
    so. An acronym counts here (the cue is strong); an everyday lower-case word does not."""
    if kind != "unread" or (word.islower() and (english_word(word) or common_word(word))):
        return False
    if word.lower() in _LANGUAGE_NAMES:
        return False  # "the code is Fortran compiled with ifx": a language, no package
    end = start + len(word)
    return bool(
        _BUILT_SUBJECT_RE.match(original, end)
        or _COUPLED_BEFORE_RE.search(original[max(0, start - 60) : start])
    )


def _coupled_subject(original: str, start: int, word: str, starts: set[int]) -> bool:
    """The subject of coupling is a code when what it is coupled to is a package read already
    (``starts``): "MOOSE coupled to OpenMC", "Cardinal couples NekRS and OpenMC"; "the Ocean
    couples to the atmosphere" couples no software. A proper name that looks like an
    adjective counts here ("Cardinal"), since the package after it carries the cue; an
    everyday lower-case word, a language or a method's eponym does not."""
    coupled = _COUPLED_SUBJECT_RE.match(original, start + len(word))
    if coupled is None or coupled.end() not in starts:
        return False  # asked first: it fails at once after almost every word
    if len(word) < 2 or concept_word(word) or word.lower() in _LANGUAGE_NAMES:
        return False
    return not (word.islower() and (english_word(word) or common_word(word)))


def _language_package(original: str, end: int, word: str) -> bool:
    """A word right before a language and a package noun is the package's name: "the
    tximport R package", "the harmony R package", "the pcse Python library". The cue is
    strong enough for an everyday noun ("harmony"); prose words ("the main R package") are
    filler, so never unread here, and an adjective ("the official", "the latest") is no name."""
    if word.lower().endswith((*_ADJECTIVE_NAME_ENDS, "est")) or word.isupper():
        return False
    return bool(_LANGUAGE_PACKAGE_RE.match(original, end))


def _language_package_before(original: str, start: int, word: str) -> bool:
    """A word right after a language and a package noun is the package's name: "the R
    package limma", "a Julia package called Trixi". Only a word that is no everyday English
    ("the R package ecosystem", "the Python module system" stay unread, so quoted), and no
    adjective or acronym, as for :func:`_language_package`."""
    if word.lower().endswith((*_ADJECTIVE_NAME_ENDS, "est")) or word.isupper():
        return False
    if common_word(word) or word.lower() in _PACKAGE_COMPOUND_HEADS:
        return False
    return bool(_LANGUAGE_PACKAGE_BEFORE_RE.search(original, max(0, start - 60), start))


_WORD_BEFORE_RE = re.compile(r"([A-Za-z']++)[^\S\n]*[\"'\u201c\u2018]?$")
"""Possessive: a run of letters is never given back letter by letter (the tail after it can
take no letter but a quote, which the run ends with anyway), so each offset is tried once."""


def _word_before(text: str, start: int) -> str:
    # Bounds instead of a slice: the pattern has no look-behind, and ``$`` holds at ``endpos``
    m = _WORD_BEFORE_RE.search(text, max(0, start - 40), start)
    return m.group(1).lower() if m else ""


@lru_cache(maxsize=8192)
def _near_filler(word: str, filler: frozenset[str]) -> bool:
    """A misspelling of an ordinary word, one edit away and long enough to tell.

    Remembered per word (a bounded cache): the answer depends on the word and the fixed filler
    list alone (a frozenset, whose hash Python computes once).
    """
    if len(word) < 5 or not word.isalpha():
        return False
    return typo_of(word, _long_filler(filler), 1) is not None


@cache
def _long_filler(filler: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(w for w in filler if len(w) >= 4 and w.isalpha()))


_PACKAGE_AFFIXES = frozenset(
    """
    utils tools lib libs py cli sdk api io mpi gpu cuda rocm tests bench ng contrib toolkit
    """.split()
)
"""Parts that mark a hyphenated word as a package name: qiskit-aer's kin, "polaris-utils"."""


def _is_name_compound(word: str, filler: frozenset[str]) -> bool:
    """A hyphenated word is a package name when a part is a catalogued name, has a digit, is a
    package affix, or is no English word ("keras-cv", "nccl-tests", "mamba-ssm", "bwa-mem2");
    "wake-steering" and "semi-implicit" are English the parser does not know: unread."""
    parts = [p for p in word.split("-") if p]
    if letter_term(parts):
        return False  # "k-mers", "n-body": a term of science
    return any(
        any(ch.isdigit() for ch in p)
        or squash(p) in _catalogue_spellings()
        or p in _PACKAGE_AFFIXES
        or (
            len(p) >= 2
            and p not in lexicon.STOP_WORDS
            and p not in lexicon.RESERVED_WORDS
            and not english_part(p, i, filler)
            and not (len(p) <= 4 and english_word(p + "s"))
        )
        for i, p in enumerate(parts)
    )


@cache
def _feature_words() -> tuple[str, ...]:
    words = {
        "latency",
        "infiniband",
        "interconnect",
        "ethernet",
        "omnipath",
        "slingshot",
        "container",
        "containers",
        "memory",
        "walltime",
        "network",
        "storage",
        "scratch",
        "singularity",
        "apptainer",
        "parallel",
        "filesystem",
        "nodes",
        "cores",
        "gpus",
    }
    return tuple(sorted(words))


_PART_BREAK_RE = re.compile(r"[-/]")
"""Between the parts of a compound word ("low-latency", "CPU/GPU")."""
_LOWER_LETTER_RE = re.compile(r"[a-z]")


@lru_cache(maxsize=8192)
def _near_feature_word(word: str) -> bool:
    """A misspelled requirement word ("infinband", "low-latncy"): not a package name.

    Remembered per word (a bounded cache): the answer depends on the word and the fixed
    feature words alone.
    """
    parts = [p for p in _PART_BREAK_RE.split(word) if len(p) >= 5]
    return any(closest(p, _feature_words(), 0.8) and p not in _feature_words() for p in parts)


def _is_prose_compound(word: str, filler: frozenset[str]) -> bool:
    """ "fine-tuning", "post-processing": every part is prose, so the whole is."""
    if "-" not in word and "/" not in word:
        return False  # one part (asked of every leftover word, most of them plain)
    parts = [p for p in _PART_BREAK_RE.split(word) if p]
    return len(parts) > 1 and all(
        p in filler or p in lexicon.RESERVED_WORDS or p.isdigit() or len(p) == 1 for p in parts
    )


_LIST_JOIN_RE = re.compile(
    r"^\s*(?:,|&|/|\+|,?\s*(?:and|or|plus|as\s+well\s+as|(?:together|along)\s+with)"
    r"(?:\s+also)?)\s*$"
    r"|^[^\S\n]*(?:[\w.<>=~!*+-]++[^\S\n]*){0,3}\n[^\S\n]*[-*\u2022][^\S\n]+$",
    re.I,
)
"""What joins two items of one list: a comma or a conjunction ("together with" too: "Chroma
together with QUDA 1.1"), or a line break to the next bullet ("- torch-geometric 2.5\n  -
dgl"; the first item's version may sit between)."""


def _names_in_lists(
    original: str,
    words: list[tuple[int, str]],
    kinds: list[str],
    draft: Draft,
    ends: dict[int, int] | None = None,
) -> None:
    """An unread word listed next to a package is a package too: "nekbone and miniAMR",
    "packages: mamba-ssm, triton". Repeats until no more words change. ``ends``: where a
    name's description ends, for a name described before the next item ("the Prophet
    forecasting package and statsmodels")."""
    ends = ends or {}
    filler = filler_words()
    spans = [(s, e) for s, e, _ in draft.software_spans]
    changed = True
    while changed:
        changed = False
        named = spans + [
            (s, ends.get(i, s + len(w)))
            for i, ((s, w), k) in enumerate(zip(words, kinds, strict=True))
            if k == "name"
        ]
        if not named:
            return  # no package for a word to be listed with
        for i, ((start, word), kind) in enumerate(zip(words, kinds, strict=True)):
            if (
                kind == "prose"
                and word not in filler  # both tests below ask this first
                and (_misspelt_filler_only(word) or _rare_word_near_filler(word))
            ):
                if _listed_between(original, start, word, named):
                    kinds[i] = "name"  # "data.table + fixest,": a package one edit from
                    changed = True  # "finest"; "gromacs and shoud run" stays prose
                    break
                continue
            if kind not in ("unread", "ambiguous") or len(word) < 2:
                continue
            camel = camel_identifier(word)
            if not (word.islower() or word[:1].isupper() or camel):
                continue
            short = len(word) == 2 and word.isalpha() and word.islower()  # R's "sf", "sp"
            if kind == "unread" and not _shaped_like_a_list_item(word) and not camel and not short:
                continue  # "processing", "quickly": English morphology, not a package
            if (not_a_package(word) or _NOT_A_NAME_RE.match(word)) and not camel:
                continue  # "LoRA and PEFT": a method beside a package is still a method;
                # "STAR and featureCounts": a camel-case word beside one is a package
            if kind == "unread" and common_word(word) and not word.isupper():
                continue  # "and after", "and polish": an everyday word needs more than a list;
                # written in capitals ("MontePython + CLASS") it is a name
            end = start + len(word)
            english = (english_word(word) or _english_compound(word.lower())) and not word.isupper()
            # "CAMB and the CLASS code" is a name; "and the mini-app" is English
            join = _LIST_JOIN_RE if english else _LIST_JOIN_ARTICLE_RE
            if any(_joined(join, original[e:start]) for _, e in named if e <= start) or any(
                join.match(original[end:s]) for s, _ in named if s >= end
            ):
                kinds[i] = "name"
                changed = True
                break


def _misspelt_filler_only(word: str) -> bool:
    """A lower-case word that :func:`_classify` calls prose only because it is one edit away
    from a filler word ("fixest" from "finest"): no dictionary word, no filler, no chat."""
    filler = filler_words()
    return (
        word.isalpha()
        and word.islower()
        and word not in filler
        and word not in CHAT_SLANG
        and word not in lexicon.RESERVED_WORDS
        and not english_word(word)
        and not _is_prose_compound(word, filler)
        and _near_filler(word, filler)
    )


def _rare_word_near_filler(word: str) -> bool:
    """A rare dictionary word that :func:`_classify` calls prose only because it is one edit
    away from a filler word ("vegan" from "began"): no everyday word, and not shaped by English
    morphology. Like a rare word that is no near typo ("coot"), a list of packages on both
    sides makes it a package ("terra, sdmTMB and vegan for ..."); read as a package, a wrong
    word only makes a site check for it, where dropped a real package would go unchecked."""
    if not (word.isalpha() and word.islower()) or word in CHAT_SLANG:
        return False
    filler = filler_words()
    return (
        word not in filler
        and word not in lexicon.RESERVED_WORDS
        and english_word(word)
        and not common_word(word)
        and _shaped_like_a_list_item(word)
        and not _is_prose_compound(word, filler)
        and _near_filler(word, filler)
    )


_LIST_START_RE = re.compile(
    r"(?:^|[,;:(\n]|(?<![\w-])(?:the|with|using|via|and|plus|install|load)|\+|[-*\u2022])[^\S\n]*$",
    re.I,
)
_LIST_END_RE = re.compile(
    r"[^\S\n]*(?:[,;:)\n]|[.!?](?:\s|$)|$|(?:packages?|librar(?:y|ies)|modules?|on|in|for)(?![\w-]))",
    re.I,
)


def _listed_between(original: str, start: int, word: str, named: list[tuple[int, int]]) -> bool:
    """A word that is prose only as a near typo is still a package when a list holds it on
    both sides: joined to a package on one side, and on the other a list's edge (a comma, a
    line end, "packages", "on" the resources) or a list's lead ("the", "with", "install",
    "+"): "the fixest and data.table packages", "data.table + fixest, 8 cores". In running
    prose ("gromacs and shoud run") it stays a misspelt word. Read as a package, a wrong
    word only makes a site check for it; dropped, a real package would go unchecked."""
    end = start + len(word)
    joined_before = any(_joined(_LIST_JOIN_RE, original[e:start]) for _, e in named if e <= start)
    joined_after = any(_LIST_JOIN_RE.match(original[end:s]) for s, _ in named if s >= end)
    edge_after = bool(_LIST_END_RE.match(original, end))
    edge_before = bool(_LIST_START_RE.search(original[max(0, start - 40) : start]))
    return (joined_before and (edge_after or joined_after)) or (joined_after and edge_before)


_NOUN_LEAD_RE = re.compile(
    rf"[^\S\n]+(?:{_TOOL_NOUN}|(?:database|index|reference|installation|build)s?(?![\w-]))"
)


_ASIDE_LEAD_RE = re.compile(r"[^\S\n]*(?:\([^()\n]{1,60}\)|\))")
"""A bracketed aside right after a list item ("Grid (the lattice QCD library) + Hadrons"), or
its closing bracket where the item's description already ends inside it."""


def _joined(join: re.Pattern[str], between: str) -> bool:
    """Two list items joined, maybe with the first one's tool noun, the noun of what it
    ships or a bracketed aside between them ("STAR aligner and featureCounts", "the Prophet
    package and statsmodels", "the Kraken2 database plus Bracken", "Grid (the lattice QCD
    library) + Hadrons")."""
    aside = _ASIDE_LEAD_RE.match(between)
    if aside:  # "Grid (the lattice QCD library) + Hadrons": the first item's aside
        between = between[aside.end() :]
    noun = _NOUN_LEAD_RE.match(between)
    return bool(join.match(between) or (noun and join.match(between[noun.end() :])))


_LIST_JOIN_ARTICLE_RE = re.compile(
    r"^\s*(?:,|&|/|\+|,?\s*(?:and|or|plus|as\s+well\s+as|(?:together|along)\s+with)"
    r"(?:\s+also)?(?:\s+the)?)\s*$",
    re.I,
)
"""After a package, "and the" still lists one more, when that word is no English word: "MOM6
and the SIS2 sea-ice model" (but not "Vitis and the card")."""


def _lists_of_unread(original: str, words: list[tuple[int, str]], kinds: list[str]) -> None:
    """ "xformers and diffusers", "flax, optax": two or more unknown lower-case words listed
    together are packages (a list of prose words would be in the filler list)."""
    if kinds.count("unread") < 2:
        return  # no list of two
    slots = [i for i, (_, w) in enumerate(words) if w.lower() not in _JOINERS]
    i = 0
    while i < len(slots):
        j = i
        while j + 1 < len(slots) and kinds[slots[j]] == kinds[slots[j + 1]] == "unread":
            left, right = words[slots[j]], words[slots[j + 1]]
            if not _LIST_JOIN_RE.match(original[left[0] + len(left[1]) : right[0]]):
                break
            j += 1
        if j == i:
            i += 1  # a word alone is no list
            continue
        run = [slots[k] for k in range(i, j + 1)]
        listed = [words[k][1] for k in run]
        if (
            len(run) > 1
            and all(_shaped_like_a_list_item(w) for w in listed)
            and not any(_NOT_A_NAME_RE.match(w) or not_a_package(w) for w in listed)
            and not any(typo_of_common(w) for w in listed)  # "Helo, cna I get 2 nodes"
            and not any(_in_proper_name(original, words[k]) for k in run)  # "Maya Ortiz, ..."
            and not all(_CODE_NAME_RE.match(w) for w in listed)  # "ERA5 and CMIP6"
            and any(not english_word(w) and not _english_compound(w.lower()) for w in listed)
            # "xformers and diffusers"; not "indemnity and limitation-of-liability"
        ):
            for k in run:
                kinds[k] = "name"
        i = j + 1


_JOINERS = frozenset(("and", "or", "plus"))
_CAPITALISED_BEFORE_RE = re.compile(r"(?<![\w.])[A-Z][a-z]+\.?[^\S\n]+$")
_CAPITALISED_AFTER_RE = re.compile(r"[^\S\n]+[A-Z][a-z]+(?![\w-])")


def _in_proper_name(original: str, item: tuple[int, str]) -> bool:
    """A capitalised word next to another one ("Maya Ortiz", "Gravitational Physics") is part
    of a person's or a place's name, as in a signature: listing such names makes no package."""
    start, word = item
    if not _capitalised_alone(word):
        return False
    end = start + len(word)
    return bool(
        _CAPITALISED_BEFORE_RE.search(original[max(0, start - 30) : start])
        or _CAPITALISED_AFTER_RE.match(original, end)
    )


_ENGLISH_ENDINGS = ("ly", "tion", "sion", "ness", "ment", "ing", "ed", "ies", "ous", "ful")


def _shaped_like_a_list_item(word: str) -> bool:
    """A word that may be a package when listed with packages: not shaped by English
    morphology ("processing", "quickly"); a dictionary word may still be one ("diffusers")."""
    return (
        (word.islower() or word[:1].isupper())
        and len(word) > 2
        and not word.lower().endswith(_ENGLISH_ENDINGS)
    )


_CODE_NAME_RE = re.compile(r"^[A-Z]+\d+[A-Z\d]*$")
"""Capitals and digits (ERA5, CMIP6, PM10): data sets and standards as often as packages
(SPM12, ISCE2). Listed beside a package they are packages; listed only with each other they
prove nothing, and stay unread."""


_ADJECTIVE_ENDS = frozenset(
    """
    wise compliant based aware like style free level scale driven bound intensive heavy ready
    enabled friendly oriented specific related dependent sensitive critical limited only
    """.split()
)
"""Second parts that make a hyphenated word an adjective, not a name ("MPI-wise")."""
_PHRASE_INSIDE = frozenset("to of and or in on the a an by for with vs per".split())
_PHRASE_STARTS = frozenset("on off in out over under post pre non anti self semi co".split())


def _phrase_compound(word: str) -> bool:
    """A hyphenated word built like English, not like a package name: an adjective ending
    ("HIPAA-compliant", "MPI-wise"), a function word inside ("mesoscale-to-LES",
    "limitation-of-liability"), or a prefix before a clipped word ("on-prem", "post-proc")."""
    parts = word.split("-")
    if len(parts) < 2 or any(ch.isdigit() for ch in word):
        return False
    if parts[-1] in _ADJECTIVE_ENDS or any(p in _PHRASE_INSIDE for p in parts[1:-1]):
        return True
    if parts[-1].endswith("ed") and english_word(parts[-1]):
        return True  # "DFG-funded", "GPU-accelerated": a participle makes an adjective
    return parts[0] in _PHRASE_STARTS and all(len(p) <= 5 or english_word(p) for p in parts[1:])


def _english_compound(word: str) -> bool:
    """ "cross-section", "time-budget": every part of a hyphenated word is English, so the word
    is English too, though no dictionary lists the compound; context alone makes no package
    of it (listed with packages, or with a version, it still is one: "faster-whisper 1.0")."""
    parts = word.split("-")
    if len(parts) < 2 or not all(p.isalpha() for p in parts):
        return False
    filler = filler_words()
    return letter_term(parts) or all(
        english_part(p, i, filler) or p in lexicon.STOP_WORDS for i, p in enumerate(parts)
    )


def _inflected(word: str) -> bool:
    """A plural or a verb in the third person of a short everyday word ("fits", "ends",
    "runs"): the dictionary test skips stems under four letters, the everyday list has them."""
    return word.isalpha() and any(
        word.endswith(tail) and common_word(word[: -len(tail)]) for tail in ("s", "es")
    )


def _branded(word: str) -> bool:
    """A hyphenated word with a lower-case start and a capital after the hyphen ("k-Wave",
    "e-Cell"): spelt as a product is, not as English ("k-space", "x-ray" are lower case)."""
    return "-" in word and word[:1].islower() and any(c.isupper() for c in word)


_COMMON_TYPO_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def typo_of_common(word: str) -> bool:
    """An everyday word with two letters swapped or one dropped ("cna", "helo", "teh"): the
    commonest slips of typing, not a package's name."""
    lower = word.lower()
    if not lower.isalpha() or len(lower) < 3 or common_word(lower):
        return False
    splits = [(lower[:i], lower[i:]) for i in range(len(lower) + 1)]
    swapped = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    dropped = {a + c + b for a, b in splits for c in _COMMON_TYPO_LETTERS}
    # Every candidate is lower case already: one set intersection instead of a look-up each
    return any(len(w) >= 3 and w != lower for w in (swapped | dropped) & _common_words())


def _titled_name(word: str, after: str, versioned: bool) -> bool:
    """A capitalised word with a version or a package noun after it ("Essentia 2.1", "the
    Essentia library") is a name, even one letter from an English word ("essential"): a
    misspelt word carries neither, and dropping a name as a typo would let a site without the
    package answer READY."""
    return _capitalised_alone(word) and (versioned or after in _NAME_AFTER)


def _capitalised_alone(word: str) -> bool:
    """A capital first letter and lower case after it: inside a sentence, a proper name."""
    return len(word) > 2 and word[0].isupper() and word[1:].isalpha() and word[1:].islower()


def _could_be_name(word: str) -> bool:
    """Lower case, long enough, and not shaped by English morphology ("quickly", "widgets"
    can be; "processing", "quickly" cannot)."""
    capitalised = word[:1].isupper() and word[1:].islower()  # "Optuna sweep" opens a sentence
    return (
        (word.islower() or capitalised)
        and len(word) > 2
        and not word.lower().endswith(_ENGLISH_ENDINGS)
        and not english_word(word)
    )


_NEGATED_BEFORE_RE = re.compile(
    r"(?:\bno|\bwithout|\bdon'?t\s+need|\bdo\s+not\s+need|\bdoesn'?t\s+need|\bnot)"
    r"\s+(?:a\s+|any\s+)?(?:low[\s-]*|fast\s+|high[\s-]*speed\s+)?$",
    re.IGNORECASE,
)
_TYPO_FEATURES = {
    "latency": "low_latency",
    "infiniband": "infiniband",
    "omnipath": "omnipath",
    "network": "fast",
    "interconnect": "fast",
}
"""Misspelt network words and what they ask for; "fast" only after "fast", "low latency"."""
_TYPO_FEATURE_LENGTHS = range(
    -(-2 * min(map(len, _TYPO_FEATURES)) // 3), 3 * max(map(len, _TYPO_FEATURES)) // 2 + 1
)
"""The lengths a word can have and still be 80 % like one of those words: the ratio 2m/(a+b)
of two lengths a <= b is at most 2a/(a+b), which is 0.8 or more only when 3a >= 2b."""
_NETWORK_NOUNS = frozenset(
    (*lexicon.NETWORK_NOUNS, "networks", "interconnects", "fabrics", "networked")
)
"""Correctly spelt network nouns: "networking" is a word of its own, never a typo of "network"."""
_FAST_BEFORE_RE = re.compile(
    r"(?:fast|low[\s-]*latency|high[\s-]*speed|high[\s-]*performance|rdma)[\s-]+$", re.I
)


def _feature_typos(
    scanner: Scanner, words: list[tuple[int, str]], kinds: list[str], draft: Draft
) -> None:
    """ "low latancy", "infinband": a misspelled network word still asks for the network."""
    from providers.wire.requirements import Fabric, Feature

    for i, (_, word) in enumerate(words):
        if kinds[i] != "unread":
            continue
        close = [
            found
            for part in word.lower().split("-")
            if len(part) in _TYPO_FEATURE_LENGTHS
            and part not in _TYPO_FEATURES
            and part not in _NETWORK_NOUNS
            and (found := closest(part, tuple(_TYPO_FEATURES), 0.8)) is not None
        ]
        if not close:
            continue
        what = _TYPO_FEATURES[close[0]]
        window = max(0, words[i][0] - 30)
        negated = _NEGATED_BEFORE_RE.search(scanner.original[window : words[i][0]])
        if negated:
            draft.exclude(Feature.LOW_LATENCY)  # "dont need low-latncy network"
            scanner.blank(window + negated.start(), words[i][0])
            for k, (start, _) in enumerate(words):
                if window + negated.start() <= start < words[i][0]:
                    kinds[k] = "typo"  # the negation was read with the word it negates
        elif what == "fast" and not _FAST_BEFORE_RE.search(scanner.original[window : words[i][0]]):
            continue  # "netwrok" alone asks for nothing; it stays unread
        elif what in ("low_latency", "fast"):
            draft.low_latency = True
        else:
            draft.set_fabric(Fabric(what), word)
        kinds[i] = "typo"
        scanner.blank(words[i][0], words[i][0] + len(word))


_AMOUNT_WORDS = frozenset(
    """
    version versions release v node nodes core cores cpu cpus gpu gpus memory ram mem storage
    disk hours hour hrs h minutes minute mins min seconds days day weeks gb tb mb gib tib pb
    gbps budget usd dollars ranks tasks threads later newer older earlier least most
    """.split()
)
_NEED_WORDS = frozenset(
    """
    need needs needed want wants require requires required request requesting give get
    allocate reserve book
    """.split()
)
"""Verbs that make a bare count beside them a demand ("I need 3 for a day")."""
_BARE_COUNT_RE = re.compile(r"(?<![\w.:/-])\d+(?:\s*x)?(?![\w.:/%-])", re.IGNORECASE)
_DIGIT_RE = re.compile(r"\d")
_NEGATIVE_RE = re.compile(r"(?<![\w.])-\d")
"""A negative number left over ("= -2 GPUs"): an amount no field can take, so quoted."""


def _segments(text: str) -> list[tuple[int, str]]:
    """Runs of text between understood spans and punctuation, with their offsets."""
    found: list[tuple[int, str]] = []
    pos = 0
    for m in _BREAK_RE.finditer(text):
        if m.start() > pos:
            found.append((pos, text[pos : m.start()]))
        pos = m.end()
    if pos < len(text):
        found.append((pos, text[pos:]))
    return [(start, seg) for start, seg in found if seg.strip()]


def _stray_amounts(scanner: Scanner, draft: Draft) -> None:
    """A number left next to a requirement word ("version 2024 or later", "12 hours") was
    meant as a requirement that no extractor could read: quoted, so it blocks READY."""
    if not _DIGIT_RE.search(scanner.text):
        return  # no number left anywhere: no segment to cut out and look at
    for start, segment in _segments(scanner.text):
        if not _DIGIT_RE.search(segment):
            continue
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", segment)}
        negative = _NEGATIVE_RE.search(segment)
        demanded = words & _NEED_WORDS and _BARE_COUNT_RE.search(segment)
        if not words & _AMOUNT_WORDS and not negative and not demanded:
            continue
        tokens = [
            m
            for m in re.finditer(r"\S+", segment)
            if not is_prose(m.group(0).strip(".,;:!?"))
            or _DIGIT_RE.search(m.group(0))
            or m.group(0).lower() in _AMOUNT_WORDS
        ]
        if not tokens:
            continue
        first, last = tokens[0].start(), tokens[-1].end()
        phrase = " ".join(scanner.original[start + first : start + last].split())
        if phrase not in draft.unresolved:
            draft.unresolved.append(phrase[:80])


def _unresolved_phrases(
    scanner: Scanner, words: list[tuple[int, str]], kinds: list[str], draft: Draft
) -> None:
    """Adjacent unread words, in one segment, become one quoted phrase."""
    run: list[tuple[int, str]] = []
    for (start, word), kind in zip(words, kinds, strict=True):
        unread = kind in ("unread", "hardware", "source", "marked")
        if unread and (not run or _same_segment(scanner.text, run[-1], (start, word))):
            run.append((start, word))
            continue
        if run:  # most words are prose, and most runs empty
            _flush(run, scanner.original, draft)
        if unread:
            run.append((start, word))
    _flush(run, scanner.original, draft)


def leftover_words(text: str) -> list[tuple[int, str]]:
    # A match of _WORD_RE ends in a word character, "+" or "#": nothing to strip from it
    return [(m.start(), m.group()) for m in _WORD_RE.finditer(text)]


def _same_segment(text: str, a: tuple[int, str], b: tuple[int, str]) -> bool:
    """No punctuation or understood text between two words."""
    between = text[a[0] + len(a[1]) : b[0]]
    # A lone space, the commonest gap, holds no break: no pattern run for it
    return between == " " or not _BREAK_RE.search(between)


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= pos < e for s, e in spans)


def _gpus_named(draft: Draft) -> bool:
    c = draft.compute
    return c.gpu_mentioned or bool(c.gpus) or bool(c.gpu_models)


def _flush(run: list[tuple[int, str]], original: str, draft: Draft) -> None:
    if not run:
        return
    start, end = run[0][0], run[-1][0] + len(run[-1][1])
    number = _NUMBER_AFTER_RE.match(original, end)
    if number:
        end = number.end()  # "capability 8.0", "Ubuntu 22.04": quote the number too
    phrase = " ".join(original[start:end].split())
    if phrase and _has_content(phrase):
        draft.unresolved.append(phrase[:80])
    run.clear()


def _has_content(phrase: str) -> bool:
    """A lone letter or symbol is not a requirement ("x" in "4 x 2")."""
    return len(squash(phrase)) > 1
