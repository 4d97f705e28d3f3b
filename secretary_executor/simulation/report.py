"""Writing a negotiation run: results.jsonl, summary.json, report.md and PNG plots.

``report.md`` and the plots are derived from ``results.jsonl`` alone (plus the settings kept in
``summary.json``), so ``secretary sim report DIR`` can re-render them at any time.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from secretary_executor.errors import ConfigurationError
from secretary_executor.simulation.audit import CaseResult, summarise
from secretary_executor.simulation.disagreement import PromptRecord, disagreements, three_figures
from secretary_executor.simulation.jsonl import read_lines, write_lines
from secretary_executor.simulation.regression import COLUMNS as LOG_ODDS_COLUMNS
from secretary_executor.simulation.regression import log_odds
from secretary_executor.simulation.tables import markdown, write_csv

RESULTS = "results.jsonl"
PROMPTS = "prompts.jsonl"
DISAGREEMENTS_CSV = "disagreements.csv"
LOG_ODDS_CSV = "fig5_log_odds.csv"
LOG_ODDS_PNG = "fig5_log_odds.png"
SUMMARY = "summary.json"
REPORT = "report.md"
PAPER = {
    "accuracy": 0.8771,
    "negotiations": 19_973,
    "false_ready": 1_611,
    "unknown": 417,
    "always_incompatible_accuracy": 0.898,
}
"""The seed paper's negotiation figures, printed beside ours."""


def write_results(out: Path, cases: Sequence[CaseResult]) -> Path:
    """One case per line, in case order."""
    return write_lines(out / RESULTS, (c.model_dump_json() for c in cases))


def write_prompts(out: Path, records: Sequence[PromptRecord]) -> Path:
    """One prompt per line: text, intent, intended and parsed requirement."""
    return write_lines(out / PROMPTS, (r.model_dump_json() for r in records))


def read_prompts(out: Path) -> list[PromptRecord]:
    """The prompts of a run folder; empty for a run written before they were kept.

    Raises:
        ConfigurationError: a line that is not a prompt record (says which).
    """
    path = out / PROMPTS
    if not path.is_file():
        return []
    return read_lines(path, PromptRecord.model_validate_json, "prompt record")


def read_results(out: Path) -> list[CaseResult]:
    """The cases of a run folder.

    Raises:
        ConfigurationError: no results file, or a line that is not a case (says which).
    """
    path = out / RESULTS
    if not path.is_file():
        raise ConfigurationError(
            f"{str(path)!r} does not exist; run 'secretary sim negotiate --out {out}' first"
        )
    return read_lines(path, CaseResult.model_validate_json, "simulation case")


def build_summary(
    cases: Sequence[CaseResult],
    settings: dict[str, Any],
    elapsed_s: float,
    records: Sequence[PromptRecord] = (),
) -> dict[str, Any]:
    """``summary.json``: the settings, the figures with baselines and breakdowns, the paper's,
    the three accuracy figures and where text, intent and parse disagree."""
    summary = summarise(cases)
    return {
        "settings": settings,
        "elapsed_s": round(elapsed_s, 3),
        "paper": PAPER,
        **summary,
        "accuracy_sources": three_figures(cases, records),
        "disagreements": disagreements(cases, records),
        "log_odds": log_odds(cases),
    }


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f} %"


def _figure_table(block: dict[str, Any], strategy: str = "rules") -> list[str]:
    rows = [
        f"| figure | secretary ({strategy}) | always INCOMPATIBLE | always READY |",
        "|---|---:|---:|---:|",
    ]
    s, inc, rdy = block["secretary"], block["always_incompatible"], block["always_ready"]
    for key, label in (
        ("accuracy", "accuracy"),
        ("decided_accuracy", "accuracy, UNKNOWN and UNREACHABLE left out"),
        ("balanced_accuracy", "balanced accuracy"),
        ("f1_compatible", "F1, compatible class"),
    ):
        if key in s:  # a summary written before the figure existed lacks it
            rows.append(f"| {label} | {_pct(s[key])} | {_pct(inc[key])} | {_pct(rdy[key])} |")
    for key, label in (
        ("false_ready", "false READY"),
        ("false_incompatible", "false INCOMPATIBLE"),
        ("wrong", "wrong (a definite verdict)"),
        ("unknown", "UNKNOWN"),
        ("unreachable", "UNREACHABLE"),
    ):
        if key in s:
            rows.append(f"| {label} | {s[key]:,} | {inc[key]:,} | {rdy[key]:,} |")
    rows.append(f"| cases | {s['cases']:,} | {inc['cases']:,} | {rdy['cases']:,} |")
    return rows


def _group_table(title: str, groups: dict[str, Any]) -> list[str]:
    rows = [
        f"| {title} | cases | accuracy | balanced | false READY | tool score | "
        "always INCOMPATIBLE | always READY |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for key, block in groups.items():
        s = block["secretary"]
        rows.append(
            f"| {key} | {s['cases']:,} | {_pct(s['accuracy'])} | {_pct(s['balanced_accuracy'])} "
            f"| {s['false_ready']} | {s['tool_call_score']:.3f} "
            f"| {_pct(block['always_incompatible']['accuracy'])} "
            f"| {_pct(block['always_ready']['accuracy'])} |"
        )
    return rows


def _three_figures(summary: dict[str, Any]) -> list[str]:
    """Parse, decision and end-to-end accuracy, against the run's truth mode."""
    three = summary.get("accuracy_sources")
    if three is None:  # a summary written before the figures existed
        return []
    truth = summary["settings"].get("truth", "faithful")
    rows = [
        "",
        f"## Where errors come from (truth: `{truth}`)",
        "",
        "| figure | correct | of | accuracy |",
        "|---|---:|---:|---:|",
    ]
    for key, label in (
        ("parse", "parse accuracy (parsed requirement = intended, per prompt)"),
        ("decision", "decision accuracy given a correct parse (site fed the intent)"),
        ("end_to_end", "end-to-end accuracy (text -> parse -> decide)"),
    ):
        block = three.get(key)
        if block is None:
            rows.append(f"| {label} | - | - | not recorded |")
        else:
            rows.append(
                f"| {label} | {block['correct']:,} | {block['total']:,} "
                f"| {_pct(block['accuracy'])} |"
            )
    found = summary.get("disagreements", [])
    rows += ["", "### Disagreements between prompt text, intent, parse and truths", ""]
    if not found:
        rows.append(
            "None: every text states its intent, every parse equals it, the verdict on the "
            "parse equals the verdict on the intent, and both truth modes agree."
        )
        return rows
    rows += ["| kind | counted per | count | first example |", "|---|---|---:|---|"]
    for row in found:
        first = row["examples"][0] if row["examples"] else {}
        text = json.dumps(first, sort_keys=True).replace("|", "\\|")
        rows.append(f"| {row['kind']} | {row['level']} | {row['count']:,} | `{text}` |")
    rows.append(
        f"\nAll examples (up to three per kind): `summary.json` -> `disagreements`, "
        f"and `{DISAGREEMENTS_CSV}`."
    )
    return rows


def _log_odds_section(summary: dict[str, Any]) -> list[str]:
    rows = summary.get("log_odds")
    if rows is None:
        return []
    return [
        "",
        f"## Figure 5: log-odds of a correct verdict (`{LOG_ODDS_CSV}`, `{LOG_ODDS_PNG}`)",
        "",
        "Logistic regression (statsmodels) of a correct end-to-end verdict on the categories "
        "the prompt asks for and its style (terse is the reference), per archetype and pooled; "
        "negative: the term makes a correct verdict less likely.",
        "",
        *markdown(rows, LOG_ODDS_COLUMNS),
    ]


def _mean_median(stats: dict[str, float] | None, fmt: str) -> tuple[str, str]:
    """A per-case figure as two cells; "-" when no case had it (rules: no tokens)."""
    if stats is None:
        return "-", "-"
    return format(stats["mean"], fmt), format(stats["median"], fmt)


def _usage_table(usage: dict[str, Any]) -> list[str]:
    """Model cost and latency per outcome, UNKNOWN and UNREACHABLE on rows of their own."""
    rows = [
        "| outcome | cases | with a model | model calls | tokens | tokens per case, mean "
        "| median | latency per case (s), mean | median |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    blocks = [("all", usage["overall"]), *usage["by_outcome"].items()]
    for name, b in blocks:
        tok_mean, tok_median = _mean_median(b["tokens_per_case"], ",.1f")
        lat_mean, lat_median = _mean_median(b["elapsed_s_per_case"], ".6f")
        tokens = f"{b['total_tokens']:,}" if b["with_model"] else "-"
        rows.append(
            f"| {name} | {b['cases']:,} | {b['with_model']:,} | {b['model_calls']:,} | {tokens} "
            f"| {tok_mean} | {tok_median} | {lat_mean} | {lat_median} |"
        )
    return rows


def _usage_section(usage: dict[str, Any] | None) -> list[str]:
    if usage is None:  # a summary written before usage was recorded
        return []
    total = usage["overall"]
    lines = ["", "## Model usage and latency, by outcome", "", *_usage_table(usage), ""]
    if total["with_model"]:
        lines.append(
            f"Totals: {total['model_calls']:,} model calls, {total['prompt_tokens']:,} prompt + "
            f"{total['completion_tokens']:,} completion tokens, {total['model_seconds']:.2f} s "
            f"of model time over {total['with_model']:,} cases that asked a model. Tokens per "
            "case are over those cases; latency (the proposal's `elapsed_s`) is over all cases."
        )
    else:
        lines.append(
            "No case asked a model, so there are no token figures (-); latency is the "
            "proposal's `elapsed_s`."
        )
    return lines


def render_report(summary: dict[str, Any]) -> str:
    """``report.md`` from a summary."""
    st = summary["settings"]
    conf = summary["confusion"]
    lines = [
        "# Negotiation simulation",
        "",
        f"{st.get('workers')} workers x {st.get('prompts')} prompts, strategy "
        f"`{st.get('strategy')}`, truth `{st.get('truth', 'faithful')}`, seed {st.get('seed')}, "
        f"{summary['elapsed_s']:.1f} s. "
        f"Parser disagreements with the generated requirement: {summary['parse_mismatches']}.",
        "",
        "## Overall, beside the trivial baselines",
        "",
        *_figure_table(summary["overall"], str(st.get("strategy") or "rules")),
        "",
        f"Mean tool-call score: {summary['overall']['secretary']['tool_call_score']:.4f}. "
        f"Truth distribution: {summary['truth_distribution']}.",
        "",
        "## Confusion matrix (rows: truth, columns: verdict)",
        "",
        "| truth \\ verdict | " + " | ".join(conf["labels"]) + " |",
        "|---|" + "---:|" * len(conf["labels"]),
    ]
    for label, row in zip(conf["labels"], conf["matrix"], strict=True):
        lines.append(f"| {label} | " + " | ".join(f"{v:,}" for v in row) + " |")
    lines += _three_figures(summary)
    lines += _log_odds_section(summary)
    lines += _usage_section(summary.get("usage"))
    lines += ["", "## By specificity index", "", *_group_table("SI", summary["by_index"])]
    lines += ["", "## By archetype", "", *_group_table("archetype", summary["by_archetype"])]
    lines += ["", "## By phrasing style", "", *_group_table("style", summary["by_style"])]
    paper = summary["paper"]
    s = summary["overall"]["secretary"]
    lines += [
        "",
        "## Beside the paper",
        "",
        "| figure | this run | paper |",
        "|---|---:|---:|",
        f"| negotiations | {s['cases']:,} | {paper['negotiations']:,} |",
        f"| accuracy | {_pct(s['accuracy'])} | {_pct(paper['accuracy'])} |",
        f"| false READY | {s['false_ready']:,} | {paper['false_ready']:,} |",
        f"| UNKNOWN | {s['unknown']:,} | {paper['unknown']:,} |",
        "",
        "Plots: `confusion.png`, `accuracy_by_index.png`, `accuracy_by_tool_score.png`, "
        f"`{LOG_ODDS_PNG}`.",
        "",
    ]
    return "\n".join(lines)


def write_summary(out: Path, summary: dict[str, Any]) -> None:
    (out / SUMMARY).write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n", "utf-8")


def read_settings(out: Path) -> tuple[dict[str, Any], float]:
    """The settings and elapsed time kept in an existing summary (empty if there is none)."""
    try:
        data = json.loads((out / SUMMARY).read_text("utf-8"))
        return dict(data.get("settings", {})), float(data.get("elapsed_s", 0.0))
    except (OSError, ValueError):
        return {}, 0.0


def write_disagreements_csv(out: Path, summary: dict[str, Any]) -> Path:
    """One row per (kind, example), so a spreadsheet shows every example."""
    path = out / DISAGREEMENTS_CSV
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(("kind", "counted_per", "count", "example"))
        for row in summary.get("disagreements", []):
            for example in row["examples"] or [{}]:
                writer.writerow(
                    (row["kind"], row["level"], row["count"], json.dumps(example, sort_keys=True))
                )
    return path


def write_report(out: Path, summary: dict[str, Any]) -> list[Path]:
    """report.md, the disagreement table and the plots; returns the files written."""
    from secretary_executor.simulation.plots import log_odds_plot, negotiation_plots

    path = out / REPORT
    path.write_text(render_report(summary), "utf-8")
    written = [path, write_disagreements_csv(out, summary), *negotiation_plots(out, summary)]
    if "log_odds" in summary:
        written.append(write_csv(out / LOG_ODDS_CSV, summary["log_odds"], LOG_ODDS_COLUMNS))
        if (png := log_odds_plot(out / LOG_ODDS_PNG, summary["log_odds"])) is not None:
            written.append(png)
    return written
