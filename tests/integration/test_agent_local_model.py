"""The agent against a real local model: SmolLM2-135M-Instruct behind llama.cpp's server.

The server is started by :func:`local_llm.local_server` (prepared by
``scripts/llm/setup-local-model.sh``); this module talks to it with the real ``openai`` client
through the agent.

A 135M-parameter model cannot choose tools by itself, so these tests check the plumbing, not
the verdict: a forced tool call goes model -> API -> back end -> loop -> READ ToolSession ->
provider and back, and a JSON-schema-constrained parse goes through :func:`parse_with_llm`.
When the model or its server is missing the tests skip locally and fail in CI
(``need_service``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from local_llm import MODEL_ALIAS, local_server

from endpoint_plugins.agent import AgentNegotiator, LLMConfig, parse_with_llm
from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.parsing import parse_requirements
from providers.session import ToolSession
from providers.state import Prices, SiteState, providers_from_state
from providers.tools import ToolKind
from providers.wire import Proposal, Requirements

pytestmark = [pytest.mark.llm, pytest.mark.slow]

STATE = {
    "schema_version": 1,
    "site": {"name": "local-llm-site", "kind": "hpc", "prices": {"cpu_node_hour": 1.0}},
    "providers": [
        {
            "name": "slurm",
            "kind": "workload",
            "facts": {
                "manager": "slurm",
                "partitions": [
                    {
                        "name": "cpu",
                        "total_nodes": 8,
                        "free_nodes": 8,
                        "cpus_per_node": 32,
                        "memory_gb_per_node": 128,
                        "queue_depth": 0,
                    }
                ],
            },
        },
        {
            "name": "spack",
            "kind": "software",
            "facts": {"manager": "spack", "packages": [{"name": "lammps", "version": "2Aug2023"}]},
        },
    ],
}


@pytest.fixture(scope="module")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LLMConfig]:
    """A running llama.cpp server for the module; stopped (terminate, then kill) afterwards."""
    with local_server(tmp_path_factory.mktemp("llm")) as url:
        yield LLMConfig(
            backend="openai",
            model=MODEL_ALIAS,
            base_url=url,
            timeout_s=900,  # bounds a hung server; a call takes seconds, minutes on a busy machine
            max_loops=3,
            max_output_tokens=512,
            json_mode="json_object",
            history_budget_chars=6000,
            tool_output_budget_chars=1000,
        )


def test_a_forced_tool_call_goes_through_the_whole_plumbing(local_model: LLMConfig):
    state = SiteState.model_validate(STATE)
    session = ToolSession(providers_from_state(state), allowed=ToolKind.READ)
    context = NegotiationContext(site="local-llm-site", prices=Prices(cpu_node_hour=1.0))
    negotiator = AgentNegotiator(
        local_model, forced_tools=("slurm__list_partitions", "final_answer", "final_answer")
    )
    proposal = negotiator.evaluate(parse_requirements("lammps on 2 nodes"), session, context)

    assert isinstance(proposal, Proposal) and proposal.strategy == "agent"
    calls = [e for e in session.evidence if e.tool == "list_partitions"]
    assert calls and calls[0].error is None, session.evidence  # a real call, really executed
    assert len(proposal.checks) == 2
    assert "model call" in proposal.reason and " tokens, " in proposal.reason
    assert "the model API failed" not in proposal.reason, proposal.reason
    print(f"\nlocal negotiation: {proposal.verdict.value}: {proposal.reason}")


def test_a_json_schema_parse_goes_through_the_whole_plumbing(local_model: LLMConfig):
    text = "run lammps on 2 nodes with 16 cores per node"
    parsed, note = parse_with_llm(text, local_model, mode="json")
    assert isinstance(parsed, Requirements)
    # The model answered (constrained by the schema); whether a 135M model got it right is not
    # the point, so every outcome of validation is accepted (an answer cut at the token cap is
    # not JSON), but not a transport failure.
    answered = ("does not match the schema", "the answer is not JSON")
    assert note.startswith("parsed by") or any(a in note for a in answered), note
    shown = json.dumps(parsed.model_dump(mode="json", exclude_defaults=True))
    print(f"\nlocal parse: {note}: {shown}")
