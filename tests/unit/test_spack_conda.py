"""Spack and conda providers against install trees synthesized by the tests.

Spack cannot be installed here (no Debian or PyPI package, no access to its repository), so its
install database is written in the layout Spack documents and writes (database versions 7 and
8, as described in the project notes on Spack). The conda root is likewise written by hand:
``conda-meta/*.json`` records of a base and two environments. Neither provider runs a program.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from providers.errors import ProviderError
from providers.software.conda import CondaProvider
from providers.software.spack import SpackProvider, render_variants

ARCH = {"platform": "linux", "platform_os": "debian12", "target": "x86_64"}


def _hash(name: str) -> str:
    return (name.replace("-", "") + "a" * 32)[:32]


def _spec(
    name: str,
    version: str,
    *,
    db_version: int,
    deps: list[tuple[str, list[str], list[str]]] = (),  # type: ignore[assignment]
    parameters: dict[str, Any] | None = None,
) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "name": name,
        "version": version,
        "arch": ARCH,
        "namespace": "builtin",
        "parameters": parameters or {"build_system": "generic", "cflags": [], "patches": []},
        "dependencies": [
            {"name": d, "hash": _hash(d), "parameters": {"deptypes": types, "virtuals": virt}}
            for d, types, virt in deps
        ],
        "hash": _hash(name),
    }
    if db_version == 7:
        spec["compiler"] = {"name": "gcc", "version": "12.2.0"}
    return spec


def _record(
    root: Path, spec: dict[str, Any], installed: bool = True, explicit: bool = True
) -> dict[str, Any]:
    path = (
        root
        / "opt"
        / "spack"
        / "linux-debian12-x86_64"
        / f"{spec['name']}-{spec['version']}-{spec['hash']}"
    )
    if installed:
        (path / ".spack").mkdir(parents=True, exist_ok=True)
        (path / ".spack" / "spec.json").write_text(json.dumps({"spec": {"nodes": [spec]}}))
    return {
        "spec": spec,
        "path": str(path) if installed else None,
        "installed": installed,
        "ref_count": 1,
        "explicit": explicit,
        "installation_time": 1700000000.0,
    }


def make_spack(root: Path, *, db_version: int, python_installed: bool) -> Path:
    """A Spack root with lammps (kokkos on, cuda off), py-numpy and its python dependency."""
    compiler_dep = [("gcc", ["build"], ["c", "cxx", "fortran"])] if db_version == 8 else []
    specs = [
        _spec(
            "lammps",
            "20230802",
            db_version=db_version,
            deps=[("fftw", ["build", "link"], []), *compiler_dep],
            parameters={
                "build_system": "cmake",
                "build_type": "Release",
                "kokkos": True,
                "cuda": False,
                "cxxflags": [],
                "patches": ["abc123"],
            },
        ),
        _spec("fftw", "3.3.10", db_version=db_version, deps=compiler_dep),
        _spec(
            "py-numpy",
            "1.26.4",
            db_version=db_version,
            deps=[("python", ["build", "run"], []), ("openblas", ["link"], []), *compiler_dep],
        ),
        _spec("openblas", "0.3.24", db_version=db_version, parameters={"threads": "openmp"}),
        _spec("python", "3.11.7", db_version=db_version, deps=compiler_dep),
    ]
    if db_version == 8:
        specs.append(_spec("gcc", "12.2.0", db_version=8))
    installs = {
        s["hash"]: _record(
            root,
            s,
            installed=python_installed or s["name"] != "python",
            explicit=s["name"] in {"lammps", "py-numpy"},
        )
        for s in specs
    }
    db = root / "opt" / "spack" / ".spack-db"
    db.mkdir(parents=True, exist_ok=True)
    (db / "index.json").write_text(
        json.dumps({"database": {"version": str(db_version), "installs": installs}})
    )
    lib = root / "lib" / "spack" / "spack"
    lib.mkdir(parents=True, exist_ok=True)
    (lib / "__init__.py").write_text(
        "spack_version_info = (0, 21, 2)\n" if db_version == 7 else '__version__ = "0.23.1"\n'
    )
    return root


@pytest.fixture(params=[7, 8], ids=["db-v7", "db-v8"])
def db_version(request: pytest.FixtureRequest) -> int:
    return int(request.param)


def test_spack_packages_are_reported_as_themselves(tmp_path: Path, db_version: int) -> None:
    root = make_spack(tmp_path, db_version=db_version, python_installed=False)
    spack = SpackProvider(options={"root": str(root)})
    report = spack.probe()
    assert report.available, report.error
    assert report.facts is not None
    assert report.facts["version"] == ("0.21.2" if db_version == 7 else "0.23.1")
    [numpy] = spack.find_software("py-numpy")
    assert numpy.version == "1.26.4"
    assert numpy.environment == "gcc@12.2.0"
    assert numpy.location is not None and Path(numpy.location).is_dir()
    # python is only a dependency (its record is not installed): not an installed package
    assert spack.find_software("python") == []
    deps = {d.name: d.version for d in spack.package_dependencies("py-numpy")}
    assert deps["python"] == "3.11.7"
    assert deps["openblas"] == "0.3.24"


def test_spack_python_installed_itself_is_found(tmp_path: Path, db_version: int) -> None:
    root = make_spack(tmp_path, db_version=db_version, python_installed=True)
    found = SpackProvider(options={"root": str(root)}).find_software("python")
    assert [p.version for p in found] == ["3.11.7"]


def test_spack_variants_and_dependency_versions(tmp_path: Path, db_version: int) -> None:
    root = make_spack(tmp_path, db_version=db_version, python_installed=True)
    spack = SpackProvider(options={"root": str(root)})
    [lammps] = spack.find_software("lammps")
    assert lammps.version == "20230802"
    assert lammps.variants == ("build_system=cmake", "build_type=Release", "~cuda", "+kokkos")
    deps = {d.name: d.version for d in spack.package_dependencies("lammps")}
    assert deps["fftw"] == "3.3.10"  # the dependency's own version, never lammps's
    if db_version == 8:
        assert deps["gcc"] == "12.2.0"
    [openblas] = spack.find_software("openblas")
    assert openblas.variants == ("threads=openmp",)


def test_render_variants_skips_bookkeeping() -> None:
    assert render_variants(
        {"patches": ["x"], "cflags": [], "ldflags": ["-L/x"], "shared": True}
    ) == (
        "ldflags=-L/x",
        "+shared",
    )
    assert render_variants(None) == ()


def test_spack_root_from_environment_and_empty_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPACK_ROOT", str(tmp_path))
    report = SpackProvider().probe()
    assert report.available and report.facts is not None
    assert report.facts["packages"] == []


def test_spack_absent_without_any_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPACK_ROOT", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    report = SpackProvider().probe()
    assert not report.available and report.error is None


@pytest.mark.parametrize(
    "content",
    [
        '{"database": {"version": "7", "installs": ',
        '{"something": []}',
        '{"database": {"installs": {"h": {}}}}',
    ],
    ids=["truncated", "not-a-database", "record-without-spec"],
)
def test_spack_corrupt_database_is_an_error_not_a_crash(tmp_path: Path, content: str) -> None:
    root = make_spack(tmp_path, db_version=7, python_installed=True)
    (root / "opt" / "spack" / ".spack-db" / "index.json").write_text(content)
    spack = SpackProvider(options={"root": str(root)})
    report = spack.probe()
    assert not report.available
    assert report.error is not None and "index.json" in report.error
    with pytest.raises(ProviderError, match="not available"):
        spack.find_software("lammps")


def test_spack_missing_root_is_a_clear_error(tmp_path: Path) -> None:
    report = SpackProvider(options={"root": str(tmp_path / "missing")}).probe()
    assert not report.available
    assert report.error is not None and "does not exist" in report.error


# -- conda ------------------------------------------------------------------------------------


def _conda_record(prefix: Path, name: str, version: str, build: str, depends: list[str]) -> None:
    meta = prefix / "conda-meta"
    meta.mkdir(parents=True, exist_ok=True)
    record = {
        "name": name,
        "version": version,
        "build": build,
        "build_number": 0,
        "channel": "https://conda.anaconda.org/conda-forge/linux-64",
        "depends": depends,
        "files": [],
    }
    (meta / f"{name}-{version}-{build}.json").write_text(json.dumps(record))


def make_conda(root: Path) -> Path:
    """A base with conda and python 3.12, env 'ml' (python 3.11 + numpy), env 'old' (python 3.9)."""
    _conda_record(root, "python", "3.12.1", "hab00c5b_1_cpython", ["libgcc-ng >=12"])
    _conda_record(root, "conda", "24.1.2", "py312h7900ff3_0", ["python >=3.12,<3.13.0a0"])
    (root / "conda-meta" / "history").write_text("==> 2024-01-01 <==\n")
    (root / "bin").mkdir()
    (root / "bin" / "conda").write_text("#!/bin/sh\n")
    ml = root / "envs" / "ml"
    _conda_record(ml, "python", "3.11.7", "hab00c5b_1_cpython", [])
    _conda_record(
        ml, "numpy", "1.26.4", "py311h64a7726_0", ["python >=3.11,<3.12.0a0", "libblas >=3.9.0"]
    )
    _conda_record(root / "envs" / "old", "python", "3.9.18", "h0755675_1_cpython", [])
    (root / "envs" / "not-an-env").mkdir()
    return root


def test_conda_environments_and_packages(tmp_path: Path) -> None:
    root = make_conda(tmp_path / "miniforge")
    conda = CondaProvider(options={"root": str(root)})
    report = conda.probe()
    assert report.available, report.error
    assert report.facts is not None and report.facts["version"] == "24.1.2"
    pythons = {(p.environment, p.version) for p in conda.find_software("python")}
    assert pythons == {("base", "3.12.1"), ("ml", "3.11.7"), ("old", "3.9.18")}
    [numpy] = conda.find_software("numpy")
    assert numpy.environment == "ml"
    assert numpy.variants == ("py311h64a7726_0",)
    assert numpy.location == str(root / "envs" / "ml")


def test_conda_dependencies_carry_the_installed_version_of_the_same_env(tmp_path: Path) -> None:
    root = make_conda(tmp_path / "miniforge")
    conda = CondaProvider(options={"root": str(root)})
    deps = {d.name: d.version for d in conda.package_dependencies("numpy")}
    assert deps == {"python": "3.11.7", "libblas": None}
    assert {d.version for d in conda.package_dependencies("conda")} == {"3.12.1"}


@pytest.mark.parametrize("variable", ["CONDA_EXE", "CONDA_PREFIX"])
def test_conda_root_from_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    root = make_conda(tmp_path / "miniforge")
    monkeypatch.delenv("CONDA_EXE", raising=False)
    monkeypatch.delenv("MAMBA_EXE", raising=False)
    value = root / "bin" / "conda" if variable == "CONDA_EXE" else root / "envs" / "ml"
    monkeypatch.setenv(variable, str(value))
    assert [p.environment for p in CondaProvider().find_software("numpy")] == ["ml"]


def test_conda_corrupt_record_is_an_error_not_a_crash(tmp_path: Path) -> None:
    root = make_conda(tmp_path / "miniforge")
    (root / "envs" / "ml" / "conda-meta" / "broken-1.0-0.json").write_text("{not json")
    conda = CondaProvider(options={"root": str(root)})
    report = conda.probe()
    assert not report.available
    assert report.error is not None and "broken-1.0-0.json" in report.error
    with pytest.raises(ProviderError):
        conda.list_software()


def test_conda_root_that_is_not_conda(tmp_path: Path) -> None:
    report = CondaProvider(options={"root": str(tmp_path)}).probe()
    assert not report.available
    assert report.error is not None and "not a conda installation" in report.error
