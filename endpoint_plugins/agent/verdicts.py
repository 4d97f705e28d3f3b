"""From the agent's final answer to a :class:`Proposal` that keeps the negotiator contract.

The model judges; this module makes its judgement safe to send: exactly one check per
requirement in request order (a requirement the model skipped is UNKNOWN, never assumed met),
each with the session's evidence for that requirement's category attached, a verdict that
cannot be more optimistic than the checks (a READY over an unsatisfied check becomes
INCOMPATIBLE), and metrics computed from the partitions the workload tools really reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import TypeAdapter, ValidationError

from endpoint_plugins.agent.schema import AgentVerdict
from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.negotiation.capacity import Plan, compute_label, fit_partition, make_plan
from endpoint_plugins.negotiation.checks import (
    container_label,
    mpi_label,
    network_label,
    software_label,
    storage_label,
)
from endpoint_plugins.negotiation.rules import UNRESOLVED_PREFIX, budget_label
from endpoint_plugins.negotiation.software import alternatives_label
from providers.facts import Partition
from providers.session import ToolSession
from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus, Evidence, Metrics, Verdict
from providers.wire.requirements import Requirements

_PARTITIONS: TypeAdapter[list[Partition]] = TypeAdapter(list[Partition])


@dataclass(frozen=True)
class RequirementItem:
    """One requirement as a check will name it, and the categories whose evidence backs it."""

    label: str
    categories: tuple[Category, ...]


def requirement_items(requirements: Requirements) -> list[RequirementItem]:
    """The requirements in the rules negotiator's order and with its labels.

    Compute is always present (READY versus BUSY is a statement about capacity) and draws on
    workload and hardware evidence; budget draws on workload evidence (partitions and prices).
    Unresolved phrases come last, one item each, as the rules negotiator quotes them.
    """
    items = [
        RequirementItem(software_label(s), (Category.SOFTWARE,)) for s in requirements.software
    ]
    items.extend(
        RequirementItem(alternatives_label(c), (Category.SOFTWARE,))
        for c in requirements.alternatives
    )
    items.append(
        RequirementItem(compute_label(requirements.compute), (Category.WORKLOAD, Category.HARDWARE))
    )
    if requirements.network is not None:
        items.append(RequirementItem(network_label(requirements.network), (Category.NETWORK,)))
    items.extend(
        RequirementItem(storage_label(s), (Category.STORAGE,)) for s in requirements.storage
    )
    if requirements.container is not None:
        items.append(
            RequirementItem(container_label(requirements.container), (Category.CONTAINER,))
        )
    if requirements.mpi is not None:
        items.append(RequirementItem(mpi_label(requirements.mpi), (Category.PARALLEL,)))
    if requirements.budget_usd is not None:
        items.append(RequirementItem(budget_label(requirements.budget_usd), (Category.WORKLOAD,)))
    # A phrase the parser could not read is judged too: the agent may confirm it from the
    # evidence (CPU flags for "AVX-512"), and without that the verdict cannot be READY.
    items.extend(
        RequirementItem(f"{UNRESOLVED_PREFIX}{phrase!r}", (Category.HARDWARE, Category.SOFTWARE))
        for phrase in requirements.unresolved
    )
    return items


def redact_partitions(evidence: Evidence, exposed: tuple[str, ...] | None) -> Evidence:
    """``list_partitions`` evidence without the partitions the site does not expose.

    Applied before the model sees a result and before evidence goes into a proposal: hidden
    partitions must appear in neither.
    """
    if (
        exposed is None
        or evidence.tool != "list_partitions"
        or not isinstance(evidence.result, list)
    ):
        return evidence
    allowed = set(exposed)
    kept = [p for p in evidence.result if not isinstance(p, dict) or p.get("name") in allowed]
    return evidence.model_copy(update={"result": kept})


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _match(label: str, verdict: AgentVerdict) -> tuple[CheckStatus, str] | None:
    """The agent's check for one requirement: exact name first, then one containing the other."""
    want = _norm(label)
    exact = [c for c in verdict.checks if _norm(c.requirement) == want]
    loose = [
        c
        for c in verdict.checks
        if _norm(c.requirement) and (_norm(c.requirement) in want or want in _norm(c.requirement))
    ]
    found = (exact or loose or [None])[0]
    if found is None:
        return None
    return CheckStatus(found.status), found.detail


def build_checks(
    items: list[RequirementItem],
    verdict: AgentVerdict | None,
    evidence: list[Evidence],
    categories: dict[str, Category],
    *,
    fallback_detail: str,
) -> list[Check]:
    """One check per requirement, in order, with the evidence of its categories attached.

    Args:
        items: the requirements (see :func:`requirement_items`).
        verdict: the agent's answer, or None when it gave none (every check is then UNKNOWN).
        evidence: every call the session recorded (already redacted).
        categories: provider name -> category, to attach evidence.
        fallback_detail: the detail of a check the agent did not judge.
    """
    checks: list[Check] = []
    for item in items:
        found = _match(item.label, verdict) if verdict is not None else None
        status, detail = found if found is not None else (CheckStatus.UNKNOWN, fallback_detail)
        attached = tuple(e for e in evidence if categories.get(e.provider) in item.categories)
        checks.append(
            Check(
                requirement=item.label,
                category=item.categories[0],
                status=status,
                detail=detail,
                evidence=attached,
            )
        )
    return checks


def reconcile(claimed: Verdict, checks: list[Check]) -> tuple[Verdict, str]:
    """The verdict the checks allow, and a note when it differs from the agent's claim.

    The agent may be more cautious than its checks (UNKNOWN over satisfied checks stays
    UNKNOWN), never more optimistic: an unsatisfied check makes INCOMPATIBLE, else an unknown
    one UNKNOWN, else a waiting one BUSY at best.
    """
    statuses = {c.status for c in checks}
    if CheckStatus.UNSATISFIED in statuses:
        allowed = Verdict.INCOMPATIBLE
    elif CheckStatus.UNKNOWN in statuses:
        allowed = Verdict.UNKNOWN
    elif CheckStatus.WAIT in statuses:
        allowed = Verdict.BUSY
    else:
        allowed = Verdict.READY
    rank = {Verdict.READY: 0, Verdict.BUSY: 1, Verdict.UNKNOWN: 2, Verdict.INCOMPATIBLE: 3}
    if claimed == allowed or (claimed is Verdict.UNKNOWN and allowed is not Verdict.INCOMPATIBLE):
        return claimed, ""
    if rank.get(claimed, 2) >= rank[allowed]:
        return claimed, ""
    return allowed, (
        f"The agent said {claimed.value}, but its own checks allow at most {allowed.value}."
    )


def metrics_from_evidence(
    requirements: Requirements, evidence: list[Evidence], context: NegotiationContext
) -> Metrics:
    """Metrics of the best fitting partition among those the workload tools reported.

    The same plan rules as the rules negotiator (fit, then within budget, start now, soonest,
    cheapest), so selectors rank agent and rules proposals alike. Empty when no
    ``list_partitions`` call succeeded or nothing fits.
    """
    plans: list[Plan] = []
    for item in evidence:
        if item.tool != "list_partitions" or item.error is not None:
            continue
        try:
            partitions = _PARTITIONS.validate_python(item.result)
        except ValidationError:
            continue
        for part in partitions:
            fit = fit_partition(requirements.compute, part, item.provider)
            if fit.fits:
                plans.append(make_plan(fit, requirements.compute, context, requirements.budget_usd))
    if not plans:
        return Metrics()
    return min(plans, key=Plan.rank_key).metrics()


def provider_categories(session: ToolSession) -> dict[str, Category]:
    """Provider name -> its category, for every provider present at the site."""
    out: dict[str, Category] = {}
    for provider in session.present():
        category = getattr(provider, "category", None)
        if isinstance(category, Category):
            out[provider.name] = category
    return out
