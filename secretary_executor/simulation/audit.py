"""The auditor: per-case correctness and the figures of a negotiation run.

Every figure is reported beside two trivial baselines, "always INCOMPATIBLE" and "always
READY", because accuracy alone flatters a system when most cases are incompatible (the paper's
87.71 % was below the 89.8 % of always answering INCOMPATIBLE). The most dangerous error is a
false READY: a READY or BUSY verdict for a site that cannot run the job.

Tool-call score (the paper's "satisfied / required" over categories): for a compatible case the
required categories are every category the requirement touches (compute always); for an
incompatible case any one failing category is a definitive answer, so the score is 1 when the
proposal's evidence explored a failing category and 0 otherwise. Categories the site has no
provider for are never required (there is no tool to call). With nothing required the score
is 1.

Undecided answers: an UNKNOWN (the site could not decide) or UNREACHABLE (it did not answer)
counts against accuracy, as in the paper, but is reported apart from a *wrong* answer (a
definite verdict that disagrees with the truth): the first costs a retry, the second a
misplaced job. The cost of reaching each answer (the proposal's ``usage``: model calls, tokens,
model seconds; and its ``elapsed_s``) is kept per case and summarised by that outcome, so a
model-backed strategy's UNKNOWNs show what they burned. Rules proposals carry no usage: their
token figures are None ("-" in the report), never an error.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from statistics import fmean, median
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from providers.wire.common import Category
from providers.wire.proposal import ModelUsage, Proposal, Verdict
from secretary_executor.simulation.truth import Truth

VERDICTS: tuple[Verdict, ...] = (
    Verdict.READY,
    Verdict.BUSY,
    Verdict.INCOMPATIBLE,
    Verdict.NEEDS_INFORMATION,
    Verdict.UNKNOWN,
    Verdict.UNREACHABLE,
)
TOOL_CATEGORIES: dict[str, Category] = {
    "list_partitions": Category.WORKLOAD,
    "capacity_summary": Category.WORKLOAD,
    "find_software": Category.SOFTWARE,
    "list_software": Category.SOFTWARE,
    "package_dependencies": Category.SOFTWARE,
    "runtime_info": Category.CONTAINER,
    "list_filesystems": Category.STORAGE,
    "list_interfaces": Category.NETWORK,
    "cpu_info": Category.HARDWARE,
    "memory_info": Category.HARDWARE,
    "gpu_info": Category.HARDWARE,
    "mpi_info": Category.PARALLEL,
}
"""Which category each standard tool explores."""
COMPATIBLE = frozenset({Verdict.READY, Verdict.BUSY})
UNDECIDED = frozenset({Verdict.UNKNOWN, Verdict.UNREACHABLE})
"""Verdicts that are no answer: counted apart from wrong ones."""
OUTCOMES: tuple[str, ...] = ("correct", "wrong", Verdict.UNKNOWN.value, Verdict.UNREACHABLE.value)
"""How a case ended, in report order (see :func:`outcome`)."""


class CaseResult(BaseModel):
    """One (site, prompt) case: what the site said, what it should have said, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    worker_id: str
    site: str
    archetype: str
    prompt_id: int
    index: int
    style: str
    truth: Verdict
    verdict: Verdict
    correct: bool
    parsed_as_generated: bool
    """The parser gave back exactly the prompt's generated requirement."""
    verdict_intended: Verdict | None = None
    """The verdict when the site was given the intended requirement instead of the parsed
    text (equal to ``verdict`` when the parse was right; None in older results)."""
    truths: dict[str, Verdict] = {}
    """Every truth mode's verdict (``independent``, ``faithful``); ``truth`` is the chosen one."""
    explored: tuple[Category, ...] = ()
    required: tuple[Category, ...] = ()
    tool_score: float = Field(ge=0, le=1)
    unmet: tuple[str, ...] = ()
    reason: str = ""
    partition: str | None = None
    estimated_cost_usd: float | None = None
    elapsed_s: float = 0.0
    """The proposal's own negotiation time at the site (the per-case latency)."""
    usage: ModelUsage | None = None
    """The proposal's model cost; None when no model was asked (rules, and older results)."""


def explored_categories(proposal: Proposal) -> tuple[Category, ...]:
    """Categories the proposal's evidence shows were explored, in first-seen order."""
    seen: dict[Category, None] = {}
    for check in proposal.checks:
        for ev in check.evidence:
            cat = TOOL_CATEGORIES.get(ev.tool)
            if cat is not None:
                seen.setdefault(cat)
    return tuple(seen)


def tool_score(
    truth: Truth, explored: Iterable[Category], present: set[Category]
) -> tuple[float, tuple[Category, ...]]:
    """The tool-call score and the required categories (see the module docstring)."""
    done = set(explored)
    if truth.verdict is Verdict.INCOMPATIBLE:
        required = tuple(c for c in truth.failing if c in present)
        if not required:
            return 1.0, ()
        return (1.0 if done & set(required) else 0.0), required
    required = tuple(c for c in truth.needed if c in present)
    if not required:
        return 1.0, ()
    return sum(c in done for c in required) / len(required), required


def audit_case(
    *,
    worker_id: str,
    archetype: str,
    prompt: Any,
    parsed_ok: bool,
    truth: Truth,
    proposal: Proposal,
    present: set[Category],
    verdict_intended: Verdict | None = None,
    truths: dict[str, Verdict] | None = None,
) -> CaseResult:
    """Compare one proposal with the truth."""
    explored = explored_categories(proposal)
    score, required = tool_score(truth, explored, present)
    return CaseResult(
        worker_id=worker_id,
        site=proposal.site,
        archetype=archetype,
        prompt_id=prompt.prompt_id,
        index=prompt.index,
        style=prompt.style,
        truth=truth.verdict,
        verdict=proposal.verdict,
        correct=proposal.verdict is truth.verdict,
        parsed_as_generated=parsed_ok,
        verdict_intended=verdict_intended,
        truths=truths or {},
        explored=explored,
        required=required,
        tool_score=round(score, 6),
        unmet=truth.unmet,
        reason=proposal.reason[:500],
        partition=proposal.metrics.partition,
        estimated_cost_usd=proposal.metrics.estimated_cost_usd,
        elapsed_s=proposal.elapsed_s,
        usage=proposal.usage,
    )


def outcome(case: CaseResult) -> str:
    """``correct``, ``wrong`` (a definite verdict that disagrees), ``UNKNOWN`` or
    ``UNREACHABLE`` (no answer, whatever the truth)."""
    if case.verdict in UNDECIDED:
        return case.verdict.value
    return "correct" if case.correct else "wrong"


# -- figures ---------------------------------------------------------------------------------


def figures(truths: Sequence[Verdict], verdicts: Sequence[Verdict]) -> dict[str, Any]:
    """Accuracy, balanced accuracy, false-READY count and compatible-class F1.

    Balanced accuracy is the mean recall over the truth classes present. Compatible-class F1
    treats READY and BUSY as "compatible" on both sides. ``correct + wrong + unknown +
    unreachable == cases``: ``wrong`` counts only definite verdicts, and ``decided_accuracy``
    (None when nothing was decided) is ``correct / (correct + wrong)``.
    """
    n = len(truths)
    correct = sum(t is v for t, v in zip(truths, verdicts, strict=True))
    per_class: dict[Verdict, list[int]] = defaultdict(lambda: [0, 0])
    for t, v in zip(truths, verdicts, strict=True):
        per_class[t][1] += 1
        per_class[t][0] += t is v
    recalls = [hit / total for hit, total in per_class.values() if total]
    tp = sum(t in COMPATIBLE and v in COMPATIBLE for t, v in zip(truths, verdicts, strict=True))
    fp = sum(t not in COMPATIBLE and v in COMPATIBLE for t, v in zip(truths, verdicts, strict=True))
    fn = sum(t in COMPATIBLE and v not in COMPATIBLE for t, v in zip(truths, verdicts, strict=True))
    f1 = 2 * tp / (2 * tp + fp + fn) if (2 * tp + fp + fn) else 0.0
    wrong = sum(t is not v and v not in UNDECIDED for t, v in zip(truths, verdicts, strict=True))
    return {
        "cases": n,
        "accuracy": correct / n if n else 0.0,
        "balanced_accuracy": sum(recalls) / len(recalls) if recalls else 0.0,
        "false_ready": fp,
        "false_incompatible": fn,
        "f1_compatible": f1,
        "unknown": sum(v is Verdict.UNKNOWN for v in verdicts),
        "unreachable": sum(v is Verdict.UNREACHABLE for v in verdicts),
        "correct": correct,
        "wrong": wrong,
        "decided_accuracy": correct / (correct + wrong) if correct + wrong else None,
    }


BASELINES: dict[str, Callable[[Verdict], Verdict]] = {
    "always_incompatible": lambda _t: Verdict.INCOMPATIBLE,
    "always_ready": lambda _t: Verdict.READY,
}


def with_baselines(cases: Sequence[CaseResult]) -> dict[str, Any]:
    """The figures of ``cases`` and of each trivial baseline on the same cases."""
    truths = [c.truth for c in cases]
    out: dict[str, Any] = {"secretary": figures(truths, [c.verdict for c in cases])}
    for name, rule in BASELINES.items():
        out[name] = figures(truths, [rule(t) for t in truths])
    scores = [c.tool_score for c in cases]
    out["secretary"]["tool_call_score"] = sum(scores) / len(scores) if scores else 0.0
    return out


def confusion(cases: Iterable[CaseResult]) -> dict[str, Any]:
    """Counts of (truth, verdict) over every verdict, UNKNOWN and UNREACHABLE included."""
    counts = Counter((c.truth, c.verdict) for c in cases)
    labels = [v.value for v in VERDICTS]
    matrix = [[counts[(t, v)] for v in VERDICTS] for t in VERDICTS]
    return {"labels": labels, "rows": "truth", "columns": "verdict", "matrix": matrix}


def breakdown(cases: Sequence[CaseResult], key: Callable[[CaseResult], Any]) -> dict[str, Any]:
    """:func:`with_baselines` per group of ``key``."""
    groups: dict[Any, list[CaseResult]] = defaultdict(list)
    for c in cases:
        groups[key(c)].append(c)
    return {str(k): with_baselines(groups[k]) for k in sorted(groups)}


def tool_score_bins(cases: Sequence[CaseResult], bins: int = 5) -> list[dict[str, Any]]:
    """Accuracy of the cases whose tool-call score falls in each of ``bins`` equal bins."""
    rows = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        sel = [
            c for c in cases if low <= c.tool_score < high or (b == bins - 1 and c.tool_score == 1)
        ]
        acc = sum(c.correct for c in sel) / len(sel) if sel else None
        rows.append({"low": low, "high": high, "cases": len(sel), "accuracy": acc})
    return rows


def _per_case(values: Sequence[float]) -> dict[str, float] | None:
    """Mean and median of ``values``; None when there are none (shown as "-")."""
    if not values:
        return None
    return {"mean": round(fmean(values), 6), "median": round(median(values), 6)}


def usage_block(cases: Sequence[CaseResult]) -> dict[str, Any]:
    """Totals and per-case mean/median of the model cost and latency of ``cases``.

    Token, call and model-second figures per case are over the cases that consulted a model
    (``with_model``), so a hybrid run that re-read a tenth of its requests is not diluted by
    the rest; latency (``elapsed_s``) is over every case.
    """
    used = [c.usage for c in cases if c.usage is not None]
    return {
        "cases": len(cases),
        "with_model": len(used),
        "model_calls": sum(u.model_calls for u in used),
        "prompt_tokens": sum(u.prompt_tokens for u in used),
        "completion_tokens": sum(u.completion_tokens for u in used),
        "total_tokens": sum(u.total_tokens for u in used),
        "model_seconds": round(sum(u.seconds for u in used), 6),
        "elapsed_s": round(sum(c.elapsed_s for c in cases), 6),
        "tokens_per_case": _per_case([u.total_tokens for u in used]),
        "model_calls_per_case": _per_case([u.model_calls for u in used]),
        "model_seconds_per_case": _per_case([u.seconds for u in used]),
        "elapsed_s_per_case": _per_case([c.elapsed_s for c in cases]),
    }


def usage_summary(cases: Sequence[CaseResult]) -> dict[str, Any]:
    """:func:`usage_block` over all cases and per :func:`outcome` (every outcome present,
    empty ones with zero cases), so UNKNOWN answers show their own tokens and latency."""
    groups: dict[str, list[CaseResult]] = {name: [] for name in OUTCOMES}
    for c in cases:
        groups[outcome(c)].append(c)
    return {
        "overall": usage_block(cases),
        "by_outcome": {name: usage_block(group) for name, group in groups.items()},
    }


def summarise(cases: Sequence[CaseResult]) -> dict[str, Any]:
    """Everything ``summary.json`` holds about the verdicts (the run's settings are added
    by the caller)."""
    return {
        "overall": with_baselines(cases),
        "confusion": confusion(cases),
        "by_index": breakdown(cases, lambda c: c.index),
        "by_archetype": breakdown(cases, lambda c: c.archetype),
        "by_style": breakdown(cases, lambda c: c.style),
        "tool_score_bins": tool_score_bins(cases),
        "truth_distribution": dict(sorted(Counter(c.truth.value for c in cases).items())),
        "parse_mismatches": sum(not c.parsed_as_generated for c in cases),
        "usage": usage_summary(cases),
    }
