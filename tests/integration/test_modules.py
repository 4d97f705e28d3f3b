"""Lmod and Environment Modules providers against the real module systems.

Both systems come from Debian (``scripts/hpc/modules-up.sh``); the modulefile trees are written
by the test: Lua files for Lmod (with a ``default`` symlink), Tcl files for both (with a Tcl
``.version`` file marking the default). The rules negotiator then judges LAMMPS requirements
through a Secretary made of these providers and a workload provider from a state file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import need_service

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from providers.base import Provider
from providers.software.envmodules import EnvironmentModulesProvider
from providers.software.lmod import DEFAULT_LMOD_DIR, LmodProvider
from providers.state import parse_state, providers_from_state
from providers.wire import Requirements, SoftwareRequirement, Verdict, VersionConstraint
from providers.wire.requirements import Comparator

pytestmark = pytest.mark.lmod

HAVE_LMOD = os.path.isfile(os.path.join(DEFAULT_LMOD_DIR, "spider"))
HAVE_ENV_MODULES = EnvironmentModulesProvider()._modulecmd() is not None

INJECTIONS = ["x; touch MARKER", "$(touch MARKER)", "`touch MARKER`", "../../etc/passwd"]

WORKLOAD = """
schema_version: 1
site: {name: modules-site, kind: hpc}
providers:
  - name: batch
    kind: workload
    facts:
      manager: slurm
      partitions:
        - {name: cpu, total_nodes: 4, free_nodes: 2, cpus_per_node: 16, memory_gb_per_node: 64}
"""


def _tcl(name: str, version: str) -> str:
    return (
        "#%Module1.0\n"
        f'module-whatis "Name: {name}"\n'
        f'module-whatis "Version: {version}"\n'
        f"setenv {name.upper()}_ROOT /opt/{name}/{version}\n"
        f"prepend-path PATH /opt/{name}/{version}/bin\n"
    )


def _lua(name: str, version: str) -> str:
    return (
        f'whatis("Name: {name}")\nwhatis("Version: {version}")\n'
        f'setenv("{name.upper()}_ROOT", "/opt/{name}/{version}")\n'
        f'prepend_path("PATH", "/opt/{name}/{version}/bin")\n'
    )


@pytest.fixture()
def trees(tmp_path: Path) -> dict[str, Path]:
    """A Lua tree (Lmod only) and a Tcl tree (both systems), same modules in each."""
    lua, tcl = tmp_path / "lua", tmp_path / "tcl"
    for folder in (
        lua / "lammps",
        lua / "gromacs",
        lua / "openmpi",
        tcl / "lammps",
        tcl / "gromacs",
        tcl / "openmpi",
    ):
        folder.mkdir(parents=True)
    for version in ("2Aug2023", "29Sep2021"):
        (lua / "lammps" / f"{version}.lua").write_text(_lua("lammps", version))
        (tcl / "lammps" / version).write_text(_tcl("lammps", version))
    (lua / "lammps" / "default").symlink_to("2Aug2023.lua")
    (tcl / "lammps" / ".version").write_text('#%Module1.0\nset ModulesVersion "2Aug2023"\n')
    for version in ("2024.1", "2023.3"):
        (lua / "gromacs" / version).write_text(_tcl("gromacs", version))
        (tcl / "gromacs" / version).write_text(_tcl("gromacs", version))
    (lua / "openmpi" / "4.1.4.lua").write_text(_lua("openmpi", "4.1.4") + 'family("mpi")\n')
    (tcl / "openmpi" / "4.1.4").write_text(_tcl("openmpi", "4.1.4"))
    return {"lua": lua, "tcl": tcl, "root": tmp_path}


def _lmod(trees: dict[str, Path]) -> LmodProvider:
    need_service(HAVE_LMOD, "Lmod is not installed (run scripts/hpc/modules-up.sh as root)")
    return LmodProvider(options={"modulepath": [str(trees["lua"])], "lmod_dir": DEFAULT_LMOD_DIR})


def _envmod(trees: dict[str, Path]) -> EnvironmentModulesProvider:
    need_service(
        HAVE_ENV_MODULES, "Environment Modules is not installed (run scripts/hpc/modules-up.sh)"
    )
    return EnvironmentModulesProvider(options={"modulepath": [str(trees["tcl"])]})


@pytest.fixture(params=["lmod", "environment-modules"])
def provider(request: pytest.FixtureRequest, trees: dict[str, Path]) -> Provider:
    return _lmod(trees) if request.param == "lmod" else _envmod(trees)


def test_probe_reports_every_module_version_as_itself(provider: Provider) -> None:
    report = provider.probe()
    assert report.available, report.error
    assert report.facts is not None and report.facts["version"]
    found = {(p["name"], p["version"]) for p in report.facts["packages"]}
    assert found == {
        ("lammps", "2Aug2023"),
        ("lammps", "29Sep2021"),
        ("gromacs", "2024.1"),
        ("gromacs", "2023.3"),
        ("openmpi", "4.1.4"),
    }


def test_find_software_returns_both_lammps_versions_and_marks_the_default(
    provider: Provider,
) -> None:
    found = provider.find_software("LAMMPS")  # type: ignore[attr-defined]
    by_version = {p.version: p for p in found}
    assert set(by_version) == {"2Aug2023", "29Sep2021"}
    assert by_version["2Aug2023"].variants == ("default",)
    assert by_version["29Sep2021"].variants == ()
    for pkg in found:
        assert pkg.location and Path(pkg.location).is_file()
        assert pkg.environment and pkg.location.startswith(pkg.environment)


def test_list_software_and_prefix(provider: Provider) -> None:
    assert provider.list_software() == ["gromacs", "lammps", "openmpi"]  # type: ignore[attr-defined]
    assert provider.list_software(prefix="gro") == ["gromacs"]  # type: ignore[attr-defined]


def test_lmod_reads_lua_and_tcl_trees_together(trees: dict[str, Path]) -> None:
    lmod = LmodProvider(
        options={"modulepath": [str(trees["lua"]), str(trees["tcl"])], "lmod_dir": DEFAULT_LMOD_DIR}
    )
    need_service(HAVE_LMOD, "Lmod is not installed (run scripts/hpc/modules-up.sh as root)")
    lammps = lmod.find_software("lammps")
    assert len(lammps) == 4
    assert {p.environment for p in lammps} == {str(trees["lua"]), str(trees["tcl"])}


def test_modulepath_from_the_environment(
    trees: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    need_service(HAVE_LMOD and HAVE_ENV_MODULES, "Lmod and Environment Modules are needed")
    monkeypatch.setenv("MODULEPATH", f"{trees['tcl']}:/does/not/exist")
    for provider in (LmodProvider(), EnvironmentModulesProvider()):
        assert {p.version for p in provider.find_software("gromacs")} == {"2024.1", "2023.3"}


def test_no_module_path_means_no_packages_not_an_error(
    trees: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    need_service(HAVE_LMOD and HAVE_ENV_MODULES, "Lmod and Environment Modules are needed")
    monkeypatch.delenv("MODULEPATH", raising=False)
    for provider in (LmodProvider(), EnvironmentModulesProvider()):
        report = provider.probe()
        assert report.available and report.facts is not None
        assert report.facts["packages"] == []


def test_relative_module_path_option_is_a_clear_error(trees: dict[str, Path]) -> None:
    provider = _lmod(trees)
    provider.options["modulepath"] = ["relative/tree"]
    report = provider.probe(refresh=True)
    assert not report.available
    assert report.error is not None and "absolute folder paths" in report.error


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_names_find_nothing_and_run_nothing(
    provider: Provider, payload: str, trees: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(trees["root"])
    provider.probe()
    assert provider.find_software(payload) == []  # type: ignore[attr-defined]
    assert provider.list_software(prefix=payload) == []  # type: ignore[attr-defined]
    assert provider.package_dependencies(payload) == []  # type: ignore[attr-defined]
    assert not list(trees["root"].rglob("MARKER"))
    assert not Path("MARKER").exists()


def _lammps(op: Comparator, version: str) -> Requirements:
    return Requirements(
        software=(
            SoftwareRequirement(
                name="lammps", constraints=(VersionConstraint(op=op, version=version),)
            ),
        )
    )


@pytest.mark.parametrize(
    ("op", "version", "verdict"),
    [
        (Comparator.GE, "2023", Verdict.READY),  # 2Aug2023
        (Comparator.EQ, "2021", Verdict.READY),  # 29Sep2021 is a 2021 release
        (Comparator.LT, "2022", Verdict.READY),  # 29Sep2021
        (Comparator.EQ, "2022", Verdict.INCOMPATIBLE),
        (Comparator.GE, "2024", Verdict.INCOMPATIBLE),
    ],
)
def test_rules_negotiator_judges_lammps_versions(
    trees: dict[str, Path], op: Comparator, version: str, verdict: Verdict
) -> None:
    providers: list[Provider] = [_lmod(trees), _envmod(trees)]
    providers += providers_from_state(parse_state(WORKLOAD))
    secretary = Secretary(SiteConfig(name="modules-site", kind="hpc"), providers=providers)
    proposal = secretary.negotiate(_lammps(op, version))
    assert proposal.verdict is verdict, proposal
    check = next(c for c in proposal.checks if c.requirement.startswith("software:"))
    if verdict is Verdict.READY:
        assert "lmod" in check.detail and "environment-modules" in check.detail
    else:
        assert "2Aug2023" in check.detail and "29Sep2021" in check.detail
