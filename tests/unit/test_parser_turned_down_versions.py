"""Versions said around the asked one: a release turned down before a newer bound ("r5py 0.1
is too old, we need 1.0 or later") and a bound with a quantifier after a comma or a colon
("pybamm, anything >= 24.1"). The turned-down number is no requirement; the quantified bound
is one. Nothing requirement-like may be lost on the way."""

from __future__ import annotations

import pytest

from endpoint_plugins.parsing.parser import parse_requirements


def _software(text: str) -> dict[str, list[str]]:
    return {
        s.name: [f"{c.op.value}{c.version}" for c in s.constraints]
        for s in parse_requirements(text).software
    }


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        # a release turned down, then the newer bound that rules it out
        ("r5py 0.1 is too old, we need 1.0 or later, plus osmnx", "r5py", [">=1.0"]),
        ("GROMACS 2018 is too old, we need 2023 or newer on 4 nodes", "gromacs", [">=2023"]),
        ("r5py 0.1 is too old; please give us 1.0 or later", "r5py", [">=1.0"]),
        ("scanpy 1.8 is outdated, need 1.10 or newer", "scanpy", [">=1.10"]),
        ("cp2k 7.1 was way too old for us, so 2024.1+ please", "cp2k", [">=2024.1"]),
        ("our lammps 2020 is out of date - 2023 onwards would do", "lammps", [">=2023"]),
        ("openfoam 8 is obsolete, anything 11 or higher", "openfoam", [">=11"]),
        ("the pyvista 0.38 is not recent enough, 0.43 or newer needed", "pyvista", [">=0.43"]),
        ("xtb 6.4 is a bit too old, v6.6 or later please", "xtb", [">=6.6"]),
        # a quantifier before the operator, after a comma or a colon
        ("pybamm, anything >= 24.1, with Python 3.12 and casadi.", "pybamm", [">=24.1"]),
        ("xtb: any version >= 6.6", "xtb", [">=6.6"]),
        ("gromacs, anything newer than 2023", "gromacs", [">2023"]),
        ("need foo-bar, any release > 2.1", "foo-bar", [">2.1"]),
        ("lammps, whatever is >= 2Aug2023", "lammps", [">=2Aug2023"]),
        ("mdanalysis, any version at least 2.7 on one node", "mdanalysis", [">=2.7"]),
    ],
)
def test_the_asked_bound_is_read(text: str, name: str, versions: list[str]) -> None:
    assert _software(text).get(name) == versions


@pytest.mark.parametrize(
    ("text", "name", "versions"),
    [
        # no newer bound follows: the version is read as before, the verdict quoted
        ("gromacs 2018 is too old", "gromacs", ["==2018"]),
        ("scanpy 1.8 is outdated", "scanpy", ["==1.8"]),
        # a release that works is no release turned down
        ("gromacs 2023 is fine, 2024 or newer also ok", "gromacs", None),
    ],
)
def test_no_bound_no_change(text: str, name: str, versions: list[str] | None) -> None:
    found = _software(text)
    if versions is None:
        assert name in found and "==2018" not in found[name]
    else:
        assert found.get(name) == versions


@pytest.mark.parametrize(
    "text",
    [
        "Ubuntu 20.04 is too old, need 22.04 or newer",  # an OS, no package: quoted
        "the driver 470 is too old, 535 or newer please",  # a driver: quoted, no package
    ],
)
def test_a_turned_down_non_package_stays_quoted(text: str) -> None:
    parsed = parse_requirements(text)
    assert not any(s.name in {"ubuntu", "driver"} for s in parsed.software)
    assert parsed.unresolved


@pytest.mark.parametrize(
    "text",
    [
        "pybamm, anything >= 4 nodes",  # a count, no version
        "ram, anything >= 64 GB",
        "cores: any number >= 32",
    ],
)
def test_a_quantified_amount_is_no_version(text: str) -> None:
    assert not any(c for s in parse_requirements(text).software for c in s.constraints)


def test_the_turned_down_version_is_noted_not_dropped() -> None:
    parsed = parse_requirements("r5py 0.1 is too old, we need 1.0 or later")
    assert any("0.1" in note and "turned down" in note for note in parsed.unparsed)
