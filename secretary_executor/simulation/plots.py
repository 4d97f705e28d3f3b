"""PNG plots of the experiments, with matplotlib's non-interactive Agg backend.

matplotlib is imported only here, on first use, so the rest of the simulation works where it
is not installed; :func:`available` says whether plots can be drawn.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any


def available() -> bool:
    """True when matplotlib is installed."""
    return importlib.util.find_spec("matplotlib") is not None


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def negotiation_plots(out: Path, summary: dict[str, Any]) -> list[Path]:
    """Confusion matrix, accuracy by specificity index, accuracy by tool-call score.

    Returns the files written (none when matplotlib is missing).
    """
    if not available():
        return []
    plt = pyplot()
    written: list[Path] = []

    conf = summary["confusion"]
    labels, matrix = conf["labels"], conf["matrix"]
    normalised = [[v / (sum(row) or 1) for v in row] for row in matrix]
    fig, ax = plt.subplots(figsize=(7, 6))
    ax.imshow(normalised, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=35, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            ax.text(
                j,
                i,
                f"{v:,}",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if normalised[i][j] > 0.5 else "black",
            )
    ax.set_xlabel("verdict")
    ax.set_ylabel("truth")
    ax.set_title("Truth vs verdict (colour: row-normalised)")
    fig.tight_layout()
    written.append(save(fig, plt, out / "confusion.png"))

    groups = summary["by_index"]
    keys = list(groups)
    strategy = summary.get("settings", {}).get("strategy") or "rules"
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, label, style in (
        ("secretary", f"secretary ({strategy})", "o-"),
        ("always_incompatible", "always INCOMPATIBLE", "s--"),
        ("always_ready", "always READY", "^:"),
    ):
        ys = [100 * groups[k][name]["accuracy"] for k in keys]
        ax.plot(keys, ys, style, label=label)
    ax.set_xlabel("specificity index")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 105)
    ax.legend()
    ax.set_title("Accuracy by specificity index")
    fig.tight_layout()
    written.append(save(fig, plt, out / "accuracy_by_index.png"))

    bins = [b for b in summary["tool_score_bins"] if b["cases"]]
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = [f"{b['low']:.1f}-{b['high']:.1f}" for b in bins]
    ax.bar(xs, [100 * b["accuracy"] for b in bins])
    for x, b in zip(xs, bins, strict=True):
        ax.text(x, 2, f"n={b['cases']:,}", ha="center", fontsize=8, color="white")
    ax.set_xlabel("tool-call score")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Accuracy against tool-call score")
    fig.tight_layout()
    written.append(save(fig, plt, out / "accuracy_by_tool_score.png"))
    return written


def log_odds_plot(path: Path, rows: list[dict[str, Any]]) -> Path | None:
    """Figure 5: coefficient and 95 % interval of each term, one panel per group; a group that
    could not be fitted shows why."""
    if not available():
        return None
    plt = pyplot()
    groups = list(dict.fromkeys(r["group"] for r in rows))
    fig, axes = plt.subplots(1, len(groups), figsize=(4 * len(groups), 4.5), squeeze=False)
    for ax, group in zip(axes[0], groups, strict=True):
        ok = [r for r in rows if r["group"] == group and r["status"].startswith("ok")]
        mine = [r for r in ok if r["term"] != "(intercept)"]
        ax.axvline(0, color="gray", lw=0.8)
        ax.set_title(group)
        if not mine:
            status = next(r["status"] for r in rows if r["group"] == group)
            ax.text(
                0.5,
                0.5,
                status.replace(": ", ":\n"),
                ha="center",
                va="center",
                wrap=True,
                transform=ax.transAxes,
                fontsize=8,
            )
            ax.set_yticks([])
            continue
        ys = range(len(mine))
        for y, r in zip(ys, mine, strict=True):
            colour = "tab:red" if r["coef"] < 0 else "tab:blue"
            ax.plot([r["ci_low"], r["ci_high"]], [y, y], color=colour)
            ax.plot(r["coef"], y, "o", color=colour)
        ax.set_yticks(list(ys), [r["term"] for r in mine])
        ax.set_xlabel("log-odds of a correct verdict")
    fig.suptitle("Log-odds impact of requested categories and style (95 % intervals)")
    fig.tight_layout()
    return save(fig, plt, path)


def bar_plot(
    path: Path, title: str, ylabel: str, values: dict[str, float], log: bool = False
) -> Path | None:
    """One bar per key (selection figures); None when matplotlib is missing."""
    if not available():
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(list(values), list(values.values()))
    if log:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    return save(fig, plt, path)


def save(fig: Any, plt: Any, path: Path) -> Path:
    """Write ``fig`` as a PNG and free it."""
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
