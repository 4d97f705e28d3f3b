"""Server-rendered SVG charts: the jobs timeline and the cost bars.

Why on the server: the geometry is computed once here, in tested Python, and the browser shows
the result as an image (``<img>`` of a ``blob:`` URL), where an SVG can run no script whatever
its text says. Names from sites and requests reach the SVG only through Jinja's autoescaping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from jinja2 import Environment

from providers.wire import JobState
from secretary_executor.dashboard.models import CostRow, JobEventRow, JobRow

STATE_COLOURS: Mapping[JobState, str] = {
    JobState.PENDING: "#9aa5b1",
    JobState.QUEUED: "#e0a100",
    JobState.RUNNING: "#2f7ed8",
    JobState.COMPLETED: "#2e9e4f",
    JobState.SIMULATED: "#66b28a",
    JobState.FAILED: "#d64541",
    JobState.TIMEOUT: "#b03a2e",
    JobState.CANCELLED: "#7f8c8d",
    JobState.UNKNOWN: "#c39bd3",
}
"""One colour per job state; the legend and the jobs table use the same ones."""

LANE_H, BAR_H, LABEL_W, PLOT_W, TOP = 28, 16, 160, 720, 30


@dataclass(frozen=True)
class Segment:
    x: float
    y: float
    width: float
    colour: str
    title: str


@dataclass(frozen=True)
class Lane:
    site: str
    y: float


def timeline_svg(
    env: Environment,
    jobs: Sequence[JobRow],
    events: Mapping[str, Sequence[JobEventRow]],
    now: datetime | None = None,
) -> str:
    """One lane per site; each job a bar cut into its states (queued, running, done, failed)."""
    now = now or datetime.now(UTC)
    sites = sorted({j.site for j in jobs})
    lane_of = {s: i for i, s in enumerate(sites)}
    start = min((j.created_at for j in jobs), default=now)
    span = max((now - start).total_seconds(), 1.0)

    def x(at: datetime) -> float:
        return LABEL_W + PLOT_W * max(0.0, (at - start).total_seconds()) / span

    segments = []
    for job in jobs:
        y = TOP + lane_of[job.site] * LANE_H + (LANE_H - BAR_H) / 2
        changes = list(events.get(job.job_id, ())) or [
            JobEventRow(at=job.created_at, state=job.state)
        ]
        for i, change in enumerate(changes):
            last = i + 1 == len(changes)
            end = changes[i + 1].at if not last else (change.at if change.state.terminal else now)
            width = max(x(end) - x(change.at), 3.0 if last else 0.0)
            segments.append(
                Segment(
                    x=x(change.at),
                    y=y,
                    width=width,
                    colour=STATE_COLOURS[change.state],
                    title=f"{job.job_id} {change.state.value} {change.message}".strip(),
                )
            )
    lanes = [Lane(site=s, y=TOP + i * LANE_H + LANE_H / 2 + 4) for i, s in enumerate(sites)]
    return env.get_template("timeline.svg").render(
        lanes=lanes,
        segments=segments,
        width=LABEL_W + PLOT_W + 20,
        height=TOP + max(len(sites), 1) * LANE_H + 40,
        start=start.strftime("%Y-%m-%d %H:%M:%S UTC"),
        end=now.strftime("%H:%M:%S UTC"),
        legend=[(s.value, c) for s, c in STATE_COLOURS.items()],
        axis_y=TOP + max(len(sites), 1) * LANE_H + 16,
        label_w=LABEL_W,
        plot_w=PLOT_W,
    )


@dataclass(frozen=True)
class CostBar:
    label: str
    y: float
    estimated_w: float
    actual_w: float
    text_x: float
    estimated: str
    actual: str


def cost_svg(env: Environment, title: str, rows: Sequence[CostRow]) -> str:
    """Two bars per group: estimated (light) against actual (dark), to one scale."""
    top = max([1e-9, *(max(r.estimated_usd, r.actual_usd) for r in rows)])
    bars = [
        CostBar(
            label=r.key,
            y=TOP + i * LANE_H,
            estimated_w=PLOT_W * r.estimated_usd / top,
            actual_w=PLOT_W * r.actual_usd / top,
            text_x=LABEL_W + PLOT_W * max(r.estimated_usd, r.actual_usd) / top + 6,
            estimated=f"${r.estimated_usd:,.2f}",
            actual=f"${r.actual_usd:,.2f}",
        )
        for i, r in enumerate(rows)
    ]
    return env.get_template("cost.svg").render(
        title=title,
        bars=bars,
        width=LABEL_W + PLOT_W + 120,
        height=TOP + max(len(rows), 1) * LANE_H + 20,
        label_w=LABEL_W,
    )
