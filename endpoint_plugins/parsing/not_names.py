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
from collections.abc import Iterable
from functools import cache, lru_cache

from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.lexicon import FILE_EXTENSIONS, MONTHS
from endpoint_plugins.parsing.scanner import squash

_MODEL_SIZE_RE = re.compile(
    r"(?:^|[-_.:/])(?:\d+x)?\d{1,4}(?:\.\d{1,2})?[bm](?:$|[-_.])", re.IGNORECASE
)
"""A parameter count as a part of the name: "-70B", "-8x22B", "_650M", "-1.5b"."""


_SIZE_WORDS = frozenset("tiny small base medium large xl xxl huge giant mini nano micro".split())
"""The sizes model families come in (Whisper "large-v3", T5 "xxl", BERT "base", ViT "huge")."""
_SIZE_TAG_RE = re.compile(r"^(?:v\d{1,2}(?:\.\d)?|en|turbo|uncased|cased|\d{1,2}k?)$")
"""What follows a size word in a model's name: a generation ("-v3"), a language ("medium.en"),
a variant ("large-v3-turbo", "base-uncased")."""


def model_checkpoint(word: str) -> bool:
    """A trained model named with its size ("Llama-3.1-70B-Instruct", "Mixtral-8x22B",
    "Qwen2.5-72B", "esm2_t33_650M"), or a size word with its generation ("large-v3",
    "medium.en", "base-uncased"): weights to load, not a package to install."""
    if _MODEL_SIZE_RE.search(word) and any(c.isalpha() for c in word.split("-")[0]):
        return True
    if "-" not in word and "." not in word:
        return False  # one part: neither a size word with its tag nor a family with its size
    parts = [p for p in re.split(r"[-.]", word.lower()) if p]
    if len(parts) >= 2 and parts[0] in _SIZE_WORDS:
        return all(_SIZE_TAG_RE.match(p) for p in parts[1:])
    # "bge-large-en", "whisper-medium-v2": a family, its size and a tag after the size
    return any(
        p in _SIZE_WORDS and all(_SIZE_TAG_RE.match(q) for q in parts[i + 1 :])
        for i, p in enumerate(parts[1:-1], 1)
    )


_TAG_PART_RE = re.compile(r"^(?P<letters>[a-z]*)\d+(?:\.\d+)?[a-z]?$", re.IGNORECASE)
"""Parts of a run's or a file's name: a number, "3d", "v5", "m7", "run3", "batch12"."""


def _tag_part(part: str) -> bool:
    m = _TAG_PART_RE.match(part)
    return m is not None and (len(m.group("letters")) <= 2 or english_word(m.group("letters")))


_IDENTIFIER_BREAK_RE = re.compile(r"[_-]")


def run_identifier(word: str) -> bool:
    """An identifier joined with underscores from English words, numbers and short tags
    (``nr_2024_11``, ``ensemble_v5``, ``inputs_3d``, ``earthquake_rupture_M7``,
    ``time_budget``), or with a date (``uniprot_2025_01``): the name of a data set, a case,
    a file or a variable. A part no dictionary knows keeps it a name (``code_saturne``,
    ``specfem3d_globe``)."""
    if "_" not in word.strip("_"):
        return False
    parts = [p for p in _IDENTIFIER_BREAK_RE.split(word) if p]
    if sum(p.isdigit() for p in parts) >= 2:
        return True  # "uniprot_2025_01": a dated release of a data set
    return all(len(p) <= 2 or _tag_part(p) or english_word(p) for p in parts)


_CAMEL_RE = re.compile(r"^[a-z]{2,}(?:[A-Z][a-z]{2,})+$")
_CAMEL_PART_RE = re.compile(r"[A-Z]?[a-z]+")


def camel_identifier(word: str) -> bool:
    """A lower-case first word with English words glued on in capitals (``motorBike``,
    ``timeStep``, ``numParticles``) is a variable or a case name; packages so written
    have a part no dictionary knows (``openPMD``, ``cuDNN``) or a clipped prefix
    (``libMesh``, ``pyMOR``)."""
    if not _CAMEL_RE.match(word):
        return False
    parts = _CAMEL_PART_RE.findall(word)
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


_LEVEL_RE = re.compile(r"\d+$")


def science_abbreviation(word: str) -> bool:
    """A method or data kind of science written like a name ("LoRA", "rRNA", "InSAR")."""
    key = word.lower().rstrip("+")
    key = key[:-1] if key.endswith("s") and key[:-1] in _SCIENCE_ABBREVIATIONS else key
    level = _LEVEL_RE.sub("", key)  # "SAPT0", "SAPT2+": a level of the method
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
    if part in _WORD_PREFIXES or closed_compound(part):
        return True  # "mini-app", "laser-wakefield", "full-waveform", "nanobody-antigen"
    return (
        len(part) >= 5
        and part.isalpha()
        and (_near_everyday(part) or (len(part) >= 6 and _one_edit_english(part)))
    )


_LETTERS = "abcdefghijklmnopqrstuvwxyz"

_WORD_PREFIXES = frozenset(
    """
    mini micro macro nano meta multi mega giga ultra super hyper sub inter intra trans
    semi pseudo quasi poly mono bio geo hydro thermo electro photo neuro cryo aero astro
    """.split()
)
"""Prefixes of English word formation, written alone before a hyphen ("mini-app",
"multi-physics", "meta-analysis", "cryo-EM") or glued to an English word ("metagenomics",
"nanobody", "subgrid")."""


def closed_compound(part: str) -> bool:
    """A part of a hyphenated word written as one closed compound of English: two words of four
    letters or more ("wakefield", "waveform", "toolchain") or a word-forming prefix and an English
    word ("metagenomics", "nanobody", "multiscale"). Asked only of the parts of a hyphenated word,
    beside other English: alone, "nanopolish" or "autodock" are names."""
    if not part.isalpha() or len(part) < 7:
        return False
    for i in range(4, len(part) - 3):
        head, tail = part[:i], part[i:]
        if (head in _WORD_PREFIXES or english_word(head, inflected=False)) and english_word(tail):
            return True
    return False


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
    hodgkin huxley fitzhugh nagumo michaelis menten lotka volterra cahn hilliard ginzburg
    landau kolmogorov arrhenius lorentz lorenz smoluchowski fokker kramers black scholes
    """.split()
)
"""Scientists whose names stand for a method, an equation or a distribution ("lattice
Boltzmann", "Navier-Stokes", "Runge-Kutta", "Hartree-Fock", "a Bayesian model", "Monte
Carlo"), as in the index of any numerical-methods or statistical-physics textbook. Written
with a capital, they are shaped like package names but name a concept ("Hodgkin-Huxley
channels", "Michaelis-Menten kinetics", "Lotka-Volterra", "Cahn-Hilliard", "Black-Scholes"); a
code named after one has a catalogue entry, a version or a description to name it."""

_RELEASE_CHANNELS = frozenset(
    "lts esr eol ga rc beta alpha nightly stable preview dev snapshot canary edge latest".split()
)
"""Words of a release channel or a support term ("Julia 1.10 LTS", "Firefox ESR", "the
nightly"): they qualify the version before them, they are no package."""


def concept_word(word: str) -> bool:
    """An eponymous method ("Boltzmann", "lattice-Boltzmann", "Runge-Kutta"), a release
    channel ("LTS") or a month's name or abbreviation ("Nov"): shaped like a name, no
    package."""
    lower = word.lower()
    if lower in _EPONYMS or lower in _RELEASE_CHANNELS or lower.rstrip(".") in MONTHS:
        return True
    if "-" not in lower:
        return False  # one part, asked about already (most words: no list built for them)
    parts = [p for p in lower.split("-") if p]
    return len(parts) > 1 and any(p in _EPONYMS for p in parts) and all(p.isalpha() for p in parts)


def concept_word_slip(word: str) -> bool:
    """Whether one more letter makes a lower-case, alphabetic ``word`` a :func:`concept_word`
    ("boltzman", "kuta"): a look-up in the words each concept word becomes with one letter
    dropped, not one test per letter and position."""
    return word in _concept_slips()


@cache
def _concept_slips() -> frozenset[str]:
    letters = set("abcdefghijklmnopqrstuvwxyz")
    words = (*_EPONYMS, *_RELEASE_CHANNELS, *(m for m in MONTHS if m.isalpha()))
    return frozenset(w[:i] + w[i + 1 :] for w in words for i in range(len(w)) if w[i] in letters)


@lru_cache(maxsize=8192)
def not_a_package(word: str) -> bool:
    """Whether a name-shaped leftover word names something other than software.

    Remembered per word (a bounded cache): the answer depends on the word and on fixed module
    data alone, and the open vocabulary asks it of the same words again and again.
    """
    return (
        model_checkpoint(word)
        or concept_word(word)
        or run_identifier(word)
        or camel_identifier(word)
        or science_abbreviation(word)
        or record_number(word)
        or bool(_NUMBERED_ACRONYM_RE.match(word))
        or word.lower() in _WORKLOAD_MANAGERS
        or word.lower() in _SITE_FILESYSTEMS
        or abbreviation_compound(word)
        or science_parameters(word)
        or bool(_PATCH_WORD_RE.match(word))
        or bool(_METRIC_RE.match(word))
    )


_METRIC_RE = re.compile(r"^top-\d{1,2}$", re.IGNORECASE)
"""A measure of a result ("76.1% top-1", "top-5 accuracy"): a score, never a package."""


_PATCH_WORD_RE = re.compile(r"^[A-Za-z]{2,8}-[A-Za-z]{1,2}/\d{1,2}$")
"""A vision model with its size letter and patch size, read as one word ("ViT-B/32")."""


_BASIS_SET_RE = re.compile(
    r"^(?:(?:ma-|d-|x2c-)?def2-[a-z]{2,6}(?:-?(?:jk|ri|c))?"
    r"|(?:(?:aug|d-aug|jun|may|apr|heavy-aug)-)?cc-pw?c?v(?:[dtq56]|\(?[dtq]\+d\)?)z(?:-[a-z]{1,3})?"
    r"|\d-\d{2,3}\+{0,2}g\*{0,2}(?:\([\w,]{1,8}\))?|sto-\d{1,2}g"
    r"|(?:dzvp|tzvp|tzv2p|szv)-molopt(?:-[a-z]{2,4})?"
    r"|pcseg-\d|(?:aug-)?pc-\d)$",
    re.IGNORECASE,
)
"""Basis sets by their grammar: Ahlrichs' ``def2-TZVPP`` (and ``ma-def2-SVP``), Dunning's
``cc-pVTZ``/``aug-cc-pwCVQZ``, Pople's ``6-31G*``/``6-311++G(d,p)``, ``STO-3G``, CP2K's
``DZVP-MOLOPT-SR``, Jensen's ``pcseg-2``: the one-electron basis of a calculation, an input of
the program, never a package."""
_FUNCTIONALS = frozenset(
    """
    b3lyp cam-b3lyp b3lyp-d3 b3lyp-d3bj b3lyp-d4 pbe0 pbe0-d3 pbe-d3 pbe0-d3bj hse06 hse03 b97-d
    b97-d3 wb97x wb97x-d wb97x-d3 wb97x-v wb97m-v m06 m06-2x m06-l m062x tpss tpssh r2scan
    r2scan-3c b2plyp dsd-blyp dsd-pbep86 bp86 blyp pw91 pw6b95 revpbe rpbe pbesol lc-wpbe
    b3pw91 b97m-v scan0 hf-3c pbeh-3c b97-3c
    """.split()
)
"""Density functionals and composite methods ("CAM-B3LYP", "wB97X-D", "M06-2X", "r2SCAN-3c"):
the level of theory the program runs at, named in the input, never a package."""
_SEMIEMPIRICAL_RE = re.compile(r"^(?:gfn[0-2]|gfn-?ff)(?:-xtb)?$|^(?:dlpno-)?ccsd(?:\(t\))?$", re.I)
"""Levels of theory named with the program's hamiltonian ("GFN2-xTB", "GFN-FF"): a method the
package ``xtb`` runs, written beside it; the package is named on its own."""
_FORCE_FIELD_RE = re.compile(
    r"^(?:charmm\d{2}m?|ff\d{2}[a-z]{2,4}(?:-[a-z]{2,4})?|gaff2|amber\d{2}sb[\w*-]*"
    r"|opls-?aa(?:/m)?|opls\d|tip[345]p(?:-?(?:fb|ew|d))?|spc/?e|martini[23]|gromos\d{2}\w*"
    r"|a99sb[\w*-]*|des-amber)$",
    re.IGNORECASE,
)
"""Force fields and water models by their release shape ("CHARMM36m", "ff19SB", "GAFF2",
"amber99sb-ildn", "OPLS-AA/M", "TIP4P-Ew", "SPC/E", "Martini3"): parameters read by an MD
engine, not a package. The engines of the same stem ("CHARMM", "AMBER") stay catalogued."""
_SCENARIO_RE = re.compile(r"^(?:ssp[1-5]-?\d{2}|ssp[1-5]-\d\.\d|rcp\d\.?\d|[a-z]+mip\d?)$", re.I)
"""Climate scenarios and intercomparison projects ("SSP585", "SSP2-4.5", "RCP8.5",
"ScenarioMIP", "HighResMIP"): which data, never a program."""
_LINEAGE_RE = re.compile(r"^[a-z]+_odb\d{1,2}$", re.IGNORECASE)
"""A BUSCO lineage data set ("vertebrata_odb10", "bacteria_odb12"): a download of orthologs."""
_PIPELINE_MODEL_RE = re.compile(r"^[a-z]{2,3}_core_(?:web|news|sci)_(?:sm|md|lg|trf|scibert)$")
"""A trained spaCy pipeline ("en_core_web_trf", "de_core_news_lg", "en_core_sci_md"): weights
that spaCy loads, not a package (it installs as one, but the package is spaCy)."""
_DATA_FORMATS = frozenset(
    """
    mzml mzxml mzidentml mgf gvcf nanoaod miniaod daod ntuple ntuples pod5 fast5 slow5 blow5
    bigwig bedgraph netcdf4 geotiff cog hdf4 dicom nifti cifti gifti edf ome-zarr ome-tiff
    fastq fq bam cram vcf bcf gtf gff3
    """.split()
)
"""File and data formats written as nouns ("1.5 TB of mzML", "the intermediate gVCFs", "read
NanoAOD", "POD5 from the run", "the FASTQ are on the share"): what the data are stored in,
never a package to install (the tools that read them are named otherwise: FastQC, samtools,
bcftools)."""


def science_parameters(word: str) -> bool:
    """A basis set, a density functional or a semi-empirical level, a force field or a water
    model, a climate scenario, a BUSCO lineage, a spaCy pipeline or a data format, known by its
    shape (or, for functionals and formats, a short list): the inputs and data of a program,
    not a program. Written with a slash between two of them ("CAM-B3LYP/def2-SVP",
    "ff19SB/OPC") the pair is a level of theory or a setup. A word so marked is quoted,
    never dropped."""
    lower = word.lower()
    singular = lower[:-1] if lower.endswith("s") and not lower.endswith("ss") else lower
    if (
        _BASIS_SET_RE.match(lower)
        or lower in _FUNCTIONALS
        or _SEMIEMPIRICAL_RE.match(lower)
        or _FORCE_FIELD_RE.match(lower)
        or _SCENARIO_RE.match(lower)
        or _LINEAGE_RE.match(lower)
        or _PIPELINE_MODEL_RE.match(lower)
        or singular in _DATA_FORMATS
    ):
        return True
    parts = lower.split("/")
    return 1 < len(parts) <= 3 and all(p and science_parameters(p) for p in parts)


_SITE_FILESYSTEMS = frozenset(
    """
    cvmfs nfs nfsv4 lustre gpfs beegfs cephfs ceph zfs xfs ext4 btrfs hdfs sshfs squashfs
    overlayfs tmpfs fuse irods dcache eos
    """.split()
)
"""File systems and data services a site mounts ("distributed through CVMFS", "on our NFS
share", "a BeeGFS scratch"): a storage need the storage field or a quoted phrase holds, not a
package the job installs (a storage phrase the parser reads claims the word first)."""

_ABBREVIATION_PART_RE = re.compile(r"^[a-z]{1,2}$", re.IGNORECASE)


def abbreviation_compound(word: str) -> bool:
    """Letters of one or two joined by hyphens ("sd-pf", "pp-nn", "NN-LO"): a shell, a
    channel or a scheme of physics written in its abbreviations; a package names itself with
    at least one longer part ("py-spy", "r-base")."""
    parts = word.split("-")
    return len(parts) >= 2 and all(_ABBREVIATION_PART_RE.match(p) for p in parts)


_WORKLOAD_MANAGERS = frozenset("slurm pbs openpbs pbspro torque lsf sge htcondor moab".split())
"""Batch schedulers: the site's workload manager ("Slurm job arrays"), not a package the job
installs; a request for one stays quoted."""


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
MEASURED_AFTER_RE = re.compile(
    r"[^\S\n]*(?:(?:[fpn\u00b5u]|milli|micro|nano|pico|femto)?(?:s|secs?|seconds?)"
    r"|ms|mins?|minutes?|h|hrs?|hours?"
    r"|[kmgt]?hz|[nmck]?m|\u00b5m|um|\u00e5|angstroms?|[kmg]?pc|au|ly|light[\s-]years?"
    r"|[mk]?g|kda|da|m_?sun|m_?sol|m\u2299|solar\s+mass(?:es)?|m_?jup|m_?earth|r_?sun|l_?sun"
    r"|[mkgt]?ev|k?j|kcal|hartrees?|ry|[kmg]?pa|m?bar|atm|kelvin|deg(?:rees?)?|\u00b0[cf]?"
    r"|[kmgtp]i?b|bytes|[kmgt]bits?|[kmgt]bps|gbit/s|gb/s|[gtpe]?flops|ppm|ppb|db|mag|arcsec|arcmin"
    r"|sigma|\u03c3|mol|[mk]w|volts?|amps?)(?![\w\u2299])",
    re.I,
)
"""A unit of measure after a number: the SI units and their prefixes, the units of astronomy
(M_sun, pc, AU), chemistry (kcal, eV, Da, Hartree), data (GB, Gbit/s, TFLOPS) and time ("masses
0.8 to 20 Msun", "a latency of 1.1 \u00b5s", "roughly 500 GB input"). A number with a unit is
a quantity; a release number stands alone or before a word of releases ("foo 1.1 or newer")."""
ORDINAL_RE = re.compile(r"^\d+(?:st|nd|rd|th)(?![a-z])", re.I)
"""An ordinal ("19th", "2nd"): it counts a place in a series ("19th-century", "2nd-order"),
never a release."""


_YEAR_AFTER_RE = re.compile(r"\s*,?\s*\(?(?:19|20)\d\d[a-z]?\)?(?![\w.]\d)")


def cited_work(text: str, start: int, end: int) -> bool:
    """A journal or a venue with its year, in a citation ("et al., Nature 2013") or before a
    publication noun ("our CoRL 2023 paper"): a place of publication, not software."""
    year = _YEAR_AFTER_RE.match(text, end)
    if year is None:
        return False
    before = text[max(0, start - 30) : start]
    return bool(CITED_BEFORE_RE.search(before) or VENUE_AFTER_RE.match(text, year.end()))


_DATA_NOUNS = (
    r"data|datasets?|data\s+sets?|observations?|exposures?|visibilit(?:y|ies)|images?|scans?|"
    r"spectra|spectrum|frames|scenes|tiles|catalog(?:ue)?s?|surveys?|light\s*curves?|"
    r"recordings?|readings|pointings|epochs|archives?|measurements?|mosaics|cubes|photometry|"
    r"astrometry|time\s*series|telemetry|radiances|retrievals|granules|swaths|reads|"
    r"waveforms|seismograms|traces|files|records|samples|cohorts?|acquisitions|sessions|"
    r"volumes|slices|tiffs?|outputs|(?:benchmark|training|test|validation|evaluation)\s+"
    r"(?:sets?|splits?)|abstracts|corpus|corpora|reanalysis|scores|"
    r"checkpoints?|snapshots?|(?:boundary|initial|lateral)\s+conditions|forcings?|grids?"
)
_RELEASE_TAG = (
    r"(?:(?:release|version|edition|phase)[^\S\n]+)?"
    r"(?:v\d[\w.]*|(?:19|20)\d\d(?:[-.]\d\d)?|\d+\.\d[\w.]*)"
)
"""A release of a data set between its name and the data noun: "GTEx v8 samples", "the ABCD
Release 5.1 cohort", "ERA5 2023 reanalysis". Only a release's shape (a "v", a year, a dotted
number), so that a bare count stays a count ("Foo 3 files")."""
_ALSO_SOURCE = (
    r"(?:[^\S\n]*(?:,|\+|&|[^\S\n]and|[^\S\n]or)[^\S\n]+(?-i:[A-Z])[\w.-]*"
    rf"(?:[^\S\n]+{_RELEASE_TAG})?)"
)
"""More capitalised sources that share the data noun: "EuroSAT and BigEarthNet tiles",
"BraTS 2023 + KiTS23 data", "CMIP6, ERA5 and MERRA-2 fields"."""
_DATA_AFTER_RE = re.compile(
    rf"(?P<release>[^\S\n]+{_RELEASE_TAG})?{_ALSO_SOURCE}*"
    rf"[^\S\n]+(?P<desc>[a-z][a-z-]*[^\S\n]+)?(?P<noun>{_DATA_NOUNS})(?![\w-])"
    r"(?=[^\S\n]*(?:$|[^\w\s]|\d|(?:the|a|an|and|or|of|on|over|to|for|with|from|in|into|by|at|as|"
    r"is|are|was|were|via|using|through|per|each|that|which|so|but|we|i|it|they|need|needs|"
    r"this|these|those|last|next|"
    r"will|would|should|must|can|could)(?!\w)))",
    re.I | re.M,
)
"""A data noun after the word, ending its noun phrase: punctuation, a number or a function
word follows ("DECam exposures, plus", "MeerKAT data for"); "WRFDA data assimilation" goes on.
A release tag and further sources may stand between ("GTEx v8 samples", "EuroSAT and
BigEarthNet tiles"). A bare "benchmark" is no data noun: HPL and HPCG are benchmarks and
packages."""
_NOT_BETWEEN = frozenset(
    """
    the a an and or of on over to for with from in into by at as is are was were be via using
    this that these those its their our my your his her
    """.split()
)
"""Function words: with one of them between the word and the data noun ("PyRate over the
data", "RepeatMasker on samples") the word acts on the data, it is not where the data come
from."""


def data_source(text: str, start: int, word: str) -> int:
    """A word that names where data come from, not what processes them: an instrument, a
    telescope, a survey, a satellite or an archive, written as products are ("MeerKAT continuum
    data", "DECam exposures", "Sentinel-2 scenes", "TESS light curves"). A data noun follows
    it, at most one describing word between, and ends the noun phrase; the name is a proper
    one (capitalised, as instruments are: a lower-case "pyGIMLi data inversion" is a tool).
    Kept unread (quoted), never a package.

    Returns:
        Where the data noun ends, or 0 when the word is no data source.
    """
    if not word[:1].isupper():
        return 0
    m = _DATA_AFTER_RE.match(text, start + len(word))
    if m is None:
        return 0
    if m.group("release") and m.group("noun").lower().startswith("image"):
        return 0  # "DeepVariant 1.6.1 image": a container of the package's release
    desc = m.group("desc")
    return m.end() if not desc or desc.split()[0].lower() not in _NOT_BETWEEN else 0


# Words that the place they stand in marks as something other than a package: the parts of
# command lines, specs and addresses that tools and agents write around a request.

_OPTION_BEFORE_RE = re.compile(r"(?:^|[\s\[(|])--?$")
"""Dashes that open a command-line option: "--nproc_per_node=8", "--num-gpus 8", "-sf kk"."""
_OPTION_VALUE_BEFORE_RE = re.compile(r"(?:^|\s)--?[A-Za-z][\w.-]*=$")
"""An option and its equals sign: the word after is the option's value ("--backend=c10d")."""
_OPTION_ARGUMENT_BEFORE_RE = re.compile(r"(?:^|\s)--?[A-Za-z][\w-]*[^\S\n]+$")
_FILE_ARGUMENT_RE = re.compile(r"^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,12}$")
"""A word with a lower-case extension after an option and a blank ("-i turb.athinput",
"--input run.conf"): the file the option names, not a package (quoted, never dropped)."""
_KEY_AFTER_RE = re.compile(r"[\"']?[^\S\n]*[:=](?![:=/])")
"""A colon or an equals sign right after a word: the word is a key ("coresMin: 36")."""
_KEY_START_RE = re.compile(r"(?:^|[\n{,\[]|-[^\S\n])[^\S\n]*[\"']?$")
"""Where a key starts: a line (maybe a bullet), a JSON/YAML flow mapping, after a comma."""
_TYPE_KEY_BEFORE_RE = re.compile(
    r"(?:^|[\s{,\"'\[(])"
    r"(?:(?:request|job|task|run|workload|submission|ticket)[_-]?(?=type|kind))?"
    r"(?:class|kind|type|rule|step|stage|process|task|apiversion|"
    r"requester|submitter|agent|author|owner|user|email|contact|host|hostname|endpoint|build|"
    r"variant)[\"']?[^\S\n]*[:=]"
    r"[^\S\n]*[\"']?$",
    re.IGNORECASE,
)
"""Keys whose value names a type, a step of a workflow, a person or a machine, never a package
("class: ResourceRequirement", "kind: ComputeRequest", "rule: assemble_contigs", "requester":
"ana@lab.example", "build": "multicore-CUDA"), also as the kind of a request or job
("request_type=compute", "jobKind: batch"). Taken from the CWL, Kubernetes, Snakemake
and Nextflow spec vocabularies."""
_EMAIL_RE = re.compile(r"[\w.+-]+@[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+")
_FILE_PREFIXES = frozenset("in log restart dump".split())
"""LAMMPS names its input, log and restart files with a prefix ("in.polymer"); source files
("whisper.cpp", "node.js", "CUDA.jl") and "data." ("data.table") name packages too often."""
_TOP_DOMAINS = frozenset(
    """
    com org net edu gov mil int io ai dev example local internal lan ac uk de fr it es nl se
    no fi dk ch at be pl cz jp cn kr in au nz ca us eu
    """.split()
)
"""The last part of a host name ("uni.example", "cluster.internal", "login.hpc.ac.uk")."""
_IMAGE_REF_RE = re.compile(
    r"(?P<scheme>[a-z0-9]+://)?(?P<path>(?P<first>[\w.-]+)/(?:[\w.-]+/)*)[\w.-]+"
    r"(?P<tag>:[\w.-]+|@sha256:\w+)?",
    re.IGNORECASE,
)
"""A container image ("nvcr.io/nvidia/clara/parabricks:4.3", "org/tool:1.2") or a URL
("s3://bucket/prefix"): the registry, the organisation and the folders before the last part
name no package; a module path ("lammps/2Aug2023") has no scheme, registry or tag."""
_KEY_VALUE_AFTER_RE = re.compile(r"[\"']?[^\S\n]*:[^\S\n]*[\"']?(?P<value>[A-Za-z][\w-]*)")
"""A key and a word as its value ("software: MACE", "\"build\": \"multicore-CUDA\""): the key
names a field; a key before a version ("pytorch: 2.3") is a package with its version."""
_AMOUNT_VALUE_RE = re.compile(
    r"[\"']?[^\S\n]*:[^\S\n]*(?:about|at\s+least|up\s+to|~)?[^\S\n]*\d+(?:[.,]\d+)?[^\S\n]*"
    r"(?:x[^\S\n]*)?(?:nodes?|cores?|cpus?|gpus?|ranks?|tasks?|threads?|workers?|processes|"
    r"[kmgtp]i?b|hours?|hrs?|h|minutes?|mins?|days?|usd|eur|\$)(?![\w.])",
    re.IGNORECASE,
)
"""A key whose value is an amount of a resource ("Executors: 20 nodes", "Scratch: 2 TB"): the
key labels a section of the request, it names no package (a package's value is a version)."""


_JOB_NAME_BEFORE_RE = re.compile(
    r"(?:^|[^\S\n])(?:-N|-J|--job-name|--jobname)(?:=|[^\S\n]+)(?:[A-Za-z][\w.+-]*)?\Z"
)
"""The name a job script gives its job ("#PBS -N cesm-b1850", "#SBATCH -J wrf_run",
"--job-name=relax-v2"): a label of the run, not a package."""


_JOB_NAME_RE = re.compile(
    r"^#(?:SBATCH|PBS|BSUB|flux:)[^\S\n]+(?:-N|-J|--job-name|--jobname)(?:=|[^\S\n]+)"
    r"[\"']?(?P<name>[A-Za-z][\w.+-]*)",
    re.MULTILINE,
)
"""The name a batch script gives its job, read once per text for :func:`names_the_job`."""


@lru_cache(maxsize=16)
def _job_name_parts(text: str) -> frozenset[str]:
    """The job's name and its parts ("tohoku-rupture": also "tohoku" and "rupture")."""
    parts: set[str] = set()
    for m in _JOB_NAME_RE.finditer(text):
        name = m.group("name").lower().rstrip(".")
        parts.add(name)
        parts.update(p for p in re.split(r"[-_.+]", name) if len(p) >= 3 and not p.isdigit())
    return frozenset(parts)


def names_the_job(text: str, word: str) -> bool:
    """Whether an uncatalogued ``word`` is the name, or a part of the name, the batch script
    gives its job ("#SBATCH -J conformer-ctc" and later "# Conformer-CTC large"; "#BSUB -J
    tohoku-rupture" and "dynamic rupture, Tohoku 2011 geometry"): the writer named the run
    after its model, site or science, not after a package to install. The caller quotes the
    word instead (fail-safe: never dropped). The substring test keeps texts without a
    job-name directive free."""
    if "-J" not in text and "-N" not in text and "name" not in text:
        return False
    return word.lower() in _job_name_parts(text)


_RESOURCE_KEY_PARTS = frozenset(
    """per node nodes rank ranks task tasks core cores cpu cpus gpu gpus mem memory time
    walltime hours threads proc procs ntasks num max min total""".split()
)
"""Parts of a snake_case key that names a resource ("ranks_per_node", "max_gpus")."""


def _resource_key(word: str) -> bool:
    """A snake_case word with a resource part: a key. Package pins have no such part
    ("torch_cluster: 1.6" is a package with its version)."""
    return "_" in word and not _RESOURCE_KEY_PARTS.isdisjoint(word.lower().split("_"))


def placed_as_non_name(text: str, start: int, end: int) -> bool:
    """Whether the word at ``text[start:end]`` stands where no package name stands: an option
    of a command line or its value, a key of a spec or the value of a type key, a part of an
    e-mail address or a host name, a file name, or the registry or organisation part of a
    container image reference ("nvcr.io/nvidia/...", "broadinstitute/gatk:4.5.0.0")."""
    word = text[start:end]
    before = text[max(0, start - 60) : start]
    if _OPTION_BEFORE_RE.search(before) or _OPTION_VALUE_BEFORE_RE.search(before):
        return True
    if _TYPE_KEY_BEFORE_RE.search(before) or _JOB_NAME_BEFORE_RE.search(before):
        return True
    if _FILE_ARGUMENT_RE.match(word) and _OPTION_ARGUMENT_BEFORE_RE.search(before):
        return True  # "./athenak -i turb.athinput": an input file given to an option
    if camel_key(word) and _KEY_START_RE.search(before) and _KEY_AFTER_RE.match(text, end):
        return True
    if _KEY_START_RE.search(before):
        value = _KEY_VALUE_AFTER_RE.match(text, end)
        if value and not re.match(r"v?\d", value.group("value")):
            return True
        if _AMOUNT_VALUE_RE.match(text, end):
            return True  # "Executors: 20 nodes", "Workers: 64 cores each": a section label
        if _KEY_AFTER_RE.match(text, end) and _resource_key(word):
            return True  # "ranks_per_node: 64" in a line of prose: a key, not a pin
    # The token starts after the last space or mark before the word; each mark after the
    # first is looked for only past the one found so far (not back through the whole text)
    token_start = 0
    for mark in " \t\n\"'({[,=":
        token_start = max(token_start, text.rfind(mark, token_start, start) + 1)
    token_end = end
    while token_end < len(text) and not text[token_end].isspace():
        if text[token_end] in ",\"')]}":
            break
        token_end += 1
    raw = text[token_start:token_end]
    token = raw.rstrip(".:;/")
    if "@" in token and _EMAIL_RE.search(token):
        return True
    if file_path(raw, start - token_start, end - token_start):
        return True  # "workflow/Snakefile", "envs/tools.yaml", "pod5/": files and folders
    if script_step(text, start, word):
        return True  # "decomposePar" alone on a line of a script that loads its package
    image = _IMAGE_REF_RE.fullmatch(token)
    if image and start < token_start + image.end("path") and _image_like(image):
        return True  # "nvcr.io/nvidia/" of an image, "s3://bucket/" of a URL: no package
    return dotted_non_name(word)


_NAMED_FILE_RE = re.compile(
    r"^(?:[A-Z][a-z]*file|(?:make|snake|docker|container|jenkins|vagrant|gem|pip|just|rake)file"
    r"|readme|license|licence|changelog)$"
)
"""Files named without an extension: the build and workflow files (Makefile, Snakefile,
Dockerfile, Containerfile, Jenkinsfile) and the usual files of a repository (README)."""


def file_path(token: str, start: int, end: int) -> bool:
    """Whether ``token[start:end]`` is a part of a path: a folder written with its slash
    ("pod5/", "asm/"), or a part of a path whose last part is a file ("workflow/Snakefile",
    "envs/tools.yaml"). A module path names a package and its version ("lammps/2Aug2023",
    "openfoam/11"): its last part is a version, no file, so it is kept."""
    if "://" in token or "/" not in token:
        return False
    if token.endswith("/") and token[end:].startswith("/") and token[:start].count("/") < 3:
        return "." not in token[start:end] and not token[start:end][:1].isdigit()
    last = token.rstrip(".,:;").rsplit("/", 1)[-1]
    return bool(last) and (dotted_non_name(last) or bool(_NAMED_FILE_RE.match(last)))


_SCRIPT_RE = re.compile(r"^[ \t]*#(?:!|SBATCH|PBS|BSUB|FLUX)", re.M)
_MODULE_LOAD_RE = re.compile(
    r"^[ \t]*(?:\$\s*)?(?:module\s+(?:load|add)|ml(?=\s)|spack\s+load)(?P<items>[^\n#;|&]*)",
    re.M | re.I,
)
_LINE_START_RE = re.compile(r"(?:^|\n)[ \t]*(?:\$[ \t]*)?$")


def script_step(text: str, start: int, word: str) -> bool:
    """A command that opens a line of a job script which loads its packages as modules
    ("module load openfoam/11" then "decomposePar" or "blockMesh"): a program of a loaded
    package run as a step of the job, not a package of its own. Kept unread, so it is quoted;
    a command that is itself a loaded module ("dorado basecaller ...") is the package."""
    if not _LINE_START_RE.search(text, max(0, start - 80), start) or not _SCRIPT_RE.search(text):
        return False
    loads = [m.group("items") for m in _MODULE_LOAD_RE.finditer(text)]
    if not loads:
        return False
    items = {i.split("/")[0].split("@")[0].lower() for line in loads for i in line.split()}
    return word.lower() not in items


def _image_like(m: re.Match[str]) -> bool:
    return bool(m.group("scheme") or m.group("tag") or "." in m.group("first"))


def dotted_non_name(word: str) -> bool:
    """A file name ("train.py", "in.polymer"), a host name ("uni.example") or a program built
    as ``<name>.x`` ("ph.x", "projwfc.x": the programs of Quantum ESPRESSO and other Fortran
    codes; the package is named beside them, and its catalogued aliases such as "pw.x" are read
    before this) written as one word with dots."""
    if "." not in word.strip("."):
        return False
    parts = word.lower().split(".")
    return (
        parts[-1] in FILE_EXTENSIONS
        or (parts[-1] == "x" and len(parts) == 2 and parts[0].isalnum())
        or parts[-1] in _TOP_DOMAINS
        or (parts[0] in _FILE_PREFIXES and len(parts) == 2 and parts[1].isalpha())
    )


_CAMEL_KEY_RE = re.compile(r"^(?:[a-z]{2,}(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]{2,}){2,})$")


def camel_key(word: str) -> bool:
    """A key written in camel case ("coresMin", "notAfter", "localScratch") or in Pascal case
    from words ("DockerRequirement"); the caller checks that a colon follows."""
    return bool(_CAMEL_KEY_RE.match(word))


CHAT_SLANG = frozenset(
    "lol lmao lmfao rofl btw fyi imo imho tbh afaik iirc idk ngl smh omg thx tia".split()
)
"""The abbreviations of chat ("finally installed lol", "btw", "tbh"): prose, never a package and
never a requirement."""

_EXECUTABLE_AFFIXES = frozenset(
    "psmp popt ssmp sopt sdbg pdbg x exe bin batch run mpi serial omp cli".split()
)
"""What turns a package's name into one of its programs or builds: CP2K's ``cp2k.psmp`` and
``cp2k.popt``, Quantum ESPRESSO's ``pw.x``, ``colabfold_batch``, ``run_deepvariant``, a
module ``hdf5-mpi``."""


_DOTTED_PACKAGES = frozenset(("jl", "js", "net"))
"""Suffixes after a dot that make a package of its own ("Oceananigans.jl", "three.js")."""


def executable_of(word: str, packages: Iterable[str]) -> bool:
    """Whether ``word`` is a program or a build of a package the request already names
    ("cp2k.psmp" beside CP2K, "run-deepvariant" beside DeepVariant, "phenix.refine" beside
    Phenix, the component "Boost.Python" beside Boost): that package is the requirement; the
    program is not a second one."""
    parts = [p for p in re.split(r"[-._]", word.lower()) if p]
    if len(parts) < 2:
        return False
    known = {squash(p) for p in packages}
    owner, dot, part = word.lower().partition(".")
    if dot and squash(owner) in known and part[:1].isalpha() and part not in _DOTTED_PACKAGES:
        return True  # "phenix.real_space_refine", "Boost.Python": a program or part of it
    return (squash(parts[0]) in known and all(p in _EXECUTABLE_AFFIXES for p in parts[1:])) or (
        squash(parts[-1]) in known and all(p in _EXECUTABLE_AFFIXES for p in parts[:-1])
    )


_OWN_MACHINE_AFTER_RE = re.compile(
    r"\s++(?:is|are)\s++(?:(?:only|already|just)\s++)?+"
    r"(?:(?:used|installed|run)\s++)?+(?:on|in)\s++(?:my|our)\s++"
    r"(?:own\s++)?+(?:local\s++)?+"
    r"(?:laptops?|desktops?|workstations?|pcs?|macs?|macbooks?|computers?)"
    r"(?:\s++already)?+(?!\s*+,?\s*+(?:but|and\s++(?:we|i)\s++need))"
    r"(?![\w-])",
    re.IGNORECASE,
)
"""After a package: the writer already has it on a machine of their own ("GaussView is only
used on our desktops", "GaussView is on my laptop already"), so the site need not hold it.
A clause that goes on with "but" ("LAMMPS is on my laptop, but I need 4 nodes") asks for it
after all, so it stays."""


def on_own_machine(text: str, end: int) -> int:
    """Where the clause that puts the package ending at ``end`` on the writer's own machine
    ends, or 0 when none follows it (see _OWN_MACHINE_AFTER_RE)."""
    m = _OWN_MACHINE_AFTER_RE.match(text, end)
    return m.end() if m else 0


_UNIT_WORDS = ("cores", "nodes", "gpus", "cpus", "hours", "threads", "ranks", "tasks", "minutes")
_NUMBER_BEFORE_RE = re.compile(r"\d[^\S\n]*$")


def unit_typo(text: str, start: int, word: str) -> bool:
    """A misspelled unit after a number ("512 corse", "4 noeds", "2 gpsu"): a count the writer
    mistyped, not a package; kept unread, so it is quoted."""
    lower = word.lower()
    if not (
        lower.isalpha()
        and 4 <= len(lower) <= 8
        and _NUMBER_BEFORE_RE.search(text, max(0, start - 12), start)
    ):
        return False
    from endpoint_plugins.parsing.vocabulary import typo_of  # only for a word after a number

    return typo_of(lower, _UNIT_WORDS, 1) is not None


_NOT_SOFTWARE_AFTER_RE = re.compile(
    r"[^\S\n]+(?:work[^\S\n]+packages?|submissions?|consorti(?:um|a)|collaborations?|"
    r"projects?|proposals?|grants?|hackathons?|challenges?|competitions?|campaigns?|"
    r"machines?|boards?|chips?|hardware|supercomputers?|testbeds?|output|outputs|formats?|"
    r"modes?|water(?:[^\S\n]+models?)?|lineages?)"
    r"(?![\w-])",
    re.IGNORECASE,
)
"""A noun that makes the name before it a project, a funder, an event, a machine, a file
format or a mode of a program ("our EUROfusion work package", "the FluSight submission", "a
SpiNNaker machine", "openPMD output", "DIAMOND in blastx mode"), a water model ("OPC water")
or a lineage of a reference set ("the fungi_x lineage"): no package to install. Kept unread, so
it is quoted."""
_GRID_SPACING_AFTER_RE = re.compile(
    r"[^\S\n]+\d{1,3}(?:\.\d{1,3})?[^\S\n]*(?:\u00b0|deg(?:rees?)?(?![\w-]))", re.IGNORECASE
)
"""A grid spacing in degrees after the word ("OM4 0.25 degree", "ORAS5 1\u00b0"): the word names a
configuration or a grid, and the number is its resolution, not a release."""
_PARAMETER_COUNT_AFTER_RE = re.compile(r"[^\S\n]+\d{1,4}(?:\.\d)?[bBmM](?![\w.-])")
"""A parameter count after the word ("llama-3 70b", "Qwen2.5 7B"): a trained model, weights."""
_PATCH_MODEL_RE = re.compile(r"^[A-Za-z]{2,8}-[A-Za-z]{1,2}$")
_PATCH_AFTER_RE = re.compile(r"/\d{1,2}(?![\w./])")
"""A vision model with its size letter and its patch size ("ViT-L/16", "DeiT-S/16",
"Mixer-B/32"): weights, and the number after the slash no release."""
_GLUED_RE = re.compile(r"[\w.-]+")
_HUB_PATH_AFTER_RE = re.compile(r"/(?P<model>[A-Za-z][\w.-]*[\w])")
"""A model's name after its publisher and a slash, as model hubs write them ("BAAI/...")."""
_MEASURED_AREA_RE = re.compile(r"^(?:[kcmd]?m|mi|ft|in)[23]$", re.IGNORECASE)
"""A unit of area or volume with its power glued on: "km2", "m3", "cm3", "ft2"."""
_AMOUNT_BEFORE_RE = re.compile(r"\d[^\S\n]*\Z")
_ACRONYM_VERB_RE = re.compile(r"^[A-Z]{2,}(?:-?ing|-?ed|'ing|'ed|'d)$")
"""An acronym made a verb: "keeps OOMing", "the job SIGKILLed", "it OOM'd", "OCR-ing the
scans"."""
_AUTHOR_YEAR_RE = re.compile(
    r"(?<=\()(?P<who>[A-Z][a-z]+)(?:[^\S\n]+(?:et[^\S\n]+al\.?|and[^\S\n]+[A-Z][a-z]+|"
    r"&[^\S\n]+[A-Z][a-z]+))?,?[^\S\n]+(?:19|20)\d\d[a-z]?(?=[);,])"
)
"""A citation by author and year in parentheses: "(Wang 2015)", "(Smith et al., 2019)",
"(Lee and Park 2020; ...)". Its capitalised word is a person, not a package; a package with a
release in parentheses ("(GROMACS 2024)") is written in capitals or is catalogued, and any word
set aside here is quoted, never dropped."""
_AUTHOR_AFTER_RE = re.compile(r"[^\S\n]+et[^\S\n]+al(?:\.|(?!\w))")
"""A first author before "et al." ("Smith et al. showed"): a person."""


_JARGON = frozenset(
    """
    backend backends frontend frontends inspiral inspirals subgrid sub-grid waveform waveforms
    redshift redshifts tractography spatio-temporal spatiotemporal timestep timesteps
    hyperparameter hyperparameters dataloader dataloaders checkpointing multigrid submodel
    submodels preprocessing postprocessing
    """.split()
)
"""Nouns of the trade that no dictionary lists ("the vLLM backend", "a binary black hole
inspiral", "an EAGLE-like subgrid model", "a spatio-temporal model", "the timestep"): prose of
a field, no package. A word so marked is quoted, never dropped."""


def names_no_software(text: str, start: int, word: str) -> bool:
    """Whether the noun after ``word`` names it a project, an event, a machine or a format."""
    return bool(_NOT_SOFTWARE_AFTER_RE.match(text, start + len(word)))


def shaped_as_no_package(text: str, start: int, word: str) -> bool:
    """Whether ``word`` and what is glued to it read as something other than a package: a unit
    after an amount ("14,000 km2", "0.25 ps"), a grid with its spacing in degrees ("OM4
    0.25 degree"), a trained model with its parameter count ("llama-3 70b"), an acronym made a
    verb ("keeps OOMing") or an author cited with a year or "et al." ("(Wang 2015)", "Smith et
    al."), a model named with its size ("bge-large-en") and its publisher before a slash. Asked
    only of words no catalogue knows; a word so marked is quoted, never dropped."""
    if word.lower() in _JARGON:
        return True  # "the vLLM backend", "a black hole inspiral": a noun of the trade
    end = start + len(word)
    glued = _GLUED_RE.match(text, start)  # "whisper-large" with its "-v3"
    whole = glued.group(0).rstrip(".-") if glued else word
    hub = _HUB_PATH_AFTER_RE.match(text, end)
    if science_parameters(whole):
        return True  # "SSP2-4.5", "def2-TZVP": a scenario or a basis set, its digits glued on
    if model_checkpoint(whole) or (hub is not None and model_checkpoint(hub.group("model"))):
        return True  # "bge-large-en", "BAAI/bge-large-en-v1.5": weights and their publisher
    if _PATCH_MODEL_RE.match(word) and _PATCH_AFTER_RE.match(text, end):
        return True  # "ViT-L/16": a model and its patch size
    unit = _MEASURED_AREA_RE.match(word) or MEASURED_AFTER_RE.fullmatch(word)
    if unit and _AMOUNT_BEFORE_RE.search(text, max(0, start - 4), start):
        return True
    if _GRID_SPACING_AFTER_RE.match(text, end) or _PARAMETER_COUNT_AFTER_RE.match(text, end):
        return True
    if _ACRONYM_VERB_RE.match(word) or _AUTHOR_AFTER_RE.match(text, end):
        return True
    author = _AUTHOR_YEAR_RE.match(text, start)
    return author is not None and author.group("who") == word


_COUNT_BEFORE_RE = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})*(?:\.\d+)?[kKmM]?[^\S\n]+\Z")
_SAMPLE_AFTER_RE = re.compile(
    r"[^\S\n]+(?:cases|genomes|sequences|samples|subjects|patients|participants|isolates|"
    r"strains|specimens|individuals|volunteers|scans|scenes|tiles|cohorts|transcriptomes|"
    r"proteomes|molecules|compounds|ligands)(?![\w-])",
    re.IGNORECASE,
)
"""A word between a count and a plural noun of samples ("1,251 BraTS cases", "412 SARS-CoV-2
genomes", "300 TCGA patients"): it says which samples are counted (a data set, a pathogen, a
challenge), not what processes them. Job nouns ("4 GROMACS runs") and nouns of what a tool
makes ("12 Flye assemblies", "5 AlphaFold structures") are not samples."""
_SERIES_AFTER_RE = re.compile(
    r"[^\S\n]+#?\d{1,6}[^\S\n]*(?:of|out[^\S\n]+of|/)[^\S\n]*\d{1,6}(?![\w.])", re.IGNORECASE
)
"""A place in a series after the word ("at q-point 3 of 20", "k-block 7/64", "window 12 out of
40"): a progress counter in a log or a story, not a release of a package."""


def counted_samples(text: str, start: int, word: str) -> bool:
    """Whether ``word`` stands between a count and a plural noun of samples, naming what is
    counted ("1,251 BraTS cases"), or before a place in a series ("q-point 3 of 20"). Kept
    unread, so it is quoted, never dropped."""
    end = start + len(word)
    if _SERIES_AFTER_RE.match(text, end):
        return True
    return bool(
        _COUNT_BEFORE_RE.search(text[max(0, start - 20) : start])
        and _SAMPLE_AFTER_RE.match(text, end)
    )


def series_position(text: str, at: int) -> bool:
    """Whether a number at ``at`` is a place in a series ("3 of 20", "7/64"), not a version."""
    return bool(_SERIES_AFTER_RE.match(" " + text[at : at + 40]))


# Names that the text itself calls data, a reference, weights or a place of the site: a cue
# noun after the name ("the Perseus and PROIEL treebanks", "the pod5 files", "the oasst1
# split"), a cue noun before it ("checkpoint 'tune-v3'", "partition gpu-long", "project
# ClimEx-2") or a verb of training, evaluating or aligning whose object the name is ("trained
# on BraTS 2023 and KiTS23", "evaluated on MMLU, GSM8K and HumanEval", "aligned against
# GENCODE 44"). Only words no catalogue knows are asked (a catalogued package stays one), and a
# word so marked is quoted in ``unresolved``, never dropped: a wrong mark costs a READY, never
# lets one through without the package.

_NAME_TOKEN = r"[\w][\w.'-]*"
_RELEASE_AFTER = rf"(?:[^\S\n]+{_RELEASE_TAG}|[^\S\n]+\d{{1,4}}(?![\w.]))?"
"""A release after a name in a list ("GTEx v8", "BraTS 2023", "WeatherBench 2")."""
_LIST_JOIN = (
    r"(?:[^\S\n]*(?:,|/|\+|&)[^\S\n]*|[^\S\n]+(?:and|or)[^\S\n]+|[^\S\n]*,[^\S\n]*and[^\S\n]+)"
)
_SET_NOUNS = (
    r"data[^\S\n]?sets?|corpus|corpora|treebanks?|splits?|leaderboards?|force[^\S\n]+fields?|"
    r"basis[^\S\n]+sets?|partitions?|queues?|tables|files|reference[^\S\n]+genomes?|"
    r"genome[^\S\n]+builds?|clusters?"
)
"""Nouns that make the name before them data, a reference, a method's parameters, a file
format or a place of the site ("the Abell 3667 cluster", "our Levante cluster": an object of
the sky or a machine, never a package to install). Nouns that a tool owns are left out: "the
Kraken2 database", "the BLAST index", "the AlphaFold weights" name the tool as well as its
data."""
_SET_NOUN_AFTER_RE = re.compile(
    rf"{_RELEASE_AFTER}(?:{_LIST_JOIN}{_NAME_TOKEN}{_RELEASE_AFTER})*[^\S\n]+(?:{_SET_NOUNS})"
    r"(?![\w-])",
    re.IGNORECASE,
)
"""The cue noun after a name, maybe after a release and more names sharing it ("the Perseus
and PROIEL treebanks", "GTEx v8 and GENCODE 44 files", "the oasst1 split")."""
_SET_NOUN_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:checkpoint|weights|data[^\S\n]?set|database|corpus|partition|queue|qos|"
    r"project|account|allocation|run[^\S\n_-]?id|split|file|folder|directory)"
    r"[^\S\n]*[:=]?[^\S\n]*[\"'`\u2018\u201c]?\Z",
    re.IGNORECASE,
)
"""A cue noun right before the name, which is the name of that thing ("our SFT checkpoint
'tune-v3'", "partition gpu-long", "account fus123", "project ClimEx-2"). A verb ("run") is not
among them: "run foo" names the package."""
_OBJECT_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:on|against)[^\S\n]+(?:(?:the|a|an|our)[^\S\n]+)?"
    rf"(?:{_NAME_TOKEN}{_RELEASE_AFTER}{_LIST_JOIN})*\Z",
    re.IGNORECASE,
)
""""on" or "against" and maybe earlier items of the same list before the name ("on MMLU,
GSM8K and " before "HumanEval")."""
_DATA_VERB_RE = re.compile(
    r"(?<![\w-])(?:train|trains|trained|training|traning|re-?train\w*|pre-?train\w*|"
    r"fine-?tun(?:e|es|ed|ing)|evaluat(?:e|es|ed|ing)|eval|validat(?:e|es|ed|ing)|"
    r"benchmark(?:s|ed|ing)|scor(?:e|es|ed|ing)|align(?:s|ed|ing)?|map(?:s|ped|ping)|"
    r"quantif(?:y|ies|ied|ying)|search(?:es|ed|ing)?|quer(?:y|ies|ied|ying)|"
    r"screen(?:s|ed|ing)?|sequenc(?:e|es|ed|ing)|record(?:s|ed|ing)?|acquir(?:e|es|ed|ing)|"
    r"imag(?:e|es|ed|ing)|perplexit(?:y|ies)|accuracy|top-\d{1,2}|hit|hits|reach(?:es|ed)|"
    r"achiev(?:e|es|ed)|attain(?:s|ed)|measured)(?![\w-])",
    re.IGNORECASE,
)
"""Verbs whose object after "on"/"against" is data or a reference, not a tool: "trained on",
"evaluated on", "scored 71 on", "aligned against", "searched against". Verbs of building and
testing are left out: "linked against libfoo 2.3", "tested against HDF5" name dependencies.
Verbs of sequencing, recording, acquiring and imaging name the instrument after "on"
("sequenced on the NovaSeq X", "recorded on a Neuropixels probe"): hardware, not software.
A measure or a result reached before "on" ("perplexity on", "78% accuracy on", "hit 210 GiB/s
on", "achieved 71% on") makes the object the data set or the benchmark phase the figure was
measured on: evidence, not a program to run."""
_FORCED_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])forced[^\S\n]+by[^\S\n]+(?:the[^\S\n]+)?"
    rf"(?:{_NAME_TOKEN}{_RELEASE_AFTER}{_LIST_JOIN})*\Z",
    re.IGNORECASE,
)
"""The forcing of a model ("forced by JRA55-do", "forced by ERA5 and CMIP6"): data. Not "driven
by" nor "forced with": "driven by the athena framework" names the code that drives the runs."""
_SOURCE_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:(?:data|observations|images|scans|spectra|recordings|measurements|reads|"
    r"samples|files|forcings?|bathymetry|topography|elevations?|dems?|ligands|molecules|compounds|"
    r"proteins|reanalysis|(?:boundary|initial|lateral)[^\S\n]+conditions)[^\S\n]+"
    r"(?:(?:is|are|was|were|comes?|came|taken|drawn|downloaded|obtained|derived)[^\S\n]+)?"
    r"from|(?:the|our|two|both|reference)[^\S\n]+(?:databases|data[^\S\n]?sets|corpora))"
    rf"[^\S\n]+(?:the[^\S\n]+)?(?:{_NAME_TOKEN}{_RELEASE_AFTER}{_LIST_JOIN})*\Z",
    re.IGNORECASE,
)
"""Where data come from, or a plural noun of data sets, right before the name and maybe earlier
items of its list ("the forcings from ERA5-Land", "the bathymetry from GEBCO 2023", "ligands
from the PDBbind 2020 set", "the databases UniRef30 and ColabFoldDB"): the name is a source of
data. Nouns of what a tool makes ("outputs", "structures", "alignments") are left out: "the
structures from AlphaFold" name the tool."""
_WRAP_RE = re.compile(r"(?<!\n)\n(?!\n)")
"""A single line break, where prose wraps (a blank line ends the paragraph)."""
_SITE_OPTION_BEFORE_RE = re.compile(
    r"(?:^|[^\S\n])(?:-p|-A|-q|-P|--partition|--account|--qos|--reservation)(?:=|[^\S\n]+)\Z"
)
"""A scheduler option whose value is a partition, an account, a QOS or a project ("-p
gpu_long", "-A proj_x", "#PBS -q express", "#BSUB -P bio"): a place of the site."""
_CLAUSE_BREAK_RE = re.compile(
    r"[.;:!?](?:\s|$)|\n[^\S\n]*(?:\n|[-*\u2022>#]|\d+[.)])|\b(?:using|with|via|through|in|then)\b",
    re.I,
)
"""Where the clause of a verb of training or evaluating ends: a sentence's end, a blank line or
a new bullet, or a tool preposition. A single line break is no break: prose wraps its lines
("we evaluate (...our own\nSFT checkpoint) on MMLU")."""


_RELEASE_NUMBER = (
    rf"(?:[^\S\n]+{_RELEASE_TAG}|[^\S\n]+(?:release|rel\.?|r)[^\S\n]*\d{{1,4}}(?![\w.])"
    r"|[^\S\n]+\d{1,4}(?![\w.])|-\d(?:\.\d)?(?![\w.-]))"
)
_RELEASE_NUMBER_RE = re.compile(_RELEASE_NUMBER)
"""A release written after a data set's name: "GTEx v8", "GENCODE 44", "GTDB release 220",
"SSP5-8.5" (a scenario and its forcing level glued by a hyphen)."""
_NOUN_END = r"(?![\w-]|\.\w)"
_RELEASED_DATA_AFTER_RE = re.compile(
    rf"{_RELEASE_NUMBER}[^\S\n]+(?:tissues|transcripts|transcriptomes?|annotations?|"
    rf"gene[^\S\n]+models|reanalysis|reanalyses|taxonomy|database[^\S\n]+entries){_NOUN_END}"
    rf"|-\d\.\d[^\S\n]+(?:outputs?|data|runs|forcings?|projections|simulations){_NOUN_END}",
    re.IGNORECASE,
)
"""A release, then a noun of data right after it ("GTEx v8 tissues", "GENCODE 44 transcripts",
"GTDB release 220 taxonomy"), or a scenario with its forcing level and what it yields ("the
SSP5-8.5 output"): the release is one of the data, the name a data set or a reference. Only
with the release ("Foo tissues" alone is left to the other checks), and only nouns no tool's
run makes: "Covasim 3.1.6 scenarios", "DeepVariant 1.6.1 image", "Foo 2.1 output files" name
the package."""
_RELEASED_REFERENCE_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:reference|annotation|genome[^\S\n]+build|scenario|reanalysis)s?"
    r"(?:[^\S\n]+(?:index|genome|set|build|files?|data(?:base)?))?"
    r"[^\S\n]*(?:[(:=]|is|was|from|of)?[^\S\n]*(?:the[^\S\n]+)?\Z",
    re.IGNORECASE,
)
"""A noun of references right before the name ("the reference index (GENCODE v46)", "the
annotation from Ensembl 111", "scenario SSP2-4.5"): the name is that reference or scenario."""
_RELEASED_OBJECT_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:annotated[^\S\n]+(?:with|against|using)|(?:mapped|aligned)[^\S\n]+"
    r"(?:to|onto|against)|searched[^\S\n]+against|forced[^\S\n]+with|classified[^\S\n]+"
    r"against)[^\S\n]+(?:the[^\S\n]+)?\Z",
    re.IGNORECASE,
)
"""Verbs whose object is a reference or the forcing of a model ("annotated with GENCODE 44",
"mapped to GRCh38 p14", "forced with ERA5 2023"): asked only with a release after the name."""


_RESULT_NOUNS = r"results|numbers|scores?|baselines?|submissions?|leaderboards?"
_RESULT_AFTER_RE = re.compile(
    rf"(?:[^\S\n]+(?-i:[A-Z])[a-z]{{2,12}})?{_RELEASE_AFTER}"
    rf"(?:{_LIST_JOIN}{_NAME_TOKEN}{_RELEASE_AFTER})*"
    rf"(?:[^\S\n]+(?:{_RESULT_NOUNS})(?![\w-])"
    r"|[^\S\n]+at[^\S\n]+\d{1,3}(?:\.\d{1,2})?[^\S\n]?%)",
    re.IGNORECASE,
)
"""A noun of results after a name, maybe after one capitalised word of the name, a release and
more names sharing the noun ("our HPL 2.3 numbers", "the MLPerf Inference v4.1 submission",
"the machine's HPL and STREAM numbers", "the ImageNet-1k baseline"), or a figure reached ("HPL
2.3 at 71% efficiency"): the name is a benchmark or a data set whose figures are evidence, not
a program the job runs. "4 Foo runs" is no result: a job noun names the package."""
_LISTED_DATA_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:databases|data[^\S\n]?sets|indices|indexes|metrics|references|"
    r"annotations|templates|reference[^\S\n]+genomes|catalogues|catalogs)"
    rf"[^\S\n]*\([^\S\n]*(?:{_NAME_TOKEN}{_RELEASE_AFTER}{_LIST_JOIN})*\Z",
    re.IGNORECASE,
)
"""A plural noun of data and an opening parenthesis before the name, maybe after earlier items
of its list ("the genetic databases (BFD, MGnify, " before "UniRef90"), "the heatwave indices
(ETCCDI, TX90p)"): the parenthesis lists the data, not tools. "benchmarks (" is left out: "the
benchmarks (HPL, STREAM, IOR)" may be the programs to run."""
_TEMPLATE_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:(?:registered|normali[sz]ed|resampled|warped|projected|transformed)"
    r"[^\S\n]+(?:in)?to|onto)[^\S\n]+(?:the[^\S\n]+)?\Z",
    re.IGNORECASE,
)
_SPACE_AFTER_RE = re.compile(
    r"(?:[^\S\n]+|[^\S\n]*\n[^\S\n]*)(?:space|template|atlas)(?![\w-])", re.IGNORECASE
)
_IN_BEFORE_RE = re.compile(r"(?:^|[^\w-])(?:in|into|to)[^\S\n]+(?:the[^\S\n]+)?\Z", re.I)
"""A reference template or a coordinate space ("registered to MNI152NLin2009cAsym", "output
in fsLR space", "normalised to the ICBM152 template"): where images are put, not a program."""
_STAGED_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?:have|has|had|'ve|already)[^\S\n]+(?:already[^\S\n]+)?"
    r"(?:downloaded|staged|mirrored)(?:[^\S\n]+already)?[^\S\n]+(?:the[^\S\n]+)?"
    rf"(?:{_NAME_TOKEN}{_RELEASE_AFTER}{_LIST_JOIN})*\Z",
    re.IGNORECASE,
)
"""What the writer has already downloaded or staged ("I have downloaded already GTDB release
220", "we've staged UniRef30 and BFD"): data at the site. "downloaded Foo" alone is left out,
and a package so marked is quoted, never dropped."""


_STAGED_AFTER_RE = re.compile(
    rf"{_RELEASE_AFTER}(?:{_LIST_JOIN}{_NAME_TOKEN}{_RELEASE_AFTER})*"
    r"(?:[^\S\n]+(?:models|files|databases|data|data[^\S\n]?sets|references|indices))?"
    r"[^\S\n]+(?:is|are|was|were|(?:has|have)[^\S\n]+been)[^\S\n]+(?:already[^\S\n]+)?"
    r"(?:staged|downloaded|mirrored)(?![\w-])",
    re.IGNORECASE,
)
"""A name, or a list of names, said to be staged or downloaded already ("the PREM and S40RTS
models are already staged", "UniRef30 is downloaded"): data at the site, not a program."""
_RELEASED_DATA_NOUNS = ("transcripts", "annotations", "tissues", "transcriptomes")


def _mistyped_data_noun(text: str, at: int) -> bool:
    """A noun of released data after a release, written with two letters swapped or one
    dropped ("GENCODE 44 transcirpts", "GTEx v8 tisues"): the typo keeps its meaning."""
    m = re.match(r"[^\S\n]+([a-z]{5,16})(?![\w-])", text[at:], re.IGNORECASE)
    return m is not None and _mistyped(m.group(1).lower(), _RELEASED_DATA_NOUNS)


_SOURCE_NOUNS = ("molecules", "compounds", "ligands", "samples", "proteins", "structures")
_MISTYPED_SOURCE_BEFORE_RE = re.compile(
    r"(?:^|[^\w-])(?P<noun>[a-z]{5,16})[^\S\n]+from[^\S\n]+(?:the[^\S\n]+)?"
    rf"(?:{_NAME_TOKEN}{_RELEASE_AFTER}{_LIST_JOIN})*\Z",
    re.IGNORECASE,
)
"""A noun of data before "from", mistyped ("molecuels from ChEMBL 34", "lignads from the
PDBbind set"): the name is where the data come from, as with the noun spelled right."""


def _mistyped(word: str, nouns: tuple[str, ...]) -> bool:
    """Whether ``word`` is one of ``nouns`` with two neighbouring letters swapped or one
    letter dropped (the commonest typos); the noun itself is not asked here."""
    for noun in nouns:
        if len(word) == len(noun):
            diff = [i for i in range(len(word)) if word[i] != noun[i]]
            swapped = len(diff) == 2 and diff[1] == diff[0] + 1
            if swapped and word[diff[0]] == noun[diff[1]] and word[diff[1]] == noun[diff[0]]:
                return True
        elif len(word) == len(noun) - 1 and any(
            noun[:i] + noun[i + 1 :] == word for i in range(len(noun))
        ):
            return True
    return False


def released_data(text: str, start: int, word: str) -> bool:
    """Whether ``word`` is a data set or a reference written with its release, and the text
    says so: a noun of data after the release ("GTEx v8 tissues", "SSP5-8.5 output"), a noun
    of references before the name ("reference index (GENCODE v46)"), or a verb whose object is
    a reference ("annotated with GENCODE 44"). Never from a list of famous names; asked only of
    words no catalogue knows, and a word so marked is quoted, never dropped."""
    end = start + len(word)
    if _RELEASED_DATA_AFTER_RE.match(text, end):
        return True
    release = _RELEASE_NUMBER_RE.match(text, end)
    if release is None:
        return False
    if _mistyped_data_noun(text, release.end()):
        return True
    before = text[max(0, start - 60) : start]
    return bool(
        _RELEASED_REFERENCE_BEFORE_RE.search(before) or _RELEASED_OBJECT_BEFORE_RE.search(before)
    )


def named_as_data(text: str, start: int, word: str) -> bool:
    """Whether the text calls ``word`` data, a reference, weights or a place of the site: a
    cue noun follows it (or the list it ends), a cue noun stands right before it, or it is the
    object of a verb of training, evaluating or aligning after "on"/"against" ("trained on
    BraTS 2023 and KiTS23"), the forcing of a model ("forced by JRA55-do"), or a data set or
    reference written with its release (:func:`released_data`)."""
    end = start + len(word)
    if _SET_NOUN_AFTER_RE.match(text, end) or released_data(text, start, word):
        return True
    if _RESULT_AFTER_RE.match(text, end) or _STAGED_AFTER_RE.match(text, end):
        return True
    before = text[max(0, start - 200) : start]
    # Each pattern below that looks back must end at the word, so it is tried at every offset
    # of the window; most windows lack the one word a pattern cannot match without, and a
    # substring test says so at once. Only for ASCII windows: there the patterns' IGNORECASE
    # and str.lower agree, as they need not elsewhere ("\u017f" matches "s").
    lowered = before.lower() if before.isascii() else _EVERYTHING
    cue = before[-40:]
    if (_cue_noun_last(cue) and _SET_NOUN_BEFORE_RE.search(cue, _last_line(cue))) or (
        "forced" in lowered and _FORCED_BEFORE_RE.search(before, _last_line(before))
    ):
        return True
    near = _unwrapped(before[-80:])
    line = _last_line(near)
    typo = _MISTYPED_SOURCE_BEFORE_RE.search(near, line) if "from" in lowered else None
    if typo is not None and _mistyped(typo.group("noun").lower(), _SOURCE_NOUNS):
        return True
    if ("(" in near and _LISTED_DATA_BEFORE_RE.search(near, line)) or (
        ("downloaded" in lowered or "staged" in lowered or "mirrored" in lowered)
        and _STAGED_BEFORE_RE.search(near, line)
    ):
        return True
    if (_to_last(near) and _TEMPLATE_BEFORE_RE.search(near, line)) or (
        _SPACE_AFTER_RE.match(text, end) and _IN_BEFORE_RE.search(near, line)
    ):
        return True
    sourced = "from" in lowered or "sets" in lowered or "databases" in lowered
    if sourced or "corpora" in lowered:
        prose = _unwrapped(before)  # prose wraps its lines
        if _SOURCE_BEFORE_RE.search(prose, _last_line(prose)):
            return True
    if "-" in before[-20:] and _SITE_OPTION_BEFORE_RE.search(before[-20:]):
        return True
    line = _last_line(before)
    if lowered is _EVERYTHING:
        m = _OBJECT_BEFORE_RE.search(before, line)
    else:  # the match starts right before the first "on" or "against" of the last line
        cues = [at for at in (_word_at(lowered, "on", line), _word_at(lowered, "against", line))]
        cues = [at for at in cues if at >= 0]
        m = _OBJECT_BEFORE_RE.search(before, max(0, min(cues) - 1)) if cues else None
    if m is None:
        return False
    clause = before[: m.start() + 1]
    cut = max((b.end() for b in _CLAUSE_BREAK_RE.finditer(clause)), default=0)
    return bool(_DATA_VERB_RE.search(clause, cut))


def _blank(char: str) -> bool:
    r"""Whether ``char`` is one character that ``[^\S\n]`` matches (``re`` and ``str.isspace``
    agree on what is white space)."""
    return char.isspace() and char != "\n"


def _trailing_blanks(window: str, end: int) -> int:
    r"""Where the run of ``[^\S\n]`` characters that ends at ``end`` starts."""
    while end and _blank(window[end - 1]):
        end -= 1
    return end


_CUE_NOUN_ENDS = (
    "checkpoint", "weights", "set", "database", "corpus", "partition", "queue", "qos",
    "project", "account", "allocation", "id", "split", "file", "folder", "directory",
)  # fmt: skip
"""How each noun of ``_SET_NOUN_BEFORE_RE`` ends ("data set", "run_id" by their last part)."""


def _cue_noun_last(cue: str) -> bool:
    """Whether ``_SET_NOUN_BEFORE_RE`` could match ``cue``: a word ending as one of its nouns
    must stand last, before blanks, a colon or an equals sign and a quote. Decided by the
    pattern itself for a window that is not ASCII, where IGNORECASE knows more letters."""
    if not cue.isascii():
        return True
    end = len(cue)
    if end and cue[end - 1] in "\"'`":
        end -= 1
    end = _trailing_blanks(cue, end)
    if end and cue[end - 1] in ":=":
        end -= 1
    return cue[: _trailing_blanks(cue, end)].lower().endswith(_CUE_NOUN_ENDS)


def _to_last(near: str) -> bool:
    """Whether ``_TEMPLATE_BEFORE_RE`` could match ``near``: its "to" or "onto", maybe with
    "the" after it, must be the window's last word, with a blank after it."""
    end = _trailing_blanks(near, len(near))
    if end == len(near) or not near.isascii():
        return end < len(near)
    last = near[:end].lower()
    if last.endswith("the"):
        end = _trailing_blanks(near, end - 3)
        last = near[:end].lower()
    return last.endswith("to")


def _word_at(lowered: str, word: str, start: int) -> int:
    """The first offset from ``start`` where ``word`` stands whole in ``lowered`` with a blank
    after it (as ``_OBJECT_BEFORE_RE`` needs its "on" and "against"), or -1."""
    at = lowered.find(word, start)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not (lowered[at - 1].isalnum() or lowered[at - 1] in "_-")) and _blank(
            lowered[end : end + 1]
        ):
            return at
        at = lowered.find(word, at + 1)
    return -1


def _last_line(window: str) -> int:
    r"""The earliest offset where a pattern above that looks back to the word can start: the
    window's last line break, which its leading ``(?:^|[^\w-])`` may take (nothing after that
    first character matches a line break). Searching from there skips the offsets before,
    each of which would be tried in vain; the matches found are the same."""
    return max(0, window.rfind("\n"))


def _unwrapped(window: str) -> str:
    """The window with its single line breaks made blanks (see ``_WRAP_RE``); most windows
    hold none, and then the window is kept as it is without a copy."""
    return _WRAP_RE.sub(" ", window) if "\n" in window else window


class _Everything:
    """Stands for a window whose words cannot be told by a substring test: holds them all."""

    def __contains__(self, word: object) -> bool:
        return True


_EVERYTHING = _Everything()
