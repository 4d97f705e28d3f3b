"""PNG plots of the selection figures (tables from :mod:`.selection_figures`).

Each function draws one figure from its table and returns the file, or None where matplotlib
is missing (the tables are written regardless).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from secretary_executor.simulation.plots import available, pyplot, save
from secretary_executor.simulation.selection_figures import ARCHETYPES, STATUSES


def outcomes_plot(path: Path, rows: list[dict[str, Any]]) -> Path | None:
    """Stacked SELECTED / REJECTED / UNKNOWN bars per strategy, one panel per condition."""
    if not available():
        return None
    plt = pyplot()
    conditions = list(dict.fromkeys(r["condition"] for r in rows))
    fig, axes = plt.subplots(1, len(conditions), figsize=(5 * len(conditions), 4), squeeze=False)
    colours = {"SELECTED": "tab:green", "REJECTED": "tab:red", "UNKNOWN": "tab:gray"}
    for ax, condition in zip(axes[0], conditions, strict=True):
        mine = [r for r in rows if r["condition"] == condition]
        names = [r["strategy"] for r in mine]
        bottom = [0] * len(mine)
        for status in STATUSES:
            values = [r[status] for r in mine]
            ax.bar(names, values, bottom=bottom, label=status, color=colours[status])
            bottom = [b + v for b, v in zip(bottom, values, strict=True)]
        ax.set_title(condition)
        ax.set_ylabel("decisions")
        ax.tick_params(axis="x", rotation=35)
    axes[0][0].legend()
    fig.suptitle("Selection outcomes (REJECTED: nothing the strategy may choose)")
    fig.tight_layout()
    return save(fig, plt, path)


def agreement_plot(
    path: Path, names: list[str], share: list[list[float | None]], pairs: list[list[int]]
) -> Path | None:
    """The agreement matrix as a heatmap; blank where two strategies never both placed a job."""
    if not available():
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 6))
    grid = [[float("nan") if v is None else v for v in row] for row in share]
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i, row in enumerate(share):
        for j, v in enumerate(row):
            label = "n/a" if v is None else f"{v:.2f}"
            colour = "black" if v is None or v > 0.6 else "white"
            ax.text(j, i, label, ha="center", va="center", fontsize=8, color=colour)
    fig.colorbar(image, ax=ax, label="share of jobs placed by both on the same worker")
    ax.set_title(f"Agreement of the selected worker (pairs compared: up to {max(map(max, pairs))})")
    fig.tight_layout()
    return save(fig, plt, path)


def cei_plot(path: Path, rows: list[dict[str, Any]]) -> Path | None:
    """Mean CEI with its 95 % interval, grouped by archetype, one bar per strategy."""
    if not available():
        return None
    plt = pyplot()
    strategies = list(dict.fromkeys(r["strategy"] for r in rows))
    width = 0.8 / max(1, len(strategies))
    fig, ax = plt.subplots(figsize=(9, 4.5))
    by = {(r["strategy"], r["archetype"]): r for r in rows}
    for k, strategy in enumerate(strategies):
        xs, ys, errs = [], [], [[], []]
        for a, arch in enumerate(ARCHETYPES):
            r = by.get((strategy, arch))
            if r is None or r["cei_mean"] is None:
                continue
            xs.append(a + (k - (len(strategies) - 1) / 2) * width)
            ys.append(r["cei_mean"])
            errs[0].append(r["cei_mean"] - r["ci_low"])
            errs[1].append(r["ci_high"] - r["cei_mean"])
        ax.bar(xs, ys, width, yerr=errs, capsize=2, label=strategy)
    ax.set_xticks(range(len(ARCHETYPES)), ARCHETYPES)
    ax.set_ylabel("cost efficiency index (1 = cheapest of the archetype)")
    ax.set_ylim(0, 1.1)
    ax.legend(fontsize=8, ncol=4)
    ax.set_title("Cost efficiency by archetype (mean, 95 % interval; missing bar: no placement)")
    fig.tight_layout()
    return save(fig, plt, path)


def pressure_plot(path: Path, rows: list[dict[str, Any]], archetype: str = "hpc") -> Path | None:
    """Jobs queued over the archetype's sites after each decision, per strategy."""
    if not available():
        return None
    plt = pyplot()
    series: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for r in rows:
        series[r["strategy"]].append((r["step"], r["queued_total"]))
    fig, ax = plt.subplots(figsize=(8, 4))
    for strategy, points in series.items():
        ax.step([p[0] for p in points], [p[1] for p in points], where="post", label=strategy)
    ax.set_xlabel("job (order of placement)")
    ax.set_ylabel(f"jobs queued at {archetype} sites")
    ax.set_title(f"Selected worker pressure: {archetype} queues, starting empty")
    if series:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return save(fig, plt, path)


def state_plot(path: Path, rows: list[dict[str, Any]]) -> Path | None:
    """Scheduled share and cost over the reference, with state and without, per strategy."""
    if not available():
        return None
    plt = pyplot()
    names = [r["strategy"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, key, label in (
        (axes[0], "scheduled", "share of jobs scheduled"),
        (axes[1], "cost_vs_reference", "cost paid / reference minimum"),
    ):
        for offset, cond in ((-0.2, "with"), (0.2, "without")):
            xs = [i + offset for i in range(len(names))]
            ys = [r[f"{key}_{cond}"] or 0.0 for r in rows]
            ax.bar(xs, ys, 0.4, label=f"{cond} state")
        ax.set_xticks(range(len(names)), names, rotation=35, ha="right")
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
    fig.suptitle("Selection with and without fleet state updates")
    fig.tight_layout()
    return save(fig, plt, path)
