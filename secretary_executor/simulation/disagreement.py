"""Where prompt text, intended requirement and parse disagree, and the three accuracy figures.

A wrong end-to-end verdict has three possible sources: the text did not state the intent, the
parser misread the text, or the negotiator misjudged a correctly read requirement. This module
separates them:

* **parse accuracy**: prompts whose parsed requirement equals the intended one (field by field);
* **decision accuracy given a correct parse**: the site's verdict when handed the intended
  requirement itself, against the truth;
* **end-to-end accuracy**: text -> parse -> decide, against the truth.

The text check reads the text literally (is each intended value written in it?), independently
of both the renderer's phrase tables and the parser, so a renderer that dropped a value would
show here even if the parser then "agreed" with the renderer.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from secretary_executor.simulation.audit import CaseResult
from secretary_executor.simulation.intent import LOW_LATENCY, Intent

EXAMPLES = 3
_IGNORED = frozenset({"source_text", "requested_at"})


class PromptRecord(BaseModel):
    """One prompt as the run saw it: text, intent, the wire forms intended and parsed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prompt_id: int
    index: int
    style: str
    text: str
    intent: Intent
    intended: dict[str, Any]
    """The wire requirement derived from the intent (``model_dump(mode="json")``)."""
    parsed: dict[str, Any]
    """The parser's reading of ``text``, in the same form."""

    def parse_differences(self) -> list[str]:
        """Field paths where the parse differs from the intent, e.g. ``compute.gpu_logic``."""
        return diff_fields(self.intended, self.parsed)

    def text_omissions(self) -> list[str]:
        return text_omissions(self.intent, self.text)


def diff_fields(want: Any, got: Any, path: str = "") -> list[str]:
    """Dotted paths at which two JSON values differ (lists compared whole, by their path)."""
    if isinstance(want, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(set(want) | set(got)):
            if key in _IGNORED:
                continue
            out += diff_fields(want.get(key), got.get(key), f"{path}.{key}" if path else key)
        return out
    return [] if want == got else [path or "(whole)"]


def _has(pattern: str, text: str) -> bool:
    return re.search(pattern, text, re.IGNORECASE) is not None


def text_omissions(intent: Intent, text: str) -> list[str]:
    """The intended values that the text does not state literally, by dimension."""
    flat = text.replace("-", "").replace(" ", "").lower()
    missing: list[str] = []
    checks: list[tuple[str, bool]] = [("application", intent.app.lower() in text.lower())]
    if intent.version is not None:
        checks.append(("version", intent.version.version in text))
    if intent.nodes is not None:
        checks.append(("nodes", _has(rf"\b{intent.nodes}\b[^,]*\bnodes?\b", text)))
    if intent.memory_gb_per_node is not None:
        checks.append(("memory", _has(rf"\b{intent.memory_gb_per_node:g} ?GB\b", text)))
    if intent.cores_per_node is not None and intent.gpus_per_node is not None:
        c, g = intent.cores_per_node, intent.gpus_per_node
        word = r"\bor\b" if intent.gpu_logic == "or" else r"\band\b"
        cores, gpus = rf"\b{c} cores\b", rf"\b{g} GPUs?\b"
        either = rf"({cores}[^,]*{word}[^,]*{gpus})|({gpus}[^,]*{word}[^,]*{cores})"
        checks.append((f"cores {intent.gpu_logic} GPUs", _has(either, text)))
    if intent.fabric == LOW_LATENCY:
        checks.append(("network", _has(r"latency|fast interconnect|rdma", text)))
    elif intent.fabric is not None:
        checks.append(("network", intent.fabric in flat))
    if intent.storage is not None:
        checks.append(("storage", intent.storage in flat))
    if intent.storage_free_gb is not None:
        gb = intent.storage_free_gb
        sizes = [f"{gb:g}gb"] + ([f"{gb / 1000:g}tb"] if gb >= 1000 else [])
        checks.append(("storage free space", any(s in flat for s in sizes)))
    if intent.mpi is not None:
        checks.append(("mpi", intent.mpi in flat))
    if intent.mpi_version is not None:
        checks.append(("mpi version", intent.mpi_version.version in text))
    if intent.container is not None:
        checks.append(("container", intent.container in flat))
    missing += [name for name, ok in checks if not ok]
    return missing


def _rate(hits: int, total: int) -> dict[str, Any]:
    return {"correct": hits, "total": total, "accuracy": hits / total if total else None}


def three_figures(cases: Sequence[CaseResult], records: Sequence[PromptRecord]) -> dict[str, Any]:
    """Parse, decision-given-a-correct-parse and end-to-end accuracy (see the module docstring).

    ``decision`` is None for results written before the intended verdict was recorded.
    """
    parse_ok = {c.prompt_id: c.parsed_as_generated for c in cases}
    if records:
        parse_ok = {r.prompt_id: not r.parse_differences() for r in records}
    with_intent = [c for c in cases if c.verdict_intended is not None]
    return {
        "parse": _rate(sum(parse_ok.values()), len(parse_ok)),
        "decision": (
            _rate(sum(c.verdict_intended is c.truth for c in with_intent), len(with_intent))
            if with_intent
            else None
        ),
        "end_to_end": _rate(sum(c.correct for c in cases), len(cases)),
    }


def _example(record: PromptRecord | None, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"prompt_id": None, "text": None}
    if record is not None:
        base = {"prompt_id": record.prompt_id, "text": record.text}
    return {**base, **extra}


def disagreements(
    cases: Iterable[CaseResult], records: Sequence[PromptRecord], examples: int = EXAMPLES
) -> list[dict[str, Any]]:
    """Rows ``{kind, level, count, examples}``, most frequent first.

    Kinds: ``text omits <dimension>`` and ``parse differs: <field>`` (counted per prompt),
    ``verdict on parse != on intent: A -> B`` and ``truth faithful A, independent B``
    (counted per case).
    """
    by_id = {r.prompt_id: r for r in records}
    counts: Counter[tuple[str, str]] = Counter()
    shown: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)

    def add(kind: str, level: str, example: dict[str, Any]) -> None:
        counts[(kind, level)] += 1
        if len(shown[(kind, level)]) < examples:
            shown[(kind, level)].append(example)

    for r in records:
        for dim in r.text_omissions():
            add(f"text omits {dim}", "prompt", _example(r, intent=r.intent.model_dump()))
        for field in r.parse_differences():
            want, got = r.intended, r.parsed
            for part in field.split("."):
                want = want.get(part) if isinstance(want, dict) else None
                got = got.get(part) if isinstance(got, dict) else None
            add(f"parse differs: {field}", "prompt", _example(r, intended=want, parsed=got))
    for c in cases:
        r = by_id.get(c.prompt_id)
        if c.verdict_intended is not None and c.verdict_intended is not c.verdict:
            kind = f"verdict on parse != on intent: {c.verdict_intended.value} -> {c.verdict.value}"
            add(kind, "case", _example(r, site=c.site, truth=c.truth.value))
        faithful, independent = c.truths.get("faithful"), c.truths.get("independent")
        if faithful is not None and independent is not None and faithful is not independent:
            kind = f"truth faithful {faithful.value}, independent {independent.value}"
            add(kind, "case", _example(r, site=c.site, unmet=list(c.unmet)))
    return [
        {"kind": kind, "level": level, "count": n, "examples": shown[(kind, level)]}
        for (kind, level), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
