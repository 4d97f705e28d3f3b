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
import statistics
import sys
import tempfile
import time
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
from secretary_executor.evaluation.local_model import LocalModelUnavailable, llama_server

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


def _session() -> tuple[ToolSession, NegotiationContext]:
    state = SiteState.model_validate(STATE)
    session = ToolSession(providers_from_state(state), allowed=ToolKind.READ)
    return session, NegotiationContext(site="bench-site", prices=Prices(cpu_node_hour=1.0))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            with llama_server(Path(tmp) / "server.log") as url:
                return _measure(url, args.repeat, console)
        except LocalModelUnavailable as exc:
            console.print(f"[red]{exc.message}[/red]")
            return 2


def _measure(url: str, repeat: int, console: Console) -> int:
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
    for _ in range(repeat):
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
    table = Table(title=f"one negotiation at a state-file site, median of {repeat}")
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
