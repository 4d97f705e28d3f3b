"""What the project writes stays as private as what it was given: an endpoint's config keeps
its mode, the home and ledger are the owner's alone, and environment values never reach the
ledger (their names do)."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from endpoint_plugins.install import allow_functions
from providers.wire import DispatchReceipt, JobRequest, JobState
from secretary_executor.ledger import Ledger


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o644])
def test_allowing_functions_keeps_the_config_mode(tmp_path: Path, mode: int) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("display_name: site\nallowed_functions:\n  - aaa\n", encoding="utf-8")
    os.chmod(config, mode)
    change = allow_functions(config, ["bbb", "ccc"])
    assert change.action == "updated"
    assert _mode(config) == mode
    assert "ccc" in config.read_text(encoding="utf-8")


def test_the_default_home_and_ledger_are_owner_only(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "fresh-home"
    monkeypatch.setenv("SECRETARY_HOME", str(home))
    old = os.umask(0o022)
    try:
        ledger = Ledger()
        ledger.record_request(JobRequest(request_id="r1", text="1 node"))
        ledger.close()
    finally:
        os.umask(old)
    assert _mode(home) == 0o700
    for path in home.iterdir():  # the database and its -wal / -shm companions
        assert _mode(path) & 0o077 == 0, (path, oct(_mode(path)))


def test_an_existing_wide_ledger_is_narrowed(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    sqlite3.connect(path).close()
    os.chmod(path, 0o644)
    Ledger(path).close()
    assert _mode(path) == 0o600


SECRET = "s3cr3t-T0ken-value"


def test_environment_values_never_reach_the_ledger(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(path)
    env = {"API_TOKEN": SECRET, "OMP_NUM_THREADS": "8", "LABEL": "a b"}
    request = JobRequest(request_id="r1", text="1 node", command=("true",), environment=env)
    ledger.record_request(request)
    script = (
        "#!/bin/bash\nexport API_TOKEN=s3cr3t-T0ken-value\nexport LABEL='a b'\n"
        "export OMP_NUM_THREADS=8\n# --env=API_TOKEN=s3cr3t-T0ken-value\ntrue\n"
    )
    receipt = DispatchReceipt(
        job_id="j1",
        request_id="r1",
        site="s",
        native_id="1",
        provider="slurm",
        state=JobState.QUEUED,
        script=script,
    )
    ledger.record_dispatch(receipt, env)
    stored = ledger.request("r1")
    assert stored is not None and set(stored.environment) == set(env)
    assert SECRET not in stored.model_dump_json()
    record = ledger.job("j1")
    ledger.close()
    raw = path.read_bytes() + b"".join(
        p.read_bytes() for p in tmp_path.iterdir() if p.name != path.name
    )
    assert SECRET.encode() not in raw
    assert b"OMP_NUM_THREADS=8" not in raw and b"LABEL='a b'" not in raw
    assert b"API_TOKEN" in raw  # the names stay: they say what the job was given
    assert record.site == "s"
