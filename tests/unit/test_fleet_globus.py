"""Fleet files with ``transport: globus-compute`` sites: loading, laziness and validation."""

from __future__ import annotations

import json
from pathlib import Path

import globus_compute_sdk
import pytest
import yaml

from secretary_executor.errors import ConfigurationError
from secretary_executor.sites.fleet import demo_state_files, load_fleet
from secretary_executor.sites.globus import GlobusComputeTransport, forget_executor

ENDPOINT = "4b116d3c-1703-4f8f-9f6f-39921e5864df"
IDS = {
    "negotiate": "11111111-1111-1111-1111-111111111111",
    "describe": "22222222-2222-2222-2222-222222222222",
}
REMOTE = "~/.globus_compute/hpc-west/secretary-site.yaml"


class RecordingExecutor:
    """Stands in for ``globus_compute_sdk.Executor``: records that one was made, calls nothing."""

    made: list[str] = []

    def __init__(self, endpoint_id: str, **kwargs: object) -> None:
        RecordingExecutor.made.append(endpoint_id)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


@pytest.fixture(autouse=True)
def _no_sdk_executor(monkeypatch):
    RecordingExecutor.made = []
    monkeypatch.setattr(globus_compute_sdk, "Executor", RecordingExecutor)
    # Headless-login credentials, so the transport goes on to make an executor.
    monkeypatch.setenv("GLOBUS_COMPUTE_CLIENT_ID", "00000000-0000-0000-0000-000000000000")
    monkeypatch.setenv("GLOBUS_COMPUTE_CLIENT_SECRET", "not-a-real-secret")
    yield
    forget_executor(ENDPOINT)


def _fleet_file(tmp_path: Path, *sites: dict, functions: dict | None = None) -> Path:
    folder = tmp_path / "hpc-west"
    folder.mkdir(exist_ok=True)
    (folder / "secretary-functions.json").write_text(json.dumps({"functions": functions or IDS}))
    path = tmp_path / "fleet.yaml"
    path.write_text(yaml.safe_dump({"sites": list(sites)}))
    return path


def _globus(**overrides: object) -> dict:
    entry = {
        "name": "hpc-west",
        "transport": "globus-compute",
        "endpoint_id": ENDPOINT,
        "functions_file": "hpc-west/secretary-functions.json",  # relative to the fleet file
        "remote_site_config": REMOTE,
    }
    entry.update(overrides)
    return {k: v for k, v in entry.items() if v is not None}


def test_a_globus_compute_site_loads_without_making_an_sdk_executor(tmp_path):
    simulated = {"name": "here", "state_file": str(demo_state_files()[0])}
    fleet = load_fleet(_fleet_file(tmp_path, simulated, _globus()))
    assert fleet.names == ["here", "hpc-west"]
    site = fleet.get("hpc-west")
    transport = site.transport
    assert isinstance(transport, GlobusComputeTransport)
    assert transport.endpoint_id == ENDPOINT
    assert transport.function_ids == IDS
    assert transport.site_config_path == REMOTE  # a path on the endpoint host: left as given
    assert site.timeout_s == 60.0  # the Globus Compute default
    assert RecordingExecutor.made == []  # loading contacted nothing and needed no login
    transport.executor  # noqa: B018 - the first use makes it
    assert RecordingExecutor.made == [ENDPOINT]


def test_timeout_can_be_set_per_site(tmp_path):
    fleet = load_fleet(_fleet_file(tmp_path, _globus(timeout_s=5)))
    assert fleet.get("hpc-west").timeout_s == 5


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (_globus(endpoint_id=None), "also needs endpoint_id"),
        (
            _globus(functions_file=None, remote_site_config=None),
            "needs functions_file (the secretary-functions.json",
        ),
        (
            _globus(endpoint_id="hpc-west"),
            "not a UUID; use the id that 'globus-compute-endpoint list'",
        ),
        (_globus(remote_site_config="site.yaml"), "absolute (or ~/...) path"),
        (_globus(remote_site_config="/etc/secretary/site.json"), "site's YAML configuration"),
        (_globus(state_file="x.yaml"), "remove state_file"),
        (
            {"name": "here", "state_file": "x.yaml", "endpoint_id": ENDPOINT},
            "add 'transport: globus-compute' or remove them",
        ),
        (_globus(functions_file="missing.json"), "functions_file: cannot read"),
        (_globus(transport="globus"), "transport"),
    ],
)
def test_mistakes_say_what_to_fix(tmp_path, entry, expected):
    with pytest.raises(ConfigurationError) as info:
        load_fleet(_fleet_file(tmp_path, entry))
    assert expected in info.value.message
    assert "hpc-west" in info.value.message or "fleet file" in info.value.message
    assert RecordingExecutor.made == []


def test_a_functions_file_without_negotiate_is_refused(tmp_path):
    path = _fleet_file(tmp_path, _globus(), functions={"describe": IDS["describe"]})
    with pytest.raises(ConfigurationError, match="no 'negotiate' function id"):
        load_fleet(path)
