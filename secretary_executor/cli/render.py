"""Rich tables for people: proposals, checks, selections, jobs, algorithms."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from providers.wire import CheckStatus, JobState, Proposal, Verdict
from secretary_executor.ledger import JobEvent, JobRecord
from secretary_executor.proposal_text import number_text as _num
from secretary_executor.proposal_text import short_reason as short_reason
from secretary_executor.proposal_text import start_text as _start

REPORT_WIDTH = 140
"""Width of tables written to a pipe or a CI log (rich would assume 80 and fold every cell)."""


def make_console(*, stderr: bool = False) -> Console:
    """A console that keeps the terminal's width, and is wide enough when output is captured."""
    probe = Console(stderr=stderr)
    return probe if probe.is_terminal else Console(stderr=stderr, width=REPORT_WIDTH)


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
    JobState.SIMULATED: "magenta",
    JobState.FAILED: "red",
    JobState.TIMEOUT: "red",
    JobState.CANCELLED: "yellow",
    JobState.RUNNING: "cyan",
}


def proposals_table(proposals: Sequence[Proposal], *, chosen: str | None = None) -> Table:
    """One row per site: verdict, capacity, queue, start, price, cost, and a short reason.

    Start and cost are left blank for sites that cannot run the job: they would suggest an
    option that does not exist.
    """
    table = Table(title="Proposals", show_lines=False, expand=False)
    for col, justify in [
        ("Site", "left"),
        ("Verdict", "left"),
        ("Partition", "left"),
        ("Free/Total", "right"),
        ("Queue", "right"),
        ("Start", "right"),
        ("$/node-h", "right"),
        ("Est. cost", "right"),
        ("Reason", "left"),
    ]:
        table.add_column(
            col,
            justify=justify,  # type: ignore[arg-type]
            overflow="fold",
        )
    for p in proposals:
        m = p.metrics
        mark = " [bold]<-[/]" if chosen == p.site else ""
        usable = p.verdict.compatible
        table.add_row(
            f"{p.site}{mark}",
            f"[{VERDICT_STYLE[p.verdict]}]{p.verdict.value}[/]",
            m.partition or "-",
            f"{_num(m.free_nodes)}/{_num(m.total_nodes)}",
            _num(m.queue_depth),
            _start(m.estimated_start_s) if usable else "-",
            _num(m.price_per_node_hour, "{:.2f}"),
            _num(m.estimated_cost_usd, "${:,.2f}") if usable else "-",
            short_reason(p),
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
