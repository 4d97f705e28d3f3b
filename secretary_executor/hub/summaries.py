"""The text block of the hub's tool results: a few lines a person or a model reads at a glance.

Many hosts show a model only a tool's text, so the text is a summary written for reading
(a small table of the sites, then what to do next), never a JSON dump: the data is in the
structured content, at the level of detail asked for, and in full at the resources.
"""

from __future__ import annotations

from typing import Any

from endpoint_plugins.secretary import SiteDescription
from providers.wire import CheckStatus, Proposal
from secretary_executor.broker import NegotiationResult
from secretary_executor.hub.views import Detail
from secretary_executor.proposal_text import number_text, short_reason, start_text
from secretary_executor.select.registry import SelectionOutcome

_MARK = {
    CheckStatus.SATISFIED: "ok",
    CheckStatus.WAIT: "wait",
    CheckStatus.UNSATISFIED: "no",
    CheckStatus.UNKNOWN: "?",
}
_FACT_CHARS = 100
"""The longest value a fact line shows; longer lists and mappings are counted instead."""


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False)) + "  " + r[-1]
        for r in rows
    ]


def _proposal_row(p: Proposal) -> tuple[str, ...]:
    m, usable = p.metrics, p.verdict.compatible
    return (
        p.site,
        p.verdict.value,
        start_text(m.estimated_start_s) if usable else "-",
        number_text(m.estimated_cost_usd, "${:,.2f}") if usable else "-",
        number_text(m.free_nodes),
        short_reason(p),
    )


def negotiation_text(result: NegotiationResult, detail: Detail) -> str:
    """What ``negotiate_job`` says in words: the best verdict, a table of sites, next steps."""
    rid = result.request.request_id
    n = len(result.proposals)
    lines = [
        f"request {rid}: best verdict {result.verdict.value} "
        f"({n} site{'s' if n != 1 else ''}, {result.elapsed_s:.2f} s)"
    ]
    if result.missing:
        lines.append("the request leaves out: " + "; ".join(result.missing))
    header = ("site", "verdict", "start", "cost", "free", "reason")
    lines += _table([header, *(_proposal_row(p) for p in result.proposals)])
    if detail is not Detail.SUMMARY:
        for p in result.proposals:
            if p.checks:
                lines.append(f"checks at {p.site}:")
                lines += _check_lines(p)
    lines.append(
        f'next: select_proposal or dispatch_job with request_id "{rid}"; '
        + _more(detail, "each requirement's check", f"requests://{rid}")
    )
    return "\n".join(lines)


def selection_text(outcome: SelectionOutcome, request_id: str, detail: Detail) -> str:
    """What ``select_proposal`` says in words: the choice, the order, and why others were not."""
    chosen = outcome.chosen
    if chosen is None:
        lines = [f"{outcome.algorithm}: no site chosen"]
    else:
        lines = [f"{outcome.algorithm} chose {chosen.site}:"]
        lines += _table([("verdict", "start", "cost", "free", "reason"), _proposal_row(chosen)[1:]])
        if detail is not Detail.SUMMARY:
            lines += _check_lines(chosen)
    if outcome.ranked:
        lines.append("ranked: " + ", ".join(outcome.ranked))
    lines += [f"note: {n}" for n in outcome.notes]
    if chosen is not None:
        lines.append(f'next: dispatch_job with request_id "{request_id}"')
    return "\n".join(lines)


def site_text(site: SiteDescription, detail: Detail) -> str:
    """What ``describe_site`` says in words: identity, prices, providers found, tools."""
    prices = site.prices
    lines = [
        f"site {site.name} ({site.kind}, strategy {site.strategy})"
        + (f": {site.description}" if site.description else ""),
        f"prices per node-hour: cpu {number_text(prices.cpu_node_hour, '${:,.2f}')}, "
        f"gpu {number_text(prices.gpu_node_hour, '${:,.2f}')}",
    ]
    found = [p for p in site.providers if p.available]
    failed = [p for p in site.providers if not p.available and p.error]
    lines.append(
        f"providers found ({len(found)} of {len(site.providers)} probed): "
        + (", ".join(f"{p.provider} ({p.category.value})" for p in found) or "none")
    )
    lines += [f"  probe failed: {p.provider}: {p.error}" for p in failed]
    if detail is not Detail.SUMMARY:
        for p in found:
            lines.append(f"  {p.provider}: " + _facts(p.facts or {}))
    if detail is Detail.SUMMARY:
        lines.append(f"tools ({len(site.tools)}): " + ", ".join(t.name for t in site.tools))
    else:
        lines.append(f"tools ({len(site.tools)}):")
        lines += [f"  {t.name} [{t.kind.value}]: {_first_line(t.description)}" for t in site.tools]
    lines.append(_more(detail, "probe facts and tool descriptions", f"sites://{site.name}"))
    return "\n".join(lines)


def _check_lines(p: Proposal) -> list[str]:
    return [
        f"  [{_MARK[c.status]}] {c.requirement}" + (f": {c.detail}" if c.detail else "")
        for c in p.checks
    ]


def _more(detail: Detail, checks_gives: str, resource: str) -> str:
    if detail is Detail.SUMMARY:
        return f'more: detail="checks" ({checks_gives}), "evidence" (everything) or {resource}'
    if detail is Detail.CHECKS:
        return f'more: detail="evidence" (everything) or {resource}'
    return f"everything is in the structured content and at {resource}"


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _facts(facts: dict[str, Any]) -> str:
    return ", ".join(f"{key}={_fact(value)}" for key, value in facts.items()) or "no facts"


def _fact(value: Any) -> str:
    """A fact's value, or for a long list or mapping how many entries it has."""
    text = str(value)
    if len(text) <= _FACT_CHARS:
        return text
    if isinstance(value, list | tuple | dict):
        n = len(value)
        noun = "key" if isinstance(value, dict) else "item"
        return f"[{n} {noun}{'s' if n != 1 else ''}]"
    return text[: _FACT_CHARS - 3] + "..."
