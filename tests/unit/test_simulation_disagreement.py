"""Parse, decision and end-to-end accuracy, and the disagreement table, on hand-made cases."""

from __future__ import annotations

from providers.wire.proposal import Verdict
from secretary_executor.simulation.audit import CaseResult
from secretary_executor.simulation.disagreement import (
    PromptRecord,
    diff_fields,
    disagreements,
    text_omissions,
    three_figures,
)
from secretary_executor.simulation.intent import Intent, VersionBound

R, B, I = Verdict.READY, Verdict.BUSY, Verdict.INCOMPATIBLE  # noqa: E741

INTENT = Intent(
    app="lammps",
    version=VersionBound(op=">=", version="2Aug2023"),
    nodes=4,
    memory_gb_per_node=256,
    cores_per_node=64,
    gpus_per_node=2,
    gpu_logic="or",
    fabric="infiniband",
)


def _case(prompt_id: int, truth: Verdict, verdict: Verdict, intended: Verdict, **kw) -> CaseResult:
    return CaseResult(
        worker_id="1",
        site=kw.pop("site", "hpc-1"),
        archetype="hpc",
        prompt_id=prompt_id,
        index=3,
        style="terse",
        truth=truth,
        verdict=verdict,
        correct=truth is verdict,
        parsed_as_generated=kw.pop("parsed", True),
        verdict_intended=intended,
        tool_score=1.0,
        **kw,
    )


def _record(prompt_id: int, text: str, intended: dict, parsed: dict) -> PromptRecord:
    return PromptRecord(
        prompt_id=prompt_id,
        index=5,
        style="terse",
        text=text,
        intent=INTENT,
        intended=intended,
        parsed=parsed,
    )


def test_a_faithful_text_omits_nothing():
    text = (
        "lammps >= 2Aug2023, 4 nodes, 256GB RAM per node, 64 cores or 2 GPUs per node, InfiniBand"
    )
    assert text_omissions(INTENT, text) == []


def test_omissions_are_named_by_dimension():
    # The version is missing, AND replaced OR, and the fabric is wrong.
    text = "lammps, 4 nodes, 256GB RAM per node, 64 cores and 2 GPUs per node, Ethernet"
    assert text_omissions(INTENT, text) == ["version", "cores or GPUs", "network"]


def test_diff_fields_names_nested_paths_and_ignores_the_source_text():
    want = {"compute": {"nodes": 4, "gpu_logic": "or"}, "urgency": None, "source_text": "a"}
    got = {"compute": {"nodes": 4, "gpu_logic": "and"}, "urgency": "now", "source_text": "b"}
    assert diff_fields(want, got) == ["compute.gpu_logic", "urgency"]
    assert diff_fields(want, want) == []


def test_three_figures_separate_parse_decision_and_end_to_end():
    good = {"compute": {"nodes": 4}}
    bad = {"compute": {"nodes": 40}}
    records = [_record(0, "p0", good, good), _record(1, "p1", good, bad)]
    cases = [
        _case(0, R, R, R),  # right all along
        _case(0, I, I, I, site="hpc-2"),
        _case(1, R, I, R, parsed=False),  # the misread text made it wrong; the intent was fine
        _case(1, B, R, R, parsed=False, site="hpc-2"),  # wrong either way: a decision error
    ]
    three = three_figures(cases, records)
    assert three["parse"] == {"correct": 1, "total": 2, "accuracy": 0.5}
    assert three["decision"] == {"correct": 3, "total": 4, "accuracy": 0.75}
    assert three["end_to_end"] == {"correct": 2, "total": 4, "accuracy": 0.5}


def test_decision_accuracy_is_absent_for_older_results():
    old = _case(0, R, R, R).model_copy(update={"verdict_intended": None})
    assert three_figures([old], [])["decision"] is None


def test_disagreement_table_counts_each_kind_with_examples():
    good = {"compute": {"nodes": 4}}
    records = [
        _record(0, "lammps, 4 nodes", good, good),  # omits the version and more
        _record(1, "p1", good, {"compute": {"nodes": 40}}),
    ]
    cases = [
        _case(1, R, I, R, parsed=False),
        _case(1, R, I, R, parsed=False, site="hpc-2"),
        _case(0, R, R, R, truths={"faithful": R, "independent": I}),
    ]
    rows = {r["kind"]: r for r in disagreements(cases, records)}
    assert rows["parse differs: compute.nodes"]["count"] == 1
    assert rows["parse differs: compute.nodes"]["examples"][0]["intended"] == 4
    assert rows["parse differs: compute.nodes"]["examples"][0]["parsed"] == 40
    assert rows["verdict on parse != on intent: READY -> INCOMPATIBLE"]["count"] == 2
    assert rows["verdict on parse != on intent: READY -> INCOMPATIBLE"]["level"] == "case"
    assert rows["truth faithful READY, independent INCOMPATIBLE"]["count"] == 1
    assert rows["text omits version"]["level"] == "prompt"


def test_no_disagreement_gives_an_empty_table():
    same = {"compute": {"nodes": 4}}
    text = (
        "lammps >= 2Aug2023, 4 nodes, 256GB RAM per node, 64 cores or 2 GPUs per node, InfiniBand"
    )
    assert disagreements([_case(0, R, R, R)], [_record(0, text, same, same)]) == []
