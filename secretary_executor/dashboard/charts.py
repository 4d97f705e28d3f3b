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

LANE_H, ROW_H, BAR_H, LABEL_W, PLOT_W, TOP = 28, 20, 14, 160, 760, 30


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
    """One row per job, grouped by site; each bar cut into the job's states over time."""
    now = now or datetime.now(UTC)
    ordered = sorted(jobs, key=lambda j: (j.site, j.created_at))
    start = min((j.created_at for j in ordered), default=now)
    span = max((now - start).total_seconds(), 1.0)

    def x(at: datetime) -> float:
        return LABEL_W + PLOT_W * max(0.0, (at - start).total_seconds()) / span

    segments, lanes = [], []
    for row, job in enumerate(ordered):
        y = TOP + row * ROW_H + (ROW_H - BAR_H) / 2
        if row == 0 or ordered[row - 1].site != job.site:
            lanes.append(Lane(site=job.site, y=TOP + row * ROW_H + ROW_H / 2 + 4))
        changes = list(events.get(job.job_id, ())) or [
            JobEventRow(at=job.created_at, state=job.state)
        ]
        for i, change in enumerate(changes):
            last = i + 1 == len(changes)
            end = changes[i + 1].at if not last else (change.at if change.state.terminal else now)
            segments.append(
                Segment(
                    x=x(change.at),
                    y=y,
                    width=max(x(end) - x(change.at), 3.0 if last else 0.0),
                    colour=STATE_COLOURS[change.state],
                    title=f"{job.job_id} {change.state.value} {change.message}".strip(),
                )
            )
    bottom = TOP + max(len(ordered), 1) * ROW_H
    return env.get_template("timeline.svg").render(
        lanes=lanes,
        segments=segments,
        bar_h=BAR_H,
        width=LABEL_W + PLOT_W + 20,
        height=bottom + 40,
        start=start.strftime("%Y-%m-%d %H:%M:%S UTC"),
        end=now.strftime("%H:%M:%S UTC"),
        legend=_legend(),
        axis_y=bottom + 16,
        label_w=LABEL_W,
        plot_w=PLOT_W,
    )


def _legend() -> list[tuple[str, str, float]]:
    """(state, colour, x) for each state, spaced by the length of its name."""
    out, x = [], float(LABEL_W)
    for state, colour in STATE_COLOURS.items():
        out.append((state.value, colour, x))
        x += 7.5 * len(state.value) + 24
    return out


@dataclass(frozen=True)
class CostBar:
    label: str
    y: float
    estimated_w: float
    actual_w: float
    text_x: float
    estimated: str
    actual: str


def dollars(amount: float) -> str:
    """Cents, or four decimals below a cent (a job of seconds costs fractions of one)."""
    return f"${amount:,.2f}" if amount == 0 or amount >= 0.01 else f"${amount:.4f}"


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
            estimated=dollars(r.estimated_usd),
            actual=dollars(r.actual_usd),
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
