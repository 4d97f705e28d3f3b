"""Figure tables as CSV (for spreadsheets) and markdown (for the reports), from row dicts.

Every figure the simulation draws is also written as a table, so a reader can check a plot's
numbers and a test can check a table without decoding a PNG.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def cell(value: Any) -> str:
    """A table cell: floats to four decimals, None as "-"."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def write_csv(path: Path, rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> Path:
    """``rows`` as CSV with exactly ``columns`` (None written as an empty field)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
    return path


def markdown(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> list[str]:
    """``rows`` as a markdown table, one line per row; numbers right-aligned."""

    def numeric(column: str) -> bool:
        values = [r.get(column) for r in rows if r.get(column) is not None]
        return bool(values) and all(isinstance(v, int | float) for v in values)

    align = ["---:" if numeric(c) else "---" for c in columns]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in columns) + " |" for r in rows]
    return lines
