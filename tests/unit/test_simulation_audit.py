"""The auditor's figures and baselines, model usage per case, and a small negotiation run
through the real paths."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from providers.wire.common import Category
from providers.wire.proposal import (
    Check,
    CheckStatus,
    Evidence,
    Metrics,
    ModelUsage,
    Proposal,
    Verdict,
)
from secretary_executor.simulation.audit import (
    CaseResult,
    audit_case,
    confusion,
    explored_categories,
    figures,
    outcome,
    summarise,
    tool_score,
    usage_summary,
    with_baselines,
)
from secretary_executor.simulation.negotiate import NegotiationSettings, run_negotiation
from secretary_executor.simulation.report import (
    build_summary,
    read_results,
    render_report,
    write_results,
)
from secretary_executor.simulation.truth import Truth

R, B, INC, U, X = (
    Verdict.READY,
    Verdict.BUSY,
    Verdict.INCOMPATIBLE,
    Verdict.UNKNOWN,
    Verdict.UNREACHABLE,
)


def test_figures_count_false_ready_and_balance_the_classes():
    truths = [R, B, INC, INC, INC, INC]
    verdicts = [R, INC, B, INC, INC, U]
    f = figures(truths, verdicts)
    assert f["accuracy"] == pytest.approx(3 / 6)
    # recalls: READY 1/1, BUSY 0/1, INCOMPATIBLE 2/4
    assert f["balanced_accuracy"] == pytest.approx((1 + 0 + 0.5) / 3)
    assert f["false_ready"] == 1  # BUSY for an incompatible site
    assert f["false_incompatible"] == 1
    assert f["unknown"] == 1
    # compatible class: tp=1 (R/R), fp=1, fn=1 -> F1 = 2/(2+1+1)
    assert f["f1_compatible"] == pytest.approx(0.5)


def test_baselines_sit_beside_every_figure():
    class C:
        def __init__(self, t, v):
            self.truth, self.verdict, self.tool_score = t, v, 1.0

    cases = [C(INC, INC)] * 9 + [C(R, R)]
    out = with_baselines(cases)  # type: ignore[arg-type]
    assert out["always_incompatible"]["accuracy"] == pytest.approx(0.9)
    assert out["always_incompatible"]["balanced_accuracy"] == pytest.approx(0.5)
    assert out["always_ready"]["false_ready"] == 9
    assert out["secretary"]["accuracy"] == 1.0


def test_confusion_has_every_verdict_including_unknown_and_unreachable():
    class C:
        def __init__(self, t, v):
            self.truth, self.verdict = t, v

    conf = confusion([C(INC, X), C(R, U), C(R, R)])  # type: ignore[list-item]
    assert conf["labels"] == [
        "READY",
        "BUSY",
        "INCOMPATIBLE",
        "NEEDS_INFORMATION",
        "UNKNOWN",
        "UNREACHABLE",
    ]
    assert conf["matrix"][2][5] == 1 and conf["matrix"][0][4] == 1 and conf["matrix"][0][0] == 1


def _proposal(*tools: str) -> Proposal:
    evidence = tuple(Evidence(provider="p", tool=t) for t in tools)
    check = Check(
        requirement="x", category=Category.SOFTWARE, status=CheckStatus.SATISFIED, evidence=evidence
    )
    return Proposal(site="s", verdict=R, checks=(check,))


def test_tool_score_for_compatible_and_incompatible_cases():
    present = {Category.SOFTWARE, Category.WORKLOAD, Category.NETWORK}
    explored = explored_categories(_proposal("find_software", "list_partitions"))
    assert explored == (Category.SOFTWARE, Category.WORKLOAD)
    ok = Truth(verdict=R, needed=(Category.SOFTWARE, Category.WORKLOAD, Category.NETWORK))
    assert tool_score(ok, explored, present)[0] == pytest.approx(2 / 3)
    # A category the site has no provider for is never required.
    ok_storage = Truth(verdict=R, needed=(Category.SOFTWARE, Category.STORAGE))
    assert tool_score(ok_storage, explored, present) == (1.0, (Category.SOFTWARE,))
    # Incompatible: one explored failing category is a definitive answer.
    bad = Truth(verdict=INC, failing=(Category.NETWORK, Category.SOFTWARE))
    assert tool_score(bad, explored, present)[0] == 1.0
    bad_net = Truth(verdict=INC, failing=(Category.NETWORK,))
    assert tool_score(bad_net, explored, present)[0] == 0.0


def test_small_protocol_run_agrees_with_the_ground_truth():
    """10 workers x 10 prompts through Broker.prepare, Fleet.negotiate and the Secretary."""
    run = run_negotiation(NegotiationSettings(workers=10, prompts=10, seed=4))
    assert len(run.cases) == 100
    assert all(c.parsed_as_generated for c in run.cases)
    wrong = [(c.site, c.prompt_id, c.truth, c.verdict) for c in run.cases if not c.correct]
    assert not wrong
    assert {c.truth for c in run.cases} >= {R, INC}
    assert all(c.tool_score == 1.0 for c in run.cases)
    assert run.cases[0].usage is None  # rules ask no model
    usage = summarise(run.cases)["usage"]["overall"]
    assert usage["with_model"] == 0 and usage["model_calls"] == 0
    assert usage["tokens_per_case"] is None


# --- undecided answers and model usage ------------------------------------------------------


def test_unknown_and_unreachable_are_counted_apart_from_wrong_answers():
    truths = [R, R, INC, INC, INC]
    verdicts = [R, U, B, X, INC]
    f = figures(truths, verdicts)
    assert (f["correct"], f["wrong"], f["unknown"], f["unreachable"]) == (2, 1, 1, 1)
    assert f["correct"] + f["wrong"] + f["unknown"] + f["unreachable"] == f["cases"]
    assert f["accuracy"] == pytest.approx(2 / 5)  # undecided still count against accuracy
    assert f["decided_accuracy"] == pytest.approx(2 / 3)
    assert figures([R], [U])["decided_accuracy"] is None


def _case(
    truth: Verdict,
    verdict: Verdict,
    *,
    tokens: tuple[int, int] | None = None,
    calls: int = 1,
    elapsed: float = 1.0,
) -> CaseResult:
    usage = None
    if tokens is not None:
        usage = ModelUsage(
            model="m",
            model_calls=calls,
            prompt_tokens=tokens[0],
            completion_tokens=tokens[1],
            seconds=elapsed,
        )
    return CaseResult(
        worker_id="0.1",
        site="s",
        archetype="hpc",
        prompt_id=1,
        index=1,
        style="terse",
        truth=truth,
        verdict=verdict,
        correct=truth is verdict,
        parsed_as_generated=True,
        tool_score=1.0,
        elapsed_s=elapsed,
        usage=usage,
    )


def agent_cases() -> list[CaseResult]:
    return [
        _case(R, R, tokens=(100, 20), calls=2, elapsed=1.0),
        _case(INC, INC, tokens=(300, 60), calls=4, elapsed=3.0),
        _case(INC, R, tokens=(200, 40), calls=3, elapsed=2.0),  # wrong: a false READY
        _case(R, U, tokens=(900, 100), calls=10, elapsed=8.0),  # ran out of loops
        _case(INC, X, elapsed=5.0),  # no answer, so no model usage reached the hub
    ]


def test_outcome_separates_undecided_from_wrong():
    assert [outcome(c) for c in agent_cases()] == [
        "correct",
        "correct",
        "wrong",
        "UNKNOWN",
        "UNREACHABLE",
    ]


def test_usage_totals_and_per_case_figures():
    usage = usage_summary(agent_cases())
    total = usage["overall"]
    assert (total["cases"], total["with_model"], total["model_calls"]) == (5, 4, 19)
    assert (total["prompt_tokens"], total["completion_tokens"]) == (1500, 220)
    assert total["total_tokens"] == 1720
    assert total["model_seconds"] == pytest.approx(14.0)
    assert total["elapsed_s"] == pytest.approx(19.0)
    # Tokens per case over the 4 cases that asked a model: 120, 360, 240, 1000.
    assert total["tokens_per_case"] == {"mean": 430.0, "median": 300.0}
    assert total["model_calls_per_case"] == {"mean": 4.75, "median": 3.5}
    # Latency per case over all 5: 1, 3, 2, 8, 5.
    assert total["elapsed_s_per_case"] == {"mean": 3.8, "median": 3.0}


def test_unknown_answers_report_their_own_tokens_and_latency():
    by = usage_summary(agent_cases())["by_outcome"]
    assert list(by) == ["correct", "wrong", "UNKNOWN", "UNREACHABLE"]
    unknown = by["UNKNOWN"]
    assert (unknown["cases"], unknown["model_calls"], unknown["total_tokens"]) == (1, 10, 1000)
    assert unknown["elapsed_s_per_case"] == {"mean": 8.0, "median": 8.0}
    assert by["correct"]["tokens_per_case"] == {"mean": 240.0, "median": 240.0}
    assert by["wrong"]["cases"] == 1
    unreachable = by["UNREACHABLE"]
    assert unreachable["with_model"] == 0 and unreachable["tokens_per_case"] is None
    assert unreachable["elapsed_s_per_case"] == {"mean": 5.0, "median": 5.0}


def test_an_outcome_without_cases_is_empty_not_an_error():
    by = usage_summary([_case(R, R)])["by_outcome"]
    assert by["UNKNOWN"]["cases"] == 0
    assert by["UNKNOWN"]["elapsed_s_per_case"] is None


def test_audit_case_keeps_the_proposals_usage_and_latency():
    usage = ModelUsage(model="m", model_calls=2, prompt_tokens=50, seconds=0.5)
    proposal = Proposal(site="s", verdict=U, elapsed_s=0.75, usage=usage, metrics=Metrics())
    prompt = SimpleNamespace(prompt_id=3, index=2, style="polite")
    case = audit_case(
        worker_id="0.1",
        archetype="hpc",
        prompt=prompt,
        parsed_ok=True,
        truth=Truth(verdict=R),
        proposal=proposal,
        present=set(),
    )
    assert case.usage == usage and case.elapsed_s == 0.75
    assert not case.correct and outcome(case) == "UNKNOWN"


def test_results_keep_usage_and_older_rows_still_load(tmp_path: Path):
    cases = agent_cases()
    write_results(tmp_path, cases)
    assert read_results(tmp_path) == cases
    # A row written before usage was recorded has no such key: it loads as "no model".
    row = json.loads(cases[0].model_dump_json())
    del row["usage"]
    (tmp_path / "results.jsonl").write_text(json.dumps(row) + "\n", "utf-8")
    assert read_results(tmp_path)[0].usage is None


def test_report_shows_usage_by_outcome():
    summary = build_summary(agent_cases(), {"strategy": "agent", "workers": 5}, 1.0)
    assert summary["overall"]["secretary"]["wrong"] == 1
    assert summary["usage"]["by_outcome"]["UNKNOWN"]["total_tokens"] == 1000
    text = render_report(summary)
    assert "| figure | secretary (agent) |" in text
    assert "| wrong (a definite verdict) | 1 |" in text
    assert "## Model usage and latency, by outcome" in text
    assert "| UNKNOWN | 1 | 1 | 10 | 1,000 | 1,000.0 | 1,000.0 | 8.000000 | 8.000000 |" in text
    assert "| UNREACHABLE | 1 | 0 | 0 | - | - | - | 5.000000 | 5.000000 |" in text
    assert "Totals: 19 model calls, 1,500 prompt + 220 completion tokens" in text


def test_report_of_a_rules_run_has_dashes_for_tokens():
    cases = [_case(R, R, elapsed=0.002), _case(INC, INC, elapsed=0.004)]
    text = render_report(build_summary(cases, {"strategy": "rules"}, 1.0))
    assert "| all | 2 | 0 | 0 | - | - | - | 0.003000 | 0.003000 |" in text
    assert "No case asked a model" in text
