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

import difflib
import re
from functools import cache
from importlib import resources

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.draft import Draft, Mention
from endpoint_plugins.parsing.scanner import Scanner, squash
from providers.wire.requirements import GpuVendor

MAX_NAME_CHARS = 64
_VENDORS = {"nvidia": GpuVendor.NVIDIA, "amd": GpuVendor.AMD, "radeon": GpuVendor.AMD}
NEAR_MISS_CUTOFF = 0.8

_WORD_RE = re.compile(r"[A-Za-z][\w.+#/-]*[\w+#]|[A-Za-z]")
_BREAK_RE = re.compile(r"[\x00,;!?()\[\]{}\"|`\n]|[.:](?=\s|$)|\s[-\u2013\u2014]+\s")
_NAME_SHAPED_RE = re.compile(
    r"^(?:[a-z][a-z0-9]*(?:[-.+_][a-z0-9]+)+\+?"  # inner separators: nccl-tests, llama.cpp
    r"|[a-z]+\d+[a-z0-9]*|[a-z]*\d+[a-z]+[a-z0-9]*"  # digits inside: cp2k, hdf5, bowtie2
    r"|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*"  # mixed case: miniAMR, PyTorch
    r"|[A-Z]{2,}[a-z]*\d*)$"  # acronyms: HPL, HPCG, IOR
)
_NAME_BEFORE = frozenset(
    """
    install installed installing load loaded module modules package packages library libraries
    lib libs toolkit framework plus tool tools suite via binary
    """.split()
)
_NAME_AFTER = frozenset(
    """
    package packages library libraries lib module modules toolkit framework installed available
    suite binary binaries plugin plugins bindings wrapper installation
    """.split()
)
_HARDWARE_RE = re.compile(
    r"^(?:avx\w*|sse\w*|sve\w*|neon|amx\w*|x86\w*|aarch64|arm\w*|amd64|i386|ppc\w*|power\d+|"
    r"riscv\w*|fpgas?|tpus?|ipus?|npus?|nvlink|nvswitch|ecc|hbm\w*|rhel\d*|centos\d*|"
    r"ubuntu\w*|rocky\w*|alma\w*|debian\w*|sles\w*|suse|windows\w*|macos|linux|glibc\w*|"
    r"licen[cs]es?|licen[cs]ed|kernel|bios|numa|hyperthreading|smt|sudo|root)$",
    re.IGNORECASE,
)
"""Words of requirements no field holds (architecture, OS, licence): unresolved, not names."""


@cache
def filler_words() -> frozenset[str]:
    """Ordinary prose that may be ignored: the shipped word list plus the parser's stop words."""
    text = (
        resources.files("endpoint_plugins.parsing")
        .joinpath("filler_words.txt")
        .read_text(encoding="utf-8")
    )
    words = {line.strip().lower() for line in text.splitlines()}
    words = {w for w in words if w and not w.startswith("#")}
    return frozenset(words | lexicon.STOP_WORDS | lexicon.DOMAIN_ACRONYMS)


@cache
def _catalogue_spellings() -> dict[str, str]:
    """Squashed spelling -> canonical name, for near-miss detection of typos."""
    spellings: dict[str, str] = {}
    for name, aliases in lexicon.SOFTWARE.items():
        for spelling in (name, *aliases):
            if len(squash(spelling)) >= 4:
                spellings[squash(spelling)] = name
    return spellings


def near_catalogue_name(word: str) -> str | None:
    """The catalogued name ``word`` looks like a misspelling of (``pytroch`` -> pytorch)."""
    key = squash(word)
    if len(key) < 4:
        return None
    close = difflib.get_close_matches(
        key, list(_catalogue_spellings()), n=1, cutoff=NEAR_MISS_CUTOFF
    )
    return _catalogue_spellings()[close[0]] if close else None


def extract_open_vocabulary(scanner: Scanner, draft: Draft) -> None:
    """Sort the leftover words into package names, unresolved phrases and prose."""
    filler = filler_words()
    words = _leftover_words(scanner.text)
    kinds: list[str] = []
    for i, (start, word) in enumerate(words):
        before = (
            words[i - 1][1].lower()
            if i and _same_segment(scanner.text, words[i - 1], (start, word))
            else ""
        )
        after = ""
        if i + 1 < len(words) and _same_segment(scanner.text, (start, word), words[i + 1]):
            after = words[i + 1][1].lower()
        kinds.append(_classify(word, before, after, _inside(start, draft.name_spans), filler))
    _names_in_lists(scanner.original, words, kinds, draft)
    for (start, word), kind in zip(words, kinds, strict=True):
        if kind == "name":
            draft.add_software(word.lower()[:MAX_NAME_CHARS], [], (start, start + len(word)))
            scanner.blank(start, start + len(word))
        elif kind == "vendor" and _gpus_named(draft):
            draft.compute.gpu_vendor.append(Mention(_VENDORS[word.lower()], word))
            scanner.blank(start, start + len(word))
    _unresolved_phrases(scanner, words, kinds, draft)


def _classify(word: str, before: str, after: str, named: bool, filler: frozenset[str]) -> str:
    """``prose``, ``name``, ``vendor``, ``hardware`` or ``unread`` for one leftover word."""
    lower = word.lower()
    if lower in _VENDORS:
        return "vendor"
    if lower in filler or lower in lexicon.RESERVED_WORDS or _is_prose_compound(lower, filler):
        return "prose"
    if squash(word) in lexicon.SOFTWARE_NEEDS_VERSION:
        return "prose"  # "a boost", "go ahead": these names count only with a version
    if _HARDWARE_RE.match(word):
        return "hardware"
    if len(word) > MAX_NAME_CHARS or not re.search(r"[a-z]", lower):
        return "unread"
    if named or _NAME_SHAPED_RE.match(word):
        return "name"
    if word.islower() and (before in _NAME_BEFORE or after in _NAME_AFTER):
        return "name"
    if near_catalogue_name(word) is not None:
        return "name"
    return "unread"


def _is_prose_compound(word: str, filler: frozenset[str]) -> bool:
    """ "fine-tuning", "post-processing": every part is prose, so the whole is."""
    parts = [p for p in re.split(r"[-/]", word) if p]
    return len(parts) > 1 and all(
        p in filler or p in lexicon.RESERVED_WORDS or p.isdigit() or len(p) == 1 for p in parts
    )


_LIST_JOIN_RE = re.compile(r"^\s*(?:,|&|/|\+|,?\s*(?:and|or|plus|as\s+well\s+as))\s*$", re.I)


def _names_in_lists(
    original: str, words: list[tuple[int, str]], kinds: list[str], draft: Draft
) -> None:
    """An unread word listed next to a package is a package too: "nekbone and miniAMR",
    "packages: mamba-ssm, triton". Repeats until no more words change."""
    spans = [(s, e) for s, e, _ in draft.software_spans]
    changed = True
    while changed:
        changed = False
        named = spans + [
            (s, s + len(w)) for (s, w), k in zip(words, kinds, strict=True) if k == "name"
        ]
        for i, ((start, word), kind) in enumerate(zip(words, kinds, strict=True)):
            if kind != "unread" or not word.islower() and not word[:1].isupper():
                continue
            end = start + len(word)
            if any(_LIST_JOIN_RE.match(original[e:start]) for _, e in named if e <= start) or any(
                _LIST_JOIN_RE.match(original[end:s]) for s, _ in named if s >= end
            ):
                kinds[i] = "name"
                changed = True
                break


def _unresolved_phrases(
    scanner: Scanner, words: list[tuple[int, str]], kinds: list[str], draft: Draft
) -> None:
    """Adjacent unread words, in one segment, become one quoted phrase."""
    run: list[tuple[int, str]] = []
    for (start, word), kind in zip(words, kinds, strict=True):
        unread = kind in ("unread", "hardware")
        if unread and (not run or _same_segment(scanner.text, run[-1], (start, word))):
            run.append((start, word))
            continue
        _flush(run, scanner.original, draft)
        if unread:
            run.append((start, word))
    _flush(run, scanner.original, draft)


def _leftover_words(text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for m in _WORD_RE.finditer(text):
        word = m.group(0).rstrip(".-/")
        if word:
            found.append((m.start(), word))
    return found


def _same_segment(text: str, a: tuple[int, str], b: tuple[int, str]) -> bool:
    """No punctuation or understood text between two words."""
    between = text[a[0] + len(a[1]) : b[0]]
    return not _BREAK_RE.search(between)


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= pos < e for s, e in spans)


def _gpus_named(draft: Draft) -> bool:
    c = draft.compute
    return c.gpu_mentioned or bool(c.gpus) or bool(c.gpu_models)


def _flush(run: list[tuple[int, str]], original: str, draft: Draft) -> None:
    if not run:
        return
    start, end = run[0][0], run[-1][0] + len(run[-1][1])
    phrase = " ".join(original[start:end].split())
    if phrase and _has_content(phrase):
        draft.unresolved.append(phrase[:80])
    run.clear()


def _has_content(phrase: str) -> bool:
    """A lone letter or symbol is not a requirement ("x" in "4 x 2")."""
    return len(squash(phrase)) > 1
