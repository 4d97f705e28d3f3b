"""Figure 5's logistic regression on made-up cases whose answer is known by construction."""

from __future__ import annotations

from providers.wire.proposal import Verdict
from secretary_executor.simulation.audit import CaseResult
from secretary_executor.simulation.regression import COLUMNS, GROUPS, fit_group, log_odds


def _case(index: int, style: str, correct: bool, archetype: str = "hpc") -> CaseResult:
    return CaseResult(
        worker_id="1",
        site=f"{archetype}-1",
        archetype=archetype,
        prompt_id=0,
        index=index,
        style=style,
        truth=Verdict.READY,
        verdict=Verdict.READY if correct else Verdict.INCOMPATIBLE,
        correct=correct,
        parsed_as_generated=True,
        tool_score=1.0,
    )


def _cases() -> list[CaseResult]:
    """Index 6 right 9 times in 10, index 7 (a container) right 4 times in 10, every style
    alike: the container term must come out clearly negative, the styles near zero."""
    cases = []
    for style in ("terse", "sentence", "polite"):
        for _ in range(8):
            cases += [_case(6, style, k < 9) for k in range(10)]
            cases += [_case(7, style, k < 4) for k in range(10)]
    return cases


def test_a_term_that_hurts_has_a_negative_coefficient_and_interval():
    rows = {r["term"]: r for r in fit_group("hpc", _cases())}
    container = rows["container"]
    assert container["status"].startswith("ok")
    assert container["coef"] < -2  # log(0.4/0.6) - log(0.9/0.1) = -2.60
    assert container["ci_high"] < 0
    assert container["p_value"] < 0.001
    assert abs(rows["style: polite"]["coef"]) < 0.5
    # Dimensions every case asks for cannot be estimated and are named as left out.
    assert "version" not in rows
    assert (
        "left out: version, compute, cores/GPUs, network, storage+parallel" in (container["status"])
    )


def test_a_group_without_errors_is_not_estimable():
    rows = fit_group("cloud", [_case(3, "terse", True) for _ in range(20)])
    assert rows == [
        {
            "group": "cloud",
            "term": "(model)",
            "coef": None,
            "ci_low": None,
            "ci_high": None,
            "p_value": None,
            "cases": 20,
            "status": "not estimable: every case correct",
        }
    ]


def test_every_group_has_rows_with_the_table_columns():
    rows = log_odds(_cases() + [_case(3, "terse", True, "cloud")])
    assert [g for g in GROUPS if g not in {r["group"] for r in rows}] == []
    assert all(tuple(r) == COLUMNS for r in rows)
    assert next(r for r in rows if r["group"] == "standalone")["status"] == (
        "not estimable: no cases"
    )


def test_separated_errors_are_flagged_unreliable_not_reported_as_findings():
    """Every container prompt wrong, every other right: the coefficient runs off to infinity."""
    cases = [_case(6, "terse", True) for _ in range(30)] + [
        _case(7, "terse", False) for _ in range(30)
    ]
    rows = fit_group("hpc", cases)
    assert rows and all(r["status"].startswith("unreliable (") for r in rows)
