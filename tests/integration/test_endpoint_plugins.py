"""The secretary functions, the Globus Compute transport and channel, and endpoint installation.

The Globus SDK path uses the SDK's real ``Executor`` (its TaskSubmitter thread, batching, rate
limiting and futures) with a real ``Client`` built offline. The one boundary replaced is
``Executor._submit_tasks`` plus function registration (see
``secretary_executor.sites.loopback``): the hosted web service is proprietary and its results
arrive over AMQP from a RabbitMQ broker, neither of which can run here. Batches are delivered
to a real ThreadPoolEngine through the real ``ComputeSerializer`` and messagepack ``Task``.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import parsl
import pytest
import yaml
from globus_compute_endpoint.engines import ThreadPoolEngine
from globus_compute_sdk.serialize import ComputeSerializer, JSONData
from parsl.config import Config

from endpoint_plugins import functions
from endpoint_plugins.install import (
    FUNCTIONS_FILE,
    SITE_FILE,
    CredentialsError,
    EndpointInstallError,
    install,
    register,
)
from providers.wire import Requirements, Verdict
from secretary_executor.cli.secretary import main as secretary_main
from secretary_executor.parsl import GlobusChannel, SecretaryExecutor, secretary_app
from secretary_executor.sites import Fleet
from secretary_executor.sites.engine import EngineRunner
from secretary_executor.sites.fleet import demo_state_files, load_fleet
from secretary_executor.sites.globus import forget_executor, globus_site
from secretary_executor.sites.loopback import LoopbackService

STATE = next(p for p in demo_state_files() if p.stem == "cloud-k8s")
NEGOTIATE = {"request_id": "r1", "requirements": {"compute": {"cores_per_node": 1}}}


@pytest.fixture(autouse=True)
def _fresh(monkeypatch, tmp_path):
    functions.clear_cache()
    monkeypatch.setenv("GC_TASK_UUID", "")  # thread engines set it for each task
    # The site files of these tests live in tmp_path, as an administrator's would in a folder
    # named by SECRETARY_SITE_CONFIG_ROOTS.
    monkeypatch.setenv(functions.ROOTS_ENV, str(tmp_path))
    yield
    functions.clear_cache()


@pytest.fixture
def site_yaml(tmp_path) -> Path:
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump({"name": "campus", "state_file": str(STATE)}))
    return path


# -- the functions -------------------------------------------------------------------------


def test_negotiate_returns_a_json_envelope_the_jsondata_serializer_carries(site_yaml):
    envelope = functions.secretary_negotiate(str(site_yaml), NEGOTIATE)
    assert envelope["ok"] is True
    assert envelope["result"]["verdict"] == "READY"
    serde = ComputeSerializer(strategy_data=JSONData())
    assert serde.deserialize(serde.serialize(envelope)) == envelope
    described = functions.secretary_describe(str(site_yaml))
    assert described["ok"] and described["result"]["name"] == "campus"


def test_secretary_is_cached_until_the_file_changes(site_yaml):
    first = functions.secretary_for(str(site_yaml))
    assert functions.secretary_for(str(site_yaml)) is first
    stat = site_yaml.stat()
    site_yaml.write_text(site_yaml.read_text().replace("campus", "campus2"))
    os.utime(site_yaml, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = functions.secretary_for(str(site_yaml))
    assert second is not first and second.name == "campus2"


@pytest.mark.parametrize(
    "path",
    ["/etc/passwd", "$(touch MARKER).yaml", "x; touch MARKER.yaml", "`touch MARKER`.yaml", ""],
)
def test_bad_paths_are_error_envelopes_and_run_nothing(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    envelope = functions.secretary_negotiate(path, NEGOTIATE)
    assert envelope["ok"] is False and envelope["error"]["message"]
    assert not list(tmp_path.glob("MARKER*"))


def test_paths_outside_the_configured_roots_are_refused(site_yaml, tmp_path, monkeypatch):
    monkeypatch.setenv(functions.ROOTS_ENV, str(tmp_path / "elsewhere"))
    escaped = str(tmp_path / "elsewhere" / ".." / site_yaml.name)
    envelope = functions.secretary_negotiate(escaped, NEGOTIATE)
    assert envelope["ok"] is False and "outside the allowed roots" in envelope["error"]["message"]


def test_without_roots_only_the_endpoints_folder_is_readable(tmp_path, monkeypatch):
    """Deny by default: with SECRETARY_SITE_CONFIG_ROOTS unset, the functions read only files
    in the Globus Compute endpoints folder, where 'secretary endpoint install' writes."""
    monkeypatch.delenv(functions.ROOTS_ENV)
    endpoints = tmp_path / "gc"
    monkeypatch.setenv("GLOBUS_COMPUTE_USER_DIR", str(endpoints))
    installed = endpoints / "campus-ep" / SITE_FILE
    installed.parent.mkdir(parents=True)
    installed.write_text(yaml.safe_dump({"name": "campus", "state_file": str(STATE)}))
    outside = tmp_path / "site.yaml"
    outside.write_text(installed.read_text())
    link = endpoints / "campus-ep" / "link.yaml"
    link.symlink_to(outside)

    assert functions.secretary_negotiate(str(installed), NEGOTIATE)["ok"] is True
    for path in (outside, link, endpoints / "campus-ep" / ".." / ".." / "site.yaml"):
        envelope = functions.secretary_negotiate(str(path), NEGOTIATE)
        assert envelope["ok"] is False, path
        message = envelope["error"]["message"]
        assert "outside the allowed roots" in message and functions.ROOTS_ENV in message


def test_bad_payloads_are_error_envelopes(site_yaml):
    assert functions.secretary_negotiate(str(site_yaml), "not a dict")["ok"] is False  # type: ignore[arg-type]
    bad = functions.secretary_negotiate(str(site_yaml), {"requirements": {"compute": {"nodes": 0}}})
    assert bad["ok"] is False and "requirements" in bad["error"]["message"]


# -- the Globus Compute transport and channel through the SDK's real Executor ---------------


@pytest.fixture
def service(tmp_path):
    svc = LoopbackService()
    runner = EngineRunner(ThreadPoolEngine(max_workers=2), run_dir=tmp_path / "engine")
    runner.start()
    ids = {op: svc.register_function(fn) for op, fn in functions.FUNCTIONS.items()}
    yield svc, runner, ids
    runner.shutdown()


def test_transport_negotiates_through_registered_functions(service, site_yaml):
    svc, runner, ids = service
    endpoint = svc.add_endpoint(runner, allowed_functions=ids.values())
    site = globus_site("campus", endpoint, ids, str(site_yaml), factory=svc.executor)

    async def run() -> list:
        try:
            reqs = Requirements.model_validate(NEGOTIATE["requirements"])
            return await asyncio.gather(*(site.negotiate(reqs) for _ in range(20)))
        finally:
            await site.close()

    proposals = asyncio.run(run())
    assert {p.verdict for p in proposals} == {Verdict.READY}
    assert sum(svc.batches) == 20 and len(svc.batches) < 20  # the SDK batched them


def test_a_function_the_endpoint_does_not_allow_makes_the_site_unreachable(service, site_yaml):
    svc, runner, ids = service
    endpoint = svc.add_endpoint(runner, allowed_functions=[ids["describe"]])
    site = globus_site("campus", endpoint, ids, str(site_yaml), factory=svc.executor)
    try:
        proposal = asyncio.run(
            site.negotiate(Requirements.model_validate(NEGOTIATE["requirements"]))
        )
    finally:
        forget_executor(endpoint)
    assert proposal.verdict is Verdict.UNREACHABLE
    assert "not allowed" in proposal.reason and "allowed_functions" in proposal.reason


def test_a_fleet_file_site_negotiates_through_globus_compute(
    service, site_yaml, tmp_path, monkeypatch
):
    import globus_compute_sdk

    svc, runner, ids = service
    endpoint = svc.add_endpoint(runner, allowed_functions=ids.values())
    # The fleet file names no factory: the transport makes a plain SDK Executor on first use,
    # which here is the loop-back one.
    monkeypatch.setattr(globus_compute_sdk, "Executor", lambda **kw: svc.executor(**kw))
    # Headless-login credentials, as a service account would have (the service is local).
    monkeypatch.setenv("GLOBUS_COMPUTE_CLIENT_ID", "00000000-0000-0000-0000-000000000000")
    monkeypatch.setenv("GLOBUS_COMPUTE_CLIENT_SECRET", "not-a-real-secret")
    (tmp_path / "secretary-functions.json").write_text(json.dumps({"functions": ids}))
    fleet_file = tmp_path / "fleet.yaml"
    entry = {
        "name": "campus",
        "transport": "globus-compute",
        "endpoint_id": endpoint,
        "functions_file": "secretary-functions.json",
        "remote_site_config": str(site_yaml),
    }
    fleet_file.write_text(yaml.safe_dump({"sites": [entry]}))
    fleet = load_fleet(fleet_file)

    async def run() -> list:
        try:
            reqs = Requirements.model_validate(NEGOTIATE["requirements"])
            return await fleet.negotiate(reqs, request_id="r1")
        finally:
            await fleet.close()

    [proposal] = asyncio.run(run())
    assert proposal.site == "campus" and proposal.verdict is Verdict.READY
    assert sum(svc.batches) == 1


@secretary_app
def square(x: int) -> int:
    return x * x


def test_secretary_executor_over_a_globus_site(service, site_yaml, tmp_path):
    svc, runner, ids = service
    endpoint = svc.add_endpoint(runner)
    site = globus_site("campus", endpoint, ids, str(site_yaml), factory=svc.executor)
    channel = GlobusChannel(svc.executor(endpoint), name="campus")
    ex = SecretaryExecutor(Fleet([site]), {"campus": channel}, ledger=tmp_path / "ledger.db")
    config = Config(executors=[ex], run_dir=str(tmp_path / "runinfo"), initialize_logging=False)
    with parsl.load(config):
        assert [square(i).result(timeout=60) for i in range(4)] == [0, 1, 4, 9]
    assert {p.site for p in ex.placements.values()} == {"campus"}


# -- install and register ------------------------------------------------------------------


@pytest.fixture
def endpoint_dir(tmp_path) -> Path:
    folder = tmp_path / "gc" / "ep1"
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(
        "# written by the administrator\ndisplay_name: ep1\n"
        "allowed_functions:\n  - 11111111-1111-1111-1111-111111111111\n"
        "# engine settings\namqp_port: 443\n"
    )
    return folder.parent


class StandInClient:
    """Answers ``register_function`` as the service does (a new UUID per function)."""

    def __init__(self) -> None:
        self.registered: list[str] = []

    def register_function(self, fn, description=None) -> str:
        import uuid

        self.registered.append(fn.__name__)
        return str(uuid.uuid4())


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def test_install_dry_run_changes_nothing_then_install_is_idempotent(endpoint_dir, site_yaml):
    folder = endpoint_dir / "ep1"
    before = _snapshot(folder)
    changes = install("ep1", site_yaml, endpoint_dir=endpoint_dir, dry_run=True)
    assert changes[0].action == "would be created"
    assert _snapshot(folder) == before
    assert install("ep1", site_yaml, endpoint_dir=endpoint_dir)[0].action == "created"
    assert yaml.safe_load((folder / SITE_FILE).read_text())["state_file"] == str(STATE)
    assert {c.action for c in install("ep1", site_yaml, endpoint_dir=endpoint_dir)} <= {
        "unchanged",
        "skipped",
    }


def test_register_allows_the_functions_and_keeps_the_rest_of_the_config(endpoint_dir, site_yaml):
    folder = endpoint_dir / "ep1"
    client = StandInClient()
    register("ep1", endpoint_dir=endpoint_dir, client_factory=lambda: client)
    ids = json.loads((folder / FUNCTIONS_FILE).read_text())["functions"]
    assert sorted(ids) == sorted(functions.FUNCTIONS)
    text = (folder / "config.yaml").read_text()
    config = yaml.safe_load(text)
    assert config["allowed_functions"][0] == "11111111-1111-1111-1111-111111111111"
    assert set(ids.values()) <= set(config["allowed_functions"])
    assert config["amqp_port"] == 443 and "# engine settings" in text and "# written by" in text
    again = register("ep1", endpoint_dir=endpoint_dir, client_factory=lambda: client)
    assert len(client.registered) == len(functions.FUNCTIONS)  # nothing registered twice
    assert {c.action for c in again} == {"unchanged"}
    assert {c.action for c in install("ep1", site_yaml, endpoint_dir=endpoint_dir)} == {
        "created",
        "unchanged",
    }


def test_an_open_endpoint_stays_open_unless_restricted(endpoint_dir, site_yaml):
    """An endpoint without allowed_functions runs every function (its users' tasks too): the
    secretary must not shut them out silently. --restrict adds the list, knowingly."""
    config_path = endpoint_dir / "ep1" / "config.yaml"
    config_path.write_text("display_name: ep1\namqp_port: 443\n")
    config_path.chmod(0o600)
    client = StandInClient()
    changes = register("ep1", endpoint_dir=endpoint_dir, client_factory=lambda: client)
    skipped = [c for c in changes if c.path == str(config_path)]
    assert [c.action for c in skipped] == ["skipped"] and "open endpoint" in skipped[0].detail
    assert "allowed_functions" not in yaml.safe_load(config_path.read_text())
    install("ep1", site_yaml, endpoint_dir=endpoint_dir)
    assert "allowed_functions" not in yaml.safe_load(config_path.read_text())

    register("ep1", endpoint_dir=endpoint_dir, client_factory=lambda: client, restrict=True)
    allowed = yaml.safe_load(config_path.read_text())["allowed_functions"]
    assert sorted(allowed) == sorted(
        json.loads((endpoint_dir / "ep1" / FUNCTIONS_FILE).read_text())["functions"].values()
    )
    assert oct(config_path.stat().st_mode & 0o777) == "0o600"


def test_register_without_credentials_says_how_to_log_in(
    endpoint_dir, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("GLOBUS_COMPUTE_USER_DIR", str(tmp_path / "no-tokens"))
    monkeypatch.delenv("GLOBUS_COMPUTE_CLIENT_ID", raising=False)
    monkeypatch.delenv("GLOBUS_COMPUTE_CLIENT_SECRET", raising=False)
    with pytest.raises(CredentialsError, match="globus-compute-endpoint login"):
        register("ep1", endpoint_dir=endpoint_dir)
    status = secretary_main(["endpoint", "register", "ep1", "--endpoint-dir", str(endpoint_dir)])
    err = capsys.readouterr().err
    assert status == 2
    assert "GLOBUS_COMPUTE_CLIENT_ID" in err and "Traceback" not in err
    assert not (endpoint_dir / "ep1" / FUNCTIONS_FILE).exists()


def test_install_rejects_unknown_endpoints_and_bad_names(endpoint_dir, site_yaml):
    with pytest.raises(EndpointInstallError, match="globus-compute-endpoint configure"):
        install("nope", site_yaml, endpoint_dir=endpoint_dir)
    with pytest.raises(EndpointInstallError):
        install("../ep1", site_yaml, endpoint_dir=endpoint_dir)


def test_cli_install_prints_a_table(endpoint_dir, site_yaml, capsys):
    argv = [
        "endpoint",
        "install",
        "ep1",
        "--site",
        str(site_yaml),
        "--endpoint-dir",
        str(endpoint_dir),
    ]
    assert secretary_main([*argv, "--dry-run"]) == 0
    assert "would be created" in capsys.readouterr().out
    assert not (endpoint_dir / "ep1" / SITE_FILE).exists()
    assert secretary_main(argv) == 0
    assert "created" in capsys.readouterr().out
