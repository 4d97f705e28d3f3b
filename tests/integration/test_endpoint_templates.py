"""A template endpoint set up by ``secretary endpoint install`` runs the secretary functions.

The endpoint folder is written by the endpoint package's ``Endpoint.configure_endpoint`` (what
``globus-compute-endpoint configure`` runs), the edited template is rendered by the real
``globus-compute-endpoint render-user-config`` command and by ``render_config_user_template``,
and the rendered configuration's own ``GlobusComputeEngine`` (LocalProvider, its workers
started by the edited ``worker_init``) runs the functions and a user's function. What is
absent is the hosted Globus Compute service, which would deliver the tasks: they are handed to
the engine here as the endpoint would hand them (``EngineRunner``: messagepack ``Task`` and the
real ``ComputeSerializer``).
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from globus_compute_endpoint.endpoint.config.utils import load_config_yaml
from globus_compute_endpoint.endpoint.endpoint import Endpoint
from globus_compute_sdk.serialize import ComputeSerializer, PureSourceTextInspect

from endpoint_plugins import functions
from endpoint_plugins.endpoint_layout import detect
from endpoint_plugins.install import SITE_FILE, install
from endpoint_plugins.template_edit import BEGIN, worker_lines
from endpoint_plugins.template_render import render
from secretary_executor.sites.engine import EngineRunner
from secretary_executor.sites.fleet import demo_state_files

STATE = next(p for p in demo_state_files() if p.stem == "cloud-k8s")
NEGOTIATE = {"request_id": "r1", "requirements": {"compute": {"cores_per_node": 1}}}
PACKAGE = "secretary-executor==0.1.0"
SERIALIZERS = """\
  allowed_serializers:
    - globus_compute_sdk.serialize.PureSourceTextInspect
    - globus_compute_sdk.serialize.DillCode
    - globus_compute_sdk.serialize.DillDataBase64
    - globus_compute_sdk.serialize.JSONData
"""
"""The list docs/endpoint-admin.md gives for secretary functions and user functions alike."""


@pytest.fixture
def endpoint(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "gc"
    monkeypatch.setenv("GLOBUS_COMPUTE_USER_DIR", str(root))  # where the functions read sites
    monkeypatch.delenv(functions.ROOTS_ENV, raising=False)
    with contextlib.redirect_stdout(io.StringIO()):
        Endpoint.configure_endpoint(root / "campus")
    return root / "campus"


def test_the_real_render_command_shows_the_block_after_the_venv(endpoint: Path) -> None:
    site = endpoint.parent.parent / "site.yaml"
    site.write_text(yaml.safe_dump({"name": "campus", "state_file": str(STATE)}))
    install("campus", site, worker_package=PACKAGE)
    command = Path(sys.executable).parent / "globus-compute-endpoint"
    done = subprocess.run(
        [str(command), "-c", str(endpoint.parent), "render-user-config", "-e", "campus"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    init = yaml.safe_load(done.stdout)["engine"]["provider"]["worker_init"]
    assert init.index('source "$ENV_PATH/bin/activate"') < init.index(worker_lines(PACKAGE)[1])


@pytest.mark.slow
@pytest.mark.globus
def test_the_rendered_engine_runs_secretary_and_user_functions(
    endpoint: Path, tmp_path: Path, monkeypatch
) -> None:
    bindir = str(Path(sys.executable).parent)  # python3 and globus-compute-endpoint for workers
    monkeypatch.setenv("PATH", bindir + os.pathsep + os.environ.get("PATH", ""))
    repo = str(Path(__file__).resolve().parents[2])
    monkeypatch.setenv("PYTHONPATH", repo + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("GC_TASK_UUID", "")
    assert shutil.which("globus-compute-endpoint")
    template = endpoint / "user_config_template.yaml.j2"
    text = template.read_text()
    template.write_text(
        text.replace("  max_workers_per_node: 1\n", "  max_workers_per_node: 1\n" + SERIALIZERS)
    )
    site = tmp_path / "site.yaml"
    site.write_text(yaml.safe_dump({"name": "campus", "state_file": str(STATE)}))
    install("campus", site, worker_package=PACKAGE)

    layout = detect(endpoint)
    # No user runtime: the workers use this environment, where the block finds the package.
    doc = yaml.safe_load(render(layout, template.read_text(), None, {}))
    doc["engine"].update(address="127.0.0.1", encrypted=False)
    engine = load_config_yaml(yaml.safe_dump(doc)).engine
    run_dir = tmp_path / "run"
    # The secretary functions arrive as registered (source text), their arguments as the hub's
    # SDK executor sends them (its default data strategy).
    runner = EngineRunner(
        engine, run_dir=run_dir, serializer=ComputeSerializer(strategy_code=PureSourceTextInspect())
    )
    runner.start()
    try:
        envelope = runner.submit(
            functions.secretary_negotiate, (str(endpoint / SITE_FILE), NEGOTIATE)
        ).result(timeout=240)
        assert envelope["ok"], envelope
        assert envelope["result"]["verdict"] == "READY"
        runner.serializer = ComputeSerializer()  # a user's task: DillCode, as the SDK sends it
        assert runner.submit(sum, ([1, 2, 3],)).result(timeout=120) == 6
    finally:
        runner.shutdown()
    scripts = [p.read_text() for p in run_dir.rglob("*.sh")]
    assert any(BEGIN in s for s in scripts), "worker_init did not reach the submit script"
