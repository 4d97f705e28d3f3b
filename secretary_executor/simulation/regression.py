"""The paper's Figure 5: log-odds of a correct verdict, by requested category and phrasing.

Protocol as the paper states it: a logistic regression (statsmodels ``Logit``) of "the verdict
was correct" on the resource categories the prompt asks for, fitted per archetype; a negative
coefficient means asking for that category makes a correct answer less likely. The categories
follow the specificity index (cumulative), so each coefficient is the change in log-odds from
adding that dimension; storage and MPI are always asked together (index 6), so they are one
term. Phrasing style is added as two indicators against the terse style, and an ``all`` model
pools the archetypes with archetype indicators (HPC as reference).

A group whose cases are all correct (or all wrong) has nothing to explain: it is reported as
not estimable rather than fitted. Perfect separation, a singular design or a fit that did not
converge is reported in ``status`` beside the (then unreliable) estimates.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from secretary_executor.simulation.audit import CaseResult

TERMS: dict[str, Callable[[CaseResult], bool]] = {
    "version": lambda c: c.index >= 2,
    "compute": lambda c: c.index >= 3,
    "cores/GPUs": lambda c: c.index >= 4,
    "network": lambda c: c.index >= 5,
    "storage+parallel": lambda c: c.index >= 6,
    "container": lambda c: c.index >= 7,
    "style: sentence": lambda c: c.style == "sentence",
    "style: polite": lambda c: c.style == "polite",
}
"""Regressors: the categories a prompt asks for, then its style (terse is the reference)."""
ARCHETYPE_TERMS: dict[str, Callable[[CaseResult], bool]] = {
    "archetype: cloud": lambda c: c.archetype == "cloud",
    "archetype: standalone": lambda c: c.archetype == "standalone",
}
COLUMNS = ("group", "term", "coef", "ci_low", "ci_high", "p_value", "cases", "status")
GROUPS = ("hpc", "cloud", "standalone", "all")


def _row(group: str, term: str, cases: int, status: str, **fit: float | None) -> dict[str, Any]:
    base = dict.fromkeys(("coef", "ci_low", "ci_high", "p_value"))
    return {"group": group, "term": term, **base, **fit, "cases": cases, "status": status}


def fit_group(group: str, cases: Sequence[CaseResult]) -> list[dict[str, Any]]:
    """The fitted terms of one group (rows of :data:`COLUMNS`), or one row saying why not."""
    import numpy as np
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import (
        ConvergenceWarning,
        PerfectSeparationError,
        PerfectSeparationWarning,
    )

    n = len(cases)
    y = np.array([c.correct for c in cases], dtype=float)
    if n == 0 or y.min() == y.max():
        what = (
            "no cases" if n == 0 else ("every case correct" if n and y[0] else "every case wrong")
        )
        return [_row(group, "(model)", n, f"not estimable: {what}")]
    terms = dict(TERMS, **(ARCHETYPE_TERMS if group == "all" else {}))
    columns = {name: [float(f(c)) for c in cases] for name, f in terms.items()}
    kept = [name for name, col in columns.items() if min(col) != max(col)]
    dropped = [name for name in columns if name not in kept]
    x = np.column_stack([np.ones(n)] + [columns[name] for name in kept])
    left_out = f"; constant here, left out: {', '.join(dropped)}" if dropped else ""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = sm.Logit(y, x).fit(disp=0, maxiter=200)
        except (np.linalg.LinAlgError, PerfectSeparationError) as exc:
            return [_row(group, "(model)", n, f"not estimable: {type(exc).__name__}: {exc}")]
    problems = []
    if any(issubclass(w.category, PerfectSeparationWarning) for w in caught):
        problems.append("perfect separation")
    if any(issubclass(w.category, ConvergenceWarning) for w in caught) or not bool(
        result.mle_retvals.get("converged", True)
    ):
        problems.append("did not converge")
    status = (f"unreliable ({', '.join(problems)})" if problems else "ok") + left_out
    ci = np.asarray(result.conf_int(0.05))
    names = ["(intercept)", *kept]
    return [
        _row(
            group,
            name,
            n,
            status,
            coef=float(result.params[i]),
            ci_low=float(ci[i][0]),
            ci_high=float(ci[i][1]),
            p_value=float(result.pvalues[i]),
        )
        for i, name in enumerate(names)
    ]


def log_odds(cases: Sequence[CaseResult]) -> list[dict[str, Any]]:
    """Figure 5's table: every group of :data:`GROUPS`, in order.

    Undecided answers (UNKNOWN, UNREACHABLE) count as not correct, as in the paper.
    """
    rows: list[dict[str, Any]] = []
    for group in GROUPS:
        mine = list(cases) if group == "all" else [c for c in cases if c.archetype == group]
        rows += fit_group(group, mine)
    return rows
