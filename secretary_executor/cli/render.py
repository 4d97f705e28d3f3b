"""Rich tables for people: proposals, checks, selections, jobs, algorithms."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from providers.wire import CheckStatus, JobState, Proposal, Verdict
from secretary_executor.ledger import JobEvent, JobRecord

VERDICT_STYLE = {
    Verdict.READY: "bold green",
    Verdict.BUSY: "yellow",
    Verdict.INCOMPATIBLE: "red",
    Verdict.NEEDS_INFORMATION: "magenta",
    Verdict.UNREACHABLE: "dim red",
    Verdict.UNKNOWN: "dim",
}
CHECK_MARK = {
    CheckStatus.SATISFIED: "[green]ok[/]",
    CheckStatus.WAIT: "[yellow]wait[/]",
    CheckStatus.UNSATISFIED: "[red]no[/]",
    CheckStatus.UNKNOWN: "[dim]?[/]",
}
STATE_STYLE = {
    JobState.COMPLETED: "green",
    JobState.FAILED: "red",
    JobState.TIMEOUT: "red",
    JobState.CANCELLED: "yellow",
    JobState.RUNNING: "cyan",
}


def _num(value: float | int | None, fmt: str = "{:,}") -> str:
    return "-" if value is None else fmt.format(value)


def _start(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1:
        return "now"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def proposals_table(proposals: Sequence[Proposal], *, chosen: str | None = None) -> Table:
    """One row per site: verdict, capacity, queue, start, price, cost, reason."""
    table = Table(title="Proposals", show_lines=False, expand=False)
    for col, justify in [
        ("Site", "left"),
        ("Verdict", "left"),
        ("Partition", "left"),
        ("Free/Total nodes", "right"),
        ("Queue", "right"),
        ("Start", "right"),
        ("$/node-h", "right"),
        ("Est. cost", "right"),
        ("Reason", "left"),
    ]:
        table.add_column(col, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for p in proposals:
        m = p.metrics
        mark = " [bold]<-[/]" if chosen == p.site else ""
        table.add_row(
            f"{p.site}{mark}",
            f"[{VERDICT_STYLE[p.verdict]}]{p.verdict.value}[/]",
            m.partition or "-",
            f"{_num(m.free_nodes)}/{_num(m.total_nodes)}",
            _num(m.queue_depth),
            _start(m.estimated_start_s),
            _num(m.price_per_node_hour, "{:.2f}"),
            _num(m.estimated_cost_usd, "${:,.2f}"),
            p.reason,
        )
    return table


def checks_table(proposal: Proposal) -> Table:
    """The checks behind one proposal, with the tools that gave the evidence."""
    table = Table(title=f"Checks at {proposal.site}", expand=False)
    table.add_column("Requirement")
    table.add_column("OK", justify="center")
    table.add_column("Detail", overflow="fold")
    table.add_column("Evidence (provider.tool)", overflow="fold")
    for check in proposal.checks:
        tools = ", ".join(
            f"{e.provider}.{e.tool}" + (" [red](error)[/]" if e.error else "")
            for e in check.evidence
        )
        table.add_row(check.requirement, CHECK_MARK[check.status], check.detail, tools or "-")
    return table


def print_proposals(
    console: Console,
    proposals: Sequence[Proposal],
    *,
    chosen: str | None = None,
    explain: bool = False,
) -> None:
    console.print(proposals_table(proposals, chosen=chosen))
    if explain:
        for p in proposals:
            if p.checks:
                console.print(checks_table(p))


def jobs_table(records: Sequence[JobRecord]) -> Table:
    table = Table(title="Jobs")
    for col in ("Job", "Site", "Native id", "State", "Exit", "Updated"):
        table.add_column(col)
    for r in records:
        style = STATE_STYLE.get(r.state, "")
        table.add_row(
            r.job_id,
            r.site,
            r.native_id,
            f"[{style}]{r.state.value}[/]" if style else r.state.value,
            _num(r.exit_code, "{}"),
            r.updated_at.strftime("%Y-%m-%d %H:%M:%S"),
        )
    return table


def events_table(events: Sequence[JobEvent]) -> Table:
    table = Table(title="State changes")
    table.add_column("At")
    table.add_column("State")
    table.add_column("Message", overflow="fold")
    for e in events:
        table.add_row(e.at.strftime("%H:%M:%S.%f")[:-3], e.state.value, e.message)
    return table
