"""How much of a negotiation, a selection or a site manifest a hub tool returns:
``summary``, ``checks`` or ``evidence``.

A negotiation of six sites with every tool call behind every check is tens of kilobytes; an
agent that only needs to pick a site pays for all of it in its context. So the hub's tools
return a summary by default and the rest on request. Every level keeps one shape (the view
models below): ``evidence`` is the full record, and the lower levels are the same objects with
fields left out, so a client reads ``proposals[i].verdict`` the same way at every level and the
structured content validates against one output schema.

The resources (``requests://``, ``sites://``, ``jobs://``) always give everything.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from endpoint_plugins.secretary import SiteDescription
from providers.state import Prices
from providers.tools import ToolKind
from providers.wire import JobRequest, Proposal, Verdict
from providers.wire.common import Category, WireModel
from secretary_executor.broker import NegotiationResult
from secretary_executor.proposal_text import short_reason
from secretary_executor.select.registry import SelectionOutcome


class Detail(StrEnum):
    """How much a tool returns; each level holds everything of the one before."""

    SUMMARY = "summary"
    """Per site the verdict, a short reason and the key numbers (start, cost, free nodes)."""
    CHECKS = "checks"
    """Plus each requirement's check (satisfied, wait, unsatisfied or unknown, with detail)."""
    EVIDENCE = "evidence"
    """Everything: the tool calls behind every check, the request, timings."""


DETAIL_LEVELS: tuple[str, ...] = tuple(d.value for d in Detail)

REASON_CHARS = 160
"""The longest reason a summary carries (the full text is at ``evidence``)."""

SUMMARY_METRICS = ("partition", "free_nodes", "estimated_start_s", "estimated_cost_usd")
"""The numbers an agent ranks sites by; the rest of the metrics are at ``evidence``."""


def detail_level(value: str) -> Detail:
    """The level named by a tool's ``detail`` argument.

    Raises:
        MCPError: INVALID_PARAMS naming the valid levels: a wrong level is the caller's
            mistake, to be corrected, not a failure of the tool.
    """
    try:
        return Detail(value)
    except ValueError:
        raise MCPError(
            INVALID_PARAMS,
            f"unknown detail {value!r}; use one of {', '.join(DETAIL_LEVELS)}",
        ) from None


class NegotiationView(WireModel):
    """``negotiate_job``'s result at one level of detail.

    ``proposals`` holds one proposal per site at every level: at ``summary`` only ``site``,
    ``verdict``, a short ``reason`` and the key ``metrics``; ``checks`` adds ``checks``
    (without their evidence) and ``missing``; ``evidence`` is the proposals as the sites sent
    them, and adds ``request``.
    """

    detail: Detail
    request_id: str
    """Pass it to select_proposal and dispatch_job."""
    verdict: Verdict
    """The best verdict of any site (READY > BUSY > NEEDS_INFORMATION > ...)."""
    missing: tuple[str, ...] = ()
    elapsed_s: float = 0.0
    proposals: tuple[Proposal, ...]
    request: JobRequest | None = None
    """The request as the sites judged it (``evidence`` only)."""


def proposal_view(proposal: Proposal, detail: Detail) -> dict[str, Any]:
    """One proposal as JSON at ``detail``."""
    if detail is Detail.EVIDENCE:
        return proposal.model_dump(mode="json")
    metrics = proposal.metrics.model_dump(mode="json", include=set(SUMMARY_METRICS))
    out: dict[str, Any] = {
        "site": proposal.site,
        "verdict": proposal.verdict.value,
        "reason": short_reason(proposal, REASON_CHARS),
        "metrics": {k: v for k, v in metrics.items() if v is not None},
    }
    if detail is Detail.CHECKS:
        out["checks"] = [c.model_dump(mode="json", exclude={"evidence"}) for c in proposal.checks]
        if proposal.missing:
            out["missing"] = list(proposal.missing)
    return out


def negotiation_view(result: NegotiationResult, detail: Detail) -> dict[str, Any]:
    """``result`` as ``negotiate_job``'s structured content at ``detail``."""
    out: dict[str, Any] = {
        "detail": detail.value,
        "request_id": result.request.request_id,
        "verdict": result.verdict.value,
        "missing": list(result.missing),
        "elapsed_s": result.elapsed_s,
        "proposals": [proposal_view(p, detail) for p in result.proposals],
    }
    if detail is Detail.EVIDENCE:
        out["request"] = result.request.model_dump(mode="json")
    return out


class SelectionView(WireModel):
    """``select_proposal``'s result at one level of detail: ``chosen`` is cut as a proposal of
    ``negotiate_job`` is at the same level."""

    detail: Detail
    chosen: Proposal | None
    algorithm: str
    ranked: tuple[str, ...] = ()
    """The algorithm's full order of site names, which dispatch walks for failover."""
    notes: tuple[str, ...] = ()


def selection_view(outcome: SelectionOutcome, detail: Detail) -> dict[str, Any]:
    """``outcome`` as ``select_proposal``'s structured content at ``detail``."""
    out = outcome.model_dump(mode="json")
    out["detail"] = detail.value
    if outcome.chosen is not None:
        out["chosen"] = proposal_view(outcome.chosen, detail)
    return out


class ProviderLine(WireModel):
    """A provider of a site: at ``summary`` whether it was found; ``checks`` adds its facts
    and error; ``evidence`` adds the probe's timing (the full probe report)."""

    provider: str
    category: Category
    available: bool
    facts: dict[str, Any] | None = None
    error: str | None = None
    elapsed_s: float | None = None
    probed_at: datetime | None = None


class ToolLine(WireModel):
    """A tool of a site: at ``summary`` its name and kind; ``checks`` adds its description;
    ``evidence`` adds its argument and result schemas (the full manifest entry)."""

    name: str
    kind: ToolKind
    provider: str | None = None
    tool: str | None = None
    description: str | None = None
    parameters: dict[str, Any] | None = None
    returns: dict[str, Any] | None = None


class SiteView(WireModel):
    """``describe_site``'s result at one level of detail.

    Below ``evidence``, ``providers`` lists only the providers found at the site (or whose
    probe failed); ``evidence`` lists every provider probed, as the site sent them.
    """

    detail: Detail
    name: str
    kind: str
    description: str = ""
    prices: Prices = Prices()
    strategy: str = "rules"
    elapsed_s: float = 0.0
    providers: tuple[ProviderLine, ...] = ()
    tools: tuple[ToolLine, ...] = ()


_PROVIDER_KEYS = {
    Detail.SUMMARY: {"provider", "category", "available"},
    Detail.CHECKS: {"provider", "category", "available", "facts", "error"},
}
_TOOL_KEYS = {
    Detail.SUMMARY: {"name", "kind"},
    Detail.CHECKS: {"name", "kind", "description"},
}


def site_view(site: SiteDescription, detail: Detail) -> dict[str, Any]:
    """``site`` as ``describe_site``'s structured content at ``detail``."""
    out = site.model_dump(mode="json")
    out["detail"] = detail.value
    if detail is Detail.EVIDENCE:
        return out
    found = [p for p in out["providers"] if p["available"] or p.get("error")]
    out["providers"] = [_only(p, _PROVIDER_KEYS[detail]) for p in found]
    out["tools"] = [_only(t, _TOOL_KEYS[detail]) for t in out["tools"]]
    return out


def _only(item: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k in keys and v is not None}
