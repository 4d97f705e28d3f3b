"""Each dashboard view, built from a :class:`DashboardSource` (pure reads, no site calls).

Functions here turn ledger rows and the hub's live state into the models of
:mod:`secretary_executor.dashboard.models`; the web layer only serialises them.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from providers.wire import CheckStatus, JobState, Proposal, Verdict
from secretary_executor.dashboard import queries
from secretary_executor.dashboard.models import (
    AttemptRow,
    CostRow,
    CostView,
    FleetView,
    GridCell,
    JobDetail,
    JobEventRow,
    JobRow,
    JobsView,
    ProposalRow,
    RequestDetail,
    RequestSummary,
    RequestsView,
    SelectionRow,
    SiteRow,
    SiteState,
)
from secretary_executor.dashboard.sources import DashboardSource
from secretary_executor.errors import UnknownJobError

MAX_ROWS = 200
"""Most requests or jobs one list returns (the newest)."""


class UnknownRequestError(UnknownJobError):
    """The ledger has no such request."""


def stamp(source: DashboardSource) -> str:
    """Changes when the ledger does, or a site goes UP or DOWN, or a description arrives."""
    with source.ledger.reading() as db:
        ledger = queries.stamp(db)
    states = "".join("u" if s.up else "d" for s in source.sites())
    return f"{ledger}/{states}/{len(source.descriptions())}"


def fleet(source: DashboardSource) -> FleetView:
    """Every site: liveness (live hubs), description and prices, latest capacity figures."""
    with source.ledger.reading() as db:
        latest = {p.site: p for p in queries.latest_proposals(db)}
    live = {s.name: s for s in source.sites()}
    described = source.descriptions()
    names = list(live) if source.live else sorted(latest)
    rows = []
    for name in names:
        site, proposal, description = live.get(name), latest.get(name), described.get(name)
        metrics = proposal.metrics if proposal else {}
        state = SiteState.UNKNOWN
        if site is not None:
            state = SiteState.UP if site.up else SiteState.DOWN
        prices = description.prices.model_dump(exclude_none=True) if description else {}
        rows.append(
            SiteRow(
                name=name,
                state=state,
                worker=site.worker if site else None,
                seconds_since_heartbeat=site.seconds_since_heartbeat if site else None,
                kind=description.kind if description else "",
                description=description.description if description else "",
                prices=prices,
                free_nodes=metrics.get("free_nodes"),
                total_nodes=metrics.get("total_nodes"),
                queue_depth=metrics.get("queue_depth"),
                price_per_node_hour=metrics.get("price_per_node_hour"),
                last_verdict=Verdict(proposal.verdict) if proposal else None,
                last_proposal_at=proposal.created_at if proposal else None,
            )
        )
    return FleetView(hub=source.name, live=source.live, sites=tuple(rows))


def requests(source: DashboardSource, limit: int = MAX_ROWS) -> RequestsView:
    """The newest requests with their verdict counts, chosen site and job count."""
    with source.ledger.reading() as db:
        rows = queries.recent_requests(db, limit)
        ids = [r["request_id"] for r in rows]
        verdicts = queries.verdict_counts(db, ids)
        chosen = queries.chosen_sites(db, ids)
        jobs = queries.job_counts(db, ids)
    return RequestsView(
        requests=tuple(
            RequestSummary(
                request_id=r["request_id"],
                created_at=r["created_at"],
                text=r["text"],
                proposals=sum(verdicts.get(r["request_id"], {}).values()),
                verdicts=verdicts.get(r["request_id"], {}),
                chosen=chosen.get(r["request_id"]),
                jobs=jobs.get(r["request_id"], 0),
            )
            for r in rows
        )
    )


def request_detail(source: DashboardSource, request_id: str) -> RequestDetail:
    """One request: requirements, proposals, the requirement x site grid, selections, jobs.

    Raises:
        UnknownRequestError: the ledger has no such request.
    """
    ledger = source.ledger
    request = ledger.request(request_id)
    if request is None:
        raise UnknownRequestError(f"unknown request {request_id!r}")
    with ledger.reading() as db:
        proposals = _latest_per_site(queries.answers(db, request_id))
        created = queries.request_created(db, request_id)
        picks = queries.selections(db, request_id)
        jobs = queries.jobs_of(db, request_id)
    requirements = request.requirements
    return RequestDetail(
        request_id=request_id,
        created_at=created or datetime.now(UTC),
        text=request.text,
        command=request.command,
        requirements=requirements.model_dump(mode="json", exclude_defaults=True)
        if requirements
        else {},
        requirement_rows=tuple(_requirement_rows(proposals)),
        sites=tuple(p.site for p in proposals),
        grid=tuple(_grid(proposals)),
        proposals=tuple(_proposal_row(p) for p in proposals),
        selections=tuple(_selection_row(r) for r in picks),
        attempts=tuple(
            AttemptRow(site=s, ok=ok, message=m) for s, ok, m in ledger.attempts(request_id)
        ),
        jobs=tuple(jobs),
    )


class _FromSite(Protocol):
    @property
    def site(self) -> str: ...


_P = TypeVar("_P", bound=_FromSite)


def _latest_per_site(proposals: Iterable[_P]) -> list[_P]:
    """A request negotiated twice keeps each site's latest answer, in first-answer order."""
    by_site: dict[str, _P] = {}
    for p in proposals:
        by_site[p.site] = p
    return list(by_site.values())


def _requirement_rows(answers: Iterable[queries.Answer]) -> list[str]:
    seen: dict[str, None] = {}
    for a in answers:
        for requirement, _, _ in a.checks:
            seen.setdefault(requirement)
    return list(seen)


def _grid(answers: list[queries.Answer]) -> Iterable[GridCell]:
    by_site = [{req: (status, detail) for req, status, detail in a.checks} for a in answers]
    for requirement in _requirement_rows(answers):
        for a, checks in zip(answers, by_site, strict=True):
            found = checks.get(requirement)
            if found is None:
                yield GridCell(site=a.site, requirement=requirement, detail=a.reason)
                continue
            status, detail = found
            yield GridCell(
                site=a.site, requirement=requirement, status=CheckStatus(status), detail=detail
            )


def site_proposal(source: DashboardSource, request_id: str, site: str) -> Proposal:
    """The site's latest proposal for the request, with every check and its evidence.

    Raises:
        UnknownRequestError: no proposal from that site for that request.
    """
    found = _latest_per_site(p for p in source.ledger.proposals(request_id) if p.site == site)
    if not found:
        raise UnknownRequestError(f"no proposal from site {site!r} for request {request_id!r}")
    return found[0]


def _proposal_row(a: queries.Answer) -> ProposalRow:
    m = a.metrics
    return ProposalRow(
        site=a.site,
        verdict=Verdict(a.verdict),
        reason=a.reason,
        free_nodes=m.get("free_nodes"),
        queue_depth=m.get("queue_depth"),
        estimated_start_s=m.get("estimated_start_s"),
        price_per_node_hour=m.get("price_per_node_hour"),
        estimated_cost_usd=m.get("estimated_cost_usd"),
    )


def _selection_row(row: sqlite3.Row) -> SelectionRow:
    body = json.loads(row["body"])
    return SelectionRow(
        algorithm=row["algorithm"],
        chosen=row["site"],
        ranked=tuple(body.get("ranked", ())),
        notes=tuple(body.get("notes", ())),
        at=row["created_at"],
    )


def _job_row(r: sqlite3.Row) -> JobRow:
    """A ``jobs`` row joined with its request's text (columns JobRow lacks are ignored)."""
    return JobRow.model_validate(dict(zip(r.keys(), r, strict=True)))


def jobs(source: DashboardSource, limit: int = MAX_ROWS) -> JobsView:
    """The newest jobs, newest first."""
    with source.ledger.reading() as db:
        rows = queries.recent_jobs(db, limit)
    return JobsView(jobs=tuple(_job_row(r) for r in rows))


def job_events(source: DashboardSource, ids: list[str]) -> dict[str, list[JobEventRow]]:
    """Each job's state changes, for the timeline."""
    with source.ledger.reading() as db:
        found = queries.events_of(db, ids)
    return {
        job_id: [JobEventRow(at=e["at"], state=e["state"], message=e["message"]) for e in events]
        for job_id, events in found.items()
    }


def job_detail(source: DashboardSource, job_id: str) -> JobDetail:
    """One job with every state change.

    Raises:
        UnknownJobError: the ledger has no such job.
    """
    with source.ledger.reading() as db:
        row = queries.job_row(db, job_id)
    if row is None:
        raise UnknownJobError(f"unknown job {job_id!r}", job_id=job_id)
    return JobDetail(
        job=_job_row(row),
        native_id=row["native_id"],
        provider=row["provider"],
        events=tuple(job_events(source, [job_id])[job_id]),
    )


def cost(source: DashboardSource, now: datetime | None = None) -> CostView:
    """Estimated against actual cost, per site and per UTC day (see :class:`CostView`)."""
    now = now or datetime.now(UTC)
    with source.ledger.reading() as db:
        facts = queries.cost_facts(db)
    by_site: dict[str, list[tuple[float, float | None]]] = defaultdict(list)
    by_day: dict[str, list[tuple[float, float | None]]] = defaultdict(list)
    for f in facts:
        figures = (float(f.metrics.get("estimated_cost_usd") or 0.0), _actual(f, now))
        by_site[f.site].append(figures)
        by_day[f.created_at.astimezone(UTC).date().isoformat()].append(figures)
    site_rows = tuple(_cost_row(k, v) for k, v in sorted(by_site.items()))
    day_rows = tuple(_cost_row(k, v) for k, v in sorted(by_day.items()))
    return CostView(
        by_site=site_rows,
        by_day=day_rows,
        total_estimated_usd=round(sum(r.estimated_usd for r in site_rows), 4),
        total_actual_usd=round(sum(r.actual_usd for r in site_rows), 4),
    )


def _actual(f: queries.CostFacts, now: datetime) -> float | None:
    """Price x nodes x hours run; None when the site quoted no price."""
    price = f.metrics.get("price_per_node_hour")
    if price is None:
        return None
    if f.state == JobState.PENDING.value:
        return 0.0
    start = f.started_at or f.created_at
    end = f.updated_at if JobState(f.state).terminal else now
    hours = max(0.0, (end - start).total_seconds()) / 3600
    return float(price) * f.nodes * hours


def _cost_row(key: str, figures: list[tuple[float, float | None]]) -> CostRow:
    return CostRow(
        key=key,
        jobs=len(figures),
        estimated_usd=round(sum(e for e, _ in figures), 4),
        actual_usd=round(sum(a for _, a in figures if a is not None), 4),
        unpriced=sum(1 for _, a in figures if a is None),
    )
