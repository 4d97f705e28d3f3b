"""Options of the model-backed simulation runs: port ranges, site timeouts, strategy lists and
model flags, each refused with one line that says what to write instead."""

from __future__ import annotations

import argparse
import socket

import pytest

from secretary_executor.cli.llm_options import add_llm_options, llm_config
from secretary_executor.cli.secretary import main
from secretary_executor.errors import ConfigurationError
from secretary_executor.simulation.generator import generate_worker
from secretary_executor.simulation.negotiate import NegotiationSettings, guided_tools
from secretary_executor.simulation.ports import PortPool, parse_ports
from secretary_executor.sites.fleet import demo_fleet


@pytest.mark.parametrize(
    ("text", "want"),
    [("9100-9199", range(9100, 9200)), ("9100", range(9100, 9101)), (" 80 - 81 ", range(80, 82))],
)
def test_a_port_range_includes_both_ends(text: str, want: range) -> None:
    assert parse_ports(text) == want


@pytest.mark.parametrize("text", ["", "9100-", "a-b", "9100:9199", "9199-9100", "0-10", "1-65536"])
def test_a_malformed_port_range_says_how_to_write_one(text: str) -> None:
    with pytest.raises(ConfigurationError, match="9100-9199"):
        parse_ports(text)


def test_ports_are_handed_out_once_and_taken_ones_skipped() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        busy = held.getsockname()[1]
        pool = PortPool(range(busy, busy + 1))
        with pytest.raises(ConfigurationError, match=f"no free port in --ports {busy}-{busy}"):
            pool.take()
    pool = PortPool(range(busy, busy + 1))  # released: free again, but only once
    assert pool.take() == busy
    with pytest.raises(ConfigurationError, match="1 already taken by this run"):
        pool.take()
    kernel = PortPool()
    assert kernel.take() > 0 and len(kernel.taken) == 1  # without a range: any free port


def test_cli_refuses_a_bad_range_and_ports_without_mcp(tmp_path, capsys) -> None:
    out = str(tmp_path / "o")
    code = main(["sim", "negotiate", "--transport", "mcp", "--ports", "9199-9100", "--out", out])
    assert code == 2 and "first no greater than the last" in capsys.readouterr().err
    code = main(["sim", "negotiate", "--ports", "9100-9199", "--workers", "1", "--out", out])
    assert code == 2 and "--ports only applies to --transport mcp" in capsys.readouterr().err


def test_site_timeout_and_concurrency_are_part_of_the_settings(tmp_path, capsys) -> None:
    assert NegotiationSettings().site_timeout_s is None  # the transport's own default
    assert NegotiationSettings.model_validate({"workers": 3}).concurrency is None
    with pytest.raises(SystemExit):
        main(["sim", "negotiate", "--site-timeout", "0", "--out", str(tmp_path)])
    assert "--site-timeout" in capsys.readouterr().err
    code = main(["sim", "negotiate", "--concurrency", "0", "--out", str(tmp_path)])
    assert code == 2 and "--concurrency must be at least 1" in capsys.readouterr().err


def test_unknown_selection_strategies_are_named(tmp_path, capsys) -> None:
    code = main(["sim", "select", "--strategies", "soonest,agentic-cots", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "agentic-cots" in err and "agentic-cost" in err


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_llm_options(parser)
    return parser.parse_args(list(argv))


def test_model_flags_override_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("SECRETARY_LLM_MODEL", "from-env")
    monkeypatch.setenv("SECRETARY_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    config = llm_config(
        _args("--llm-model", "smollm2", "--llm-timeout", "300", "--llm-max-tokens", "256")
    )
    assert config is not None and config.model == "smollm2"
    assert config.base_url == "http://127.0.0.1:1/v1" and config.timeout_s == 300.0
    assert config.max_output_tokens == 256


def test_no_model_anywhere_is_none_and_a_half_one_names_the_flag(monkeypatch) -> None:
    for var in ("SECRETARY_LLM_MODEL", "SECRETARY_LLM_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    assert llm_config(_args()) is None
    with pytest.raises(ConfigurationError, match="--llm-model"):
        llm_config(_args("--llm-base-url", "http://127.0.0.1:1/v1"))


def test_guided_calls_name_the_workers_own_workload_tool() -> None:
    state = generate_worker("3").state
    workload = next(p.name for p in state.providers if p.kind == "workload")
    assert guided_tools(state) == (
        f"{workload}__list_partitions",
        "final_answer",
        "final_answer",
    )


def test_one_site_timeout_for_a_whole_fleet() -> None:
    fleet = demo_fleet()
    fleet.set_timeout(120.0)
    assert {s.timeout_s for s in fleet.sites} == {120.0}
    with pytest.raises(ConfigurationError, match="above 0 s"):
        fleet.set_timeout(0.0)
