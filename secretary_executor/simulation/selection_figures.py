"""The selection experiment's figures as tables, computed from its decisions alone.

Each function turns ``decisions.jsonl`` rows into the rows of one figure, so ``secretary sim
report`` can redraw every figure from the file, and the tests can check a table against
decisions written by hand:

* :func:`outcome_rows`: SELECTED / REJECTED / UNKNOWN per condition and strategy;
* :func:`agreement`: the paper's Figure 8, how often two strategies chose the same worker;
* :func:`cei_rows`: the paper's Figure 9, cost efficiency per archetype and strategy;
* :func:`pressure_rows`: the paper's Figure 7, jobs queued at HPC sites over the run, from the
  run whose queues started empty;
* :func:`state_rows`: the paper's two conditions, with and without state, side by side.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from secretary_executor.simulation.selection import Decision, cei

STATUSES = ("SELECTED", "REJECTED", "UNKNOWN")
ARCHETYPES = ("hpc", "cloud", "standalone")
Z95 = 1.959964


def strategies_of(decisions: Sequence[Decision]) -> list[str]:
    """Strategy names in first-seen order (the order the run used)."""
    return list(dict.fromkeys(d.strategy for d in decisions))


def _of(decisions: Sequence[Decision], condition: str) -> list[Decision]:
    return [d for d in decisions if d.condition == condition]


def outcome_rows(decisions: Sequence[Decision]) -> list[dict[str, Any]]:
    """One row per (condition, strategy): decisions and the count of each status."""
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for d in decisions:
        row = counts.setdefault((d.condition, d.strategy), dict.fromkeys(STATUSES, 0))
        row[d.status] += 1
    return [
        {"condition": c, "strategy": s, "decisions": sum(row.values()), **row}
        for (c, s), row in counts.items()
    ]


def agreement(
    decisions: Sequence[Decision], condition: str = "with-state"
) -> tuple[list[str], list[list[float | None]], list[list[int]]]:
    """Pairwise agreement of the chosen worker: (names, share, pairs compared).

    For strategies A and B, over every (iteration, job) that both placed, the share where
    they chose the same site. None where no job was placed by both (agentic without a model).
    """
    chosen: dict[str, dict[tuple[int, int], str]] = defaultdict(dict)
    for d in _of(decisions, condition):
        if d.status == "SELECTED" and d.site is not None:
            chosen[d.strategy][(d.iteration, d.prompt_id)] = d.site
    names = strategies_of(_of(decisions, condition))
    share: list[list[float | None]] = []
    pairs: list[list[int]] = []
    for a in names:
        share.append([])
        pairs.append([])
        for b in names:
            both = chosen[a].keys() & chosen[b].keys()
            same = sum(chosen[a][k] == chosen[b][k] for k in both)
            share[-1].append(same / len(both) if both else None)
            pairs[-1].append(len(both))
    return names, share, pairs


def _mean_ci(values: list[float]) -> tuple[float, float, float, float]:
    """Mean, standard deviation and a normal 95 % interval of the mean."""
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(values))
    return mean, sd, mean - half, mean + half


def cei_rows(decisions: Sequence[Decision], condition: str = "with-state") -> list[dict[str, Any]]:
    """One row per (strategy, archetype) with placements: mean CEI and its 95 % interval.

    Strategies that placed nothing in an archetype get a row with ``placements`` 0 and empty
    figures, so the table shows the gap (the paper notes HPC got no assignments for two).
    """
    values: dict[tuple[str, str], list[float]] = defaultdict(list)
    for d in _of(decisions, condition):
        if (value := cei(d)) is not None and d.archetype:
            values[(d.strategy, d.archetype)].append(value)
    rows = []
    for strategy in strategies_of(_of(decisions, condition)):
        for arch in ARCHETYPES:
            got = values.get((strategy, arch), [])
            row: dict[str, Any] = {"strategy": strategy, "archetype": arch, "placements": len(got)}
            if got:
                mean, sd, low, high = _mean_ci(got)
                row |= {"cei_mean": mean, "cei_sd": sd, "ci_low": low, "ci_high": high}
            else:
                row |= dict.fromkeys(("cei_mean", "cei_sd", "ci_low", "ci_high"))
            rows.append(row)
    return rows


def pressure_rows(
    decisions: Sequence[Decision], archetype: str = "hpc", iteration: int = 0
) -> list[dict[str, Any]]:
    """One iteration of the ``pressure`` run (queues starting empty), decision by decision:
    the jobs queued over every ``archetype`` site, and the chosen site when it is one of them
    (with the queue depth of its chosen partition)."""
    rows = []
    for d in _of(decisions, "pressure"):
        if d.iteration != iteration:
            continue
        here = d.status == "SELECTED" and d.archetype == archetype
        rows.append(
            {
                "strategy": d.strategy,
                "step": d.step,
                "queued_total": (d.queue_totals or {}).get(archetype, 0),
                "site": d.site if here else None,
                "site_queue_after": d.queue_after if here else None,
            }
        )
    return rows


def state_rows(decisions: Sequence[Decision]) -> list[dict[str, Any]]:
    """Per strategy, the with-state and without-state runs side by side: scheduled share,
    cost over the reference, mean CEI, and how often both chose the same site."""
    rows = []
    with_state, without = _of(decisions, "with-state"), _of(decisions, "without-state")
    for strategy in strategies_of(with_state):
        row: dict[str, Any] = {"strategy": strategy}
        chosen: dict[str, dict[tuple[int, int], str]] = {}
        for name, group in (("with", with_state), ("without", without)):
            mine = [d for d in group if d.strategy == strategy]
            placed = [d for d in mine if d.status == "SELECTED"]
            paid = sum(d.cost_usd or 0.0 for d in placed)
            ref = sum(d.reference_cost_usd for d in placed)
            ceis = [v for d in placed if (v := cei(d)) is not None]
            row[f"scheduled_{name}"] = len(placed) / len(mine) if mine else None
            row[f"cost_vs_reference_{name}"] = paid / ref if ref else None
            row[f"cei_{name}"] = statistics.fmean(ceis) if ceis else None
            chosen[name] = {(d.iteration, d.prompt_id): d.site or "" for d in placed}
        both = chosen["with"].keys() & chosen["without"].keys()
        same = sum(chosen["with"][k] == chosen["without"][k] for k in both)
        row["same_site"] = same / len(both) if both else None
        rows.append(row)
    return rows
