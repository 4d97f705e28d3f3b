"""The allocation shape: nodes, cores, GPUs (count, model, AND/OR) and memory.

Only mentions are recorded here; :meth:`Draft.build_compute` decides what they add up to once
the whole request has been read, because "8 GPUs" means something different with "on 2 nodes"
at the other end of the sentence.

Cores and GPUs are found in one pass each, then adjacent pairs are examined: "32 cores or
2 GPUs per node" joins them with OR and lets the trailing "per node" apply to both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.draft import Count, Draft, Mention
from endpoint_plugins.parsing.scanner import (
    COUNT,
    FLAGS,
    NOT_RATE,
    PER_CORE,
    PER_NODE,
    SIZE,
    TOTAL,
    Scanner,
    alternation,
    in_range,
    lookup,
    size_in_gb,
    to_count,
)

MAX_NODES = 1_000_000
MAX_CORES = 100_000_000
MAX_GPUS = 1_000_000
MAX_MEMORY_GB = 1e7

_MODEL_SPELLINGS = [s for spellings in lexicon.GPU_MODELS.values() for s in spellings]
_MODEL = alternation(_MODEL_SPELLINGS)
_VENDOR = alternation(lexicon.GPU_VENDORS)
_VARIANT = (
    r"(?:-(?:sxm\d?|pcie|nvl|\d{2,3}gb)|\s+(?:sxm\d?|pcie|nvl)"
    r"|\s\d{2,3}gb(?!\s*(?:of\s+)?(?:ram|memory|mem)\b))?"
)
"""Board variants ("A100-SXM4", "A100 80GB") belong to the model, not to memory."""
_MODEL_PHRASE = rf"(?:{_VENDOR}\s+){{0,2}}(?P<model>{_MODEL}){_VARIANT}s?"
_GPU_WORD = alternation(lexicon.GPU_WORDS)
_SCOPE = rf"(?P<scope>{PER_NODE}|{TOTAL})?"
_UNIT_END = rf"(?!\w|-[^\W\d_]){NOT_RATE}"

_CPU_ONLY_RE = re.compile(rf"(?<!\w){alternation(lexicon.CPU_ONLY_WORDS)}(?!\w)", FLAGS)
_NODES_RE = re.compile(
    rf"(?P<n>{COUNT})\s*(?:-\s*)?(?:x\s+)?"
    rf"(?:(?P<gpu>{_GPU_WORD}|{_MODEL})(?:[\s-]+(?:accelerated|enabled|capable))?[\s-]+"
    r"|(?:cpu|compute|worker|physical|whole|full|"
    rf"exclusive|dedicated|bare[\s-]metal)[\s-]+)?"
    rf"{alternation(lexicon.NODE_WORDS)}{_UNIT_END}",
    FLAGS,
)
_NODES_KEY_RE = re.compile(
    r"(?<![\w-])-{0,2}(?:number\s+of\s+nodes|node\s+count|nodes?)\s*(?:[:=]|of)?\s*"
    r"(?P<n>\d{1,7})(?![\w.])",
    FLAGS,
)
_GPUS_RE = re.compile(
    rf"(?P<n>{COUNT})\s*(?:-\s*)?(?:x\s*|\u00d7\s*)?"
    rf"(?:{_MODEL_PHRASE}(?:\s*{_GPU_WORD})?|(?:{_VENDOR}\s+)?{_GPU_WORD}){_UNIT_END}{_SCOPE}",
    FLAGS,
)
_GPUS_KEY_RE = re.compile(
    rf"(?<!\w){_GPU_WORD}(?P<scope>\s+per\s+node)?\s*[:=]\s*(?P<n>\d{{1,7}})(?![\w.])", FLAGS
)
_CORES_RE = re.compile(
    rf"(?P<n>{COUNT})\s*(?:-\s*)?(?:x\s*)?(?:{alternation(lexicon.CORE_WORDS)}){_UNIT_END}"
    rf"{_SCOPE}",
    FLAGS,
)
_CORES_KEY_RE = re.compile(
    r"(?<!\w)(?:cores?|cpus?)(?P<scope>\s+per\s+node)?\s*[:=]\s*(?P<n>\d{1,7})(?![\w.])", FLAGS
)
_RANKS_RE = re.compile(
    rf"(?P<n>{COUNT})\s*(?:-\s*)?(?P<word>{alternation(lexicon.RANK_WORDS)}){_UNIT_END}{_SCOPE}",
    FLAGS,
)
_MODEL_RE = re.compile(rf"(?<!\w){_MODEL_PHRASE}(?:\s+{_GPU_WORD})?(?!\w)", FLAGS)
_GPU_MENTION_RE = re.compile(
    rf"(?<!\w){_GPU_WORD}(?:[\s-]+(?:accelerated|enabled|capable|partition|queue|support))?"
    r"(?!\w)",
    FLAGS,
)
_TOTAL_RE = re.compile(TOTAL, FLAGS)
_PER_CORE_RE = re.compile(PER_CORE, FLAGS)
_JOIN_RE = re.compile(r"\s*,?\s*(?P<conn>or|and|plus|with|&|\+)?\s*(?:either\s+)?", FLAGS)

_MEMORY = alternation(lexicon.MEMORY_WORDS)
_MEMORY_SCOPE = rf"(?P<scope>{PER_NODE}|{TOTAL}|{PER_CORE})?"
_MEMORY_AFTER_RE = re.compile(rf"{SIZE}\s*(?:of\s+)?(?:{_MEMORY})(?!\w){_MEMORY_SCOPE}", FLAGS)
_MEMORY_BEFORE_RE = re.compile(
    rf"(?<!\w){_MEMORY}(?P<pre>\s+per\s+node)?\s*(?:[:=]|of|>=|at\s+least)?\s*"
    rf"(?:at\s+least\s+)?{SIZE}{_MEMORY_SCOPE}",
    FLAGS,
)
_MEMORY_SCOPED_RE = re.compile(rf"{SIZE}(?P<scope>{PER_NODE}|{PER_CORE})", FLAGS)


@dataclass(frozen=True)
class _Found:
    """A core or GPU count and where it sits in the text, for pairing."""

    kind: str
    start: int
    end: int
    count: Count
    scoped: bool


def extract_compute(scanner: Scanner, draft: Draft) -> None:
    """Every compute mention, most specific pattern first."""
    c = draft.compute

    def cpu_only(m: re.Match[str]) -> bool:
        c.cpu_only = c.cpu_only or Mention(True, m.group(0))
        return True

    def nodes(m: re.Match[str]) -> bool:
        n = to_count(m.group("n"))
        if n is None or not in_range(n, 1, MAX_NODES):
            return False
        c.nodes.append(Mention(n, m.group(0)))
        gpu = m.groupdict().get("gpu")
        if gpu:
            _record_model(draft, gpu, m.group(0))
            c.gpu_mentioned = True
        return True

    scanner.take(_CPU_ONLY_RE, cpu_only)
    scanner.take(_NODES_RE, nodes)
    scanner.take(_NODES_KEY_RE, nodes)
    _extract_counts(scanner, draft)
    scanner.take(_MODEL_RE, lambda m: _record_model(draft, m.group("model"), m.group(0)))
    scanner.take(_GPU_MENTION_RE, lambda m: _mention_gpu(draft))
    _extract_memory(scanner, draft)


def _extract_counts(scanner: Scanner, draft: Draft) -> None:
    """Cores and GPUs, then the AND/OR pairing of neighbours."""
    found: list[_Found] = []

    def record(kind: str, limit: int) -> Callable[[re.Match[str]], bool]:
        def handle(m: re.Match[str]) -> bool:
            n = to_count(m.group("n"))
            if n is None or not in_range(n, 0 if kind == "gpu" else 1, limit):
                return False
            scope = (m.groupdict().get("scope") or "").strip().lower()
            per_node = bool(scope) and not _TOTAL_RE.fullmatch(scope)
            count = Count(n, m.group(0), per_node)
            found.append(_Found(kind, m.start(), m.end(), count, bool(scope)))
            if kind == "gpu":
                model = m.groupdict().get("model")
                if model:
                    _record_model(draft, model, m.group(0))
            if kind == "rank" and _says_mpi(m.group("word")):
                draft.mpi_implied = True
            return True

        return handle

    scanner.take(_GPUS_RE, record("gpu", MAX_GPUS))
    scanner.take(_GPUS_KEY_RE, record("gpu", MAX_GPUS))
    scanner.take(_CORES_RE, record("core", MAX_CORES))
    scanner.take(_CORES_KEY_RE, record("core", MAX_CORES))
    scanner.take(_RANKS_RE, record("rank", MAX_CORES))
    found.sort(key=lambda f: f.start)
    for f, count in zip(found, _pair(scanner, draft, found), strict=True):
        (draft.compute.gpus if f.kind == "gpu" else draft.compute.cores).append(count)


def _pair(scanner: Scanner, draft: Draft, found: list[_Found]) -> list[Count]:
    """Join a core count and a GPU count that sit next to each other.

    "or" between them makes the GPU logic OR; a per-node scope on one of the pair, with none
    on the other, applies to both ("32 cores or 2 GPUs per node").

    Returns:
        The counts of ``found``, in order, with per-node scopes shared across each pair.
    """
    counts = [f.count for f in found]
    for i in range(len(found) - 1):
        a, b = found[i], found[i + 1]
        if "gpu" not in (a.kind, b.kind) or a.kind == b.kind:
            continue
        join = _JOIN_RE.fullmatch(scanner.text[a.end : b.start])
        if join is None:
            continue
        if (join.group("conn") or "").lower() == "or":
            draft.compute.gpu_or = True
        if a.scoped != b.scoped:
            scoped, other = (i, i + 1) if a.scoped else (i + 1, i)
            if counts[scoped].per_node:
                counts[other] = Count(counts[other].value, counts[other].text, per_node=True)
    return counts


def _says_mpi(word: str) -> bool:
    """Whether a rank word implies MPI: "MPI ranks" and "ranks" do, "tasks" alone does not."""
    word = word.lower()
    return "mpi" in word or word.startswith("rank")


def _record_model(draft: Draft, spelling: str, text: str) -> bool:
    model = lookup(lexicon.GPU_MODELS, spelling)
    if model is None:
        return False
    draft.compute.gpu_models.append(Mention(model, text))
    return True


def _mention_gpu(draft: Draft) -> bool:
    draft.compute.gpu_mentioned = True
    return True


def _extract_memory(scanner: Scanner, draft: Draft) -> None:
    """Memory: "64 GB of RAM", "memory: 512GB", "4 GB per core", "64 GB per node"."""
    c = draft.compute

    def handle(m: re.Match[str]) -> bool:
        size = size_in_gb(m)
        if size is None or not in_range(size, 1e-6, MAX_MEMORY_GB):
            return False
        scope = ((m.groupdict().get("pre") or "") + (m.group("scope") or "")).strip().lower()
        mention = Mention(size, m.group(0))
        if _PER_CORE_RE.fullmatch(scope):
            c.memory_per_core.append(mention)
        elif _TOTAL_RE.fullmatch(scope):
            c.memory_total.append(mention)
        else:
            c.memory_per_node.append(mention)
        return True

    scanner.take(_MEMORY_AFTER_RE, handle)
    scanner.take(_MEMORY_BEFORE_RE, handle)
    scanner.take(_MEMORY_SCOPED_RE, handle)
