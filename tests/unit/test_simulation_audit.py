"""The auditor's figures and baselines, and a small negotiation run through the real paths."""

from __future__ import annotations

import pytest

from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus, Evidence, Proposal, Verdict
from secretary_executor.simulation.audit import (
    confusion,
    explored_categories,
    figures,
    tool_score,
    with_baselines,
)
from secretary_executor.simulation.negotiate import NegotiationSettings, run_negotiation
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
