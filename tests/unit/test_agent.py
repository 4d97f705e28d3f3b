"""Pure parts of the LLM agent: configuration, schemas, history bounds, verdict safety.

No model and no network: these are the rules the loop relies on, checked directly.
"""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from endpoint_plugins.agent import AgentConfigError, LLMConfig
from endpoint_plugins.agent.backends.base import decode_arguments, is_transient_status
from endpoint_plugins.agent.history import History, truncate
from endpoint_plugins.agent.messages import Message, ToolCall
from endpoint_plugins.agent.schema import AgentVerdict, inline_refs, model_schema
from endpoint_plugins.agent.verdicts import reconcile, redact_partitions
from providers.wire import (
    Check,
    CheckStatus,
    Evidence,
    ModelUsage,
    Proposal,
    Requirements,
    Verdict,
)
from providers.wire.common import Category

# --- configuration ------------------------------------------------------------------------


def test_no_model_means_no_configuration():
    assert LLMConfig.from_env({}) is None
    assert LLMConfig.from_env({"OPENAI_API_KEY": "sk-x"}) is None  # a key alone is not a choice


def test_local_server_needs_no_key():
    config = LLMConfig.from_env(
        {"SECRETARY_LLM_MODEL": "smollm2", "SECRETARY_LLM_BASE_URL": "http://127.0.0.1:1/v1"}
    )
    assert config is not None and config.backend == "openai" and config.max_loops == 10


def test_vendor_keys_are_the_fallback_per_backend():
    config = LLMConfig.from_env(
        {
            "SECRETARY_LLM_MODEL": "gemini-2.5-flash",
            "SECRETARY_LLM_BACKEND": "gemini",
            "GOOGLE_API_KEY": "g-key",
            "OPENAI_API_KEY": "o-key",
        }
    )
    assert config is not None and config.api_key.get_secret_value() == "g-key"
    assert "g-key" not in repr(config) and "g-key" not in config.model_dump_json()


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"SECRETARY_LLM_BASE_URL": "http://x/v1"}, "SECRETARY_LLM_MODEL is not"),
        ({"SECRETARY_LLM_MODEL": "gpt-4o-mini"}, "no key is"),
        (
            {
                "SECRETARY_LLM_MODEL": "m",
                "SECRETARY_LLM_BACKEND": "claude",
                "SECRETARY_LLM_API_KEY": "k",
            },
            "is not a back end",
        ),
        (
            {
                "SECRETARY_LLM_MODEL": "m",
                "SECRETARY_LLM_API_KEY": "k",
                "SECRETARY_LLM_MAX_LOOPS": "many",
            },
            "SECRETARY_LLM_MAX_LOOPS",
        ),
    ],
)
def test_half_configurations_say_what_to_set(env, fragment):
    with pytest.raises(AgentConfigError) as info:
        LLMConfig.from_env(env)
    assert fragment in info.value.message and "\n" not in info.value.message


# --- schemas ------------------------------------------------------------------------------


class _Inner(BaseModel):
    x: int


class _Outer(BaseModel):
    title: str
    inner: _Inner
    many: list[_Inner] = []


def test_inline_refs_makes_schemas_self_contained():
    schema = inline_refs(_Outer.model_json_schema())
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text
    assert schema["properties"]["inner"]["properties"]["x"]["type"] == "integer"
    assert "title" in schema["properties"]  # a field named "title" survives


def test_requirements_and_verdict_schemas_have_no_refs():
    for model in (Requirements, AgentVerdict):
        assert "$ref" not in json.dumps(model_schema(model))


def test_tool_arguments_are_decoded_or_flagged():
    assert decode_arguments("1", "f", '{"a": 1}').arguments == {"a": 1}
    assert decode_arguments("1", "f", {"a": 1}).arguments == {"a": 1}
    assert decode_arguments("1", "f", "").arguments == {}
    assert "not valid JSON" in (decode_arguments("1", "f", '{"a": ').arguments_error or "")
    assert "JSON object" in (decode_arguments("1", "f", "[1]").arguments_error or "")


@pytest.mark.parametrize(
    ("status", "transient"),
    [(429, True), (500, True), (503, True), (400, False), (401, False), (None, False)],
)
def test_transient_statuses(status, transient):
    assert is_transient_status(status) is transient


# --- bounded history ----------------------------------------------------------------------


def test_truncate_says_how_much_was_dropped():
    assert truncate("abc", 10) == "abc"
    cut = truncate("x" * 500, 100)
    assert cut.startswith("x" * 100) and "400 more characters" in cut


def test_history_keeps_head_and_recent_turns_with_their_tool_results():
    head = [Message(role="system", content="s"), Message(role="user", content="request")]
    history = History(head, budget_chars=250)
    for i in range(10):
        call = ToolCall(id=f"c{i}", name="t", arguments={})
        history.append(Message(role="assistant", tool_calls=(call,)))
        history.append(Message(role="tool", content="r" * 60, tool_call_id=f"c{i}", name="t"))
    window = history.window()
    assert window[:2] == head
    assert "earlier messages were left out" in window[2].content
    rest = window[3:]
    assert rest[0].role == "assistant"  # never a tool result without its call
    assert rest[-1].tool_call_id == "c9"
    assert sum(m.size() for m in rest) <= 250


def test_history_always_sends_the_newest_turn():
    history = History([Message(role="system", content="s")], budget_chars=2000)
    history.append(Message(role="user", content="y" * 5000))
    assert history.window()[-1].content == "y" * 5000


# --- verdict safety -----------------------------------------------------------------------


def _checks(*statuses: CheckStatus) -> list[Check]:
    return [
        Check(requirement=f"r{i}", category=Category.WORKLOAD, status=s)
        for i, s in enumerate(statuses)
    ]


@pytest.mark.parametrize(
    ("claimed", "statuses", "expected"),
    [
        (Verdict.READY, (CheckStatus.SATISFIED,), Verdict.READY),
        (Verdict.READY, (CheckStatus.SATISFIED, CheckStatus.WAIT), Verdict.BUSY),
        (Verdict.READY, (CheckStatus.UNKNOWN,), Verdict.UNKNOWN),
        (Verdict.BUSY, (CheckStatus.UNSATISFIED,), Verdict.INCOMPATIBLE),
        (Verdict.UNKNOWN, (CheckStatus.SATISFIED,), Verdict.UNKNOWN),
        (Verdict.INCOMPATIBLE, (CheckStatus.SATISFIED,), Verdict.INCOMPATIBLE),
    ],
)
def test_reconcile_never_raises_optimism(claimed, statuses, expected):
    verdict, note = reconcile(claimed, _checks(*statuses))
    assert verdict is expected
    assert bool(note) is (verdict is not claimed)


def test_hidden_partitions_are_redacted():
    evidence = Evidence(
        provider="slurm", tool="list_partitions", result=[{"name": "cpu"}, {"name": "secret"}]
    )
    shown = redact_partitions(evidence, ("cpu",))
    assert [p["name"] for p in shown.result] == ["cpu"]
    assert redact_partitions(evidence, None) is evidence


# --- strategy factory ---------------------------------------------------------------------


def test_make_negotiator_by_strategy(monkeypatch):
    from endpoint_plugins.agent import AgentNegotiator, HybridNegotiator, make_negotiator
    from endpoint_plugins.negotiation.rules import RulesNegotiator

    for var in ("SECRETARY_LLM_MODEL", "SECRETARY_LLM_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    assert isinstance(make_negotiator("rules"), RulesNegotiator)
    with pytest.raises(AgentConfigError, match="needs a language model"):
        make_negotiator("agent")
    with pytest.raises(AgentConfigError, match="unknown negotiation strategy 'oracle'"):
        make_negotiator("oracle")
    config = LLMConfig(model="m", base_url="http://127.0.0.1:1/v1")
    assert isinstance(make_negotiator("agent", config), AgentNegotiator)
    assert isinstance(make_negotiator("hybrid", config), HybridNegotiator)
    monkeypatch.setenv("SECRETARY_LLM_MODEL", "m")
    monkeypatch.setenv("SECRETARY_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    assert make_negotiator("agent").name == "agent"


# --- model usage on the wire --------------------------------------------------------------


def test_model_usage_round_trips_through_json():
    usage = ModelUsage(
        model="gpt-4o-mini", model_calls=3, prompt_tokens=360, completion_tokens=90, seconds=0.41
    )
    assert usage.total_tokens == 450
    assert ModelUsage.model_validate_json(usage.model_dump_json()) == usage
    proposal = Proposal(site="s", verdict=Verdict.READY, usage=usage)
    assert Proposal.model_validate_json(proposal.model_dump_json()).usage == usage


def test_usage_is_optional_and_newer_fields_are_ignored():
    # An older peer sends no usage; a newer one may add fields this release does not know.
    assert Proposal.model_validate({"site": "s", "verdict": "READY"}).usage is None
    newer = {"model": "m", "model_calls": 1, "cached_tokens": 7}
    parsed = Proposal.model_validate({"site": "s", "verdict": "READY", "usage": newer})
    assert parsed.usage == ModelUsage(model="m", model_calls=1)


@pytest.mark.parametrize("field", ["model_calls", "prompt_tokens", "completion_tokens", "seconds"])
def test_usage_figures_cannot_be_negative(field):
    with pytest.raises(ValueError, match=field):
        ModelUsage(**{field: -1})
