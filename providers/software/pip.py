"""Python packages: the running environment (read in-process) and, optionally, other interpreters.

The running environment is read through :mod:`importlib.metadata`, which costs no subprocess
and answers in about 0.1 s for a few hundred distributions. The interpreter itself is reported
as the package ``python`` so that a requirement like ``python >= 3.11`` is checked the same way
as any package. Other interpreters named in ``options["pythons"]`` are asked through
``python -m pip list``; a missing or broken one is skipped (and logged), never fatal.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import re
import sys
from collections.abc import Iterable
from importlib.metadata import Distribution, distributions
from typing import Any, ClassVar

from packaging.requirements import InvalidRequirement, Requirement

from providers.categories import SoftwareProvider
from providers.errors import ProviderError
from providers.facts import Dependency, SoftwareFacts, SoftwarePackage

log = logging.getLogger(__name__)

PYTHON_TIMEOUT_S = 20.0
"""Time allowed to each command run on another interpreter (``pip list`` can be slow)."""


def canonical(name: str) -> str:
    """PEP 503 normalised name, the key under which pip considers two names equal."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _dist_name(dist: Distribution) -> str | None:
    name = dist.metadata["Name"] if dist.metadata is not None else None
    return str(name) if name else None


def runtime_requirements(requires: Iterable[str]) -> list[str]:
    """Names of the requirements that apply here without extras (markers evaluated).

    ``requests[socks]; extra == "socks"`` is optional and left out; ``tomli; python_version <
    "3.11"`` is left out on 3.11. Unparseable entries are skipped.
    """
    names: list[str] = []
    for text in requires:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        names.append(req.name)
    return list(dict.fromkeys(names))


class PipProvider(SoftwareProvider):
    """Packages installed in the running Python environment (and other listed interpreters)."""

    name: ClassVar[str] = "pip"
    description: ClassVar[str] = (
        "Python packages of this environment with their versions, the interpreter itself as "
        "'python', and each package's installed dependencies."
    )
    detection: ClassVar[str] = (
        "always present for the running interpreter (importlib.metadata); interpreters listed "
        "in options['pythons'] are asked with 'python -m pip list --format json'"
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.skipped: dict[str, str] = {}
        """Interpreters from ``options["pythons"]`` that were skipped, with the reason."""

    def _probe(self) -> SoftwareFacts:
        """Read the running environment and every usable interpreter of ``options["pythons"]``.

        Postconditions: exactly one package named ``python`` per inspected interpreter; each
        distribution once per environment (the first on ``sys.path`` wins, as for imports);
        dependency versions are the *installed* versions (None when not installed).
        """
        packages, dependencies = self._running_environment()
        self.skipped = {}
        for path in self._other_pythons():
            try:
                packages.extend(self._other_environment(path))
            except ProviderError as exc:
                self.skipped[path] = exc.message
                log.warning("pip provider: skipping interpreter %s: %s", path, exc.message)
        pip_version = next((p.version for p in packages if p.name.lower() == "pip"), None)
        return SoftwareFacts(
            manager="pip",
            version=pip_version,
            packages=tuple(packages),
            dependencies=tuple(dependencies),
        )

    def _running_environment(self) -> tuple[list[SoftwarePackage], list[Dependency]]:
        environment = sys.prefix
        packages = [
            SoftwarePackage(
                name="python",
                version=platform.python_version(),
                location=sys.executable,
                environment=environment,
            )
        ]
        dists: dict[str, tuple[str, Distribution]] = {}
        for dist in distributions():
            name = _dist_name(dist)
            if name and canonical(name) not in dists:
                dists[canonical(name)] = (name, dist)
        installed = {key: dist.version for key, (_, dist) in dists.items()}
        dependencies: list[Dependency] = []
        for name, dist in dists.values():
            packages.append(
                SoftwarePackage(
                    name=name,
                    version=dist.version,
                    location=os.path.abspath(str(dist.locate_file(""))),
                    environment=environment,
                )
            )
            dependencies.extend(
                Dependency(package=name, name=dep, version=installed.get(canonical(dep)))
                for dep in runtime_requirements(dist.requires or ())
            )
        return packages, dependencies

    def _other_pythons(self) -> list[str]:
        """Absolute paths of ``options["pythons"]`` that are executable files; others skipped."""
        raw = self.options.get("pythons") or []
        if isinstance(raw, str):
            raw = [raw]
        usable: list[str] = []
        for entry in raw:
            if not isinstance(entry, str) or not entry:
                self.skipped[repr(entry)] = "not a path"
                continue
            # abspath, not resolve: a venv's python is a symlink to the base interpreter, and
            # resolving it would lose which environment was meant
            path = os.path.abspath(entry)
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                self.skipped[entry] = "not an executable file"
                log.warning("pip provider: %s is not an executable file", entry)
                continue
            if path != os.path.abspath(sys.executable):
                usable.append(path)
        return list(dict.fromkeys(usable))

    def _other_environment(self, path: str) -> list[SoftwarePackage]:
        """Packages of another interpreter, as ``pip list`` reports them.

        Raises:
            ProviderError: the interpreter failed, timed out or printed something unreadable.
        """
        version = self.runner.run(
            [path, "-c", "import platform; print(platform.python_version())"],
            timeout_s=PYTHON_TIMEOUT_S,
        ).stdout.strip()
        listing = self.runner.run(
            [path, "-m", "pip", "list", "--format", "json"], timeout_s=PYTHON_TIMEOUT_S
        ).stdout
        try:
            rows = json.loads(listing)
        except json.JSONDecodeError as exc:
            raise ProviderError(f"{path}: pip list printed no JSON ({exc})") from None
        if not version or not isinstance(rows, list):
            raise ProviderError(f"{path}: unexpected answer from the interpreter")
        packages = [
            SoftwarePackage(name="python", version=version, location=path, environment=path)
        ]
        packages.extend(
            SoftwarePackage(name=str(row["name"]), version=str(row["version"]), environment=path)
            for row in rows
            if isinstance(row, dict) and row.get("name") and row.get("version")
        )
        return packages
