"""Words shaped like package names that name something else.

The open vocabulary takes an unknown word for a package when it is shaped like one (digits,
inner hyphens, mixed case). Requests are full of such words that are no software: a trained
model with its parameter count ("Llama-3.1-70B-Instruct"), the name of a run, a data set or an
input file (``nr_2024_11``, ``inputs_3d``), a variable (``motorBike``), an abbreviation of
science written in mixed case ("LoRA", "rRNA", "InSAR"), an English compound ("zoom-in",
"k-mers", "19th-century", "DFG-funded"). Each of these stays an unread word here: quoted in
``unresolved`` (so no site answers READY on it), never a software requirement.
"""

from __future__ import annotations

import re
from functools import cache

from endpoint_plugins.parsing.english import english_word

_MODEL_SIZE_RE = re.compile(
    r"(?:^|[-_.:/])(?:\d+x)?\d{1,4}(?:\.\d{1,2})?[bm](?:$|[-_.])", re.IGNORECASE
)
"""A parameter count as a part of the name: "-70B", "-8x22B", "_650M", "-1.5b"."""


def model_checkpoint(word: str) -> bool:
    """A trained model named with its size ("Llama-3.1-70B-Instruct", "Mixtral-8x22B",
    "Qwen2.5-72B", "esm2_t33_650M"): weights to load, not a package to install."""
    return bool(_MODEL_SIZE_RE.search(word)) and any(c.isalpha() for c in word.split("-")[0])


_TAG_PART_RE = re.compile(r"^(?P<letters>[a-z]*)\d+(?:\.\d+)?[a-z]?$", re.IGNORECASE)
"""Parts of a run's or a file's name: a number, "3d", "v5", "m7", "run3", "batch12"."""


def _tag_part(part: str) -> bool:
    m = _TAG_PART_RE.match(part)
    return m is not None and (len(m.group("letters")) <= 2 or english_word(m.group("letters")))


def run_identifier(word: str) -> bool:
    """An identifier joined with underscores from English words, numbers and short tags
    (``nr_2024_11``, ``ensemble_v5``, ``inputs_3d``, ``earthquake_rupture_M7``,
    ``time_budget``), or with a date (``uniprot_2025_01``): the name of a data set, a case,
    a file or a variable. A part no dictionary knows keeps it a name (``code_saturne``,
    ``specfem3d_globe``)."""
    if "_" not in word.strip("_"):
        return False
    parts = [p for p in re.split(r"[_-]", word) if p]
    if sum(p.isdigit() for p in parts) >= 2:
        return True  # "uniprot_2025_01": a dated release of a data set
    return all(len(p) <= 2 or _tag_part(p) or english_word(p) for p in parts)


_CAMEL_RE = re.compile(r"^[a-z]{2,}(?:[A-Z][a-z]{2,})+$")


def camel_identifier(word: str) -> bool:
    """A lower-case first word with English words glued on in capitals (``motorBike``,
    ``timeStep``, ``numParticles``) is a variable or a case name; packages so written
    have a part no dictionary knows (``openPMD``, ``cuDNN``) or a clipped prefix
    (``libMesh``, ``pyMOR``)."""
    if not _CAMEL_RE.match(word):
        return False
    parts = re.findall(r"[A-Z]?[a-z]+", word)
    return all((len(p) >= 4 and english_word(p)) or p.lower() in _SHORT_WORDS for p in parts)


_SHORT_WORDS = frozenset("num max min avg std dev src dst tmp".split())
"""Clipped words programmers glue into variable names ("numParticles", "maxIter")."""

_NUCLEIC_RE = re.compile(r"^(?:[a-z]{1,3}|ss|ds|mt|sc|sn|lnc|pre)?(?:RNA|DNA)s?$")
"""Kinds of nucleic acid: rRNA, mRNA, scRNA, lncRNA, cDNA, mtDNA, dsDNA."""
_SCIENCE_ABBREVIATIONS = frozenset(
    """
    lora qlora dora moe rope relu gelu silu swiglu layernorm rmsnorm
    hifi pacbio nanopore minion gridion promethion chip atac cpg snps indels
    insar dinsar polsar lidar radar sonar
    mhd dft dfpt gw bse sapt ccsd mp2 md mc mcmc amr les dns rans cfd fem fea sph
    seir sir seird abm abms pde pdes ode odes
    var cvar garch arima sarima lstm gru cnn gnn rnn gan vae zero fsdp
    """.split()
)
"""Methods and data kinds of science and machine learning that requests write in capitals or
mixed case, as package names are written: LoRA and QLoRA (low-rank adapters), MoE, RoPE;
PacBio HiFi reads, Oxford Nanopore's MinION/GridION/PromethION sequencers, ChIP, ATAC;
InSAR and its kin (radar interferometry); MHD, DFT, GW, SAPT, CCSD, MCMC, AMR (adaptive mesh
refinement), LES/DNS/RANS, CFD, FEM, SPH; SEIR and SIR (compartment models of epidemics),
ABM, PDE, ODE; VaR and CVaR (value at risk), GARCH and ARIMA (time-series models); LSTM,
CNN, GNN, GAN, VAE (kinds of neural network); ZeRO and FSDP (ways to shard a model over
GPUs, set in DeepSpeed or PyTorch). None is a package; a package of the same name has its
own catalogue entry or a version, install line or package list to name it."""


def science_abbreviation(word: str) -> bool:
    """A method or data kind of science written like a name ("LoRA", "rRNA", "InSAR")."""
    key = word.lower().rstrip("+")
    key = key[:-1] if key.endswith("s") and key[:-1] in _SCIENCE_ABBREVIATIONS else key
    level = re.sub(r"\d+$", "", key)  # "SAPT0", "SAPT2+": a level of the method
    return (
        key in _SCIENCE_ABBREVIATIONS
        or (level != key and level in _SCIENCE_ABBREVIATIONS)
        or bool(_NUCLEIC_RE.match(word))
    )


_ORDINAL_TAILS = frozenset(("st", "nd", "rd", "th"))
"""What is left of "19th-century", "2nd-order" once the digits are gone."""
_ROMAN_RE = re.compile(r"^(?:i{1,3}|iv|vi{0,3}|ix)$")
"""Roman numerals after a hyphen number a thing ("switch-II", "type-IV", "phase-III")."""
_LETTER_STEMS = frozenset(("mer", "mers", "gram", "grams", "mode", "modes"))
"""Words that a single letter turns into a term of science ("k-mer", "n-gram", "p-mode")."""


def english_part(part: str, index: int, prose: frozenset[str]) -> bool:
    """One part of a hyphenated word read as English: a word of the dictionary or of the
    prose list (``prose``), a British spelling ("digitisation"), a near miss of an everyday
    word ("milion"), an ordinal's ending before the next part ("th-century" of "19th-century")
    or a roman numeral after the first ("switch-II")."""
    if english_word(part) or part in prose:
        return True
    if index == 0 and part in _ORDINAL_TAILS:
        return True
    if index > 0 and _ROMAN_RE.match(part):
        return True
    if part.endswith(("isation", "isations")):
        return english_word(part.replace("isation", "ize").rstrip("s"))
    if part.endswith("s") and part.isalpha() and _everyday_word(part[:-1]):
        return True  # "back-ends", "add-ons": the plural of a short everyday word
    return (
        len(part) >= 5
        and part.isalpha()
        and (_near_everyday(part) or (len(part) >= 6 and _one_edit_english(part)))
    )


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _one_edit_english(word: str) -> bool:
    """An English word with a letter dropped or two letters swapped, the commonest typos
    ("recyled", "alumnium", "simualtion"): in a hyphenated word beside English, still
    English. (A letter added or changed is left out: "saturne" of "code-saturne" is a name.)"""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    edits = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b for a, b in splits if b for c in _LETTERS}
    edits.discard(word)
    return any(len(e) >= 5 and english_word(e) for e in edits)


def _everyday_word(word: str) -> bool:
    from endpoint_plugins.parsing.vocabulary import common_word

    return common_word(word)


def letter_term(parts: list[str]) -> bool:
    """A single letter before an English word or a known stem: "k-mers", "n-body",
    "x-ray", "t-test", "p-value" (but "q-chem", "c-blosc" are packages)."""
    return (
        len(parts) == 2
        and len(parts[0]) == 1
        and (parts[1] in _LETTER_STEMS or english_word(parts[1]))
    )


def _near_everyday(word: str) -> bool:
    from endpoint_plugins.parsing.vocabulary import _common_words, typo_of

    return typo_of(word, _everyday(_common_words()), 1) is not None


@cache
def _everyday(words: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(w for w in words if len(w) >= 5 and w.isalpha()))


_EPONYMS = frozenset(
    """
    boltzmann fourier laplace laplacian poisson navier stokes euler eulerian
    lagrange lagrangian hamilton hamiltonian newton newtonian runge kutta crank nicolson
    hartree fock kohn sham schrodinger maxwell maxwellian markov markovian bayes bayesian
    monte carlo langevin brownian ewald verlet krylov lanczos arnoldi cholesky jacobi
    gauss-seidel galerkin petrov helmholtz lennard jones debye huckel metropolis hastings
    gibbs ising heisenberg hubbard dirac fermi bose einstein planck wigner kalman
    wiener weibull boussinesq reynolds courant mie rayleigh raman bragg ornstein uhlenbeck
    """.split()
)
"""Scientists whose names stand for a method, an equation or a distribution ("lattice
Boltzmann", "Navier-Stokes", "Runge-Kutta", "Hartree-Fock", "a Bayesian model", "Monte
Carlo"), as in the index of any numerical-methods or statistical-physics textbook. Written
with a capital, they are shaped like package names but name a concept; a code named after one
has a catalogue entry, a version or a description to name it."""

_RELEASE_CHANNELS = frozenset(
    "lts esr eol ga rc beta alpha nightly stable preview dev snapshot canary edge".split()
)
"""Words of a release channel or a support term ("Julia 1.10 LTS", "Firefox ESR", "the
nightly"): they qualify the version before them, they are no package."""


def concept_word(word: str) -> bool:
    """An eponymous method ("Boltzmann", "lattice-Boltzmann", "Runge-Kutta"), a release
    channel ("LTS") or a month's name or abbreviation ("Nov"): shaped like a name, no
    package."""
    from endpoint_plugins.parsing.lexicon import MONTHS

    lower = word.lower()
    parts = [p for p in lower.split("-") if p]
    return (
        lower in _EPONYMS
        or lower in _RELEASE_CHANNELS
        or lower.rstrip(".") in MONTHS
        or (
            len(parts) > 1 and any(p in _EPONYMS for p in parts) and all(p.isalpha() for p in parts)
        )
    )


def not_a_package(word: str) -> bool:
    """Whether a name-shaped leftover word names something other than software."""
    return (
        model_checkpoint(word)
        or concept_word(word)
        or run_identifier(word)
        or camel_identifier(word)
        or science_abbreviation(word)
        or record_number(word)
        or bool(_NUMBERED_ACRONYM_RE.match(word))
    )


_RECORD_NUMBER_RE = re.compile(r"^[A-Za-z]{1,3}_?(?:0\d{2,}|\d{5,})$")
"""Letters and five digits or more, or digits with a leading zero: a grant, sample or
accession number ("X001234" of "AH/X001234/1", "T0001", "SRR12345"), not a package (names
carry at most a year, and no leading zero)."""
_NUMBERED_ACRONYM_RE = re.compile(r"^(?=(?:[a-z]*[A-Z]){2})[A-Za-z]{2,6}-\d{1,2}$")
"""An acronym numbered after a hyphen ("ESM-2", "GPT-4", "COVID-19", "ZeRO-3"): a model, a
disease, a mission, a stage of a method; a package's release has a dot or stands apart ("WRF
4.5")."""


def record_number(word: str) -> bool:
    """A grant, sample or accession number ("X001234", "SRR1234567")."""
    return bool(_RECORD_NUMBER_RE.match(word))


CITED_BEFORE_RE = re.compile(r"(?:\bet\s+al\.?|\bin\s+press|\bcf\.)\s*[,;(]?\s*\(?\s*$", re.I)
"""What stands before a journal in a citation: "Ostrem et al., Nature 2013"."""
VENUE_AFTER_RE = re.compile(
    r"\s*(?:paper|papers|proceedings|workshop|conference|submission|article|poster|talk|"
    r"deadline|challenge|competition|edition|meeting|issue|camera[\s-]ready|abstract)s?(?!\w)",
    re.I,
)
"""What follows a venue and its year: "our CoRL 2023 paper", "the NeurIPS 2025 deadline"."""
COUNTED_AFTER_RE = re.compile(
    r"\s*(?:million|billion|thousand|hundred|trillion|[mbk]\b|years?|months?|decades?|"
    r"centuries|weeks?|days?|times|percent|%|per\s+cent)(?!\w)",
    re.I,
)
"""What follows a count, not a release: "simulates 2.3 million", "households over 40 years"."""


_YEAR_AFTER_RE = re.compile(r"\s*,?\s*\(?(?:19|20)\d\d[a-z]?\)?(?![\w.]\d)")


def cited_work(text: str, start: int, end: int) -> bool:
    """A journal or a venue with its year, in a citation ("et al., Nature 2013") or before a
    publication noun ("our CoRL 2023 paper"): a place of publication, not software."""
    year = _YEAR_AFTER_RE.match(text, end)
    if year is None:
        return False
    before = text[max(0, start - 30) : start]
    return bool(CITED_BEFORE_RE.search(before) or VENUE_AFTER_RE.match(text, year.end()))
