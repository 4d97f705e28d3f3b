"""The LLM agent through the real ``openai`` and ``google-genai`` clients, over HTTP.

The model side is a scripted stand-in for a paid LLM (``llm_wire.scripted_llm``): a local
HTTP server on 127.0.0.1 that speaks the documented wire formats (OpenAI
``/v1/chat/completions`` with ``tool_calls``; Gemini ``/v1/models/{model}:generateContent``
with ``functionCall`` parts) and plays the replies each test scripts. Everything on our side
is real: the SDK clients, the back ends, the loop, the READ-only ToolSession and the providers
of a state-file site.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from llm_wire import Hang, ScriptedLLM, Status, Text, calls, scripted_llm
from pydantic import SecretStr

from endpoint_plugins.agent import AgentNegotiator, HybridNegotiator, LLMConfig, parse_with_llm
from endpoint_plugins.agent.verdicts import requirement_items
from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.parsing import parse_requirements
from providers.session import ToolSession
from providers.state import Prices, SiteState, providers_from_state
from providers.tools import ToolKind
from providers.wire import (
    CheckStatus,
    Metrics,
    ModelUsage,
    Policy,
    Proposal,
    Requirements,
    Verdict,
)
from secretary_executor.errors import SelectionError
from secretary_executor.select.agentic import Agentic, AgenticCost
from secretary_executor.select.registry import get_selector, select_with_fallback

pytestmark = pytest.mark.llm

SECRET = "sk-test-5ecret-never-shown-0123456789"
BACKENDS = ["openai", "gemini"]

STATE = {
    "schema_version": 1,
    "site": {"name": "hpc-test", "kind": "hpc", "prices": {"cpu_node_hour": 2.0}},
    "providers": [
        {
            "name": "slurm",
            "kind": "workload",
            "facts": {
                "manager": "slurm",
                "partitions": [
                    {
                        "name": "cpu",
                        "total_nodes": 10,
                        "free_nodes": 4,
                        "cpus_per_node": 64,
                        "memory_gb_per_node": 256,
                        "queue_depth": 3,
                    }
                ],
            },
        },
        {
            "name": "spack",
            "kind": "software",
            "facts": {
                "manager": "spack",
                "packages": [
                    {"name": "lammps", "version": "2Aug2023"},
                    {"name": "flubbery", "version": "1.0"},
                ],
            },
        },
    ],
}
REQUEST = "lammps >= 2023 on 2 nodes"
NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with scripted_llm() as server:
        yield server


def make_config(llm: ScriptedLLM, backend: str, **extra: Any) -> LLMConfig:
    url = llm.openai_url if backend == "openai" else llm.gemini_url
    fields: dict[str, Any] = {
        "backend": backend,
        "model": "scripted-model",
        "base_url": url,
        "api_key": SecretStr(SECRET),
        "timeout_s": 10,
    }
    fields.update(extra)
    return LLMConfig(**fields)


def site() -> tuple[ToolSession, NegotiationContext]:
    state = SiteState.model_validate(STATE)
    session = ToolSession(providers_from_state(state), allowed=ToolKind.READ)
    context = NegotiationContext(
        site="hpc-test", request_id="r-1", prices=Prices(cpu_node_hour=2.0)
    )
    return session, context


def requirements() -> Requirements:
    return parse_requirements(REQUEST)


def verdict_args(verdict: str = "READY", status: str = "satisfied") -> dict[str, Any]:
    labels = [i.label for i in requirement_items(requirements())]
    return {
        "verdict": verdict,
        "reason": "lammps is installed and partition cpu has 4 free nodes for the 2 needed.",
        "checks": [{"requirement": label, "status": status, "detail": "seen"} for label in labels],
    }


def negotiate(config: LLMConfig, **kw: Any) -> tuple[Proposal, ToolSession]:
    session, context = site()
    proposal = AgentNegotiator(config, **kw).evaluate(requirements(), session, context)
    return proposal, session


def tool_results(llm: ScriptedLLM, request_no: int, backend: str) -> list[str]:
    """What the client sent back as tool results in one request, as text."""
    body = llm.requests[request_no].body
    if backend == "openai":
        return [m["content"] for m in body["messages"] if m["role"] == "tool"]
    out = []
    for content in body["contents"]:
        for part in content.get("parts", []):
            response = part.get("functionResponse") or part.get("function_response")
            if response:
                out.append(json.dumps(response))
    return out


# --- the normal loop ----------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_tool_loop_reaches_a_verdict_with_evidence_and_metrics(llm, backend):
    llm.play(
        calls(("spack__find_software", {"name": "lammps"})),
        calls(("slurm__list_partitions", {})),
        calls(("final_answer", verdict_args())),
    )
    proposal, _ = negotiate(make_config(llm, backend))

    assert proposal.verdict is Verdict.READY, proposal.reason
    assert proposal.strategy == "agent" and proposal.site == "hpc-test"
    software, compute = proposal.checks
    assert software.requirement == "software: lammps >=2023"
    assert software.status is CheckStatus.SATISFIED
    assert [e.tool for e in software.evidence] == ["find_software"]
    assert [e.tool for e in compute.evidence] == ["list_partitions"]
    assert proposal.metrics.partition == "cpu" and proposal.metrics.free_nodes == 4
    assert proposal.metrics.estimated_cost_usd == pytest.approx(4.0)  # 2 nodes x 1 h x $2
    assert "3 model calls, 360 prompt + 90 completion tokens" in proposal.reason

    assert len(llm.requests) == 3
    first = llm.requests[0]
    if backend == "openai":
        assert first.path == "/v1/chat/completions"
        assert first.headers["authorization"] == f"Bearer {SECRET}"
        names = [t["function"]["name"] for t in first.body["tools"]]
    else:
        assert first.path == "/v1/models/scripted-model:generateContent"
        assert first.headers["x-goog-api-key"] == SECRET
        decls = first.body["tools"][0]["functionDeclarations"]
        names = [d["name"] for d in decls]
        assert all("$defs" not in json.dumps(d) for d in decls)
    assert "final_answer" in names and "spack__find_software" in names
    assert not any("submit_job" in n for n in names)  # READ tools only
    # The tool result of call 1 went back in request 2 (and both in request 3).
    assert "2Aug2023" in tool_results(llm, 1, backend)[0]
    assert len(tool_results(llm, 2, backend)) == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_verdict_before_looking_is_sent_back(llm, backend):
    llm.play(
        calls(("final_answer", verdict_args())),
        calls(("slurm__list_partitions", {})),
        calls(("final_answer", verdict_args())),
    )
    proposal, _ = negotiate(make_config(llm, backend))
    assert proposal.verdict is Verdict.READY
    assert "Call at least one" in tool_results(llm, 1, backend)[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_verdict_is_never_more_optimistic_than_its_checks(llm, backend):
    args = verdict_args("READY", "unsatisfied")
    llm.play(calls(("slurm__list_partitions", {})), calls(("final_answer", args)))
    proposal, _ = negotiate(make_config(llm, backend))
    assert proposal.verdict is Verdict.INCOMPATIBLE
    assert "allow at most INCOMPATIBLE" in proposal.reason


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_agent_proposal_carries_its_usage_as_data(llm, backend):
    llm.play(
        calls(("spack__find_software", {"name": "lammps"})),
        calls(("slurm__list_partitions", {})),
        calls(("final_answer", verdict_args())),
    )
    proposal, _ = negotiate(make_config(llm, backend))
    usage = proposal.usage
    assert usage is not None
    assert (usage.model, usage.model_calls) == ("scripted-model", 3)
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (360, 90, 450)
    assert usage.seconds == proposal.elapsed_s  # the same measurement, as data
    # It crosses the wire intact, and holds neither the key nor the endpoint.
    sent = proposal.model_dump_json()
    assert Proposal.model_validate_json(sent).usage == usage
    assert SECRET not in sent and llm.openai_url not in sent and llm.gemini_url not in sent


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unknown_keeps_the_usage_it_burned(llm, backend):
    llm.play(*[calls(("spack__find_software", {"name": "lammps"}))] * 3)
    proposal, _ = negotiate(make_config(llm, backend, max_loops=3))
    assert proposal.verdict is Verdict.UNKNOWN
    assert proposal.usage is not None
    assert (proposal.usage.model_calls, proposal.usage.total_tokens) == (3, 450)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failed_api_call_is_not_counted_as_a_model_call(llm, backend):
    llm.play(Status(500, "internal"))
    proposal, _ = negotiate(make_config(llm, backend))
    assert proposal.verdict is Verdict.UNKNOWN
    assert proposal.usage == ModelUsage(
        model="scripted-model", model_calls=0, seconds=proposal.usage.seconds
    )


def test_a_request_with_nothing_to_judge_asks_no_model_and_has_no_usage(llm):
    session, context = site()
    proposal = AgentNegotiator(make_config(llm, "openai")).evaluate(
        Requirements(), session, context
    )
    assert proposal.verdict is Verdict.NEEDS_INFORMATION
    assert proposal.usage is None and not llm.requests


# --- invalid output and repair ------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_malformed_json_is_repaired_once(llm, backend):
    broken = '{"verdict": "READY", "reason": '
    malformed = (
        calls(("final_answer", broken)) if backend == "openai" else Text('{"verdict": READY')
    )
    llm.play(
        calls(("spack__find_software", {"name": "lammps"})),
        malformed,
        calls(("final_answer", verdict_args())),
    )
    proposal, _ = negotiate(make_config(llm, backend))
    assert proposal.verdict is Verdict.READY, proposal.reason
    sent = json.dumps(llm.requests[2].body)
    assert "not valid JSON" in sent or "not a valid verdict" in sent


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_second_invalid_answer_gives_unknown(llm, backend):
    bad = {"verdict": "MAYBE", "reason": "x"}
    llm.play(
        calls(("slurm__list_partitions", {})),
        calls(("final_answer", bad)),
        calls(("final_answer", bad)),
    )
    proposal, _ = negotiate(make_config(llm, backend))
    assert proposal.verdict is Verdict.UNKNOWN
    assert "still invalid after one repair" in proposal.reason
    assert "verdict" in tool_results(llm, 2, backend)[-1]  # the validation error went back
    assert all(c.status is CheckStatus.UNKNOWN for c in proposal.checks)


# --- limits and failures ------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_loop_exhaustion_gives_unknown(llm, backend):
    llm.play(*[calls(("spack__find_software", {"name": "lammps"}))] * 3)
    proposal, _ = negotiate(make_config(llm, backend, max_loops=3))
    assert proposal.verdict is Verdict.UNKNOWN
    assert "no verdict after 3 model calls" in proposal.reason
    assert len(llm.requests) == 3
    assert proposal.checks[0].evidence  # what it saw is still evidence


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("code", [429, 500])
def test_http_errors_give_unknown_with_the_reason(llm, backend, code):
    llm.play(Status(code, "rate limited" if code == 429 else "internal"))
    proposal, _ = negotiate(make_config(llm, backend))
    assert proposal.verdict is Verdict.UNKNOWN
    assert f"HTTP {code}" in proposal.reason
    assert len(llm.requests) == 1  # the SDKs' own retries are off


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_timeout_gives_unknown(llm, backend):
    llm.play(Hang())
    proposal, _ = negotiate(make_config(llm, backend, timeout_s=0.5))
    assert proposal.verdict is Verdict.UNKNOWN
    assert "the model API failed" in proposal.reason


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_dispatch_tool_is_refused_and_reported(llm, backend):
    spec = {"name": "x", "command": ["touch", "/tmp/agent-was-here"]}
    llm.play(
        calls(("slurm__submit_job", {"spec": spec})),
        calls(("spack__find_software", {"name": "lammps"})),
        calls(("slurm__list_partitions", {})),
        calls(("final_answer", verdict_args())),
    )
    proposal, session = negotiate(make_config(llm, backend))
    assert proposal.verdict is Verdict.READY
    assert "Refused tool call(s)" in proposal.reason and "slurm__submit_job" in proposal.reason
    refused = [e for e in session.evidence if e.tool == "submit_job"]
    assert refused and "dispatch tool" in (refused[0].error or "")
    assert "refused" in tool_results(llm, 1, backend)[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_api_key_never_appears_in_logs_or_proposals(llm, backend, caplog):
    caplog.set_level(logging.DEBUG)
    llm.play(
        calls(("slurm__list_partitions", {})),
        calls(("final_answer", verdict_args())),
        Status(401, f"Incorrect API key provided: {SECRET}"),
    )
    config = make_config(llm, backend)
    proposal, _ = negotiate(config)
    failed, _ = negotiate(config)
    assert failed.verdict is Verdict.UNKNOWN and "HTTP 401" in failed.reason
    assert SECRET not in repr(config) and SECRET not in config.model_dump_json()
    for text in (proposal.model_dump_json(), failed.model_dump_json(), caplog.text):
        assert SECRET not in text


# --- hybrid parsing -----------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_parse_with_llm_by_forced_tool_call(llm, backend):
    answer = {"software": [{"name": "gromacs"}], "compute": {"nodes": 4, "gpus_per_node": 2}}
    llm.play(calls(("submit_requirements", answer)))
    text = "a couple of fat GPU boxes, four of them, for my gromacs thing"
    parsed, note = parse_with_llm(text, make_config(llm, backend))
    assert [s.name for s in parsed.software] == ["gromacs"]
    assert parsed.compute.nodes == 4 and parsed.compute.gpus_per_node == 2
    assert parsed.source_text == text
    assert note.startswith("parsed by") and "150" not in note  # tokens are reported per kind
    body = llm.requests[0].body
    if backend == "openai":
        assert body["tool_choice"] == {
            "type": "function",
            "function": {"name": "submit_requirements"},
        }
    else:
        mode = body["toolConfig"]["functionCallingConfig"]
        assert mode["mode"] == "ANY" and mode["allowedFunctionNames"] == ["submit_requirements"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_parse_with_llm_by_json_schema_output(llm, backend):
    llm.play(Text(json.dumps({"software": [{"name": "lammps"}], "compute": {"nodes": 2}})))
    parsed, note = parse_with_llm("lammps, two nodes", make_config(llm, backend), mode="json")
    assert parsed.compute.nodes == 2 and note.startswith("parsed by")
    body = llm.requests[0].body
    if backend == "openai":
        assert body["response_format"]["type"] == "json_schema"
        assert "$defs" not in json.dumps(body["response_format"])
    else:
        assert body["generationConfig"]["responseMimeType"] == "application/json"
        assert "responseJsonSchema" in body["generationConfig"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("step", "why"),
    [
        (Status(500), "HTTP 500"),
        (calls(("submit_requirements", {"compute": {"nodes": 0}})), "does not match the schema"),
        (Text("I think you want LAMMPS."), "did not call submit_requirements"),
    ],
)
def test_parse_with_llm_falls_back_to_the_deterministic_parser(llm, backend, step, why):
    llm.play(step)
    parsed, note = parse_with_llm(REQUEST, make_config(llm, backend), now=NOW)
    assert parsed == parse_requirements(REQUEST, now=NOW)
    assert why in note and "deterministic parser used" in note


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_model_cannot_make_an_unread_phrase_disappear(llm, backend):
    """The hybrid parser is held to the fail-safe rule: the model ignored "flubbery", so the
    phrase stays unresolved and the site cannot be READY on it."""
    text = "lammps >= 2023 on 2 nodes, and please something flubbery"
    first = parse_requirements(text)
    assert first.unresolved == ("flubbery",)
    answer = {"compute": {"nodes": 2}}  # the model also dropped LAMMPS
    llm.play(calls(("submit_requirements", answer)))
    parsed, _ = parse_with_llm(text, make_config(llm, backend))
    assert parsed.unresolved == ("flubbery",)
    assert [s.name for s in parsed.software] == ["lammps"]  # kept from the rules' reading
    llm.play(calls(("submit_requirements", answer)))
    session, context = site()
    proposal = HybridNegotiator(make_config(llm, backend)).evaluate(first, session, context)
    assert proposal.verdict is Verdict.UNKNOWN
    assert any("flubbery" in c.requirement for c in proposal.checks)


@pytest.mark.parametrize("backend", BACKENDS)
def test_hybrid_negotiator_rereads_partly_understood_text_and_judges_by_rules(llm, backend):
    text = "lammps >= 2023 on 2 nodes, and please something flubbery"
    first = parse_requirements(text)
    assert first.unresolved  # the deterministic parser left a phrase it could not read
    answer = {  # the model read "flubbery" as a package the site has under that name
        "software": [
            {"name": "lammps", "constraints": [{"op": ">=", "version": "2023"}]},
            {"name": "flubbery"},
        ],
        "compute": {"nodes": 2},
    }
    llm.play(calls(("submit_requirements", answer)))
    session, context = site()
    proposal = HybridNegotiator(make_config(llm, backend)).evaluate(first, session, context)
    assert proposal.strategy == "hybrid" and proposal.verdict is Verdict.READY
    assert "[requirements parsed by" in proposal.reason
    assert all(c.evidence for c in proposal.checks)
    assert proposal.usage is not None
    assert (proposal.usage.model_calls, proposal.usage.prompt_tokens) == (1, 120)
    assert proposal.usage.completion_tokens == 30
    assert proposal.elapsed_s >= proposal.usage.seconds  # the re-read is part of the latency


@pytest.mark.parametrize("backend", BACKENDS)
def test_hybrid_fallback_records_the_attempt_without_a_model_call(llm, backend):
    text = "lammps >= 2023 on 2 nodes, and please something flubbery"
    llm.play(Status(500))
    session, context = site()
    proposal = HybridNegotiator(make_config(llm, backend)).evaluate(
        parse_requirements(text), session, context
    )
    assert "deterministic parser used" in proposal.reason
    assert proposal.usage is not None
    assert (proposal.usage.model_calls, proposal.usage.total_tokens) == (0, 0)


def test_hybrid_negotiator_skips_the_model_for_fully_understood_text(llm):
    session, context = site()
    proposal = HybridNegotiator(make_config(llm, "openai")).evaluate(
        requirements(), session, context
    )
    assert proposal.verdict is Verdict.READY and not llm.requests
    assert proposal.usage is None


# --- agentic selection --------------------------------------------------------------------


def proposals() -> list[Proposal]:
    return [
        Proposal(
            site="cheap",
            verdict=Verdict.BUSY,
            metrics=Metrics(
                estimated_start_s=7200, price_per_node_hour=0.4, estimated_cost_usd=0.8
            ),
        ),
        Proposal(
            site="fast",
            verdict=Verdict.READY,
            metrics=Metrics(estimated_start_s=0, price_per_node_hour=6.0, estimated_cost_usd=12.0),
        ),
        Proposal(site="broken", verdict=Verdict.INCOMPATIBLE),
    ]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cls", [Agentic, AgenticCost])
def test_agentic_selection_ranks_the_models_pick_first(llm, backend, cls):
    llm.play(calls(("choose_site", {"site": "cheap", "reason": "cheapest by far"})))
    selector = cls(make_config(llm, backend))
    ranked = selector.rank(proposals(), requirements(), Policy(algorithm=cls.name))
    assert [p.site for p in ranked] == ["cheap", "fast"]
    assert "cheapest by far" in selector.last_note
    prompt = json.dumps(llm.requests[0].body)
    assert ("estimated_cost_usd" in prompt) is (cls is AgenticCost)
    assert "broken" not in prompt.split("Offered sites")[1]  # only READY/BUSY are offered


@pytest.mark.parametrize("backend", BACKENDS)
def test_agentic_pick_of_a_site_not_offered_is_a_selection_error(llm, backend):
    llm.play(calls(("choose_site", {"site": "broken"})))
    with pytest.raises(SelectionError, match="not offered"):
        Agentic(make_config(llm, backend)).rank(proposals(), None, Policy(algorithm="agentic"))


def test_fallback_chain_decides_when_the_model_names_another_site(llm, monkeypatch):
    monkeypatch.setenv("SECRETARY_LLM_MODEL", "scripted-model")
    monkeypatch.setenv("SECRETARY_LLM_BASE_URL", llm.openai_url)
    llm.play(calls(("choose_site", {"site": "elsewhere"})))
    outcome = select_with_fallback(
        proposals(), None, Policy(algorithm="agentic-cost", fallback=("soonest",))
    )
    assert outcome.algorithm == "soonest" and outcome.chosen is not None
    assert outcome.chosen.site == "fast"
    assert "agentic-cost could not decide" in outcome.notes[0]
    assert "'elsewhere', which was not offered" in outcome.notes[0]


def test_agentic_from_the_environment_picks_through_the_registry(llm, monkeypatch):
    monkeypatch.setenv("SECRETARY_LLM_MODEL", "scripted-model")
    monkeypatch.setenv("SECRETARY_LLM_BASE_URL", llm.openai_url)
    llm.play(calls(("choose_site", {"site": "fast"})))
    outcome = select_with_fallback(proposals(), None, Policy(algorithm="agentic"))
    assert outcome.algorithm == "agentic" and outcome.ranked == ("fast", "cheap")


def test_agentic_without_a_model_keeps_the_clear_error(monkeypatch):
    for var in ("SECRETARY_LLM_MODEL", "SECRETARY_LLM_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(SelectionError, match="^no model configured"):
        get_selector("agentic-cost").rank(proposals(), None, Policy(algorithm="agentic-cost"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unusable_choice_is_sent_back_and_the_next_one_counts(llm, backend):
    llm.play(calls(("choose_site", {"site": "broken"})), calls(("choose_site", {"site": "fast"})))
    selector = Agentic(make_config(llm, backend))
    ranked = selector.rank(proposals(), None, Policy(algorithm="agentic"))
    assert [p.site for p in ranked] == ["fast", "cheap"]
    assert len(llm.requests) == 2 and "2 answer(s)" in selector.last_note
    assert "'broken', which was not offered" in json.dumps(llm.requests[1].body)
    assert '"cheap", "fast"' in json.dumps(llm.requests[0].body)  # the enum of offered names


def test_after_the_retries_the_error_lists_every_unusable_answer(llm):
    llm.play(*(calls(("choose_site", {"site": f"nowhere-{i}"})) for i in range(2)))
    with pytest.raises(SelectionError) as info:
        Agentic(make_config(llm, "openai"), retries=1).rank(
            proposals(), None, Policy(algorithm="agentic")
        )
    message = info.value.message
    assert message.startswith("agentic: no usable choice in 2 model answer(s)")
    assert "'nowhere-0'" in message and "'nowhere-1'" in message and len(llm.requests) == 2
