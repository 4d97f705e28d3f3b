"""How well requests are read, and whether a site is ever READY for a job it cannot run.

Three measurements, on the hand-labelled data under ``tests/data/`` (see its README):

1. **Parse accuracy** per field (precision, recall, F1) and whole-request exact match, for the
   dev split and the held-out split. The held-out split is reported here and nowhere else: no
   test asserts on it and no change is tuned to it.
2. **Verdicts** on the verdict set (20 sites x 50 requests): balanced accuracy, F1 of the
   "can run" class and the **false-READY count** (READY or BUSY where the job cannot run), for
   the parser's reading and for the labels themselves (the negotiator given a correct parse).
3. **Parse time**: median and p95 milliseconds per request over the whole corpus, against a
   baseline of reading the same text with ``str.split`` in the same run (a ratio, so the figure
   travels between machines), and the median of each request's fastest round, which leaves out
   most of what other processes on a busy machine take.

Run: ``.venv/bin/python bench/parser_accuracy.py [--split heldout] [--show-misses 20] [--per-file]
[--json]``. ``--split dev`` measures the dev files and the verdict set, never the held-out split.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import track
from rich.table import Table

from endpoint_plugins.parsing import parse_requirements
from secretary_executor.evaluation.corpus import (
    FIELDS,
    LabelledRequest,
    Score,
    load_corpus,
    score,
)
from secretary_executor.evaluation.verdicts import (
    VerdictScore,
    labelled_requirements,
    parsed_requirements,
    score_verdicts,
    verdict_set,
)

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SPLITS = {"dev": "dev-*.yaml", "heldout": "heldout-*.yaml"}


def parse_table(title: str, result: Score) -> Table:
    table = Table(title=title)
    for column in ("field", "precision", "recall", "F1", "facts"):
        table.add_column(column, justify="left" if column == "field" else "right")
    for name in FIELDS:
        tally = result.fields.get(name)
        if tally is None:
            continue
        table.add_row(
            name,
            f"{tally.precision:.3f}",
            f"{tally.recall:.3f}",
            f"{tally.f1:.3f}",
            str(tally.tp + tally.fn),
        )
    micro = result.micro
    table.add_section()
    table.add_row(
        "[b]micro[/]",
        f"{micro.precision:.3f}",
        f"{micro.recall:.3f}",
        f"[b]{micro.f1:.3f}[/]",
        str(micro.tp + micro.fn),
    )
    return table


def file_table(title: str, requests: list[LabelledRequest], now: datetime) -> tuple[Table, dict]:
    """One row per corpus file: a new file's first reading shows apart from the tuned ones."""
    table = Table(title=title)
    for column in ("file", "requests", "precision", "recall", "micro F1", "exact match"):
        table.add_column(column, justify="left" if column == "file" else "right")
    figures: dict[str, dict[str, float]] = {}
    for name in sorted({r.split for r in requests}):
        result, _ = score([r for r in requests if r.split == name], parse_requirements, now)
        micro = result.micro
        figures[name] = {
            "requests": result.requests,
            "micro_f1": round(micro.f1, 4),
            "exact_match": round(result.exact_rate, 4),
        }
        table.add_row(
            name,
            str(result.requests),
            f"{micro.precision:.3f}",
            f"{micro.recall:.3f}",
            f"{micro.f1:.3f}",
            f"{result.exact_rate:.1%}",
        )
    return table, figures


def verdict_table(results: dict[str, VerdictScore]) -> Table:
    table = Table(title="Verdict set: READY/BUSY versus the hand labels")
    for column in (
        "requirements from",
        "pairs",
        "accuracy",
        "balanced acc.",
        "F1 (can run)",
        "UNKNOWN",
        "false READY",
    ):
        table.add_column(column, justify="left" if column == "requirements from" else "right")
    for name, r in results.items():
        table.add_row(
            name,
            str(r.pairs),
            f"{r.accuracy:.3f}",
            f"{r.balanced_accuracy:.3f}",
            f"{r.f1_runnable:.3f}",
            str(r.undecided),
            f"[b]{len(r.false_ready)}[/]",
        )
    return table


def timing(texts: list[str], repeat: int) -> dict[str, float]:
    """Median and p95 parse time per request, and the ratio to a ``str.split`` baseline.

    Two medians: over every parse of every round (what a loaded machine gives), and over each
    request's fastest round (``best_median_ms``, the convention of :mod:`timeit`: the cost of
    the code itself, with the time other processes took from it left out as far as a run can).
    """
    parse_ms: list[float] = []
    split_ms: list[float] = []
    best = [float("inf")] * len(texts)
    for _ in track(range(repeat), description="timing", transient=True):
        for i, text in enumerate(texts):
            start = time.perf_counter()
            parse_requirements(text)
            elapsed = (time.perf_counter() - start) * 1000
            parse_ms.append(elapsed)
            best[i] = min(best[i], elapsed)
            start = time.perf_counter()
            text.lower().split()
            split_ms.append((time.perf_counter() - start) * 1000)
    parse_ms.sort()
    return {
        "median_ms": statistics.median(parse_ms),
        "best_median_ms": statistics.median(best),
        "p95_ms": parse_ms[int(0.95 * (len(parse_ms) - 1))],
        "ratio_to_split": statistics.median(parse_ms) / max(statistics.median(split_ms), 1e-9),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="all")
    parser.add_argument(
        "--show-misses",
        type=int,
        default=0,
        metavar="N",
        help="list N dev requests whose parse differs from the labels",
    )
    parser.add_argument(
        "--per-file", action="store_true", help="also score each corpus file of the split alone"
    )
    parser.add_argument("--repeat", type=int, default=5, help="timing rounds over the corpus")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    console = Console(stderr=args.json)

    figures: dict[str, Any] = {}
    texts: list[str] = []
    for split, pattern in SPLITS.items():
        if args.split not in (split, "all"):
            continue
        now, requests = load_corpus(DATA / "requests", pattern)
        texts += [r.text for r in requests]
        result, _ = score(requests, parse_requirements, now)
        micro = result.micro
        figures[split] = {
            "requests": result.requests,
            "micro_f1": round(micro.f1, 4),
            "precision": round(micro.precision, 4),
            "recall": round(micro.recall, 4),
            "exact_match": round(result.exact_rate, 4),
            "unexpressible_flagged": [result.unexpressible_flagged, result.unexpressible],
            "fields": {k: round(v.f1, 4) for k, v in sorted(result.fields.items())},
        }
        console.print(
            parse_table(f"Parse accuracy, {split} split ({result.requests} requests)", result)
        )
        console.print(
            f"exact match: [b]{result.exact_rate:.1%}[/] of requests; requirements no field "
            f"holds flagged as unresolved: {result.unexpressible_flagged} of "
            f"{result.unexpressible} requests\n"
        )
        if args.per_file:
            table, figures[split]["files"] = file_table(f"{split} split, per file", requests, now)
            console.print(table)
        if split == "dev" and args.show_misses:
            for rid, missing, extra in result.mismatches[: args.show_misses]:
                console.print(
                    f"  {rid}: missing {sorted(missing, key=str)} extra {sorted(extra, key=str)}",
                    highlight=False,
                )

    now, requests, sites = verdict_set(DATA / "verdicts")
    verdicts = {
        "the parser": score_verdicts(requests, sites, parsed_requirements(parse_requirements, now)),
        "the labels": score_verdicts(requests, sites, labelled_requirements),
    }
    console.print(verdict_table(verdicts))
    for name, r in verdicts.items():
        for rid, site, reason in r.false_ready:
            console.print(f"  false READY ({name}): {rid} at {site}: {reason}", highlight=False)
    figures["verdicts"] = {
        name: {
            "pairs": r.pairs,
            "balanced_accuracy": round(r.balanced_accuracy, 4),
            "f1_runnable": round(r.f1_runnable, 4),
            "unknown": r.undecided,
            "false_ready": len(r.false_ready),
        }
        for name, r in verdicts.items()
    }

    figures["timing"] = {k: round(v, 4) for k, v in timing(texts, args.repeat).items()}
    t = figures["timing"]
    console.print(
        f"\nparse time per request: median [b]{t['median_ms']:.2f} ms[/], p95 "
        f"{t['p95_ms']:.2f} ms ({t['ratio_to_split']:.0f}x a str.split of the same text), "
        f"{len(texts)} requests x {args.repeat} rounds; median of each request's fastest "
        f"round [b]{t['best_median_ms']:.2f} ms[/]"
    )
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
