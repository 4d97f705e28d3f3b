"""Shared test configuration: markers, service requirements, environment hygiene."""

from __future__ import annotations

import os

import pytest

MARKERS = {
    "slurm": "needs a running Slurm cluster (started by scripts/hpc/slurm-up.sh)",
    "mpi": "needs Open MPI and MPICH installed",
    "lmod": "needs Lmod / Environment Modules installed",
    "globus": "exercises the Globus Compute SDK or endpoint engines",
    "llm": "talks to an LLM back end (a local server in tests)",
    "slow": "takes more than a few seconds",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")


def services_required() -> bool:
    """CI sets SECRETARY_REQUIRE_SERVICES=1: a missing service then fails instead of skipping."""
    return os.environ.get("SECRETARY_REQUIRE_SERVICES", "") not in ("", "0", "false")


def need_service(available: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a service a test needs is absent."""
    if available:
        return
    if services_required():
        pytest.fail(f"required service missing: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _environment_is_restored():
    """A test that changes os.environ must put it back (use monkeypatch)."""
    before = dict(os.environ)
    yield
    after = dict(os.environ)
    changed = sorted(
        k
        for k in before.keys() | after.keys()
        if before.get(k) != after.get(k) and k != "PYTEST_CURRENT_TEST"
    )
    assert not changed, f"test leaked environment changes: {changed}"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own SECRETARY_HOME, so ledgers and job folders never collide."""
    monkeypatch.setenv("SECRETARY_HOME", str(tmp_path / "secretary-home"))
    yield
