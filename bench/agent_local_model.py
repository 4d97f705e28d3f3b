"""Benchmark: one agent negotiation on a real local model, against the rules negotiator.

Starts llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct (prepared by
``scripts/llm/setup-local-model.sh``), then runs the same request at the same state-file site
with the ``agent`` strategy (forced tool choice: the model is too small to choose) and with the
default ``rules`` strategy, and reports model calls, tokens, seconds, and the agent's cost as a
ratio against the rules baseline measured in the same run. Also times one hybrid parse.

    .venv/bin/python bench/agent_local_model.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from rich.console import Console
from rich.table import Table

from endpoint_plugins.agent import AgentNegotiator, LLMConfig, parse_with_llm
from endpoint_plugins.negotiation.base import NegotiationContext
from endpoint_plugins.negotiation.rules import RulesNegotiator
from endpoint_plugins.parsing import parse_requirements
from providers.session import ToolSession
from providers.state import Prices, SiteState, providers_from_state
from providers.tools import ToolKind

CACHE = Path(os.environ.get("SECRETARY_LLM_CACHE", Path.home() / ".cache" / "secretary"))
SERVER_PYTHON = CACHE / "llm-venv" / "bin" / "python"
MODEL = CACHE / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
REQUEST = "lammps on 2 nodes"
STATE = {
    "schema_version": 1,
    "site": {"name": "bench-site", "kind": "hpc", "prices": {"cpu_node_hour": 1.0}},
    "providers": [
        {
            "name": "slurm",
            "kind": "workload",
            "facts": {
                "manager": "slurm",
                "partitions": [
                    {"name": "cpu", "total_nodes": 8, "free_nodes": 8, "cpus_per_node": 32,
                     "memory_gb_per_node": 128, "queue_depth": 0}
                ],
            },
        },
        {
            "name": "spack",
            "kind": "software",
            "facts": {"manager": "spack", "packages": [{"name": "lammps", "version": "2Aug2023"}]},
        },
    ],
}  # fmt: skip


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _session() -> tuple[ToolSession, NegotiationContext]:
    state = SiteState.model_validate(STATE)
    session = ToolSession(providers_from_state(state), allowed=ToolKind.READ)
    return session, NegotiationContext(site="bench-site", prices=Prices(cpu_node_hour=1.0))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    console = Console()
    if not (SERVER_PYTHON.exists() and MODEL.exists()):
        console.print("[red]no local model: run scripts/llm/setup-local-model.sh first[/red]")
        return 2
    port = _free_port()
    url = f"http://127.0.0.1:{port}/v1"
    argv = [
        str(SERVER_PYTHON), "-m", "llama_cpp.server", "--model", str(MODEL),
        "--model_alias", "smollm2", "--chat_format", "chatml-function-calling",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--n_threads", "2",
    ]  # fmt: skip
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603 - argv list
    try:
        deadline = time.monotonic() + 120
        while not _ready(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                console.print("[red]the llama.cpp server did not start[/red]")
                return 1
            time.sleep(0.2)
        config = LLMConfig(
            model="smollm2", base_url=url, timeout_s=120, max_loops=3, json_mode="json_object",
            history_budget_chars=6000, tool_output_budget_chars=1000,
        )  # fmt: skip
        requirements = parse_requirements(REQUEST)
        agent = AgentNegotiator(
            config, forced_tools=("slurm__list_partitions", "final_answer", "final_answer")
        )
        rules_s: list[float] = []
        agent_s: list[float] = []
        parse_s: list[float] = []
        reasons: list[str] = []
        notes: list[str] = []
        for _ in range(args.repeat):
            session, context = _session()
            start = time.perf_counter()
            RulesNegotiator().evaluate(requirements, session, context)
            rules_s.append(time.perf_counter() - start)
            session, context = _session()
            start = time.perf_counter()
            proposal = agent.evaluate(requirements, session, context)
            agent_s.append(time.perf_counter() - start)
            reasons.append(f"{proposal.verdict.value}: {' '.join(proposal.reason.split())}")
            start = time.perf_counter()
            _, note = parse_with_llm(REQUEST, config, mode="json")
            parse_s.append(time.perf_counter() - start)
            notes.append(note)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()
    table = Table(title=f"one negotiation at a state-file site, median of {args.repeat}")
    for column in ("strategy", "median s", "ratio vs rules"):
        table.add_column(column)
    base = statistics.median(rules_s)
    for name, values in (("rules", rules_s), ("agent", agent_s), ("hybrid parse", parse_s)):
        med = statistics.median(values)
        table.add_row(name, f"{med:.4f}", f"{med / base:,.0f}x")
    console.print(table)
    for reason in reasons:
        console.print(f"agent proposal: {reason}", soft_wrap=True, markup=False)
    for note in notes:
        console.print(f"hybrid parse: {note}", soft_wrap=True, markup=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
