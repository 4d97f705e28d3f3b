"""What the dashboard's JSON API returns: one pydantic model per view.

The browser builds its pages from these (with ``textContent``, never markup), so every string
in them is data from sites and requests, to be shown as text and never interpreted.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from providers.wire import CheckStatus, JobState, Verdict
from providers.wire.common import WireModel


class SiteState(StrEnum):
    """UP / DOWN as the hub's registry says; UNKNOWN when only a ledger is read (no live view)."""

    UP = "UP"
    DOWN = "DOWN"
    UNKNOWN = "UNKNOWN"


class SiteRow(WireModel):
    """One site of the fleet view: liveness from the hub, capacity from its latest proposal."""

    name: str
    state: SiteState = SiteState.UNKNOWN
    worker: str | None = None
    seconds_since_heartbeat: float | None = None
    kind: str = ""
    description: str = ""
    prices: dict[str, float] = {}
    """The site's list prices per node-hour, by node type (from its description)."""
    free_nodes: int | None = None
    total_nodes: int | None = None
    queue_depth: int | None = None
    price_per_node_hour: float | None = None
    """The price its latest proposal quoted."""
    last_verdict: Verdict | None = None
    last_proposal_at: datetime | None = None


class FleetView(WireModel):
    hub: str
    live: bool
    """False for ``secretary dashboard --ledger``: states and heartbeats are not known."""
    sites: tuple[SiteRow, ...]


class RequestSummary(WireModel):
    """One line of the requests list."""

    request_id: str
    created_at: datetime
    text: str
    proposals: int
    verdicts: dict[str, int]
    chosen: str | None = None
    jobs: int = 0


class RequestsView(WireModel):
    requests: tuple[RequestSummary, ...]


class GridCell(WireModel):
    """One requirement at one site: the check's status and why. The tool calls behind it come
    from ``api/requests/ID/sites/SITE`` when the cell is opened: with a thousand sites they
    would make the grid megabytes that nobody reads all of."""

    site: str
    requirement: str
    status: CheckStatus | None = None
    """None when the site's proposal has no check for this requirement (e.g. UNREACHABLE)."""
    detail: str = ""


class ProposalRow(WireModel):
    site: str
    verdict: Verdict
    reason: str = ""
    free_nodes: int | None = None
    queue_depth: int | None = None
    estimated_start_s: float | None = None
    price_per_node_hour: float | None = None
    estimated_cost_usd: float | None = None


class SelectionRow(WireModel):
    algorithm: str
    chosen: str | None
    ranked: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    at: datetime


class AttemptRow(WireModel):
    site: str
    ok: bool
    message: str


class RequestDetail(WireModel):
    """The "why not here" view of one request."""

    request_id: str
    created_at: datetime
    text: str
    command: tuple[str, ...] = ()
    requirements: dict[str, Any]
    """The parsed requirements, fields at their defaults left out."""
    requirement_rows: tuple[str, ...]
    sites: tuple[str, ...]
    grid: tuple[GridCell, ...]
    """Row-major: every requirement of ``requirement_rows`` at every site of ``sites``."""
    proposals: tuple[ProposalRow, ...]
    selections: tuple[SelectionRow, ...]
    attempts: tuple[AttemptRow, ...]
    jobs: tuple[str, ...]


class JobEventRow(WireModel):
    at: datetime
    state: JobState
    message: str = ""


class JobRow(WireModel):
    job_id: str
    request_id: str
    site: str
    state: JobState
    exit_code: int | None = None
    created_at: datetime
    updated_at: datetime
    text: str = ""


class JobsView(WireModel):
    jobs: tuple[JobRow, ...]


class JobDetail(WireModel):
    job: JobRow
    native_id: str
    provider: str
    events: tuple[JobEventRow, ...]


class CostRow(WireModel):
    """Estimated and actual cost of the jobs in one group (a site or a day)."""

    key: str
    jobs: int
    estimated_usd: float
    actual_usd: float
    unpriced: int = 0
    """Jobs whose site quoted no price: counted, not costed."""


class CostView(WireModel):
    """Estimated: the chosen proposal's estimate. Actual: its price per node-hour times the
    nodes times the time the job ran (from its first RUNNING event, or from dispatch when the
    hub never saw it running, to its end, or to now while it runs)."""

    by_site: tuple[CostRow, ...]
    by_day: tuple[CostRow, ...]
    total_estimated_usd: float
    total_actual_usd: float


class Stamp(WireModel):
    """Changes whenever anything a view shows changes: the page polls it, then re-reads."""

    stamp: str
