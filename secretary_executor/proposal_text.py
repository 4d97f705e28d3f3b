"""Plain words for a proposal, shared by the command line's tables and the hub's tool summaries.

One place decides how a wait and a short reason read, so a person at the terminal and an agent
reading a tool's summary see the same phrasing for the same proposal.
"""

from __future__ import annotations

from providers.wire import Proposal, Verdict


def number_text(value: float | int | None, fmt: str = "{:,}") -> str:
    """A number for a table cell; ``-`` when the site could not say."""
    return "-" if value is None else fmt.format(value)


def start_text(seconds: float | None) -> str:
    """An estimated wait in the unit a person reads at a glance (now, minutes, hours)."""
    if seconds is None:
        return "-"
    if seconds < 1:
        return "now"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def short_reason(proposal: Proposal, limit: int = 70) -> str:
    """A reason that fits a table cell: what failed or why it waits; the full text is in --json."""
    if proposal.verdict is Verdict.READY:
        return "all requirements met"
    if proposal.verdict is Verdict.INCOMPATIBLE:
        failing = [c.requirement for c in proposal.failing_checks()]
        text = "fails " + "; ".join(failing) if failing else proposal.reason
    elif proposal.verdict is Verdict.BUSY:
        m = proposal.metrics
        text = f"no free nodes now: ~{start_text(m.estimated_start_s)} wait"
        if m.queue_depth is not None:
            text += f", {m.queue_depth} jobs queued"
    elif proposal.verdict is Verdict.NEEDS_INFORMATION:
        text = "add " + (proposal.missing[0] if proposal.missing else "more detail")
    else:
        text = proposal.reason
    return text if len(text) <= limit else text[: limit - 3] + "..."
