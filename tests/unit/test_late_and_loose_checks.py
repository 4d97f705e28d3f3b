"""Values that used to be accepted and only went wrong later, or silently: repeated YAML keys,
a state file of an unknown format, endless timeouts, an extension that is a re-exported
function, and simulated job ids shared between processes."""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

import pytest

from endpoint_plugins.config import load_site_config
from endpoint_plugins.errors import SiteConfigError
from providers.errors import StateFileError
from providers.jobspec import JobSpec
from providers.state import load_state, providers_from_state
from providers.wire.jobs import JobState
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import load_hub_config
from secretary_executor.hub.extensions import resolve
from secretary_executor.sites.fleet import load_fleet

DEMO_STATES = Path(__file__).resolve().parents[2] / "secretary_executor" / "fleets" / "demo"


def _state_text() -> str:
    return (DEMO_STATES / "hpc-campus.yaml").read_text(encoding="utf-8")


REPEATS = {
    "fleet": (
        load_fleet,
        ConfigurationError,
        "sites:\n  - name: a\n    state_file: s.yaml\n    timeout_s: 5\n    timeout_s: 50\n",
    ),
    "hub": (load_hub_config, ConfigurationError, "port: 8700\nname: one\nport: 8701\n"),
    "site": (load_site_config, SiteConfigError, "site: x\nsite: y\n"),
    "state": (load_state, StateFileError, None),
}


@pytest.mark.parametrize("kind", sorted(REPEATS))
def test_a_key_given_twice_is_refused_with_its_name(tmp_path: Path, kind: str) -> None:
    loader, error, text = REPEATS[kind]
    if text is None:  # a real state file with its site block repeated at the end
        original = _state_text()
        site_block = original[original.index("site:") :].split("\nproviders:")[0]
        text = original + "\n" + site_block + "\n"
    path = tmp_path / f"{kind}.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error) as caught:
        loader(path)
    assert "appears twice" in str(caught.value)


def test_a_state_file_from_a_newer_format_is_refused(tmp_path: Path) -> None:
    text = _state_text()
    assert "schema_version: 1" in text
    for version in ("2", "0", "-1"):
        path = tmp_path / f"v{version}.yaml"
        path.write_text(text.replace("schema_version: 1", f"schema_version: {version}"))
        with pytest.raises(StateFileError, match=f"schema_version {version} is not one"):
            load_state(path)
    path = tmp_path / "v1.yaml"
    path.write_text(text)
    assert load_state(path).schema_version == 1


@pytest.mark.parametrize("value", [".inf", ".nan", "1e300", "-.inf"])
def test_a_fleet_timeout_must_be_a_finite_bounded_number(tmp_path: Path, value: str) -> None:
    shutil.copy(DEMO_STATES / "hpc-campus.yaml", tmp_path / "s.yaml")
    path = tmp_path / "fleet.yaml"
    path.write_text(f"sites:\n  - name: a\n    state_file: s.yaml\n    timeout_s: {value}\n")
    with pytest.raises(ConfigurationError, match="timeout_s"):
        load_fleet(path)
    path.write_text("sites:\n  - name: a\n    state_file: s.yaml\n    timeout_s: 5\n")
    assert math.isclose(load_fleet(path).sites[0].timeout_s, 5.0)


def test_an_extension_must_be_defined_in_an_allowed_module(tmp_path: Path, monkeypatch) -> None:
    """A listed module that imports ``os.system`` does not make ``os.system`` a hub tool."""
    (tmp_path / "site_hub_tools.py").write_text(
        "from os import system\nfrom json import dumps as render\n\n\ndef quota():\n    return 1\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "site_hub_tools", raising=False)
    allowed = ("site_hub_tools",)
    assert resolve("site_hub_tools:quota", allowed)() == 1
    for name in ("system", "render"):
        with pytest.raises(ConfigurationError, match="not in an allowed module"):
            resolve(f"site_hub_tools:{name}", allowed)
    with pytest.raises(ConfigurationError, match="not in an allowed module"):
        resolve("json:JSONDecoder", ("json",))  # a class, not a function


def test_simulated_job_ids_are_unique_across_processes() -> None:
    """Two provider instances stand for two processes (a CLI run, then another): ids never
    repeat, and each can answer for the other's jobs instead of leaving them UNKNOWN."""
    state = load_state(DEMO_STATES / "hpc-campus.yaml")

    def workload():
        (provider,) = [p for p in providers_from_state(state) if p.category.value == "workload"]
        return provider

    first, second = workload(), workload()
    spec = JobSpec(command=("true",))
    ids = {first._submit(spec).native_id for _ in range(50)}
    other = second._submit(spec).native_id
    assert len(ids) == 50 and other not in ids

    some = sorted(ids)[0]
    assert first._status(some).state is JobState.QUEUED
    assert second._status(some).state is JobState.SIMULATED  # accepted elsewhere, nothing ran
    assert second._status("sim-elsewhere-0123456789abcdef").state is JobState.UNKNOWN
    assert second._status("12345").state is JobState.UNKNOWN
