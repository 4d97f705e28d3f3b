"""``secretary sim``: export, negotiate, report and select, run as real processes."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from providers.state import load_state
from providers.wire import Proposal, Verdict
from secretary_executor.broker import Broker
from secretary_executor.cli.secretary import main
from secretary_executor.simulation.generator import generate_fleet, generate_worker
from secretary_executor.simulation.mcp_fleet import (
    FederationError,
    LoopbackFederation,
    write_shares,
)

BIN = Path(sys.executable).parent


def sim(*args: str, home: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SECRETARY_HOME": str(home), "COLUMNS": "200"}
    return subprocess.run(
        [str(BIN / "secretary"), "sim", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def test_export_writes_a_state_file_that_loads_back_identically(tmp_path, home):
    out = tmp_path / "w17.yaml"
    done = sim("export", "--worker", "17", "--out", str(out), home=home)
    assert done.returncode == 0, done.stderr
    assert load_state(out) == generate_worker("17").state
    assert out.read_text() == generate_worker("17").state.to_yaml()


def test_export_refuses_an_injection_worker_id(tmp_path, capsys):
    marker = tmp_path / "MARKER"
    code = main(["sim", "export", "--worker", f"x; touch {marker}", "--out", str(tmp_path / "o")])
    assert code == 2
    assert "worker id" in capsys.readouterr().err
    assert not marker.exists()
    assert not (tmp_path / "o").exists()


def test_negotiate_report_and_select_on_a_small_fleet(tmp_path, home):
    run_dir = tmp_path / "neg"
    done = sim(
        "negotiate",
        "--workers",
        "10",
        "--prompts",
        "10",
        "--seed",
        "2",
        "--out",
        str(run_dir),
        home=home,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((run_dir / "summary.json").read_text())
    overall = summary["overall"]
    assert overall["secretary"]["cases"] == 100
    assert overall["secretary"]["accuracy"] == 1.0
    assert overall["secretary"]["false_ready"] == 0
    assert "always_incompatible" in overall and "always_ready" in overall
    assert summary["settings"] == {
        "workers": 10,
        "prompts": 10,
        "seed": 2,
        "strategy": "rules",
        "transport": "in-process",
        "truth": "independent",
        "site_timeout_s": None,  # the transport's default
        "concurrency": None,  # every site at once
    }
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    assert len(lines) == 100
    report = (run_dir / "report.md").read_text()
    assert "always INCOMPATIBLE" in report and "By specificity index" in report
    for png in ("confusion.png", "accuracy_by_index.png", "accuracy_by_tool_score.png"):
        assert (run_dir / png).read_bytes()[:4] == b"\x89PNG"

    (run_dir / "report.md").unlink()
    done = sim("report", str(run_dir), home=home)
    assert done.returncode == 0, done.stderr
    assert (run_dir / "report.md").read_text() == report

    sel_dir = tmp_path / "sel"
    done = sim(
        "select", "--from", str(run_dir), "--iterations", "2", "--out", str(sel_dir), home=home
    )
    assert done.returncode == 0, done.stderr
    selection = json.loads((sel_dir / "selection.json").read_text())
    assert selection["iterations"] == 2
    assert (
        selection["strategies"]["agentic"]["unknown"]
        == selection["strategies"]["agentic"]["decisions"]
    )
    assert (sel_dir / "selection.md").exists()
    (sel_dir / "fig8_agreement.csv").unlink()
    done = sim("report", str(sel_dir), home=home)
    assert done.returncode == 0, done.stderr
    assert (sel_dir / "fig8_agreement.csv").is_file()
    assert "Selection:" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--transport", "pigeon"), "unknown transport 'pigeon'; choose in-process or mcp"),
        (("--transport", "mcp", "--strategy", "agent"), "--strategy rules only"),
        (("--transport", "mcp", "--mcp-processes", "0"), "--mcp-processes must be at least 1"),
        (("--strategy", "agentic"), "unknown strategy 'agentic'"),
        (("--workers", "0"), "--workers must be at least 1"),
        (("--truth", "oracle"), "unknown truth 'oracle'; choose independent or faithful"),
    ],
)
def test_bad_options_get_a_one_line_error(tmp_path, capsys, args, message):
    code = main(["sim", "negotiate", *args, "--out", str(tmp_path / "o")])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert not (tmp_path / "o").exists()


def _cases(run_dir: Path) -> list[dict[str, object]]:
    """results.jsonl without the per-case timing, which differs between runs."""
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "elapsed_s"} for line in lines]


def test_negotiate_over_mcp_gives_the_in_process_verdicts(tmp_path, home):
    """The same seed over real worker processes: every case audited exactly as in process."""
    common = ("--workers", "4", "--prompts", "3", "--seed", "5")
    local, remote = tmp_path / "local", tmp_path / "mcp"
    done = sim("negotiate", *common, "--out", str(local), home=home)
    assert done.returncode == 0, done.stderr
    done = sim(
        "negotiate",
        *common,
        "--transport",
        "mcp",
        "--mcp-processes",
        "2",
        "--out",
        str(remote),
        home=home,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr

    summary = json.loads((remote / "summary.json").read_text())
    assert summary["settings"]["transport"] == "mcp"
    assert summary["overall"]["secretary"]["unreachable"] == 0
    assert summary["overall"] == json.loads((local / "summary.json").read_text())["overall"]
    assert summary["confusion"] == json.loads((local / "summary.json").read_text())["confusion"]
    assert _cases(remote) == _cases(local)
    assert len(_cases(remote)) == 12
    # Two worker processes, each serving its share of the four sites from state files.
    shares = sorted(p.name for p in (remote / "workers").glob("w*/*.yaml"))
    assert shares == sorted(f"{w.state.site.name}.yaml" for w in generate_fleet(4, 5))
    assert sorted(p.name for p in (remote / "workers").glob("w*") if p.is_dir()) == ["w0", "w1"]


def test_worker_processes_are_stopped_when_the_caller_fails(tmp_path):
    workers = generate_fleet(2, 0)
    dirs = write_shares([(w.state.site.name, w.state.to_yaml()) for w in workers], tmp_path, 2)

    async def fail_inside() -> list[subprocess.Popen[bytes]]:
        procs: list[subprocess.Popen[bytes]] = []
        with pytest.raises(RuntimeError, match="caller failed"):
            async with LoopbackFederation(dirs, workdir=tmp_path) as federation:
                procs = [w.proc for w in federation.workers]
                assert sorted(federation.fleet.names) == sorted(w.state.site.name for w in workers)
                raise RuntimeError("caller failed")
        return procs

    procs = asyncio.run(fail_inside())
    assert len(procs) == 2
    assert all(p.poll() is not None for p in procs)


def test_the_hub_and_workers_listen_on_ports_of_the_given_range(tmp_path):
    workers = generate_fleet(2, 0)
    dirs = write_shares([(w.state.site.name, w.state.to_yaml()) for w in workers], tmp_path, 2)
    ports = range(41000, 41400)  # wide: a port in use by anything else is skipped
    requirements = Broker.prepare("python on 1 node").requirements
    assert requirements is not None

    async def run() -> tuple[list[int], list[Proposal]]:
        async with LoopbackFederation(dirs, workdir=tmp_path, ports=ports) as federation:
            assert federation.hub is not None
            used = [w.port for w in federation.workers] + [federation.hub.config.port]
            names = [w.state.site.name for w in workers]
            return used, await federation.fleet.negotiate(requirements, only=names)

    used, proposals = asyncio.run(run())
    assert len(set(used)) == 3 and all(port in ports for port in used), used
    assert len(proposals) == 2
    assert all(p.verdict is not Verdict.UNREACHABLE for p in proposals), proposals


def test_a_worker_that_cannot_start_is_one_line_with_its_log(tmp_path):
    bad = tmp_path / "w0"
    bad.mkdir()
    (bad / "broken.yaml").write_text("site: [unclosed\n")

    async def start() -> None:
        async with LoopbackFederation([bad], workdir=tmp_path, start_timeout_s=60):
            pass

    with pytest.raises(FederationError) as info:
        asyncio.run(start())
    message = info.value.message
    assert "worker process sim-0 exited" in message
    assert str(tmp_path / "sim-0.log") in message
    assert "\n" not in message


def test_report_on_a_folder_without_results_says_what_to_do(tmp_path, capsys):
    assert main(["sim", "report", str(tmp_path / "nothing")]) == 2
    assert "secretary sim negotiate" in capsys.readouterr().err


def test_select_rejects_a_folder_that_is_not_a_run(tmp_path, capsys):
    code = main(["sim", "select", "--from", str(tmp_path), "--out", str(tmp_path / "s")])
    assert code == 2
    assert "secretary sim negotiate" in capsys.readouterr().err


def test_llm_strategy_without_a_model_says_what_to_set(tmp_path):
    """``--strategy agent`` with no model configured fails at start with the variable to set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SECRETARY_LLM_")}
    out = subprocess.run(
        [
            str(Path(sys.executable).parent / "secretary"),
            "sim",
            "negotiate",
            "--workers",
            "2",
            "--prompts",
            "1",
            "--strategy",
            "agent",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "SECRETARY_LLM_MODEL" in out.stderr
    assert "Traceback" not in out.stderr
