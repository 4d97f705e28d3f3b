"""Simulated workers: Table 2 archetypes, the fleet-skew fixes, and state-file round trips."""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path

import pytest

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from providers.facts import WorkloadFacts
from providers.session import ToolSession
from providers.state import load_state, providers_from_state
from providers.tools import ToolKind
from providers.wire.common import Category
from secretary_executor.simulation import packages as pkgs
from secretary_executor.simulation.archetypes import ARCHETYPES
from secretary_executor.simulation.generator import Worker, generate_fleet

FLEET_SIZE = 200


@pytest.fixture(scope="module")
def fleet() -> list[Worker]:
    return generate_fleet(FLEET_SIZE)


def _providers(worker: Worker) -> dict[str, str]:
    return {p.name: p.kind for p in worker.state.providers}


def test_archetype_mix_is_near_40_40_20(fleet):
    counts = Counter(w.archetype for w in fleet)
    assert set(counts) == {"hpc", "cloud", "standalone"}
    assert 0.28 < counts["hpc"] / FLEET_SIZE < 0.55
    assert 0.28 < counts["cloud"] / FLEET_SIZE < 0.55
    assert 0.10 < counts["standalone"] / FLEET_SIZE < 0.32


def test_every_provider_choice_of_every_slot_occurs(fleet):
    hardware = {"cpu", "memory"}
    for arch in ARCHETYPES.values():
        members = [w for w in fleet if w.archetype == arch.name]
        for slot in arch.slots:
            for choice in slot.choices:
                names = hardware if choice == "hardware" else {choice}
                assert any(names <= set(_providers(w)) for w in members), (
                    f"{arch.name}: {slot.category.value} choice {choice!r} never generated"
                )


def test_slot_cardinalities_are_respected(fleet):
    kind_of = {
        "workload": Category.WORKLOAD,
        "software": Category.SOFTWARE,
        "storage": Category.STORAGE,
        "network": Category.NETWORK,
        "mpi": Category.PARALLEL,
        "container": Category.CONTAINER,
    }
    for w in fleet:
        arch = ARCHETYPES[w.archetype]
        counts = Counter(kind_of[k] for k in _providers(w).values() if k in kind_of)
        for slot in arch.slots:
            if slot.category is Category.HARDWARE:
                continue
            assert slot.low <= counts.get(slot.category, 0) <= slot.high, (w.worker_id, slot)


def test_infiniband_really_occurs_and_cloud_storage_is_not_always_nfs(fleet):
    assert any("infiniband" in _providers(w) for w in fleet if w.archetype == "hpc")
    cloud_storage = Counter(
        name
        for w in fleet
        if w.archetype == "cloud"
        for name in _providers(w)
        if name in ("s3", "network-fs")
    )
    assert cloud_storage["s3"] > 0 and cloud_storage["network-fs"] > 0


def test_no_hpc_site_has_the_whole_catalogue(fleet):
    for w in fleet:
        for p in w.state.providers:
            if p.kind == "software":
                pool = pkgs.POOLS[p.name]
                pairs = sum(len(v) for v in pool.values())
                assert len(p.facts["packages"]) < pairs, (w.worker_id, p.name)


def test_cpu_load_varies_independently_of_memory_use(fleet):
    loads, uses = [], []
    for w in fleet:
        facts = {p.kind: p.facts for p in w.state.providers}
        loads.append(facts["cpu"]["load_fraction"])
        mem = facts["memory"]
        uses.append(1 - mem["available_gb"] / mem["total_gb"])
    assert loads != uses
    assert abs(statistics.correlation(loads, uses)) < 0.3


def test_resources_stay_within_the_archetype_ranges(fleet):
    for w in fleet:
        r = ARCHETYPES[w.archetype].ranges
        wl = next(p for p in w.state.providers if p.kind == "workload")
        parts = WorkloadFacts.model_validate(wl.facts).partitions
        assert r.partitions.low <= len(parts) <= r.partitions.high
        for part in parts:
            assert r.cpus_per_node.low <= part.cpus_per_node <= r.cpus_per_node.high
            assert r.memory_gb_per_node.low <= part.memory_gb_per_node <= r.memory_gb_per_node.high
            assert part.gpus_per_node <= r.gpus_per_node.high
            assert 0 <= part.free_nodes <= part.total_nodes
        if w.archetype == "standalone":
            assert [p.total_nodes for p in parts] == [1]


def test_some_sites_have_gpus_and_some_have_none(fleet):
    with_gpu = [w for w in fleet if "nvidia-gpu" in _providers(w)]
    assert 0 < len(with_gpu) < FLEET_SIZE


def test_state_file_round_trip_gives_an_identical_site(fleet, tmp_path: Path):
    worker = fleet[3]
    path = tmp_path / "w.yaml"
    path.write_text(worker.state.to_yaml(), encoding="utf-8")
    loaded = load_state(path)
    assert loaded == worker.state
    assert loaded.to_yaml() == worker.state.to_yaml()
    # Served as a site, it exports back to the same state.
    info = loaded.site
    secretary = Secretary(
        SiteConfig(
            name=info.name, kind=info.kind, description=info.description, prices=info.prices
        ),
        providers=providers_from_state(loaded),
    )
    assert secretary.export_state() == loaded


def test_simulated_providers_offer_the_standard_tools(fleet):
    hpc = next(w for w in fleet if w.archetype == "hpc")
    names = {
        m.name
        for m in ToolSession(providers_from_state(hpc.state), allowed=ToolKind.READ).manifest()
    }
    for tool in (
        "list_partitions",
        "find_software",
        "list_filesystems",
        "list_interfaces",
        "runtime_info",
        "mpi_info",
        "cpu_info",
    ):
        assert any(n.endswith(tool) for n in names), tool
