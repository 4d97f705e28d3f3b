"""``secretary endpoint install``/``register`` on template and multi-user endpoints.

The endpoint folders are made by the endpoint package's own ``Endpoint.configure_endpoint``
(what ``globus-compute-endpoint configure`` runs; it works offline), so the files, their modes
and the bundled 4.x template are exactly what an administrator gets. Edited templates are
rendered by the package's ``render_config_user_template`` and loaded by its
``load_config_yaml``. No Globus service is involved in anything here.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import stat
import uuid
from pathlib import Path

import pytest
import yaml
from globus_compute_endpoint.endpoint.config.config import UserEndpointConfig
from globus_compute_endpoint.endpoint.config.utils import load_config_yaml
from globus_compute_endpoint.endpoint.endpoint import Endpoint

from endpoint_plugins.endpoint_layout import EndpointKind, detect
from endpoint_plugins.install import (
    FUNCTIONS_FILE,
    SITE_FILE,
    EndpointInstallError,
    install,
    register,
)
from endpoint_plugins.template_edit import BEGIN, TemplateEditError, worker_lines
from endpoint_plugins.template_render import render, verify
from secretary_executor.cli.secretary import main as secretary_main

TEMPLATE = "user_config_template.yaml.j2"
IDS = {"negotiate": str(uuid.UUID(int=1)), "describe": str(uuid.UUID(int=2))}
OTHER = str(uuid.UUID(int=99))
PACKAGE = "secretary-executor==0.1.0"


def configure(root: Path, name: str, *, multi_user: bool = False) -> Path:
    """An endpoint folder exactly as ``globus-compute-endpoint configure`` writes it."""
    with contextlib.redirect_stdout(io.StringIO()):  # it prints where the files went
        Endpoint.configure_endpoint(
            root / name,
            id_mapping=multi_user,
            contact_email="admin@example.org" if multi_user else None,
        )
    return root / name


@pytest.fixture
def site(tmp_path: Path) -> Path:
    path = tmp_path / "site.yaml"
    path.write_text("name: campus\n", encoding="utf-8")
    return path


def _registered(folder: Path) -> None:
    (folder / FUNCTIONS_FILE).write_text(json.dumps({"functions": IDS}), encoding="utf-8")


def _rendered(folder: Path, runtime: dict | None = None) -> UserEndpointConfig:
    """The edited template as a user endpoint would get it, with its real engine."""
    layout = detect(folder)
    text = render(layout, layout.template.read_text(encoding="utf-8"), None, runtime or {})
    doc = yaml.safe_load(text)
    doc["engine"]["address"] = "127.0.0.1"  # no scan of this host's interfaces
    config = load_config_yaml(yaml.safe_dump(doc))
    assert isinstance(config, UserEndpointConfig)
    config.engine.shutdown()
    return config


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_kind_is_told_from_the_files(tmp_path: Path) -> None:
    assert detect(configure(tmp_path, "one")).kind is EndpointKind.TEMPLATE
    multi = detect(configure(tmp_path, "many", multi_user=True))
    assert multi.kind is EndpointKind.MULTI_USER and multi.schema_file is not None
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "config.yaml").write_text("engine:\n  type: ThreadPoolEngine\n", encoding="utf-8")
    assert detect(legacy).kind is EndpointKind.CONFIG_YAML
    (legacy / "config.py").write_text("config = None\n", encoding="utf-8")
    assert detect(legacy).kind is EndpointKind.CONFIG_PY


def test_a_python_config_is_left_to_the_administrator(tmp_path: Path, site: Path) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "config.yaml").write_text("display_name: old\n", encoding="utf-8")
    (folder / "config.py").write_text("config = None\n", encoding="utf-8")
    _registered(folder)
    changes = install("old", site, endpoint_dir=tmp_path, restrict=True)
    assert (
        changes[-1].action == "skipped" and "config.py overrides config.yaml" in changes[-1].detail
    )
    assert all(i in changes[-1].detail for i in IDS.values())
    assert (folder / "config.yaml").read_text() == "display_name: old\n"


def test_install_puts_the_package_into_worker_init_and_the_template_still_renders(
    tmp_path: Path, site: Path
) -> None:
    folder = configure(tmp_path, "one")
    changes = install("one", site, endpoint_dir=tmp_path, worker_package=PACKAGE)
    by_path = {Path(c.path).name: c for c in changes}
    assert by_path[TEMPLATE].action == "updated"
    assert "rendered and loaded by globus-compute-endpoint" in by_path[TEMPLATE].detail
    command = worker_lines(PACKAGE)[1]
    # With the submitting user's runtime the default template builds a per-user uv venv;
    # the package is installed after that environment is activated.
    with_venv = _rendered(folder, _runtime()).engine.executor.provider.worker_init
    assert with_venv.index('source "$ENV_PATH/bin/activate"') < with_venv.index(command)
    # Without a runtime the workers use the endpoint's environment; the block is still valid.
    bare = _rendered(folder).engine.executor.provider.worker_init
    assert command in bare and "uv venv" not in bare
    # The parent (config.yaml) is untouched: it has no engine and gets no list by itself.
    assert yaml.safe_load((folder / "config.yaml").read_text()) == {"display_name": None}


def test_install_twice_changes_nothing_and_keeps_every_mode(tmp_path: Path, site: Path) -> None:
    folder = configure(tmp_path, "many", multi_user=True)
    _registered(folder)
    modes = {p.name: _mode(p) for p in folder.iterdir()}
    assert modes[TEMPLATE] == 0o644 and modes["config.yaml"] == 0o600  # as configure made them
    install("many", site, endpoint_dir=tmp_path, worker_package=PACKAGE, restrict=True)
    text = {p.name: p.read_text() for p in folder.iterdir()}
    again = install("many", site, endpoint_dir=tmp_path, worker_package=PACKAGE, restrict=True)
    assert {c.action for c in again} == {"unchanged"}
    assert {p.name: p.read_text() for p in folder.iterdir()} == text
    assert text[TEMPLATE].count(BEGIN) == 1
    assert {p.name: _mode(p) for p in folder.iterdir() if p.name in modes} == modes
    # A new package spec replaces the block instead of adding a second one.
    install("many", site, endpoint_dir=tmp_path, worker_package="secretary-executor>=0.1")
    template = (folder / TEMPLATE).read_text()
    assert template.count(BEGIN) == 1 and "secretary-executor>=0.1" in template
    assert PACKAGE not in template


def test_multi_user_endpoints_let_mapped_users_read_the_site_file(
    tmp_path: Path, site: Path
) -> None:
    folder = configure(tmp_path, "many", multi_user=True)
    changes = install("many", site, endpoint_dir=tmp_path, worker_package=PACKAGE)
    env = yaml.safe_load((folder / "user_environment.yaml").read_text())
    assert env == {"SECRETARY_SITE_CONFIG_ROOTS": str(folder)}
    # configure makes the folder 0700: the report says mapped users cannot get in.
    note = next(c for c in changes if c.path.endswith("user_environment.yaml")).detail
    assert "not searchable by other users" in note
    assert _mode(folder / SITE_FILE) == 0o644
    (folder / "user_environment.yaml").write_text(
        'SECRETARY_SITE_CONFIG_ROOTS: "/srv/sites"\nOTHER: x\n', encoding="utf-8"
    )
    install("many", site, endpoint_dir=tmp_path, worker_package=PACKAGE)
    env = yaml.safe_load((folder / "user_environment.yaml").read_text())
    assert env == {"SECRETARY_SITE_CONFIG_ROOTS": f"/srv/sites:{folder}", "OTHER": "x"}


def test_the_parent_list_wins_over_the_template_list(tmp_path: Path, site: Path) -> None:
    """The parent's allowed_functions replaces a user endpoint's, so the ids go where the
    endpoint will read them."""
    folder = configure(tmp_path, "one")
    _registered(folder)
    template = folder / TEMPLATE
    template.write_text(
        template.read_text() + f"\nallowed_functions:\n  - {OTHER}\n", encoding="utf-8"
    )
    install("one", site, endpoint_dir=tmp_path, worker_package=None)
    assert _rendered(folder).allowed_functions == (OTHER, *IDS.values())
    assert "allowed_functions" not in yaml.safe_load((folder / "config.yaml").read_text())

    (folder / "config.yaml").write_text(f"allowed_functions:\n  - {OTHER}\n", encoding="utf-8")
    before = template.read_text()
    install("one", site, endpoint_dir=tmp_path, worker_package=None)
    parent = yaml.safe_load((folder / "config.yaml").read_text())
    assert parent["allowed_functions"] == [OTHER, *IDS.values()]
    assert template.read_text() == before


def test_an_open_template_endpoint_is_closed_only_in_the_parent_and_only_on_request(
    tmp_path: Path,
) -> None:
    folder = configure(tmp_path, "one")
    client = _Client()
    changes = register("one", endpoint_dir=tmp_path, client_factory=lambda: client)
    assert changes[-1].action == "skipped" and "open endpoint" in changes[-1].detail
    register("one", endpoint_dir=tmp_path, client_factory=lambda: client, restrict=True)
    allowed = yaml.safe_load((folder / "config.yaml").read_text())["allowed_functions"]
    assert len(allowed) == len(client.ids) and set(allowed) == set(client.ids)
    assert _mode(folder / "config.yaml") == 0o600


def test_invalid_jinja_is_refused_and_nothing_is_written(
    tmp_path: Path, site: Path, capsys
) -> None:
    folder = configure(tmp_path, "one")
    template = folder / TEMPLATE
    broken = template.read_text().replace("{%- endset %}", "", 1)
    template.write_text(broken, encoding="utf-8")
    template.chmod(0o640)
    with pytest.raises(TemplateEditError, match=r"line \d+: not a valid Jinja template"):
        install("one", site, endpoint_dir=tmp_path)
    assert template.read_text() == broken and _mode(template) == 0o640
    argv = ["endpoint", "-c", str(tmp_path), "install", "one", "--site", str(site)]
    assert secretary_main(argv) == 2
    err = capsys.readouterr().err
    assert "not a valid Jinja template" in err and "Traceback" not in err


def test_an_edit_that_would_not_load_is_refused(tmp_path: Path) -> None:
    """The render check can fail: an edit that breaks the YAML is caught before writing."""
    layout = detect(configure(tmp_path, "one"))
    original = layout.template.read_text()
    bad = original.replace("  provider:\n", "  provider:\n   broken: [\n", 1)
    with pytest.raises(TemplateEditError, match="would not load"):
        verify(layout, original, bad, worker_lines=worker_lines(PACKAGE))
    drifted = original.replace("max_blocks: 1", "max_blocks: 9")
    with pytest.raises(TemplateEditError, match="other than worker_init"):
        verify(layout, original, drifted, worker_lines=None)


@pytest.mark.parametrize(
    ("provider", "outcome"),
    [
        ("  provider:\n    type: LocalProvider\n", "added"),
        ("  provider:\n    type: LocalProvider\n    worker_init: 'module load x'\n", "refused"),
        ("  max_workers: 2\n", "skipped"),
    ],
)
def test_other_template_shapes(tmp_path: Path, site: Path, provider: str, outcome: str) -> None:
    folder = configure(tmp_path, "one")
    engine = "GlobusComputeEngine" if "provider" in provider else "ThreadPoolEngine"
    (folder / TEMPLATE).write_text(
        "{# a site's own template #}\nheartbeat_period: {{ heartbeat | default(30) }}\n"
        f"engine:\n  type: {engine}\n{provider}",
        encoding="utf-8",
    )
    if outcome == "refused":
        with pytest.raises(TemplateEditError, match="not a literal block") as caught:
            install("one", site, endpoint_dir=tmp_path, worker_package=PACKAGE)
        assert worker_lines(PACKAGE)[1] in caught.value.message  # what to add by hand
        return
    changes = install("one", site, endpoint_dir=tmp_path, worker_package=PACKAGE)
    change = next(c for c in changes if c.path.endswith(TEMPLATE))
    if outcome == "skipped":
        assert change.action == "skipped" and "endpoint's own Python" in change.detail
        return
    assert change.action == "updated"
    config = _rendered(folder)
    assert config.heartbeat_period == 30
    assert worker_lines(PACKAGE)[1] in config.engine.executor.provider.worker_init


def test_a_template_that_needs_user_options_is_rendered_with_samples(
    tmp_path: Path, site: Path
) -> None:
    folder = configure(tmp_path, "one")
    template = folder / TEMPLATE
    template.write_text(
        template.read_text().replace(
            "idle_heartbeats_soft: 10", "idle_heartbeats_soft: {{ soft }}"
        ),
        encoding="utf-8",
    )
    dry = install("one", site, endpoint_dir=tmp_path, worker_package=PACKAGE, dry_run=True)
    note = next(c for c in dry if c.path.endswith(TEMPLATE))
    assert note.action == "would be updated" and "Jinja syntax checked; not rendered" in note.detail
    done = install(
        "one", site, endpoint_dir=tmp_path, worker_package=PACKAGE, user_options={"soft": 3}
    )
    assert "rendered and loaded" in next(c for c in done if c.path.endswith(TEMPLATE)).detail


def test_a_package_spec_with_shell_or_jinja_is_refused(tmp_path: Path, site: Path) -> None:
    configure(tmp_path, "one")
    for spec in ("x; rm -rf /", "{{ env }}", "pkg\nother", "$(id)"):
        with pytest.raises(TemplateEditError, match="--worker-package"):
            install("one", site, endpoint_dir=tmp_path, worker_package=spec)


def test_config_dir_is_honoured_before_or_after_the_action(
    tmp_path: Path, site: Path, monkeypatch
) -> None:
    root = tmp_path / "elsewhere"
    folder = configure(root, "one")
    assert secretary_main(["endpoint", "-c", str(root), "install", "one", "--site", str(site)]) == 0
    assert (folder / SITE_FILE).is_file()
    (folder / SITE_FILE).unlink()
    argv = ["endpoint", "install", "one", "--site", str(site), "--config-dir", str(root)]
    assert secretary_main(argv) == 0 and (folder / SITE_FILE).is_file()
    # Without -c: $GLOBUS_COMPUTE_USER_DIR, then ~/.globus_compute, as the SDK decides.
    (folder / SITE_FILE).unlink()
    monkeypatch.setenv("GLOBUS_COMPUTE_USER_DIR", str(root))
    assert secretary_main(["endpoint", "install", "one", "--site", str(site)]) == 0
    assert (folder / SITE_FILE).is_file()
    monkeypatch.delenv("GLOBUS_COMPUTE_USER_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    home_ep = configure(tmp_path / "home" / ".globus_compute", "two")
    assert secretary_main(["endpoint", "install", "two", "--site", str(site)]) == 0
    assert (home_ep / SITE_FILE).is_file()
    with pytest.raises(EndpointInstallError, match="globus-compute-endpoint configure"):
        install("one", site)  # not in ~/.globus_compute


def _runtime() -> dict:
    from endpoint_plugins.template_render import _this_runtime

    return _this_runtime()


class _Client:
    """Answers ``register_function`` with a fresh id, as the service would."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def register_function(self, fn, description=None) -> str:
        self.ids.append(str(uuid.uuid4()))
        return self.ids[-1]


# -- what docs/endpoint-admin.md shows, checked ---------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "endpoint-admin.md"


def _doc_blocks(language: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def test_the_documented_mpi_template_installs_and_renders_both_engines(
    tmp_path: Path, site: Path
) -> None:
    from globus_compute_endpoint.engines import GlobusComputeEngine, GlobusMPIEngine

    from secretary_executor.parsl.keys import MPI_KEYS, PRIORITY_KEYS, engine_keys

    (template,) = [b for b in _doc_blocks("jinja") if "GlobusMPIEngine" in b]
    folder = configure(tmp_path, "hpc")
    (folder / TEMPLATE).write_text(template, encoding="utf-8")
    options = {"mpi": True, "nodes": 2}
    changes = install(
        "hpc", site, endpoint_dir=tmp_path, worker_package=PACKAGE, user_options=options
    )
    assert "rendered and loaded" in next(c for c in changes if c.path.endswith(TEMPLATE)).detail
    layout = detect(folder)
    for opts, kind, keys in ((options, GlobusMPIEngine, MPI_KEYS), ({}, None, PRIORITY_KEYS)):
        doc = yaml.safe_load(render(layout, (folder / TEMPLATE).read_text(), opts, {}))
        doc["engine"]["address"] = "127.0.0.1"
        engine = load_config_yaml(yaml.safe_dump(doc)).engine
        try:
            assert type(engine) is (kind or GlobusComputeEngine)
            assert engine_keys(engine) == keys
            assert worker_lines(PACKAGE)[1] in engine.executor.provider.worker_init
            assert {t.__name__ for t in engine.serde.allowed_deserializer_types} == {
                "PureSourceTextInspect",
                "DillCode",
                "DillDataBase64",
                "JSONData",
            }
            if kind:
                assert engine.executor.mpi_launcher == "srun"
                assert engine.executor.provider.nodes_per_block == 2
        finally:
            engine.shutdown()


def _serializer_lists() -> list[list[str]]:
    lists = []
    for block in _doc_blocks("yaml"):
        if "allowed_serializers" in block:
            lists.append(yaml.safe_load(block)["allowed_serializers"])
    return lists


def test_the_documented_serializer_lists_do_what_the_guide_says(tmp_path: Path, monkeypatch):
    """Both kinds of task pass the documented list; without DillCode only the secretary runs;
    with [PureSourceTextInspect, JSONData] alone a default hub's arguments are refused."""
    from globus_compute_sdk.serialize import ComputeSerializer, PureSourceTextInspect

    from endpoint_plugins.functions import secretary_describe
    from secretary_executor.sites.engine import EngineRunner

    monkeypatch.setenv("GC_TASK_UUID", "")
    (both,) = _serializer_lists()
    secretary_only = [s for s in both if not s.endswith(".DillCode")]
    strict = [s for s in both if s.rsplit(".", 1)[1] in ("PureSourceTextInspect", "JSONData")]
    as_registered = ComputeSerializer(strategy_code=PureSourceTextInspect())

    def run(allowed: list[str], serializer, fn, args) -> str:
        text = yaml.safe_dump(
            {
                "engine": {
                    "type": "ThreadPoolEngine",
                    "max_workers": 1,
                    "allowed_serializers": allowed,
                }
            }
        )
        runner = EngineRunner(
            load_config_yaml(text).engine, run_dir=tmp_path / "run", serializer=serializer
        )
        runner.start()
        try:
            return str(runner.submit(fn, args).result(timeout=60))
        except Exception as exc:  # noqa: BLE001 - the refusal is the answer
            return str(exc)
        finally:
            runner.shutdown()

    describe = (secretary_describe, (str(tmp_path / "missing.yaml"),))
    assert "'ok': False" in run(both, as_registered, *describe)  # ran: an envelope came back
    assert run(both, ComputeSerializer(), sum, ([1, 2],)) == "3"
    assert "'ok': False" in run(secretary_only, as_registered, *describe)
    assert "Code serializer DillCode disabled" in run(
        secretary_only, ComputeSerializer(), sum, ([1, 2],)
    )
    assert "Data serializer DillDataBase64 disabled" in run(strict, as_registered, *describe)
