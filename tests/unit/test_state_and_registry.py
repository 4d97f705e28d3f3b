"""Site state files and provider discovery through entry points."""

from __future__ import annotations

import importlib
import textwrap

import pytest

from providers import ToolKind, ToolSession
from providers.errors import StateFileError
from providers.registry import discover
from providers.state import export_state, load_state, parse_state, providers_from_state

STATE = textwrap.dedent(
    """
    schema_version: 1
    site: {name: tiny, kind: hpc, prices: {cpu_node_hour: 2.5}}
    providers:
      - name: slurm
        kind: workload
        facts:
          manager: slurm
          partitions:
            - {name: batch, total_nodes: 4, free_nodes: 1, cpus_per_node: 32,
               memory_gb_per_node: 128, queue_depth: 3}
      - name: lmod
        kind: software
        facts:
          manager: lmod
          packages: [{name: gromacs, version: "2024.1"}]
          dependencies: [{package: gromacs, name: fftw, version: "3.3.10"}]
      - {name: cpu, kind: cpu, facts: {cores: 32, threads: 64}}
    """
)


def test_state_providers_have_the_real_tools():
    providers = providers_from_state(parse_state(STATE))
    session = ToolSession(providers, allowed=ToolKind.READ)
    names = {m.name for m in session.manifest()}
    assert {"slurm__list_partitions", "lmod__find_software", "cpu__cpu_info"} <= names
    assert session.call("lmod", "find_software", {"name": "fftw"}).result == []
    deps = session.call("lmod", "package_dependencies", {"name": "gromacs"}).result
    assert deps == [{"package": "gromacs", "name": "fftw", "version": "3.3.10"}]


def test_round_trip_is_byte_identical(tmp_path):
    state = parse_state(STATE)
    exported = export_state(state.site, providers_from_state(state))
    path = tmp_path / "tiny.yaml"
    path.write_text(exported.to_yaml())
    again = load_state(path)
    assert again.to_yaml() == exported.to_yaml()
    assert {p.name for p in again.providers} == {"slurm", "lmod", "cpu"}


def test_simulated_jobs_are_labelled():
    (slurm,) = [p for p in providers_from_state(parse_state(STATE)) if p.name == "slurm"]
    sub = slurm.call_tool("submit_job", {"spec": {"command": ["a"]}}, allowed=ToolKind.DISPATCH)
    first = slurm.call_tool(
        "job_status", {"native_id": sub["native_id"]}, allowed=ToolKind.DISPATCH
    )
    second = slurm.call_tool(
        "job_status", {"native_id": sub["native_id"]}, allowed=ToolKind.DISPATCH
    )
    # Nothing ran, so the job never claims to have completed or to have an exit status.
    assert (first["state"], second["state"]) == ("QUEUED", "SIMULATED")
    assert second["exit_code"] is None and "simulated" in second["message"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("site: [", "not valid YAML"),
        ("- a\n- b", "expected a mapping"),
        ("site: {name: x}\nproviders: [{name: a, kind: gpu-ish, facts: {}}]", "providers.0.kind"),
        (
            "site: {name: x}\nproviders: [{name: a, kind: cpu, facts: {cores: zero}}]",
            "facts.cores",
        ),
        (
            "site: {name: x}\nproviders: [{name: a, kind: cpu, facts: {cores: 1, threads: 1}},"
            " {name: a, kind: cpu, facts: {cores: 1, threads: 1}}]",
            "repeated: a",
        ),
    ],
)
def test_bad_state_files_say_what_is_wrong(text: str, message: str):
    with pytest.raises(StateFileError, match=message):
        parse_state(text)


def test_unreadable_state_file(tmp_path):
    with pytest.raises(StateFileError, match="cannot read"):
        load_state(tmp_path / "missing.yaml")


def test_builtin_providers_are_discovered():
    catalogue = discover()
    assert {"cpu", "memory", "local", "local-scratch", "ethernet", "pip"} <= set(catalogue.classes)
    assert not catalogue.errors


def test_third_party_entry_point_is_discovered(tmp_path, monkeypatch):
    pkg = tmp_path / "thirdparty_prov"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        textwrap.dedent(
            """
            from providers.categories import ContainerProvider
            from providers.facts import ContainerFacts

            class Sarus(ContainerProvider):
                name = "sarus"
                description = "Sarus container engine"
                def _probe(self):
                    return ContainerFacts(runtime="sarus", version="1.6")
            """
        )
    )
    dist = tmp_path / "thirdparty_prov-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: thirdparty-prov\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[secretary.providers]\nsarus = thirdparty_prov:Sarus\nbroken = thirdparty_prov:Nope\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    catalogue = discover()
    assert catalogue.classes["sarus"]().probe().facts["runtime"] == "sarus"
    assert "broken" in catalogue.errors
