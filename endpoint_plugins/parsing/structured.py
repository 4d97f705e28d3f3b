"""Structured text inside a request: JSON, ``key=value`` forms, scheduler flags, job scripts.

People paste what they already have: a JSON object, ``nodes=4 walltime=2:00:00``, an ``sbatch``
command line, a whole ``#SBATCH`` script with ``module load`` lines. Each of these says the same
as the words would, so each is translated into the same draft mentions the prose extractors
record, and its keys are blanked so that ``total_cores=128`` never becomes a package called
``total_cores``.

Two passes. :func:`flatten_json` runs before scanning and rewrites a JSON object as ``key: value``
lines (the original text is still the request's ``source_text``). :func:`extract_structured` then
reads directives, flags, ``key=value`` pairs and script lines. Keys it knows become requirements;
a key it does not know with ``=`` (``constraint=avx512``) is kept as an unresolved phrase, never
dropped; well-known bookkeeping keys and flags (account, job name, output file) are read and
ignored, since they say nothing about where a job can run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime

import yaml

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.constraints import parse_constraints, version_choice
from endpoint_plugins.parsing.draft import Count, Draft, Mention
from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.resources import MAX_STORAGE_GB
from endpoint_plugins.parsing.scanner import (
    FLAGS,
    SIZE,
    Scanner,
    alternation,
    in_range,
    lookup,
    may_match,
    size_in_gb,
    squash,
)
from endpoint_plugins.parsing.timing import duration_seconds, hms_seconds
from endpoint_plugins.parsing.vocabulary import filler_words
from providers.wire.requirements import Fabric, Feature, GpuVendor, StorageKind, Urgency

MAX_JSON_CHARS = 10_000
_JSON_START_RE = re.compile(r"[{\[]")
_NUMBER_RE = re.compile(r"^\s*(\d{1,7})\s*$")
_SIZE_RE = re.compile(rf"^\s*{SIZE}\s*$", FLAGS)
_BARE_SIZE_RE = re.compile(r"^\s*(?P<num>\d{1,7}(?:\.\d{1,3})?)\s*$")

# -- JSON ------------------------------------------------------------------------------------


def flatten_json(text: str) -> str:
    """Rewrite each JSON object in ``text`` as ``key: value`` lines; other text is kept.

    Nested objects give dotted keys' last part (``{"resources": {"nodes": 4}}`` -> ``nodes: 4``);
    lists are joined with commas. Text that is not valid JSON is left exactly as it was.
    """
    if "{" in text:
        documents = _json_spans(text) if _FLOW_MAP_RE.search(text) else []
        text = _FLOW_MAP_RE.sub(
            lambda m: m.group(0) if _inside(m, documents) else _flow_map_lines(m), text
        )
    if "|" in text:
        text = _TABLE_ROW_RE.sub(r"\g<key>: \g<value>", text)
    if "[" in text:
        text = _TOML_TABLE_RE.sub(_package_table_lines, text)
    out: list[str] = []
    pos = 0
    for start, end, value in _json_documents(text):
        before = text[pos:start]
        keyed = _LIST_KEY_RE.search(before) if isinstance(value, list) else None
        if keyed:  # 'software = ["cobaya 3.5", "class"]': the list is the value of its key
            before = before[: keyed.start("key")]
        out.append(before)
        out.append("\n" + "\n".join(_json_lines(value, keyed["key"] if keyed else "")) + "\n")
        pos = end
    out.append(text[pos:])
    return "".join(out)


_LIST_KEY_RE = re.compile(
    r"(?:^|(?<=\n))[ \t]*[\"']?(?P<key>[A-Za-z][\w.-]{0,40})[\"']?[ \t]*[:=][ \t]*\Z"
)
"""A key right before a list on its line (``software = ["camb", "class"]``, ``modules: [a,
b]``): the list is that key's value, so its items keep the key's meaning (a list of software
names every item as a package, an English word such as "class" too)."""
_TABLE_ROW_RE = re.compile(
    r"^[ \t]*\|[ \t]*(?P<key>[A-Za-z][\w ./-]{0,30}?)[ \t]*\|[ \t]*(?P<value>[^|\n]{1,200}?)"
    r"[ \t]*\|[ \t]*$",
    re.M,
)
"""A two-column markdown table row, ``| nodes | 16 |``: a key and its value."""
_FLOW_MAP_RE = re.compile(
    r"^(?P<indent>[ \t]*(?:-[ \t]+)?)(?:(?P<key>[A-Za-z][\w.-]{0,40})[ \t]*:[ \t]*)?"
    r"\{(?P<body>[^{}\n]{1,400})\}[ \t]*$",
    re.M,
)
"""A YAML flow mapping on a line of its own or after its key: ``gpu: {count: 1, vendor: amd}``,
``- {package: bwa-mem2, version: ["2.2.1"]}``."""


_TOML_TABLE_RE = re.compile(
    r"^[ \t]*\[[ \t]*(?P<table>[A-Za-z][\w.-]{0,30})[ \t]*\][ \t]*\n"
    r"(?P<body>(?:[ \t]*+(?!\[).*(?:\n|$)){1,60})",
    re.M,
)
"""A TOML table and its lines, up to the next table: ``[software]`` then ``pytorch = "2.4"``."""
_TOML_PACKAGE_RE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<quote>[\"']?)(?P<name>[A-Za-z][\w.+-]{0,40})(?P=quote)[ \t]*=[ \t]*"
    r"(?:\"(?P<dq>[^\"\n]{0,200})\"|'(?P<sq>[^'\n]{0,200})'|(?P<num>\d[\d.]{0,20}))[ \t]*$",
    re.M,
)
_ANY_VERSION_RE = re.compile(r"\*|any|latest|newest|current|recent|default|whatever", re.I)
_FORM_KEYS = frozenset("name names spec package version versions".split())


def _package_table_lines(m: re.Match[str]) -> str:
    """Under a TOML table of packages (``[software]``) each key is a package and its value
    says which one: ``pytorch = "2.4, ROCm build"``, ``apex = "any"``. Read as a form key, the
    package's name was blanked and only the version kept (the build words, or the whole
    package when the value held no version, were lost), so each line is rewritten as a
    software line (``software: pytorch 2.4 (ROCm build)``) that the other readers know."""
    if squash(m.group("table")) not in _SOFTWARE_KEYS:
        return m.group(0)
    header = m.group(0)[: m.start("body") - m.start()]
    return header + _TOML_PACKAGE_RE.sub(_package_line, m.group("body"))


def _package_line(m: re.Match[str]) -> str:
    name = m.group("name")
    if "_" in name or squash(name) in _FORM_KEYS | _BUILD_KEYS | _SOFTWARE_KEYS:
        return m.group(0)  # "name = ...", "min_version = ...": keys of one package's form
    value = (m.group("dq") or m.group("sq") or m.group("num") or "").strip()
    version = re.match(r"(?:[<>=!~]=?\s*)?v?\d[^\s,]*(?:\s*,\s*[<>=!~]=?\s*\d[^\s,]*)*", value)
    head = version.group(0) if version else ""  # ">=2023,<2025": a range stays one version
    tail = value[len(head) :].strip(" ,;")  # no version first: every word says its build
    if _ANY_VERSION_RE.fullmatch(tail):
        tail = ""  # "apex = \"any\"": any version of it, still a package to have
    build = f" ({tail})" if tail else ""
    return f"{m.group('indent')}software: {name} {head}{build}".rstrip()


def _json_documents(text: str) -> Iterator[tuple[int, int, object]]:
    """Each whole JSON object or list in ``text`` (not empty), with where it starts and ends."""
    decoder = json.JSONDecoder()
    pos = 0
    for match in _JSON_START_RE.finditer(text):
        start = match.start()
        if start < pos:
            continue
        try:
            value, end = decoder.raw_decode(text[: start + MAX_JSON_CHARS], start)
        except (json.JSONDecodeError, RecursionError, ValueError):
            continue
        if isinstance(value, dict | list) and value:
            yield start, end, value
            pos = end


def _json_spans(text: str) -> list[tuple[int, int]]:
    """Where whole JSON objects and lists stand in ``text``.

    A line of a JSON document (``{"name": "GROMACS", "version": "2024"},``) looks like a YAML
    flow mapping too; rewriting it first would break the document around it, and then none of
    the document's other keys (nodes, walltime, budget) would be read.
    """
    return [(start, end) for start, end, _ in _json_documents(text)]


def _inside(m: re.Match[str], spans: list[tuple[int, int]]) -> bool:
    """The flow mapping lies within a larger JSON document (not the whole of it)."""
    brace = m.start("body") - 1
    return any(
        start <= brace and m.end() <= end and (start, end) != (brace, m.end())
        for start, end in spans
    )


def _flow_map_lines(m: re.Match[str]) -> str:
    """The mapping as ``key: value`` lines, as a JSON object is written; kept when it is not
    YAML."""
    try:
        value = yaml.safe_load("{" + m.group("body") + "}")
    except yaml.YAMLError:
        return m.group(0)
    if not isinstance(value, dict) or not value:
        return m.group(0)
    indent = " " * len(m.group("indent"))
    key = m.group("key") or ("software" if _is_package(value) else "")
    return "\n".join(indent + line for line in _json_lines(value, key))


_CHOICE_KEY_RE = re.compile(
    r"^(?P<base>.*?)[_.\s-]*(?:any[_\s-]?of|one[_\s-]?of|either(?:[_\s-]?of)?|alternatives)$", re.I
)
"""A key whose list offers a choice (``"software_any_of": ["GROMACS 2023.4", "AMBER 24"]``):
any one item will do, as with "or" in a sentence; a plain list of packages needs them all."""


def _json_lines(value: object, key: str = "") -> list[str]:
    choice = _CHOICE_KEY_RE.match(key) if isinstance(value, list) and len(value) > 1 else None
    if choice and all(isinstance(v, str) or _is_package(v) for v in value):  # type: ignore[union-attr]
        assert isinstance(value, list)
        items = [_package_text(v) if _is_package(v) else _scalar(v) for v in value]
        return [f"{choice['base'] or 'software'}: " + " or ".join(items)]
    if isinstance(value, list) and value and all(_is_package(v) for v in value):
        return [f"{key or 'software'}: " + ", ".join(_package_text(v) for v in value)]
    if _is_package(value) and key:
        return [f"{key}: {_package_text(value)}"]
    if _is_package_table(value, key):
        assert isinstance(value, dict)
        return ["software: " + ", ".join(_table_item(k, v) for k, v in value.items())]
    if isinstance(value, dict):
        lines: list[str] = []
        for k, v in list(value.items())[:200]:
            # {"gpu": {"count": 2}} is gpu_count; a container of sections adds nothing
            child = str(k) if not key or key.lower() in _JSON_SECTIONS else f"{key}_{k}"
            lines.extend(_json_lines(v, child))
        return lines
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            return [
                f"{key}: {', '.join(_scalar(v) for v in value)}"
                if key
                else ", ".join(_scalar(v) for v in value)
            ]
        return [line for v in value[:200] for line in _json_lines(v, key)]
    return [f"{key}: {_scalar(value)}" if key else _scalar(value)]


_JSON_SECTIONS = frozenset(
    """resources requirements compute job spec request hardware resource needs limits requests
    arguments args params parameters input payload body schedule scheduling options settings
    config must must_have musthave required mandatory constraints""".split()
)
"""JSON keys that only group others: their children keep their own names (a tool call's
``{"arguments": {"walltime": ...}}``, a spec's ``"schedule"``, Kubernetes' ``"requests"``, an
agent's ``"must"`` or ``"constraints"``: what it holds is required, as at the top)."""
_OPTIONAL_GPU_KEYS = frozenset(
    f"{section}{gpu}"
    for section in ("nicetohave", "nicetohaves", "optional", "preferred", "wishlist", "bonus")
    for gpu in ("gpu", "gpus", "ngpus", "numgpus", "gpucount")
)
"""A GPU count under a section of wishes (``"nice_to_have": {"gpu": 1}``): GPUs as an option;
anything else there is left unresolved, never a requirement."""


def _is_package(value: object) -> bool:
    """``{"name": "hmmer", "version": ">=3.4"}``: a package written as an object."""
    if isinstance(value, dict) and "package" in value and "name" not in value:
        value = {"name" if k == "package" else k: v for k, v in value.items()}  # CWL's
    return (
        isinstance(value, dict)
        and isinstance(value.get("name"), str)
        and set(value) <= {"name", "version", "versions", "min_version", "spec", *_BUILD_KEYS}
        and ("spec" not in value or _own_spec(value))
    )


def _own_spec(value: dict[object, object]) -> bool:
    """``{"name": "netcdf-c", "spec": "netcdf-c@4.9.2 +mpi"}``: a Spack spec of the package
    itself, which says its version and variants; a spec of another name is no such object."""
    spec, name = value.get("spec"), str(value.get("name")).lower()
    return (
        isinstance(spec, str)
        and spec.lower().startswith(name)
        and not set(value) & {"version", "versions", "min_version", *_BUILD_KEYS}
    )


_BUILD_KEYS = frozenset(("variants", "variant", "build", "flavor", "flavour"))
"""Keys of a package object that name how it is built: ``"build": "multicore-CUDA"``."""
_PLAIN_BUILDS = frozenset("multicore smp release debug opt optimized default standard".split())
"""Build words that ask nothing of a site (every build is one of these)."""


_SIGNED_RE = re.compile(r"[+~][a-z][a-z0-9_-]*", re.I)
_SIGNED_RUN_RE = re.compile(r"(?<![\w.])(?:[+~][a-z][a-z0-9_-]*)+(?![\w.@])", re.I)
"""Variants written with Spack's sign (``+hl``, ``~kim``, ``+mpi+hl``): variants whatever
their names."""
_MORE_SIGNED_RE = re.compile(r"(?:,[+~][a-z][a-z0-9_-]*)+(?![\w.@])", re.I)


def _build_text(value: dict[object, object]) -> tuple[str, str]:
    """A package object's build keys as Spack variants (``+cuda``) and the words no variant
    names, which stay in the text to be read or quoted."""
    words = " ".join(
        " ".join(_scalar(x) for x in (v if isinstance(v, list) else [v]))  # ["+cuda", "+mpi"]
        for k, v in value.items()
        if k in _BUILD_KEYS
    )
    signed = " ".join(_SIGNED_RUN_RE.findall(words))  # "+mpi+hl": Spack's own words
    variants = [v.lower() for v in _SIGNED_RE.findall(signed)]
    rest: list[str] = []
    for word in re.split(r"[\s,;/_+-]+", _SIGNED_RUN_RE.sub(" ", words)):
        sign = "~" if word.startswith("~") else "+"
        tag = lexicon.VARIANT_WORDS.get(word.lstrip("~").lower())
        if tag:
            variants.append(sign + tag)
        elif word and word.lower() not in _PLAIN_BUILDS:
            rest.append(word)
    return "".join(variants), " ".join(rest)


def _is_package_table(value: object, key: str) -> bool:
    """``"codes": {"cp2k": "2025.1", "libint": ">=2.9"}``: package names mapped to versions,
    under a key that says so."""
    return (
        isinstance(value, dict)
        and bool(value)
        and squash(key) in _SOFTWARE_KEYS
        and all(
            isinstance(v, str | int | float) and not isinstance(v, bool) for v in value.values()
        )
    )


def _table_item(name: object, version: object) -> str:
    """One package of a table as a spec: ``gromacs@2024.3+cuda``, ``libint>=2.9``."""
    text = _scalar(version)
    if re.match(r"^[<>=!~]", text):
        return f"{name}{text}"
    return f"{name}@{text}" if text and text[0].isdigit() else f"{name} {text}".strip()


def _package_text(value: object) -> str:
    assert isinstance(value, dict)
    if "package" in value and "name" not in value:
        value = {"name" if k == "package" else k: v for k, v in value.items()}
    if "spec" in value:
        return str(value["spec"])  # checked by _own_spec: the package's own Spack spec
    version = value.get("version") or value.get("versions") or ""
    if value.get("min_version"):
        version = f">={value['min_version']}"
    if isinstance(version, list):
        version = ",".join(str(v) for v in version)
    variants, rest = _build_text(value)
    if variants and re.fullmatch(r"v?\d[\w.]*", str(version)):
        # "namd+cuda@3.0.1": variants before the "@", so none is read as part of the version
        return f"{value['name']}{variants}@{version} {rest}".strip()
    if variants and not version:
        return f"{value['name']}{variants} {rest}".strip()
    if variants:  # "gromacs >=2023,<2025 (+cuda)": a range, then the build in brackets
        return f"{value['name']} {version} ({variants}) {rest}".strip()
    return f"{value['name']} {version} {rest}".strip()


def _scalar(value: object) -> str:
    if value is True:
        return "yes"
    if value is False or value is None:
        return "no"
    return " ".join(str(value).split())


# -- keys ------------------------------------------------------------------------------------

Handler = Callable[[Draft, str, str], bool]
"""Reads one value for one key into the draft; False when the value is not understood."""


def _count(value: str) -> int | None:
    m = _NUMBER_RE.match(value)
    return int(m.group(1)) if m else None


def _nodes(draft: Draft, value: str, text: str) -> bool:
    n = _count(value.split(":")[0])
    if n is None or n < 1:
        return False
    draft.compute.nodes.append(Mention(n, text))
    return True


def _cores(per_node: bool, mpi: bool = False, total: bool = False) -> Handler:
    def handle(draft: Draft, value: str, text: str) -> bool:
        n = _count(value)
        milli = re.fullmatch(r"\s*(\d{1,7})m\s*", value)
        if milli:  # Kubernetes millicores: "4000m" is 4 cores; "500m" is half of one
            whole, part = divmod(int(milli.group(1)), 1000)
            if part or not whole:
                draft.unresolved.append(_clean(text))
                return True
            n = whole
        if n is None or n < 1:
            return False
        draft.compute.cores.append(Count(n, text, per_node, total=total))
        draft.mpi_implied = draft.mpi_implied or mpi  # "mpi_ranks: 384" asks for an MPI
        return True

    return handle


_KEY_ALIASES: dict[str, str] = {
    **dict.fromkeys(("hrs", "hr", "h", "walltimehrs", "timehrs", "maxhrs"), "hours"),
    **dict.fromkeys(("mins", "min", "walltimemins"), "minutes"),
    **dict.fromkeys(
        ("threads", "nthreads", "numthreads", "workers", "nworkers", "numworkers", "ncpu"),
        "cores",
    ),
}
"""Other spellings of keys in :data:`_KEYS` ("hrs: 8", "threads=8", "workers: 128")."""
_PER_UNIT_RE = re.compile(r"per(?:box|host|machine|server|instance|vm)$")


_TIME_KEY_RE = re.compile(
    r"^(?:max|total|req|requested)?(?:wall|run|job)?(?:time|clock)?(?:limit)?"
)


_SPEED_KEY_RE = re.compile(
    r"(?:min|minimum|req|required|requested)?(?=link|net|interconnect|fabric|nic|bandwidth|speed|bw)"
    r"(?:link|network|net|interconnect|fabric|nic)?(?:bandwidth|speed|bw|rate)?(?:gbps|gbits|gbit)"
)
"""A key for a link speed that names its unit ("min_bandwidth_gbps", "network_speed_gbit")."""


def _canonical_key(key: str) -> str:
    """One spelling per key: aliases, "per box/host/machine" is per node, and a time key that
    names its unit ("max_runtime_hours", "runtime_minutes") is hours or minutes."""
    key = _PER_UNIT_RE.sub("pernode", key)
    key = _KEY_ALIASES.get(key, key)
    if key not in _KEYS and re.search("time|clock|wall", key) and _TIME_KEY_RE.fullmatch(key):
        return "time"  # "max_walltime", "requested_runtime", "total_wallclock"
    if key not in _KEYS and _SPEED_KEY_RE.fullmatch(key):
        return "minlinkgbps"  # "min_bandwidth_gbps", "network_speed_gbit"
    for unit, canonical in (("hours", "hours"), ("hrs", "hours"), ("minutes", "minutes")):
        stem = key.removesuffix(unit)
        if stem != key and stem and _TIME_KEY_RE.fullmatch(stem):
            return canonical
    return key


def _gpus(per_node: bool | None) -> Handler:
    """GPU counts; ``per_node=None`` is a count with no scope (resolved like "8 GPUs")."""

    def handle(draft: Draft, value: str, text: str) -> bool:
        word = squash(value)
        first = squash(value.split("(")[0].split(",")[0])
        if first in _NOT_WANTED or word in _NOT_WANTED:
            draft.compute.cpu_only = Mention(True, text)
            draft.exclude(Feature.GPU)
            return True
        if first in ("optional", "any", "ifavailable", "nicetohave", "welcome", "preferred"):
            draft.compute.gpu_or = True
            draft.compute.gpu_mentioned = True
            return True
        if word in _TRUTHY - {"1"}:
            draft.compute.gpu_mentioned = True
            return True
        model, _, count = value.rpartition(":")
        if model:
            _model(draft, model, text)
        n = _count(count)
        if word in _FALSY:
            n = 0
        if n is None:
            return bool(model) and _model(draft, value, text)
        if n == 0:
            draft.compute.cpu_only = Mention(True, text)
            draft.exclude(Feature.GPU)
            return True
        draft.compute.gpus.append(Count(n, text, per_node is True, total=per_node is False))
        return True

    return handle


def _gres(draft: Draft, value: str, text: str) -> bool:
    """Slurm ``--gres=gpu[:type]:N`` (per node)."""
    parts = value.lower().split(":")
    if not parts or parts[0] != "gpu":
        return False
    n = _count(parts[-1]) if len(parts) > 1 else 1
    if n is None:
        return False
    if len(parts) == 3:
        _model(draft, parts[1], text)
    draft.compute.gpus.append(Count(n, text, per_node=True))
    return True


def _model(draft: Draft, value: str, text: str) -> bool:
    from endpoint_plugins.parsing.scanner import lookup

    model = lookup(lexicon.GPU_MODELS, value.strip())
    if model is None:
        return False
    draft.compute.gpu_models.append(Mention(model, text))
    return True


def _memory(scope: str) -> Handler:
    def handle(draft: Draft, value: str, text: str) -> bool:
        size = _size(value)
        if size is None:
            return False
        target = {
            "node": draft.compute.memory_per_node,
            "total": draft.compute.memory_total,
            "core": draft.compute.memory_per_core,
        }[scope]
        target.append(Mention(size, text))
        return True

    return handle


_QUANTITY_RE = re.compile(r"^\s*(?P<num>\d{1,9}(?:\.\d{1,3})?)\s*(?P<unit>[KMGTP]i)\s*$")
"""Kubernetes' binary quantity suffixes (``120Gi``, ``512Mi``): KiB, MiB, GiB, TiB, PiB.
Its decimal ones (``k``, ``M``, ``G``, ``T``) are the ordinary size units."""


def _size(value: str) -> float | None:
    """GB from "64G", "64 GB", "64gb", "120Gi"; a bare number is megabytes, as Slurm reads
    ``--mem``."""
    quantity = _QUANTITY_RE.match(value)
    if quantity:
        value = quantity.group("num") + quantity.group("unit") + "B"
    m = _SIZE_RE.match(value)
    if m:
        return size_in_gb(m)
    bare = _BARE_SIZE_RE.match(value)
    return round(float(bare.group("num")) / 1000, 6) if bare else None


def _walltime(unit_s: int | None) -> Handler:
    def handle(draft: Draft, value: str, text: str) -> bool:
        seconds = _seconds(value, unit_s)
        if seconds is None:
            return False
        draft.compute.walltime.append(Mention(seconds, text))
        return True

    return handle


def _seconds(value: str, unit_s: int | None) -> int | None:
    value = value.strip()
    if ":" in value or re.fullmatch(r"\d{1,3}-\d{1,3}(?::\d\d){0,2}", value):
        return hms_seconds(value if ":" in value else value + ":00")
    number = re.fullmatch(r"\d{1,6}(?:\.\d{1,3})?", value)
    if number:
        return round(float(value) * (unit_s or 60)) or None  # Slurm: a bare number is minutes
    return duration_seconds(value)


def _vendor(draft: Draft, value: str, text: str) -> bool:
    vendor = {"nvidia": GpuVendor.NVIDIA, "amd": GpuVendor.AMD, "intel": GpuVendor.INTEL}.get(
        squash(value)
    )
    if vendor is None:
        return False
    draft.compute.gpu_vendor.append(Mention(vendor, text))
    return True


def _rootless(draft: Draft, value: str, text: str) -> bool:
    if squash(value) not in _TRUTHY:
        return squash(value) in _FALSY
    draft.rootless = True
    return True


_URGENCY_LEVELS: dict[str, Urgency] = {
    **dict.fromkeys(("low", "none", "whenever", "lowest", "norush"), Urgency.NO_RUSH),
    **dict.fromkeys(("high", "highest", "urgent", "critical", "asap", "immediate"), Urgency.NOW),
}
"""Levels a form writes as an urgency value; "medium"/"normal" say nothing and stay text."""
_URGENCY_LEVEL_FIRST_RE = re.compile(r"([a-z]+)(?=\s*[,;(\-]|\s*$)", FLAGS)
"""The first word of an urgency value written as prose ("low, no rush"; "high (grant)")."""


def _urgency(draft: Draft, value: str, text: str) -> bool:
    """``urgency=low``: a level, where the words would say "no rush" or "urgent"."""
    level = _URGENCY_LEVELS.get(squash(value))
    if level is None or draft.urgency is not None:
        return False
    draft.urgency = Mention(level, text)
    return True


def _speed(draft: Draft, value: str, text: str) -> bool:
    """``min_link_gbps: 200``: a link speed in Gbit/s (the key names the unit)."""
    m = re.match(
        r"^\s*(?:>=\s*)?(\d{1,5}(?:\.\d{1,3})?)\s*(?:gbps|gb/s|gbit/s|g)?\s*$", value, FLAGS
    )
    if m is None:
        return False
    draft.set_speed(float(m.group(1)), text)
    return True


def _budget(draft: Draft, value: str, text: str) -> bool:
    m = re.fullmatch(
        r"\s*(?:\$|usd\s*)?(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?\s*(k)?\s*"
        r"(?:usd|dollars|\$)?\s*",
        value,
        FLAGS,
    )
    if m is None:
        return False
    amount = float(m.group(1).replace(",", "") + (f".{m.group(2)}" if m.group(2) else ""))
    amount *= 1000 if m.group(3) else 1
    if draft.budget is None:
        draft.budget = Mention(round(amount, 2), text)
    return True


def _mpi(draft: Draft, value: str, text: str) -> bool:
    """``mpi: none``, ``MPI=not needed``: no MPI, as for any feature (:data:`_NOT_WANTED`)."""
    word = squash(value)
    if word in _NOT_WANTED:
        draft.exclude(Feature.MPI)
        return True
    if word in ("yes", "true", "1", "on", "any", "required"):
        draft.set_mpi(None, [], text)
        return True
    return False  # a named implementation: left for the MPI extractor


def _docker(draft: Draft, value: str, text: str) -> bool:
    """``dockerPull: image`` (CWL), ``docker_image: ...``: the job runs in a Docker image."""
    draft.set_container("docker", [], text)
    _image_package(draft, value)
    return True


_IMAGE_RE = re.compile(
    r"(?:^|/)(?P<name>[a-z][a-z0-9_.-]{1,40}):v?(?P<version>\d{1,4}(?:\.\d{1,4}){1,3})(?:-\d{1,3})?$",
    FLAGS,
)
"""An image named after its one package and tagged with that package's version:
``broadinstitute/gatk:4.5.0.0``, ``biocontainers/salmon:1.10.3``. Tags with more after the
version (``24.05-py3``, ``2.3.0-cuda12.1``) are the image's own releases and say nothing."""


def _image_package(draft: Draft, value: str) -> None:
    """The package an image is named after, when it is a known package: a lab's own image
    (``ourlab/pipeline:2.3``) names its workflow, and the image is the job's own business."""
    m = _IMAGE_RE.search(value.strip())
    name = lookup(lexicon.SOFTWARE, m.group("name")) if m else None
    if m is None or name is None:
        return
    constraints, _ = parse_constraints(m.group("version"))
    draft.add_software(name, constraints)


def _exclusion_or_text(feature: Feature) -> Handler:
    def handle(draft: Draft, value: str, text: str) -> bool:
        if squash(value) in _NOT_WANTED:
            draft.exclude(feature)
            return True
        return False

    return handle


_KEYS: dict[str, Handler] = {
    **dict.fromkeys(("nodes", "node", "numnodes", "nodecount", "nnodes", "numberofnodes"), _nodes),
    **dict.fromkeys(
        (
            "cores",
            "ncores",
            "ntasks",
            "tasks",
            "np",
            "nprocs",
            "mpiprocs",
            "numcores",
            "cpus",
            "ncpus",
            "processes",
            "cpucores",
            "numcpus",
            "corecount",
        ),
        _cores(per_node=False),
    ),
    **dict.fromkeys(("totalcores", "totalcpus"), _cores(per_node=False, total=True)),
    **dict.fromkeys(
        (
            "corespernode",
            "cpuspernode",
            "ppn",
            "taskspernode",
            "ntaskspernode",
            "ranksspernode",
            "rankspernode",
            "mpiprocspernode",
        ),
        _cores(per_node=True),
    ),
    **dict.fromkeys(("gpus", "gpu", "ngpus", "numgpus", "gpucount"), _gpus(per_node=None)),
    **dict.fromkeys(
        ("mpiranks", "mpiprocesses", "mpitasks", "nmpi", "nummpiranks", "ranks", "nranks"),
        _cores(per_node=False, mpi=True),
    ),
    **dict.fromkeys(("totalgpus", "gpustotal"), _gpus(per_node=False)),
    **dict.fromkeys(("gpuspernode", "ngpuspernode"), _gpus(per_node=True)),
    **dict.fromkeys(("gres",), _gres),
    **dict.fromkeys(("gputype", "gpumodel", "gpukind", "accelerator"), _model),
    **dict.fromkeys(
        ("mem", "memory", "ram", "mempernode", "memorypernode", "rampernode"),
        _memory("node"),
    ),
    **dict.fromkeys(
        ("totalmemory", "memtotal", "totalmem", "memorytotal", "ramtotal", "totalram"),
        _memory("total"),
    ),
    **dict.fromkeys(("mempercpu", "mempercore", "memorypercore", "pmem"), _memory("core")),
    **dict.fromkeys(
        ("time", "walltime", "runtime", "timelimit", "duration", "wallclock", "wall", "maxtime"),
        _walltime(None),
    ),
    **dict.fromkeys(
        ("walltimehours", "hours", "runtimehours", "timehours", "maxhours", "hoursmax"),
        _walltime(3600),
    ),
    **dict.fromkeys(("gpuvendor", "vendor", "gpumaker"), _vendor),
    **dict.fromkeys(("rootless", "containerrootless"), _rootless),
    **dict.fromkeys(("walltimeminutes", "walltimemin", "minutes", "timeminutes"), _walltime(60)),
    **dict.fromkeys(
        ("budget", "maxcost", "maxbudget", "budgetusd", "costlimit", "maxusd"), _budget
    ),
    "mpi": _mpi,
    **dict.fromkeys(("urgency", "priority"), _urgency),
    **dict.fromkeys(
        ("minlinkgbps", "linkgbps", "minspeedgbps", "speedgbps", "linkspeedgbps", "bandwidthgbps"),
        _speed,
    ),
    **dict.fromkeys(
        ("interconnect", "network", "fabric", "link", "lowlatency", "fastnetwork", "rdma"),
        _exclusion_or_text(Feature.LOW_LATENCY),
    ),
    **dict.fromkeys(("container", "containers"), _exclusion_or_text(Feature.CONTAINER)),
    **dict.fromkeys(("dockerpull", "dockerimage", "dockerimageid", "dockerload"), _docker),
}
"""Keys whose values this module reads itself (squashed: no case, spaces, ``_`` or ``-``)."""

_TEXT_KEYS = frozenset(
    """
    software app application apps package packages module modules code codes program tools
    tool library libraries requirements requirement env environment stack image containerimage
    runtime containerruntime network interconnect fabric link links storage scratch filesystem
    fs disk
    deadline urgency priority gpumodel version appversion softwareversion packageversion
    codeversion compiler compilers python language mpiimplementation mpilibrary
    """.split()
)
"""Keys whose value is text for the other extractors: only the key is blanked."""

_PINNED_RE = re.compile(
    r"^(?:[<>=!~]=?\s*)?v?\d+(?:(?:\.\d+){1,3}[a-z0-9.+-]*|-(?=[0-9a-f]*[a-f])[0-9a-f]{5,12})$",
    FLAGS,
)
"""A value that can only be a version: dotted digits ("2.1.9", ">=3.4"), or a release and a
short commit hash ("15-6f452", as ``git describe`` and MMseqs2 write them), never a count."""
_WORD_IN_VALUE_RE = re.compile(r"[A-Za-z]")
"""A value with a letter in it is left for the other readers; bare numbers are read here."""

_IGNORED_KEYS = frozenset(
    """
    account project jobname name output error out err mailtype mailuser mail email user
    partition queue qos comment description notes note workdir chdir dir directory export
    exclusive array dependency signal requeue norequeue hint distribution cpubind membind
    openmode parsable wait nice wckey oversubscribe threadspercore cpuspertask
    ntaskspersocket ntaskspercore owner group pi contact title id ticket shell exclude
    join mailtype mailuser sendmail priority nodelist
    requestedby requester submittedby submitter author createdby
    """.split()
)
"""Bookkeeping keys: read and ignored, they say nothing about where a job can run."""
_NOTE_KEYS = frozenset(("note", "notes", "remark", "remarks"))
"""Free-text notes: their words ("no rush", "needs 2 GPUs") are the request's own prose."""
_DESCRIPTION_KEYS = frozenset(
    "purpose goal goals aim aims objective objectives summary pipeline workflow usecase "
    "science context background motivation study experiment task".split()
)
"""Keys whose value of several words says what the job is for (``purpose = "diffusion
tractography, HCP young adult"``): a sentence of the writer's own, read as prose. Read as a
list of names, its plain words ("young", "adult", "parallel") became packages; as prose a word
shaped like a name is still a package or quoted, so nothing asked for is lost."""

_VALUE = (
    r"(?:\"[^\"\n]{0,200}\"|'[^'\n]{0,200}'"
    r"|(?i:not[ \t_-]+(?:needed|required|allowed|permitted))(?![\w=:-])"
    r"|(?!-)[^\s,;\"'{}()\[\]]{1,80})"
)
"""A value: quoted, one token, or a two-word refusal ("MPI=not needed", as :data:`_NOT_WANTED`
reads it), which as a token would leave "needed" behind and lose the "not"."""
_UNIT_WORD = (
    r"(?:[ \t]+(?i:gb|g|tb|mb|gib|tib|hours?|hrs?|h|minutes?|mins?|days?|usd|dollars)(?!\w)"
    r"(?![ \t]*[=:]))?"
)
"""A unit written after the value, in any case ("mem = 64 GB"), never the next key
("mem=128G hours=3")."""
_EQUALS_RE = re.compile(
    rf"(?<![\w.$/-])(?P<key>[A-Za-z][\w.-]{{0,40}}?)\s*(?<![<>=!~])=(?!=)\s*"
    rf"(?P<value>{_VALUE}{_UNIT_WORD})"
    r"(?:[ \t]+(?P<scope>in[ \t]+total|total|overall|per[ \t]+node|each)(?![\w=:]))?",
)
"""A scope word may follow the value ("mem=1TB total", "gpus=4 per node"); it is read only
for keys whose value may carry one (see :data:`_SCOPABLE`)."""
_COLON_RE = re.compile(
    r"^[ \t]*(?:[-*#>]+[ \t]*)?(?P<key>[A-Za-z][\w .-]{0,30}?(?:/[A-Za-z]{1,12})?)[ \t]*:[ \t]*"
    r"(?P<value>[^\n]{1,200})$",
    re.M,
)
_LONG_FLAG_RE = re.compile(
    rf"(?<![\w-])--(?P<key>[a-z][a-z0-9-]{{0,40}})(?:=(?P<value>{_VALUE}))?(?![\w=-])", FLAGS
)
_LONG_VALUED = (
    "nodes|ntasks|ntasks-per-node|cpus-per-task|gres|gpus|gpus-per-node|gpus-per-task|mem|"
    "mem-per-cpu|mem-per-gpu|time|partition|account|job-name|output|error|qos|constraint|"
    "nodelist|exclude|chdir|mail-type|mail-user|array|dependency|reservation|licenses|cluster"
)
_LONG_SPACED_RE = re.compile(rf"(?<![\w-])--(?P<key>{_LONG_VALUED})\s+(?P<value>{_VALUE})", FLAGS)
_SHORT_FLAG_RE = re.compile(
    rf"(?<![\w-])-(?P<key>nnodes|np|gpu|[A-Za-z])(?:\s*=\s*|\s+|(?=\d))(?P<value>{_VALUE})",
    FLAGS,
)
_FLAG_CONTEXT_RE = re.compile(
    r"(?<![\w-])(?:sbatch|salloc|srun|qsub|bsub|mpirun|mpiexec|flux\s+(?:run|submit|batch))"
    r"(?![\w-])|^[ \t]*#(?:SBATCH|PBS|BSUB)"
    r"|(?<![\w-])--(?:ntasks-per-node|cpus-per-task|gres|gpus-per-node|mem|mem-per-cpu|time)"
    r"=\S",
    FLAGS | re.M,
)
"""Where short flags (``-N 1``, ``-n 64``) are scheduler flags: after a scheduler command, in
a batch header, or among Slurm's own long flags written with their values (a bare flag list
pasted without ``sbatch``: ``-N 1 --gres=gpu:2 --time=08:00:00``)."""
_PTILE_RE = re.compile(r"span\[ptile=(?P<n>\d{1,5})\]", FLAGS)
_COMMANDS_RE = re.compile(
    r"(?<![\w-])(?:sbatch|salloc|qsub|bsub|srun|mpirun|mpiexec|aprun|jsrun|ibrun"
    r"|flux\s+(?:run|submit|batch|alloc))(?![\w-])",
    FLAGS,
)
_FILE_EXTENSIONS = alternation([*lexicon.FILE_EXTENSIONS, "jl"])
"""Julia scripts too: the pattern below spares ``.jl`` names with a capital (packages)."""
_FILE_RE = re.compile(
    r"(?<![\w/.-])(?![\w-]*(?-i:[A-Z])[\w-]*\.jl(?![\w.]))(?:\.{0,2}/)?[\w./-]*\w\."
    + _FILE_EXTENSIONS
    + r"(?![\w.])|(?<![\w])\./[\w./-]+",
    FLAGS,
)
"""Script and data file names, and ``./program`` paths: what the job runs, not a requirement."""
_FILE_HINT_RE = re.compile(rf"\.(?:/|{_FILE_EXTENSIONS}(?![\w.]))", FLAGS)
"""What every match of :data:`_FILE_RE` contains, found by a fast search for the dot: most
requests name no file, and the full pattern reads every word up to its end."""
_NOT_WANTED = frozenset(
    (
        "no",
        "false",
        "none",
        "0",
        "off",
        "notallowed",
        "forbidden",
        "disallowed",
        "notpermitted",
        "notneeded",
        "notrequired",
    )
)
_GPU_REQUIRED_KEY_RE = re.compile(
    r"gpus?(?:required|needed|mandatory|must|isrequired|isneeded)"
    r"|(?:requires?|needs?|must(?:have|use)?)gpus?"
)
"""Keys saying whether GPUs are a must (``gpu_required``, ``needs_gpu``): false is "no GPU
needed", which is a GPU exclusion when no GPU is asked for, and makes the GPUs the same spec
asks for an option when one is (``"gpus": 2, "gpu_required": false``): see
:meth:`Draft.build_compute`."""
_TRUTHY = frozenset(("yes", "true", "1", "on", "y"))
_FALSY = frozenset(("no", "false", "none", "0", "off", "n"))
_TRUTHY_OR_FALSY = _TRUTHY | _FALSY
_REQUIRED_VALUES = _TRUTHY | frozenset(
    ("required", "needed", "mandatory", "must", "essential", "necessary", "enabled", "wanted")
)
"""Values that only say the key is wanted ("nvlink = required"): the key is the requirement."""
_FEATURE_KEYS = frozenset(
    squash(spelling)
    for spellings in (
        *lexicon.CONTAINER_RUNTIMES.values(),
        *lexicon.MPI_IMPLEMENTATIONS.values(),
        *lexicon.FABRICS.values(),
        *lexicon.STORAGE_KINDS.values(),
        lexicon.CONTAINER_WORDS,
        lexicon.GENERIC_MPI_WORDS,
        lexicon.RDMA_ETHERNET_WORDS,
        lexicon.LOW_LATENCY_WORDS,
        lexicon.GPU_WORDS,
    )
    for spelling in spellings
)
"""Keys that name a feature the prose readers know (the lexicon's words for runtimes, MPI
libraries, fabrics, storage kinds, low latency and GPUs): with a value that only says it is
wanted, the key alone is read as it would be in a sentence."""
_SOFTWARE_KEYS = frozenset(
    """
    software app application apps package packages tool tools benchmark benchmarks code codes
    program library libraries lib libs modules module blas lapack fft compiler compilers
    workflow framework frameworks requirements dependencies stack pythonpackages pippackages
    condapackages spackpackages env environment engine solver
    """.split()
)
_STORAGE_WORDS = (
    "scratch",
    "disk",
    "storage",
    "nvme",
    "ssd",
    "lustre",
    "gpfs",
    "beegfs",
    "free",
    "filesystem",
    "fs",
    "space",
    "quota",
    "tmp",
    "outdir",
)
_RELATIVE_DEADLINE_RE = re.compile(
    r"(?:\+|in\s+|within\s+|now\s*\+\s*)?"
    r"(?P<span>\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|d|days?|w|wks?|weeks?|min|mins|minutes?))",
    re.I,
)
"""A deadline key's value that is a span from now: "+48h", "in 2 days", "now+36h", "48h"."""
_DEADLINE_CLOCK_AFTER_RE = re.compile(
    r"[ \t]+(?:at[ \t]+)?\d{1,2}:[0-5]\d(?::[0-5]\d)?(?:[ \t]*[ap]m)?"
    r"(?:[ \t]+[A-Za-z]{1,4}(?:[+-]\d{1,2})?)?(?=[ \t]*(?:[,;#]|$))",
    re.IGNORECASE | re.MULTILINE,
)
"""The time of day after an unquoted deadline value, which stops at a space: "finish_by =
12/20/2026 23:00 UTC". Read with the date, so the time is neither lost nor left over."""
_DEADLINE_KEYS = frozenset(
    """deadline resultsby dueby due neededby finishby by resultsneededby notafter needby
    completeby finishbefore duedate resultsdue deadlineutc mustfinishby mustcompleteby
    finishedby mustbedoneby deliverby deliveryby deliverydate deliverydeadline readyby doneby
    completedby resultsneeded""".split()
)
"""Keys whose value is the time the results are needed by (``must_finish_by``)."""
_WITHIN_KEY_RE = re.compile(
    r"(?:(?:complete|completed|finish|finished|done|results?|ready|needed|due|deadline|"
    r"turnaround)(?:within|in)?|within|(?:complete|finish|done|ready)(?:within|in))"
    r"(?P<unit>hours|hrs|h|days|d|minutes|mins)"
)
"""A key that gives the deadline as a span from now and names its unit
(``complete_within_hours: 24``, ``deadline_days = 3``, ``due_in_h``): a deadline, never a
walltime (``max_hours`` is the walltime)."""


_SELECT_RE = re.compile(
    r"(?<![\w-])select\s*=\s*(?P<n>\d{1,6})(?P<rest>(?::[\w.]+=[\w.]+)+)", FLAGS
)
_PBS_NODES_RE = re.compile(
    r"(?<![\w-])nodes\s*=\s*(?P<n>\d{1,6}):ppn\s*=\s*(?P<ppn>\d{1,6})(?P<ib>:ib(?![\w-]))?", FLAGS
)
"""Torque's ``nodes=4:ppn=28``; a trailing ``:ib`` is the InfiniBand node property."""
_DIRECTIVE_RE = re.compile(r"^[ \t]*#(?:SBATCH|PBS|BSUB|\$|COBALT|FLUX:?|MSUB)\b", FLAGS | re.M)
_SHEBANG_RE = re.compile(r"^[ \t]*#!.*$", re.M)
_PBS_RE = re.compile(r"#PBS|(?<![\w-])qsub(?![\w-])", FLAGS)
_LSF_RE = re.compile(r"#BSUB|(?<![\w-])bsub(?![\w-])", FLAGS)


def _gated(pattern: re.Pattern[str]) -> Callable[[str, str], bool]:
    """Whether ``pattern`` matches a text, given the text and its :func:`fold`: most requests
    hold none of the strings every match must contain ("sbatch", "#pbs"), and
    :func:`may_match` answers for them far sooner than a scan."""

    def found(text: str, folded: str) -> bool:
        return may_match(pattern, folded) and pattern.search(text) is not None

    return found


_HAS_DIRECTIVE = _gated(_DIRECTIVE_RE)
_HAS_SHEBANG = _gated(_SHEBANG_RE)
_HAS_FLAG_CONTEXT = _gated(_FLAG_CONTEXT_RE)
_HAS_PBS = _gated(_PBS_RE)
_HAS_LSF = _gated(_LSF_RE)
_MODULE_RE = re.compile(
    r"^[ \t]*(?:\$\s*)?(?:module\s+(?:load|add|swap)|ml(?=\s)|spack\s+load|spack\s+install"
    r"|pip3?\s+install|conda\s+install|mamba\s+install)"
    r"(?P<items>(?:[^\n#;|&,]|,(?!\s*(?:then|and\s+then|after\s+that|afterwards|\d)))*)",
    FLAGS | re.M,
)
"""A line that loads or installs packages. Its items end at a comma that goes on in prose
("spack install gromacs@2023.4 +double, then 2 nodes, 128 MPI ranks"): the words after it are
the job's other needs, not package names."""
_LAUNCH_RE = re.compile(
    r"(?<![\w-])(?P<launcher>mpirun|mpiexec)(?:\s+(?:-np?|--np|-c)\s*(?P<n>\d{1,7}))?(?![\w-])",
    FLAGS,
)
_SHELL_LINE_RE = re.compile(
    r"^[ \t]*(?:\$\s*)?(?:cd|export|set|unset|source|echo|module|ml|spack|conda|mamba|"
    r"micromamba|pip3?|apptainer|singularity|python3?|torchrun|bash|sh|time|nvidia-smi|date|"
    r"mkdir|cp|mv|rm|ln|tar|cat|ls|hostname|ulimit|if|fi|then|else|for|do|done|while|exit|"
    r"wait|sleep|julia|rscript|\./[\w.-]+|srun|mpirun|mpiexec|aprun|jsrun|ibrun|\w+=\S*)"
    r"(?=\s|$)(?:[^\n#]|(?<=\S)#)*+",
    FLAGS | re.M,
)
"""A shell line of a job script: bookkeeping, blanked. A trailing comment (``source
venv/bin/activate   # torch 2.5.1, accelerate, trl``) is the writer's note of what the job needs,
so the line ends before it and the other stages read it (or quote it in ``unparsed``)."""
_LAUNCHER_LINE_RE = re.compile(
    r"^[ \t]*(?:\$\s*)?(?:srun|mpirun|mpiexec|aprun|jsrun|ibrun|sbatch|qsub|bsub|torchrun)"
    r"(?![\w-])(?P<rest>[^\n#()\"'&;|]*)",
    FLAGS | re.M,
)
"""A line that launches the job's program: once the launcher's own flags are read, the rest is
the program and its arguments (``gmx_mpi mdrun -deffnm equil``, ``qmcpack dmc.xml``)."""
_PROGRAM_RE = re.compile(
    r"[\x00\s]*(?!(?:apptainer|singularity|docker|podman|module|spack|pip3?|conda)(?![\w-]))"
    r"(?P<program>[^\x00\s-][^\n]*)$",
    FLAGS,
)
_PROGRAM_PATH_RE = re.compile(r"(?<=\s)\.{0,2}/[\w./-]+")
"""A program named by its path: whatever follows it on the line is its arguments."""
_ACTIVATE_RE = re.compile(
    r"^[ \t]*(?:\$\s*)?(?:conda|mamba|micromamba|source)\s+activate(?:\s+[\w./-]+)?", FLAGS | re.M
)
_INTERPRETER_RE = re.compile(
    r"(?<![\w-])(?:python3?|bash|sh|perl|julia|rscript|ruby|node)\s+[\w./-]+\."
    r"(?:py|sh|pl|jl|r|rb|js)(?![\w.])",
    FLAGS,
)
"""``python train.py`` in a job line: the command the job runs, not a requirement."""
_RUNTIME_LINE_RE = re.compile(
    r"^[ \t]*(?:\$\s*)?(?P<rt>apptainer|singularity)\s+(?:exec|run|shell)", FLAGS | re.M
)


_USES_KEY_RE = re.compile(
    r"^(?:uses|use|using|needs|need|requires|require|with)[_-](?P<name>[a-z][\w.+-]{1,40})$", FLAGS
)
"""Boolean keys that name a package: ``uses_cuquantum: true``, ``needs-hdf5 = yes``."""
_NOT_NEEDED_KEYS = frozenset(
    "notneeded notrequired unneeded dontneed donotneed noneed nottouse mustnotuse without".split()
)
"""Keys whose value lists what the job does not need (``"not_needed": ["mpi", "containers"]``)."""
_EXCLUDABLE = {
    **dict.fromkeys(("mpi",), Feature.MPI),
    **dict.fromkeys(("gpu", "gpus", "gpuacceleration"), Feature.GPU),
    **dict.fromkeys(("container", "containers", "containerization"), Feature.CONTAINER),
    **dict.fromkeys(("lowlatency", "lowlatencynetwork", "fastinterconnect"), Feature.LOW_LATENCY),
}


def _not_needed(draft: Draft, value: str) -> bool:
    """Exclude every feature a not-needed list names; only when each item is a feature, so a
    list with anything else ("not_needed": ["mpi", "the old scratch"]) is read on as text."""
    items = [squash(item) for item in re.split(r"[,;]", value.strip("[]() ")) if item.strip()]
    features = [_EXCLUDABLE.get(item.strip("'\"")) for item in items]
    if not features or None in features:
        return False
    for feature in features:
        if feature is not None:
            draft.exclude(feature)
            if feature is Feature.GPU and draft.compute.cpu_only is None:
                draft.compute.cpu_only = Mention(True, value)
    return True


_FEATURE_NAMES = frozenset(
    "mpi gpu gpus container containers docker singularity apptainer infiniband rdma".split()
)
"""After ``uses_``, words that name a feature rather than a package."""
_NAME_KEYS = frozenset(
    "job run experiment case title study task purpose campaign tag label".split()
)
"""Keys that name the job ("job: climate-postproc"): a single-word value is its name."""
_DATA_KEYS = frozenset(
    "db database dataset data input inputs alignment reference ref genome seed sample samples "
    "calc calculation sim simulation".split()
)
"""Keys whose single-word value is the job's data or a name of its own (``db=nr_2024``,
``calc: cathode-batch7``): input the job reads, not a requirement on the site."""


def _describes(value: str) -> bool:
    """A value of three words or more with no pin in it: a description, not a list of packages
    (``pipeline: "gatk-sv"`` or ``task = "lammps 2023"`` stay names)."""
    return len(value.split()) >= 3 and not re.search(r"[<>=@]|\d\.\d", value)


def _names_the_run(raw_key: str) -> bool:
    """``job``, ``case_name``, ``run_id``, ``sim_label``, ``db``: the value names the run or its
    data (one word), never a package."""
    words = _key_words(raw_key)
    if not words:
        return False
    if squash(raw_key) in _NAME_KEYS or squash(raw_key) in _DATA_KEYS:
        return True
    return (
        len(words) <= 3
        and words[-1] in ("name", "id", "label", "tag")
        and not (
            set(words) & {"gpu", "model", "software", "app", "package", "module", "image", "mpi"}
        )
    )


_SCOPED_VALUE_RE = re.compile(
    r"^\s*(?P<value>[\w.:]+(?:\s*(?:gb|g|tb|t|gib|tib|mb))?)\s*(?:(?P<node>per\s+node|/\s*node|"
    r"each|per\s+host)|(?P<total>total|in\s+total|overall|across\s+(?:all\s+)?nodes))\s*$",
    FLAGS,
)
_SCOPABLE: dict[str, dict[str, str]] = {
    **dict.fromkeys(("gpus", "gpu", "ngpus"), {"node": "gpuspernode", "total": "totalgpus"}),
    **dict.fromkeys(
        ("cores", "cpus", "ncpus", "ncores"), {"node": "corespernode", "total": "totalcores"}
    ),
    **dict.fromkeys(("memory", "mem", "ram"), {"node": "mempernode", "total": "totalmemory"}),
}
"""Keys whose value may carry its own scope: ``gpus: 8 per node``, ``memory: 1 TB total``."""


_FLUX_RE = re.compile(r"(?<![\w-])flux\s+(?:run|submit|batch|alloc)")
"""A Flux command line, whose ``-g`` counts GPUs per task (case-sensitive, as Flux is typed)."""


class _Pairs:
    """Reads flags and ``key=value`` / ``key: value`` pairs into the draft.

    Slurm's ``--ntasks-per-node`` times ``--cpus-per-task`` is cores per node; a version key
    (``app_version=3.1``) belongs to the package the previous key named.
    """

    def __init__(self, scanner: Scanner, draft: Draft, now: datetime, dialect: str) -> None:
        self.scanner = scanner
        self.draft = draft
        self.now = now
        self.dialect = dialect
        self.tasks_per_node: Mention[int] | None = None
        self.cpus_per_task: Mention[int] | None = None
        self.last_name: str | None = None
        self.last_storage: StorageKind | None = None
        self.flux = "flux" in scanner.text and bool(_FLUX_RE.search(scanner.text))

    # -- entry points (one per syntax) --------------------------------------------------------

    def equals(self, m: re.Match[str]) -> bool:
        value, scope = m.group("value"), m.group("scope")
        if scope:
            key = _canonical_key(squash(m.group("key").replace(".", "")))
            if key in _SCOPABLE:
                value = f"{value} {scope}"  # "mem=1TB total": the whole job's memory
        return self._apply(m, m.group("key"), value, unknown="name")

    def colon(self, m: re.Match[str]) -> bool:
        value = m.group("value")
        note = _COMMENT_RE.search(value)
        if note is None:
            key = m.group("key")
            if _node_section(self.scanner.original, m.start("key")):
                key = f"per_node_{key}"  # "per_node:\n  cores: 50": 50 cores on each node
            elif squash(key) in _CHILD_KEYS and (parent := _section(self.scanner.original, m)):
                key = f"{parent}_{key}"  # "gpu:\n  count: 8" is gpu_count, as in JSON
            elif key.lower() == "name" and _in_package_list(self.scanner.original, m):
                key = "package"  # "software:\n  - name: PETSc\n    version: ...": a package
            return self._apply(m, key, value, unknown="prose")
        # "ramMin: 144000  # MiB": a comment may name the value's unit; other words in it
        # stay in the text for the other readers
        value, words = value[: note.start()], note.group("note").split()
        unit = words[0].strip(",;") if words else ""
        if _BARE_SIZE_RE.match(value) and squash(unit) in _COMMENT_UNITS:
            value, words = f"{value.strip()} {unit}", words[1:]
        if not self._apply(m, m.group("key"), value, unknown="prose"):
            return False
        measures = {_KEY_WORDS.get(w) for w in _key_words(m.group("key"))} - {None}
        if all(_KEY_WORDS.get(w.lower().strip(",;")) in measures for w in words):
            return True  # "threads: 48  # cores": the comment only repeats the key
        self.scanner.blank(m.start(), m.start("value") + note.start())
        return False

    def long_flag(self, m: re.Match[str]) -> bool:
        value = m.groupdict().get("value")
        if value is None:
            if m.group("key").lower() in _CONSTRAINING_SWITCHES:
                self.draft.unresolved.append(_clean(m.group(0)))  # whole nodes: not judged
            return True  # other bare switches (--requeue) say nothing about where to run
        key = m.group("key")
        if key.lower() == "tmp" and _BARE_SIZE_RE.match(value):
            value += "M"  # Slurm: "--tmp=500000" counts megabytes
        if key.lower() == "gpus":
            key = "total-gpus"  # Slurm's --gpus counts the whole job; --gres=gpu:N is per node
        return self._apply(m, key, value, unknown="unresolved")

    def short_flag(self, m: re.Match[str]) -> bool:
        letter, value = m.group("key"), _unquote(m.group("value"))
        text = m.group(0)
        if letter == "np":
            return _cores(per_node=False)(self.draft, value, text)
        if letter == "g" and self.flux:  # Flux: -g is GPUs per task
            self.draft.unresolved.append(_clean(text))
            self.draft.compute.gpu_mentioned = True
            return True
        if letter == "gpu":  # LSF: -gpu "num=4" is GPUs per host
            num = re.search(r"num=(\d{1,3})", value)
            if num:
                self.draft.compute.gpus.append(Count(int(num.group(1)), text, per_node=True))
            return True
        table = {"pbs": _PBS_FLAGS, "lsf": _LSF_FLAGS}.get(self.dialect, _SLURM_FLAGS)
        key = table.get(letter)
        if key is None:
            return False
        if key == "resources":
            for part in re.split(r"[,\s]+", value):
                name, _, val = part.partition("=")
                if val:
                    self._apply(m, name, val, unknown="unresolved", blank=False)
            return True
        if key == "lsf-resources":
            ptile = _PTILE_RE.search(value)
            if ptile:
                self.draft.compute.cores.append(Count(int(ptile.group("n")), text, per_node=True))
            hosts = re.search(r"span\[hosts=(\d{1,5})\]", value)
            if hosts:
                self.draft.compute.nodes.append(Mention(int(hosts.group(1)), text))
            rest = re.sub(r"span\[(?:ptile|hosts)=\d{1,5}\]", "", value).strip()
            if rest:  # "rusage[mem=4000]" (unit and scope set per site), "select[avx512]"
                self.draft.unresolved.append(rest)
            return True
        return self._apply(m, key, value, unknown="unresolved")

    # -- one pair -----------------------------------------------------------------------------

    def _apply(
        self, m: re.Match[str], raw_key: str, raw_value: str, *, unknown: str, blank: bool = True
    ) -> bool:
        """Read one pair. True blanks the whole match; False leaves it (or part of it) in the
        text for the other extractors."""
        device = _DEVICE_PLUGIN_RE.fullmatch(raw_key.strip())
        if device:  # Kubernetes' "nvidia.com/gpu: 2": GPUs of the pod's one node
            if not _gpus(None)(self.draft, _unquote(raw_value), m.group(0)):
                return False
            return _vendor(self.draft, device.group("vendor"), m.group(0))
        raw_key = raw_key.replace("/", "_per_")  # "cores/node", "mem/gpu"
        squashed_key = squash(raw_key.replace(".", ""))
        key = _canonical_key(squashed_key)
        value = _unquote(raw_value)
        word = squash(value)  # the value as the key tables spell it, squashed once per pair
        text = m.group(0)
        if key in _NOT_NEEDED_KEYS and _not_needed(self.draft, value):
            return True
        if _GPU_REQUIRED_KEY_RE.fullmatch(squash(raw_key)) and word in _FALSY:
            self.draft.compute.gpu_not_required = Mention(True, text)
            return True
        if key in _TASKS_PER_NODE_KEYS and (n := _count(value)):
            self.tasks_per_node = Mention(n, text)
            if "rank" in key or "mpi" in key:
                self.draft.mpi_implied = True  # "ranks_per_node=32": MPI ranks
            return True
        if key in _CPUS_PER_TASK_KEYS and (n := _count(value)):
            self.cpus_per_task = Mention(n, text)
            return True
        within = _WITHIN_KEY_RE.fullmatch(squashed_key)
        if within and re.fullmatch(r"\d{1,4}(?:\.\d+)?", value.strip()):
            return self._deadline(f"{value.strip()} {within.group('unit')}", text)
        if key in _DEADLINE_KEYS:
            tail = _DEADLINE_CLOCK_AFTER_RE.match(self.scanner.text, m.end())
            if (
                tail
                and not raw_value.startswith(("'", '"'))
                and self._deadline(value + tail.group(0), text)
            ):
                self.scanner.blank(*tail.span())  # "finish_by = 12/20/2026 23:00 UTC"
                return True
            return self._deadline(value, text)
        if key.endswith(("version", "versions")) and key not in ("version",) or key == "version":
            if self._version(key, value, text):
                return True
        if key in _BUILD_KEYS and self._variants(m, value):
            return True
        if key in _OPTIONAL_GPU_KEYS and (word in _TRUTHY or _count(value)):
            self.draft.compute.gpu_or = True  # "nice_to_have": {"gpu": 1}
            self.draft.compute.gpu_mentioned = True
            n = _count(value)
            if n and word not in ("true", "yes", "on", "y"):
                self.draft.compute.gpus.append(Count(n, text, per_node=False))
            return True
        if key in ("nogpu", "nogpus", "cpuonly") and word in _TRUTHY:
            self.draft.exclude(Feature.GPU)
            self.draft.compute.cpu_only = Mention(True, text)
            return True
        if ("budget" in key or "cost" in key or key.startswith("spend")) and _budget(
            self.draft, value, text
        ):
            return True  # "time_budget: 5h" is no money: read on as any other key
        used = _USES_KEY_RE.match(raw_key)
        feature = squash(used.group("name")) if used else ""
        if used and feature not in _FEATURE_NAMES and word in _TRUTHY_OR_FALSY:
            if word in _TRUTHY:  # "uses_cuquantum: true" names a package
                name = used.group("name").lower().replace("_", "-")
                self.draft.add_software(lookup(lexicon.SOFTWARE, name) or name, [])
            return True
        if feature == "mpi" and word in _TRUTHY:
            self.draft.mpi_implied = True  # "with_mpi: true"
            return True
        if feature in ("gpu", "gpus") and word in _FALSY:
            self.draft.exclude(Feature.GPU)  # "use_gpu: false"
            self.draft.compute.cpu_only = Mention(True, text)
            return True
        if feature in ("gpu", "gpus") and word in _TRUTHY:
            self.draft.compute.gpu_mentioned = True  # "needs_gpu: yes": one GPU
            return True
        if _gpu_memory_key(raw_key):
            self.draft.unresolved.append(_clean(text))  # GPU memory: no field holds it
            self.draft.compute.gpu_mentioned = True
            return True
        if key in _MIB_KEYS and _BARE_SIZE_RE.match(value):
            value += " MiB"  # CWL: "ramMin: 8192" is 8 GiB
        parts = value.split(",")
        if key in _SCOPABLE and len(parts) > 1 and all(map(_SCOPED_VALUE_RE.match, parts)):
            # "gpus: 64 in total, 4 per node": each part carries its own scope
            return all([self._apply(m, raw_key, part, unknown=unknown) for part in parts])
        scoped = _SCOPED_VALUE_RE.match(value)
        if scoped and key in _SCOPABLE:
            key = _SCOPABLE[key]["total" if scoped.group("total") else "node"]
            value = scoped.group("value")
        handler = _KEYS.get(key) or _with_unit(key) or _worded_key(raw_key)
        if handler is not None and handler(self.draft, value, text):
            return True
        if (package := _package(key)) is not None and (choice := version_choice(value)):
            self.draft.version_choices.append((package, choice))  # python: "3.10 or 3.11"
            self.draft.add_software(package, [])
            return True
        if (package := _package(key)) is not None and re.match(r"^[<>=!~]*\s*v?\d", value):
            constraints, _ = parse_constraints(value)
            if constraints:  # "rocm = 6.1", "cuda: 12.2": the key names a package
                self.draft.add_software(package, constraints)
                return True
        if self._storage(key, value, text, m.end()):
            return True
        if key in _NOTE_KEYS and blank and _WORD_IN_VALUE_RE.search(value):
            self.scanner.blank(m.start("key"), m.start("value"))
            return False  # note="no rush": a free-text note is read as prose
        if key in _DESCRIPTION_KEYS and blank and _describes(value):
            self.scanner.blank(m.start("key"), m.start("value"))
            return False  # purpose="quadruped gait sweep": what the job is for, in prose
        if key in ("output", "out") and unknown == "prose" and " " in value.strip():
            self.scanner.blank(m.start("key"), m.start("value"))
            return False  # "output: 25 TB free on GPFS" says what the output needs, no file
        if key in ("image", "containerimage", "sif", "docker"):
            _image_package(self.draft, value)
            return True
        if key in ("urgency", "priority") and blank and " " in value.strip():
            return self._urgency_prose(m, value, text)
        if key in _IGNORED_KEYS or key == "url":
            return True
        if key == "constraint" and _model(self.draft, value, text):
            return True  # "--constraint=a100": a GPU model; other features stay unresolved
        if _names_the_run(raw_key) and " " not in value:
            return True  # "job: climate-postproc" names the job
        is_text = key in _TEXT_KEYS or key in _SOFTWARE_KEYS
        if unknown == "name" and not is_text and self._named_version(raw_key, value):
            return True  # "diamond=2.1.9": pip's and conda's way of pinning a package
        if unknown == "prose" and not is_text and "_" not in raw_key:
            return False  # "Note: ...": prose; "ligand_library: ..." is a key of a form
        if unknown == "unresolved" and not is_text:
            self.draft.unresolved.append(_clean(text))
            return True
        if not is_text and squash(value) in _REQUIRED_VALUES:
            if key in _FEATURE_KEYS and blank and "value" in m.re.groupindex:
                # "infiniband = required", "container: yes": the key is the prose readers' word
                self.scanner.blank(m.start("value"), m.end())
                return False
            last = _feature_suffix(raw_key.strip())
            if last and blank and "value" in m.re.groupindex and m.group("key") == raw_key:
                # "interconnect_rdma: yes" ({"interconnect": {"rdma": true}}): the last part
                # is the prose readers' word, the section before it only groups it
                self.scanner.blank(
                    m.start("key"), m.start("key") + len(raw_key.strip()) - len(last)
                )
                self.scanner.blank(m.start("value"), m.end())
                return False
            # "nvlink = required", "ecc: true": a feature asked for that no field holds. Left
            # to the prose readers, "required" is a filler word and the key was lost unseen
            self.draft.unresolved.append(_clean(text))
            return True
        if key in _SOFTWARE_KEYS or (unknown == "name" and not is_text):
            self._name_context(m, value, packages=key in _SOFTWARE_KEYS)
        if not is_text and not _WORD_IN_VALUE_RE.search(value):
            self.draft.unresolved.append(_clean(text))  # "max_memory_per_rank: 3.5": no word
            return True  # left for the other readers, but none of them reads bare numbers
        if blank and (is_text or " " not in raw_key.strip()):
            self.scanner.blank(m.start("key"), m.start("value"))
        # a key of several words ("we use foo_bar: 2.1 and 2 nodes") is a sentence with a
        # colon: its words are left for the prose readers, so a name there is never lost
        return False

    def _urgency_prose(self, m: re.Match[str], value: str, text: str) -> bool:
        """``priority: low, no rush``: a level and then words of the writer's own. The level
        is read here; the words are left for the prose readers ("no rush", "needed by
        Friday"), never dropped with the bookkeeping key (a Slurm ``--priority`` is a
        number)."""
        if "value" not in m.re.groupindex or m.start("value") < 0:
            return True  # no value span to leave: kept as before, a bookkeeping key
        raw = m.group("value")
        lead = len(raw) - len(raw.lstrip("\"' "))
        level = _URGENCY_LEVEL_FIRST_RE.match(raw, lead)
        found = _URGENCY_LEVELS.get(squash(level.group(1))) if level else None
        end = m.start("value")
        if found is not None and level is not None:
            end += level.end(1)
            if self.draft.urgency is None:
                self.draft.urgency = Mention(found, text)
        self.scanner.blank(m.start("key"), end)
        return False

    def _named_version(self, raw_key: str, value: str) -> bool:
        """A key that is a package name and a value that is only a version: ``hmmer=3.4``,
        ``diamond=2.1.9``. Keys of forms have a ``_`` or are words; a word key is a package
        only with a value no measure looks like (``ratio=0.5`` is a number, ``2.1.9`` not)."""
        key = raw_key.strip().lower()
        value = value.strip()
        if not _PINNED_RE.match(value) or "_" in key or key in filler_words():
            return False
        if len(key) == 1 and lookup(lexicon.SOFTWARE, key) is None:
            return False  # "t=0.12", "x=1.5": a variable of the science, no package is a letter
        if english_word(key) and value.count(".") < 2 and value[:1] not in "<>=!~":
            return False
        constraints, _ = parse_constraints(value.strip().lstrip("="))
        if not constraints:
            return False
        self.draft.add_software(lookup(lexicon.SOFTWARE, key) or key, constraints)
        return True

    def _name_context(self, m: re.Match[str], value: str, packages: bool = False) -> None:
        """The value names packages: plain words there count as names.

        ``packages``: the key says so (``SOFTWARE=NetLogo==6.4.0;R>=4.3;nlrx``). A ``key=value``
        value ends at the first ``;`` or ``,``, so the items listed after it, one token each,
        are part of the same value: without them a bare item after a pinned one was quoted
        as unread instead of asked for."""
        start, end = m.span("value")
        more = _MORE_ITEMS_RE.match(self.scanner.original, end) if packages else None
        if more:
            end = more.end()
        self.draft.name_spans.append((start, end))
        first = re.match(r"\s*([A-Za-z][\w.+-]*?)(?=[+~@][a-z]|[^\w.+-]|$)", value)
        if first:  # "gromacs+cuda": the name, without the Spack variants after it
            self.last_name = first.group(1).lower()

    def _variants(self, m: re.Match[str], value: str) -> bool:
        """``variants=+kokkos,+rocm,~kim`` beside ``app=lammps``: the build of the package the
        previous key named. With no package named before it, or no variant in the value, the
        pair is left to the other readers (and quoted if none reads it). A key=value value ends
        at a comma, so the signed words glued on after it are read (and blanked) here too."""
        more = _MORE_SIGNED_RE.match(self.scanner.text, m.end())
        if more and self.last_name is not None:
            value += more.group(0)
        variants, rest = _build_text({"variants": value})
        if self.last_name is None or not variants or rest:
            return False
        name = lookup(lexicon.SOFTWARE, self.last_name) or self.last_name
        self.draft.add_software(name, [], None, _SIGNED_RE.findall(variants))
        if more:
            self.scanner.blank(*more.span())
        return True

    def _version(self, key: str, value: str, text: str) -> bool:
        """``app_version=3.1``, ``container_min_version: 1.2``, ``python_version: 3.11``."""
        spec = value.strip()
        if not re.match(r"^(?:[<>=!~]=?|\u2265|\u2264)?\s*(?:v?\d|[rR]\d)", spec):
            return False
        if "min" in key and not re.match(r"^[<>=!~]", spec):
            spec = ">=" + spec
        elif "max" in key and not re.match(r"^[<>=!~]", spec):
            spec = "<=" + spec
        constraints, _ = parse_constraints(spec if re.match(r"^[<>=!~]", spec) else spec)
        if not constraints:
            return False
        owner = key.replace("min", "").replace("max", "").removesuffix("versions")
        owner = owner.removesuffix("version")
        if owner.startswith("container") and self.draft.container is not None:
            self.draft.set_container(self.draft.container.runtime, constraints, text)
            return True
        if owner.startswith("container"):
            self.draft.pending_container_constraints.extend(constraints)
            return True
        name = (
            _package(owner)
            if owner
            and owner
            not in ("app", "software", "package", "code", "application", "tool", "program")
            else None
        )
        name = name or self.last_name
        if name is None:
            # "version: 1.0" with no package named before it: a version of something, so the
            # pair is quoted (no site may be READY on it unread), never left as a bare number
            self.draft.unresolved.append(text.strip())
            return True
        self.draft.add_software(name, constraints)
        return True

    def _storage(self, key: str, value: str, text: str, end: int) -> bool:
        if not any(word in key for word in _STORAGE_WORDS):
            return False
        # Slurm's --tmp, CWL's tmpdirMin and their kin: temporary disk on each node, so local
        kind = _storage_kind(key) or (StorageKind.LOCAL if "tmp" in key else None)
        after = _KIND_AFTER_RE.match(self.scanner.text, end)
        if after and (named := _storage_kind(squash(after.group("kind")))) is not None:
            kind = named  # "disk=2TB(local)": the kind follows the size
            self.scanner.blank(*after.span())
        listed = _KIND_AND_SIZE_RE.match(value)
        if listed and (named := _storage_kind(squash(listed.group("kind")))) is not None:
            kind, value = named, listed.group("size")  # "filesystem: parallel, >= 20 TB free"
        size = _size_with_unit(key, value)
        if size is not None and not in_range(size, 1e-6, MAX_STORAGE_GB):
            return False  # "free: 0" sizes nothing: left unread, so it is quoted, not dropped
        if size is None:
            found = _storage_kind(squash(value))
            if found is not None:
                self.last_storage = found
            return False
        self.draft.add_storage(kind or self.last_storage or StorageKind.ANY, size)
        return True

    def _deadline(self, value: str, text: str) -> bool:
        from endpoint_plugins.parsing.timing import extract_deadline

        relative = _RELATIVE_DEADLINE_RE.fullmatch(value.strip())
        if relative:  # "need_by=+48h", "deadline: in 2 days": from now, never a walltime
            value = relative.group("span")
        probe = Scanner(f"{'within' if relative else 'by'} {value}")
        extract_deadline(probe, self.draft, self.now)
        return self.draft.deadline is not None

    def finish(self) -> None:
        tasks, cpus = self.tasks_per_node, self.cpus_per_task
        if tasks is not None:
            per_node = tasks.value * (cpus.value if cpus else 1)
            text = tasks.text + (f" {cpus.text}" if cpus else "")
            self.draft.compute.cores.append(Count(per_node, text, per_node=True))
        elif cpus is not None and (cpus.value > 1 or not self.draft.compute.cores):
            # "-c 8" alone sizes one task, not the node or the job (see parsing.compute's
            # per-task rule): requirement-like, so it blocks READY instead of being dropped.
            self.draft.unresolved.append(_clean(cpus.text))


_CONSTRAINING_SWITCHES = frozenset(("exclusive", "contiguous", "no-kill", "overcommit"))
"""Bare switches that constrain the allocation in ways no field holds: kept unresolved."""

_SLURM_FLAGS = {
    "N": "nodes",
    "n": "ntasks",
    "c": "cpuspertask",
    "G": "gpus",
    "t": "time",
    "p": "partition",
    "A": "account",
    "J": "jobname",
    "o": "output",
    "e": "error",
    "q": "qos",
    "D": "chdir",
    "C": "constraint",
    "w": "nodelist",
    "a": "array",
    "d": "dependency",
}
_PBS_FLAGS = {
    "l": "resources",
    "N": "jobname",
    "q": "queue",
    "A": "account",
    "o": "output",
    "e": "error",
    "j": "join",
    "m": "mailtype",
    "M": "mailuser",
    "W": "dependency",
}
_LSF_FLAGS = {
    "nnodes": "nodes",
    "n": "ntasks",
    "W": "time",
    "q": "queue",
    "J": "jobname",
    "o": "output",
    "e": "error",
    "R": "lsf-resources",
    "P": "project",
    "G": "group",
    "M": "mem",
}


_DEVICE_PLUGIN_RE = re.compile(r"(?P<vendor>nvidia|amd)\.com/gpu", FLAGS)
"""Kubernetes device-plugin resource names that count GPUs."""
_COMMENT_RE = re.compile(r"\s+#\s*(?P<note>[^#\n]*)$")
"""A trailing ``# comment`` after a YAML or INI value."""
_COMMENT_UNITS = frozenset(
    "kb kib mb mib gb gib tb tib g t hours hour h hrs minutes minute min mins days day".split()
)
"""Units a comment may give a bare number (``144000  # MiB``)."""
_MIB_KEYS = frozenset("rammin rammax tmpdirmin tmpdirmax outdirmin outdirmax".split())
"""CWL's ``ResourceRequirement`` sizes, which the CWL standard counts in mebibytes."""


_SECTION_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<key>[A-Za-z][\w .-]{0,30}?)[ \t]*:[ \t]*$", re.M)


def _node_section(text: str, key_at: int) -> bool:
    """Whether an indented YAML key sits in a section that scopes it to each node
    (``per_node:``, ``each node:``): the key's amount is then per node."""
    section = _enclosing_section(text, key_at, " \t-")
    words = _key_words(section) if section else []
    return (
        len(words) == 2
        and words[0] in ("per", "each", "every")
        and (_KEY_WORDS.get(words[1]) == "nodes")
    )


def _enclosing_section(text: str, key_at: int, lead: str) -> str | None:
    """The key of the YAML section an indented key sits in (only ``lead`` characters before
    the key on its line), or None."""
    line_start = text.rfind("\n", 0, key_at) + 1
    indent = key_at - line_start
    if indent == 0 or text[line_start:key_at].strip(lead):
        return None
    for m in reversed(list(_SECTION_RE.finditer(text, max(0, line_start - 400), line_start))):
        if len(m.group("indent")) < indent:
            return m.group("key").strip()
    return None


_CHILD_KEYS = frozenset("count number num n amount total pernode each perhost".split())
"""Keys that count nothing by themselves: under a YAML section they count what the section
names (``gpu:`` then ``count: 8`` is eight GPUs, not a count of nothing)."""


def _feature_suffix(key: str) -> str | None:
    """The end of a nested key that names a feature (``interconnect_rdma``,
    ``network_low_latency``), or None."""
    parts = re.split(r"[_.]", key)
    for i in range(1, len(parts)):
        suffix = "_".join(parts[i:])
        if squash(suffix) in _FEATURE_KEYS:
            return key[len(key) - len(suffix) :]
    return None


def _section(text: str, m: re.Match[str]) -> str | None:
    """The key of the YAML section an indented ``key: value`` line sits in, if any."""
    key = _enclosing_section(text, m.start("key"), " \t")
    return key if key and squash(key) not in _JSON_SECTIONS else None


def _in_package_list(text: str, m: re.Match[str]) -> bool:
    """Whether a ``name:`` line is the first key of an item of a YAML list under a package key
    (``software:`` then ``- name: PETSc``): it names a package, not the job, and the
    ``version:`` line after it belongs to that package."""
    line_start = text.rfind("\n", 0, m.start("key")) + 1
    if text[line_start : m.start("key")].strip(" \t") != "-":
        return False
    key = _enclosing_section(text, m.start("key"), " \t-")
    return key is not None and squash(key) in _SOFTWARE_KEYS


def _unquote(value: str) -> str:
    return value.strip().strip("\"'").strip()


def _with_unit(key: str) -> Handler | None:
    """Keys that carry their unit: ``memory_gb``, ``ram_per_node_gb``, ``ram_gb_per_node``."""
    for suffix in ("gib", "tib", "mib", "gb", "tb", "mb"):
        stem = key.removesuffix(suffix)
        if stem == key and key.endswith(f"{suffix}pernode"):
            stem = key.removesuffix(f"{suffix}pernode") + "pernode"  # the unit before the scope
        if stem != key and stem in (
            "mem",
            "memory",
            "ram",
            "mempernode",
            "memorypernode",
            "rampernode",
        ):
            return lambda d, v, t, u=suffix: _memory("node")(d, f"{v}{u}" if _count(v) else v, t)
    return None


_TASKS_PER_NODE_KEYS = frozenset(
    """ntaskspernode taskspernode rankspernode mpirankspernode nrankspernode procspernode
    processespernode mpiprocspernode""".split()
)
_CPUS_PER_TASK_KEYS = frozenset(
    """cpuspertask threadspertask threadsperrank cpusperrank corespertask coresperrank
    threadsperprocess cpusperprocess ompthreadsperrank""".split()
)
"""Keys of the layout of each node ("ranks_per_node=32 threads_per_rank=4"), multiplied like
Slurm's ``--ntasks-per-node`` and ``--cpus-per-task`` into cores per node."""


# -- keys read word by word ---------------------------------------------------------------------

_KEY_WORDS: dict[str, str] = {
    **dict.fromkeys(
        "gpu gpus ngpus numgpus gpucount accel accels accelerators ngpu".split(), "gpus"
    ),
    **dict.fromkeys(
        """core cores ncores numcores cpu cpus ncpus ncpu numcpus vcpu vcpus thread threads
        nthreads proc procs nprocs process processes rank ranks nranks task tasks ntasks slots
        """.split(),
        "cores",
    ),
    **dict.fromkeys("mem memory ram".split(), "memory"),
    **dict.fromkeys(
        """node nodes nnodes numnodes machine machines box boxes host hosts server servers
        instance instances vm vms""".split(),
        "nodes",
    ),
    **dict.fromkeys("walltime runtime time wall duration wallclock clock".split(), "time"),
    **dict.fromkeys("make maker vendor brand manufacturer".split(), "vendor"),
}
"""What each word of a key measures (``gpu_per_box``: GPUs; ``threads_per_machine``: cores)."""
_KEY_FILLERS = frozenset(
    "n num number count of the max min maximum minimum req requested required wanted needed "
    "desired limit per each every total overall all job".split()
)
_KEY_UNITS: dict[str, tuple[str, float]] = {
    **{u: ("size", 1.0) for u in ("gb", "g", "tb", "t", "mb", "gib", "tib")},
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("time", 3600)),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), ("time", 60)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("time", 1)),
    **dict.fromkeys(("d", "day", "days"), ("time", 86400)),
}
_PER_CORE_WORDS = frozenset("core cores cpu cpus task tasks rank ranks proc thread".split())
_GPU_MEMORY_KEY_RE = re.compile(
    r"(?:max|min|req|total)?(?:per)?(?:gpu|device|card|accel(?:erator)?)s?(?:per|each)?"
    r"(?:mem|memory|ram|vram|hbm)(?:gb|g|tb|gib|mb)?"
    r"|(?:max|min|req|total)?(?:mem|memory|ram)(?:per|each|of|on)?(?:gpu|device|card)s?"
    r"(?:gb|g|gib|mb)?"
    r"|(?:max|min|req|total)?(?:gpu)?(?:vram|hbm\d?e?)(?:pergpu)?(?:gb|g|gib|mb)?"
)
"""Keys naming the memory of a GPU (``gpu_mem``, ``mem_per_gpu``, ``vram_gb``): no field holds
it, and it must never pass for the node's memory."""


_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")
_KEY_WORD_RE = re.compile(r"[a-z]+|\d+")


def _key_words(raw_key: str) -> list[str]:
    return _KEY_WORD_RE.findall(_CAMEL_RE.sub("_", raw_key.strip()).lower())


def _worded_key(raw_key: str) -> Handler | None:
    """A key read as a path of words, for keys :data:`_KEYS` does not spell out: the measure
    (``gpu``, ``threads``, ``machines``), the scope (``per_box``, ``per_node``, ``each``: per
    node; ``total``: the whole job; ``per_core``: memory per core) and a unit suffix (``_gb``,
    ``_tb``, ``_h``, ``_hours``, ``_min``). A key with any other word is not read here."""
    words = _key_words(raw_key)
    if not words or len(words) > 6:
        return None
    unit: tuple[str, float] | None = None
    minimum = words[-1] == "min" and all(_KEY_WORDS.get(w) != "time" for w in words)
    if len(words) > 1 and words[-1] in _KEY_UNITS and not minimum:  # "coresMin": no unit
        unit = _KEY_UNITS[words[-1]]
        words = words[:-1]
    measures: list[str] = []
    per_node = total = per_core = False
    for i, word in enumerate(words):
        after_per = i > 0 and words[i - 1] in ("per", "each", "every")
        kind = _KEY_WORDS.get(word)
        if kind == "nodes" and (after_per or "nodes" in measures):
            per_node = True
        elif kind == "cores" and after_per and word in _PER_CORE_WORDS:
            per_core = True
        elif kind is not None:
            measures.append(kind)
        elif word in ("total", "overall", "all", "job"):
            total = True
        elif word not in _KEY_FILLERS:
            return None
    if "each" in words and "per" not in words:
        per_node = True
    nodes_as_scope = measures.count("nodes") == 1 and len(set(measures)) == 2
    if nodes_as_scope:  # "node_gpus", "cores_node": the node word scopes the other measure
        measures.remove("nodes")
        per_node = True
    if "vendor" in measures and set(measures) <= {"vendor", "gpus"} and not unit:
        return _vendor  # "gpu_make: NVIDIA", "accel_vendor = amd"
    if len(set(measures)) != 1 or (per_node and total) or (per_core and measures[0] != "memory"):
        return None
    measure = measures[0]
    if unit is not None and unit[0] != {"memory": "size", "time": "time"}.get(measure):
        return None  # "gpu_hours", "core_h": an amount of compute, not a count or a walltime
    if measure == "gpus":
        return _gpus_with_model(True if per_node else (False if total else None))
    if measure == "cores":
        mpi = any(w in ("rank", "ranks", "nranks") for w in words)
        return _cores(per_node=per_node, mpi=mpi, total=total)
    if measure == "nodes":
        return None if per_node or total or unit else _nodes
    if measure == "vendor":
        return None
    if measure == "memory":
        scope = "core" if per_core else ("total" if total else "node")
        suffix = _key_words(raw_key)[-1] if unit else ""
        return lambda d, v, t: _memory(scope)(d, f"{v}{suffix}" if _count(v) else v, t)
    if measure == "time":
        return _walltime(int(unit[1]) if unit else None)
    return None


_COUNT_AND_NAMES_RE = re.compile(
    r"^\s*(?P<n>\d{1,4})\s*(?:x\s*)?(?:\(\s*(?P<p>[^()]{1,60})\)|(?P<w>[A-Za-z][^()]{0,60}))\s*$",
    FLAGS,
)


def _gpus_with_model(per_node: bool | None) -> Handler:
    """GPU counts that may name the model or vendor too: ``4 (AMD MI300X)``, ``2x A100``."""
    plain = _gpus(per_node)

    def handle(draft: Draft, value: str, text: str) -> bool:
        m = _COUNT_AND_NAMES_RE.match(value)
        if m is None:
            return plain(draft, value, text)
        names = (m.group("p") or m.group("w") or "").replace(",", " ").split()
        known = [w for w in names if w.lower() not in ("gpu", "gpus", "x")]
        if not all(lookup(lexicon.GPU_MODELS, w) or _vendor_word(w) for w in known):
            return False  # a word no reader here knows: left in the text, so it is quoted
        for word in known:
            if not _model(draft, word, text):
                _vendor(draft, word, text)
        return plain(draft, m.group("n"), text)

    return handle


def _vendor_word(word: str) -> bool:
    return squash(word) in ("nvidia", "amd", "intel")


def _gpu_memory_key(raw_key: str) -> bool:
    """Whether a key names the memory of a GPU: ``gpu_mem``, ``mem_per_gpu``, ``vram_gb``."""
    words = set(_key_words(raw_key))
    if words & {"vram", "hbm"}:
        return True
    if words & {"gpu", "gpus", "device", "accel", "accelerator"} and words & {
        "mem",
        "memory",
        "ram",
    }:
        return True
    return bool(_GPU_MEMORY_KEY_RE.fullmatch(squash(raw_key)))


def _size_with_unit(key: str, value: str) -> float | None:
    size = _size(value) if not _BARE_SIZE_RE.match(value) else None
    if size is not None:
        return size
    bare = _BARE_SIZE_RE.match(value)
    if bare is None:
        return None
    units = ("tib", "gib", "mib", "kib", "pib", "tb", "gb", "mb", "kb", "pb")
    unit = next((u for u in units if key.endswith(u)), "gb")
    return round(float(bare.group("num")) * lexicon.SIZE_UNITS_GB[unit], 6)


_KIND_AFTER_RE = re.compile(r"\s*\(\s*(?P<kind>[A-Za-z][\w -]{1,24}?)\s*\)")
_KIND_AND_SIZE_RE = re.compile(
    r"^\s*(?P<kind>[A-Za-z][\w -]{1,24}?)\s*[,;:]?\s*(?:with\s+)?"
    r"(?:>=|\u2265|at\s+least|min(?:imum)?)?"
    r"\s*(?P<size>\d{1,7}(?:\.\d{1,3})?\s*[a-z]{1,3})(?:\s+(?:free|available))?\s*$",
    FLAGS,
)
"""A storage value that names the kind and the size: ``parallel, >= 20 TB free``."""


def _storage_kind(text: str) -> StorageKind | None:
    words = {
        "parallel": StorageKind.PARALLEL,
        "lustre": StorageKind.LUSTRE,
        "gpfs": StorageKind.GPFS,
        "beegfs": StorageKind.BEEGFS,
        "nvme": StorageKind.LOCAL,
        "ssd": StorageKind.LOCAL,
        "local": StorageKind.LOCAL,
        "nfs": StorageKind.NFS,
        "s3": StorageKind.S3,
    }
    return next((kind for word, kind in words.items() if word in text), None)


def _package(key: str) -> str | None:
    from endpoint_plugins.parsing.scanner import lookup

    return lookup(lexicon.SOFTWARE, key)


_PIN = r"(?:[ \t]*+[<>=!~@]=?[ \t]*+[\w.*+-]{1,40}+)"
_ITEM = rf"[A-Za-z][\w.+-]{{0,60}}+{_PIN}?"
_MORE_ITEMS_RE = re.compile(rf"(?:[ \t]*+[;,][ \t]*+{_ITEM}(?![^\s;,]))+")
"""Further one-token items of a package list after a ``key=value`` value: ``;R>=4.3;nlrx``."""
_PACKAGE_KEY_LINE_RE = re.compile(
    r"^(?P<indent>[ \t]*+)(?:[-*#>]+[ \t]*+)?(?P<key>[A-Za-z][\w .-]{0,30}?)[ \t]*:[ \t]*$", re.M
)
_BLOCK_ITEM_RE = re.compile(
    r"(?P<indent>[ \t]*+)(?:#[ \t]*+)?-[ \t]++"
    rf"(?P<item>[A-Za-z][\w.+-]{{0,60}}+(?:{_PIN}|[ \t]++v?\d[\w.-]{{0,30}}+)?)"
    r"[ \t]*+(?:#[^\n]*+)?"
)
_BLOCK_LINE_RE = re.compile(r"(?P<indent>[ \t]*+)(?:#[ \t]*+)?-[ \t]")
_NOT_LIST_KEYS = frozenset(("requirements", "env", "environment", "stack", "workflow"))
"""Software keys whose block list may hold any requirement ("- 4 nodes", "- AVX-512")."""


def _package_blocks(text: str) -> list[tuple[int, int]]:
    """The items of a YAML block list under a package key, one package per line::

        software:
          - openmm>=8.1
          - openmmtools

    A key with an empty value is no ``key: value`` pair, so its items were read only as
    words, and a bare item beside a pinned one was quoted as unread. Each item that is one
    name (maybe with a version) is a name; anything longer is left to the other readers."""
    spans: list[tuple[int, int]] = []
    if ":" not in text:
        return spans  # no key line: spares the scan, which tries every line start
    for m in _PACKAGE_KEY_LINE_RE.finditer(text):
        key = squash(m.group("key"))
        if key not in _SOFTWARE_KEYS or key in _NOT_LIST_KEYS:
            continue
        at = m.end() + 1
        while at < len(text):
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            line = _BLOCK_LINE_RE.match(text, at, end)
            if line is None or len(line.group("indent")) < len(m.group("indent")):
                break  # the list ends at the first line that is no item of it
            item = _BLOCK_ITEM_RE.fullmatch(text, at, end)
            if item:
                spans.append(item.span("item"))
            at = end + 1
    return spans


def extract_structured(scanner: Scanner, draft: Draft, now: datetime) -> None:
    """Directives, flags, ``key=value`` pairs and script lines (see module docstring)."""
    text = scanner.text
    draft.name_spans.extend(_package_blocks(text))
    folded = scanner.folded
    script = _HAS_DIRECTIVE(text, folded) or _HAS_SHEBANG(text, folded)
    flags = _HAS_FLAG_CONTEXT(text, folded)
    dialect = "slurm"
    if _HAS_PBS(text, folded):
        dialect = "pbs"
    elif _HAS_LSF(text, folded):
        dialect = "lsf"
    scanner.take(_SHEBANG_RE, lambda m: True)
    scanner.take(_DIRECTIVE_RE, lambda m: True)
    scanner.take(_SELECT_RE, lambda m: _select(draft, m))
    scanner.take(_PBS_NODES_RE, lambda m: _pbs_nodes(draft, m))
    scanner.take(_MODULE_RE, lambda m: _module_line(draft, m))
    scanner.take(_ACTIVATE_RE, lambda m: _activate(draft, m))
    if flags or script:
        scanner.take(
            _INTERPRETER_RE,
            lambda m: _in_container(text, m.start()) or _interpreter(draft, m.group(0)),
        )
    scanner.take(_RUNTIME_LINE_RE, lambda m: _runtime_line(draft, m))
    scanner.take(_LAUNCH_RE, lambda m: _launch(draft, m))
    pairs = _Pairs(scanner, draft, now, dialect)
    scanner.take(_LONG_FLAG_RE, pairs.long_flag)
    scanner.take(_LONG_SPACED_RE, pairs.long_flag)
    if flags:
        scanner.take(_SHORT_FLAG_RE, pairs.short_flag)
        scanner.take(_COMMANDS_RE, lambda m: True)
    scanner.take(_EQUALS_RE, pairs.equals)
    scanner.take(_COLON_RE, pairs.colon)
    pairs.finish()
    if _FILE_HINT_RE.search(scanner.text):
        scanner.take(_FILE_RE, lambda m: True)
    if script:
        scanner.take(_SHELL_LINE_RE, lambda m: _interpreter(draft, m.group(0).lstrip(" \t$")))
        _blank_programs(scanner, draft)


def _blank_programs(scanner: Scanner, draft: Draft) -> None:
    """The program a launcher line of a job script runs, and its arguments, are bookkeeping:
    executables and input files (``srun lmp -in in.reax``) name no requirement.

    Only what follows the first word left unread is blanked, and only when that word is no
    flag: a scheduler flag the flag reader did not know stays unread, so it still blocks READY.
    """
    for line in _LAUNCHER_LINE_RE.finditer(scanner.original):
        start, end = line.span("rest")
        program = _PROGRAM_RE.match(scanner.text[start:end])
        if program is not None:
            _interpreter(draft, program.group("program"))
            scanner.blank(start + program.start("program"), end)
            continue
        path = _PROGRAM_PATH_RE.search(scanner.original, start, end)
        if path is not None:  # "srun ./athena -i athinput.blast": the arguments of a path
            scanner.blank(path.end(), end)


def _select(draft: Draft, m: re.Match[str]) -> bool:
    """PBS ``select=2:ncpus=32:ngpus=4:mem=64gb`` (chunks are nodes here)."""
    draft.compute.nodes.append(Mention(int(m.group("n")), m.group(0)))
    for part in m.group("rest").strip(":").split(":"):
        key, _, value = part.partition("=")
        key = squash(key)
        if key in ("ncpus", "mpiprocs") and (n := _count(value)):
            if key == "ncpus":
                draft.compute.cores.append(Count(n, m.group(0), per_node=True))
            else:
                draft.mpi_implied = True
        elif key in ("gpumodel", "gputype", "gpu") and not _count(value):
            _model(draft, value, m.group(0))
        elif key == "ngpus" and (n := _count(value)) is not None:
            draft.compute.gpus.append(Count(n, m.group(0), per_node=True))
        elif key == "mem" and (size := _size(value)) is not None:
            draft.compute.memory_per_node.append(Mention(size, m.group(0)))
        elif key not in ("ompthreads", "mpiprocs", "ncpus"):
            draft.unresolved.append(part)  # "gpu_mem=40gb", "host=n12": no field holds it
    return True


def _pbs_nodes(draft: Draft, m: re.Match[str]) -> bool:
    draft.compute.nodes.append(Mention(int(m.group("n")), m.group(0)))
    draft.compute.cores.append(Count(int(m.group("ppn")), m.group(0), per_node=True))
    if m.group("ib"):
        draft.set_fabric(Fabric.INFINIBAND, m.group(0))
    return True


def _module_line(draft: Draft, m: re.Match[str]) -> bool:
    """``module load gcc/12.2.0 lammps/2Aug2023``: every item names a package.

    Only Spack writes variants as items of their own (``spack install hdf5 +mpi``); on a pip
    or conda line a lone ``+x`` is no package's build, so it is quoted, not joined to a name."""
    items = [item for item in m.group("items").split() if item.strip()]
    if _INSTALLER_LINE_RE.match(m.group(0)):
        draft.unresolved.extend(i for i in items if _SIGNED_RUN_RE.fullmatch(i.strip(",;")))
        items = [i for i in items if not _SIGNED_RUN_RE.fullmatch(i.strip(",;"))]
    draft.module_items.extend(items)
    return True


_INSTALLER_LINE_RE = re.compile(r"[ \t]*(?:\$\s*)?(?:pip3?|conda|mamba)\s", FLAGS)
"""A line of an installer that knows no Spack variants."""


_INTERPRETERS = {
    "python": "python",
    "python3": "python",
    "julia": "julia",
    "rscript": "r",
    "perl": "perl",
    "ruby": "ruby",
    "node": "nodejs",
}
"""Programs that run a script: the job needs them ("srun python train.py" needs Python)."""


_CONTAINER_EXEC_RE = re.compile(
    r"(?<![\w-])(?:apptainer|singularity|docker|podman|shifter|enroot|charliecloud)(?![\w-])",
    FLAGS,
)


def _in_container(text: str, pos: int) -> bool:
    """Whether the command at ``pos`` runs inside a container started earlier on its line: its
    interpreter is the image's, not the site's."""
    line_start = text.rfind("\n", 0, pos) + 1
    return bool(_CONTAINER_EXEC_RE.search(text, line_start, pos))


def _interpreter(draft: Draft, command: str) -> bool:
    """The interpreter a command line starts with is a package the job needs; the script and
    its arguments are bookkeeping."""
    words = command.split()
    name = _INTERPRETERS.get(words[0].lower()) if words else None
    if name is not None:
        draft.add_software(name, [])
    return True


def _activate(draft: Draft, m: re.Match[str]) -> bool:
    """``conda activate env``: the job needs conda; the environment's name is not a package."""
    draft.add_software("conda", [])
    return True


def _runtime_line(draft: Draft, m: re.Match[str]) -> bool:
    draft.set_container(m.group("rt").lower(), [], m.group(0))
    return False  # the rest of the line is blanked as a shell line


def _launch(draft: Draft, m: re.Match[str]) -> bool:
    """``mpirun -np 64``: MPI ranks in total (an MPI launcher implies MPI)."""
    draft.mpi_implied = True
    if m.group("n"):
        draft.compute.cores.append(Count(int(m.group("n")), m.group(0), per_node=False, total=True))
    return True


def _clean(text: str) -> str:
    return " ".join(text.replace("\x00", " ").split())[:80]


__all__ = ["extract_structured", "flatten_json"]
