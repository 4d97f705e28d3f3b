"""The demo fleet's site state files: valid, distinct, round-trippable and realistic."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TypeVar

import pytest
from pydantic import BaseModel

from providers.categories import normalise_package_name
from providers.facts import (
    GPUFacts,
    MemoryFacts,
    SoftwareFacts,
    StorageFacts,
    WorkloadFacts,
)
from providers.state import SiteState, load_state, parse_state, providers_from_state

DEMO = files("secretary_executor.fleets") / "demo"
EXPECTED = {
    "cloud-gpu",
    "cloud-k8s",
    "edge-jetson",
    "hpc-campus",
    "hpc-frontier-like",
    "hpc-legacy",
}


def _files() -> list[Traversable]:
    return sorted((f for f in DEMO.iterdir() if f.name.endswith(".yaml")), key=lambda f: f.name)


def _stem(entry: Traversable) -> str:
    return entry.name.removesuffix(".yaml")


def _load(entry: Traversable) -> SiteState:
    return load_state(str(entry))


M = TypeVar("M", bound=BaseModel)


def _facts(state: SiteState, kind: str, model: type[M]) -> list[M]:
    return [model.model_validate(p.facts) for p in state.providers if p.kind == kind]


FILES = _files()
STATES = {_stem(f): _load(f) for f in FILES}


def test_the_six_demo_sites_ship_as_package_data() -> None:
    assert {_stem(f) for f in FILES} == EXPECTED


@pytest.mark.parametrize("entry", FILES, ids=_stem)
def test_site_name_equals_file_stem(entry: Traversable) -> None:
    assert _load(entry).site.name == _stem(entry)


def test_site_names_are_unique() -> None:
    names = [state.site.name for state in STATES.values()]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name", sorted(STATES))
def test_round_trip_through_yaml(name: str) -> None:
    state = STATES[name]
    text = state.to_yaml()
    assert parse_state(text) == state
    assert parse_state(text).to_yaml() == text


@pytest.mark.parametrize("name", sorted(STATES))
def test_every_site_has_workload_cpu_and_memory(name: str) -> None:
    kinds = {p.kind for p in STATES[name].providers}
    assert {"workload", "cpu", "memory"} <= kinds


@pytest.mark.parametrize("name", sorted(STATES))
def test_every_provider_builds_and_probes(name: str) -> None:
    for provider in providers_from_state(STATES[name]):
        report = provider.probe()
        assert report.available, (provider.name, report.error)


@pytest.mark.parametrize("name", sorted(STATES))
def test_numbers_are_consistent(name: str) -> None:
    state = STATES[name]
    for workload in _facts(state, "workload", WorkloadFacts):
        assert workload.partitions
        assert sum(p.default for p in workload.partitions) == 1
        for part in workload.partitions:
            assert part.free_nodes <= part.total_nodes
            assert (part.gpus_per_node > 0) == (part.gpu_model is not None)
    for memory in _facts(state, "memory", MemoryFacts):
        assert memory.available_gb <= memory.total_gb
    for storage in _facts(state, "storage", StorageFacts):
        for fs in storage.filesystems:
            assert fs.free_gb <= fs.total_gb
    assert state.site.prices.cpu_node_hour is not None


@pytest.mark.parametrize("name", sorted(STATES))
def test_dependencies_belong_to_installed_packages(name: str) -> None:
    # Packages are reported as themselves; a dependency is only ever about a listed package.
    for software in _facts(STATES[name], "software", SoftwareFacts):
        installed = {normalise_package_name(p.name) for p in software.packages}
        assert installed
        for dep in software.dependencies:
            assert normalise_package_name(dep.package) in installed, dep


def _all_full(state: SiteState) -> bool:
    parts = [p for w in _facts(state, "workload", WorkloadFacts) for p in w.partitions]
    return bool(parts) and all(p.free_nodes == 0 for p in parts)


def test_a_busy_site_exists_and_it_is_the_campus_cluster() -> None:
    busy = {name for name, state in STATES.items() if _all_full(state)}
    assert busy == {"hpc-campus"}


def test_gpu_sites_report_devices_and_gpu_partitions() -> None:
    with_gpus = set()
    for name, state in STATES.items():
        devices = [d for g in _facts(state, "gpu", GPUFacts) for d in g.devices]
        parts = [p for w in _facts(state, "workload", WorkloadFacts) for p in w.partitions]
        if devices:
            assert any(p.gpus_per_node > 0 for p in parts), name
            with_gpus.add(name)
    assert with_gpus == {"cloud-gpu", "cloud-k8s", "edge-jetson", "hpc-frontier-like"}


def test_sites_differ_in_kind_and_workload_manager() -> None:
    kinds = {state.site.kind for state in STATES.values()}
    managers = {w.manager for s in STATES.values() for w in _facts(s, "workload", WorkloadFacts)}
    assert kinds == {"hpc", "cloud", "edge"}
    assert managers == {"slurm", "pbs", "kubernetes", "machine"}


def test_legacy_site_has_only_old_software() -> None:
    packages = [
        p for s in _facts(STATES["hpc-legacy"], "software", SoftwareFacts) for p in s.packages
    ]
    versions = {p.name: [q.version for q in packages if q.name == p.name] for p in packages}
    assert versions["python"] == ["3.6.8"]
    assert versions["lammps"] == ["29Sep2021"]
