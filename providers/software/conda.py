"""Conda (and mamba / micromamba): packages of every environment, read from ``conda-meta``.

Each environment records one JSON file per installed package in ``<env>/conda-meta/``
(``name``, ``version``, ``build``, ``depends``). Reading those files costs no subprocess, where
``conda list`` would start a Python interpreter per environment. Environments are the base
(the root itself, named ``base``) and every ``<root>/envs/<name>`` that has a ``conda-meta``
folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, ClassVar

from providers.categories import SoftwareProvider
from providers.errors import ProviderError
from providers.facts import Dependency, SoftwareFacts, SoftwarePackage


def _root_from_executable(path: str) -> Path:
    """``<root>/bin/conda`` or ``<root>/condabin/conda`` -> ``<root>``."""
    return Path(os.path.realpath(path)).parent.parent


class CondaProvider(SoftwareProvider):
    """Packages of a conda installation's environments.

    Options:
        root: the installation's root folder (the base environment).
    """

    name: ClassVar[str] = "conda"
    description: ClassVar[str] = (
        "Conda packages of every environment with their own versions (build as variant, "
        "environment name); dependencies with the version installed in the same environment."
    )
    detection: ClassVar[str] = (
        "options['root'], $CONDA_EXE, $MAMBA_ROOT_PREFIX (with $MAMBA_EXE), $CONDA_PREFIX, or "
        "'conda' on PATH; reads <env>/conda-meta/*.json of the base and <root>/envs/*"
    )

    def _root(self) -> Path | None:
        """The root (base environment) folder, or None when conda is not found."""
        root = self.options.get("root")
        if isinstance(root, str) and root:
            return Path(root)
        if os.environ.get("CONDA_EXE"):
            return _root_from_executable(os.environ["CONDA_EXE"])
        if os.environ.get("MAMBA_EXE") and os.environ.get("MAMBA_ROOT_PREFIX"):
            return Path(os.environ["MAMBA_ROOT_PREFIX"])
        prefix = os.environ.get("CONDA_PREFIX")
        if prefix:
            path = Path(prefix)
            return path.parent.parent if path.parent.name == "envs" else path
        conda = self.runner.which("conda")
        return _root_from_executable(conda) if conda else None

    def _probe(self) -> SoftwareFacts | None:
        """Read every environment's ``conda-meta``.

        Postconditions: None when conda is not found; one package per record per environment;
        a dependency's version is the one installed in the same environment (None if absent).

        Raises:
            ProviderError: the root is missing or not a conda installation, or a record is
                not valid JSON (the message names the file).
        """
        root = self._root()
        if root is None:
            return None
        if not (root / "conda-meta").is_dir():
            raise ProviderError(
                f"{str(root)!r} is not a conda installation (no conda-meta folder); "
                "set options['root'] to the base environment"
            )
        packages: list[SoftwarePackage] = []
        dependencies: dict[tuple[str, str, str | None], Dependency] = {}
        conda_version: str | None = None
        for env_name, prefix in environments(root):
            records = read_records(prefix)
            installed = {str(r["name"]).lower(): str(r.get("version", "")) for r in records}
            for record in records:
                name = str(record["name"])
                version = str(record.get("version", ""))
                if env_name == "base" and name == "conda":
                    conda_version = version
                build = record.get("build")
                packages.append(
                    SoftwarePackage(
                        name=name,
                        version=version,
                        variants=(str(build),) if build else (),
                        location=str(prefix),
                        environment=env_name,
                    )
                )
                for spec in record.get("depends") or []:
                    dep = str(spec).split()[0] if str(spec).strip() else ""
                    if dep:
                        item = Dependency(
                            package=name, name=dep, version=installed.get(dep.lower())
                        )
                        dependencies.setdefault((name, dep, item.version), item)
        return SoftwareFacts(
            manager="conda",
            version=conda_version,
            packages=tuple(packages),
            dependencies=tuple(dependencies.values()),
        )


def environments(root: Path) -> list[tuple[str, Path]]:
    """``("base", root)`` and ``(name, root/envs/name)`` for each environment, sorted by name."""
    found = [("base", root)]
    envs = root / "envs"
    if envs.is_dir():
        found.extend(
            (child.name, child)
            for child in sorted(envs.iterdir())
            if (child / "conda-meta").is_dir()
        )
    return found


def read_records(prefix: Path) -> list[dict[str, Any]]:
    """The package records of one environment.

    Raises:
        ProviderError: a record is unreadable, not JSON, or has no name.
    """
    records: list[dict[str, Any]] = []
    for path in sorted((prefix / "conda-meta").glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProviderError(f"cannot read conda record {str(path)!r}: {exc}") from None
        if not isinstance(record, dict) or not record.get("name"):
            raise ProviderError(f"conda record {str(path)!r} has no package name")
        records.append(record)
    return records
