"""Keys and colons where a form meets prose: nothing requirement-like may vanish.

Three gaps where a requirement was lost with nothing quoted: a version key with no package
before it, a snake_case resource key in a line of prose read as a package pin, and a sentence
with a colon whose words were taken for a form key and dropped.
"""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing import parse_requirements


@pytest.mark.parametrize(
    "text",
    [
        "nodes: 2\nversion: 1.0",
        "model: SomeModelX\nversion: 3.2\nwalltime: 2h",
        "release: 2.3\nnodes: 2",
        "nodes=2 app_version=3.1",
    ],
)
def test_a_version_key_with_no_package_is_quoted(text: str) -> None:
    parsed = parse_requirements(text)
    assert any("version" in u or "release" in u for u in parsed.unresolved), parsed


@pytest.mark.parametrize(
    ("text", "name", "version"),
    [
        ("software: lammps\nversion: 2023", "lammps", "2023"),
        ("gromacs_version: 2024.1", "gromacs", "2024.1"),
    ],
)
def test_a_version_key_after_a_package_still_pins_it(text: str, name: str, version: str) -> None:
    parsed = parse_requirements(text)
    (software,) = [s for s in parsed.software if s.name == name]
    assert [c.version for c in software.constraints] == [version]
    assert not parsed.unresolved


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("nodes: 4, ranks_per_node: 64, walltime 2h", "ranks_per_node"),
        ("nodes: 2, max_gpus: 8, lammps 2023", "max_gpus"),
        ("2 nodes, threads_per_core: 2", "threads_per_core"),
    ],
)
def test_a_resource_key_in_prose_is_no_package(text: str, key: str) -> None:
    parsed = parse_requirements(text)
    assert key not in {s.name for s in parsed.software}
    assert any(key in u for u in parsed.unresolved), parsed.unresolved


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("we use torch_scatter: 2.1 and 2 nodes", "torch_scatter"),
        ("packages: torch_cluster: 1.6, nodes: 2", "torch_cluster"),
        ("our pipeline runs qiime2: 8 cores, 32 GB", "qiime2"),
    ],
)
def test_a_name_before_a_colon_in_a_sentence_is_read(text: str, name: str) -> None:
    parsed = parse_requirements(text)
    assert name in {s.name for s in parsed.software} or any(name in u for u in parsed.unresolved)
