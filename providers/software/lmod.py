"""Lmod: the module system most large centres run, read through its own ``spider`` program.

``$LMOD_DIR/spider -o jsonSoftwarePage <MODULEPATH>`` walks the module folders and prints one
JSON document on stdout, so no ``module`` shell function (and no shell) is needed. Each module
version is reported as itself (``lammps`` ``2Aug2023``, located at its modulefile) and the one
that ``module load lammps`` would pick carries the variant ``default``. Versions are never
ordered here: Lmod orders ``29Sep2021`` above ``2Aug2023``, but requirements are compared by
:mod:`providers.versions`, which reads both as dates.
"""

from __future__ import annotations

import os
import re
from typing import Any, ClassVar

from providers.categories import SoftwareProvider
from providers.errors import CommandError, ProviderError
from providers.facts import SoftwareFacts, SoftwarePackage
from providers.software._modules import (
    UNVERSIONED,
    first_json_document,
    module_path,
    split_module_name,
    tree_of,
)

DEFAULT_LMOD_DIR = "/usr/share/lmod/lmod/libexec"
"""Where Debian, Ubuntu and most source installs put Lmod's programs."""

SPIDER_TIMEOUT_S = 60.0
"""Time allowed to ``spider``: it reads every modulefile, which takes seconds on big trees."""

_VERSION_RE = re.compile(r"Version\s+(\d[^\s]*)")


class LmodProvider(SoftwareProvider):
    """Modules that Lmod can load, from ``spider``'s JSON software page.

    Options:
        lmod_dir: the folder holding ``lmod`` and ``spider`` (default: ``$LMOD_DIR``, the folder
            of ``$LMOD_CMD``, then /usr/share/lmod/lmod/libexec).
        modulepath: module folders to search (default: ``$MODULEPATH``).
    """

    name: ClassVar[str] = "lmod"
    description: ClassVar[str] = (
        "Modules available through Lmod, each version as itself with its modulefile path; the "
        "version 'module load <name>' picks carries the variant 'default'."
    )
    detection: ClassVar[str] = (
        "options['lmod_dir'], $LMOD_DIR, the folder of $LMOD_CMD, or "
        "/usr/share/lmod/lmod/libexec containing 'spider'; folders from options['modulepath'] "
        "or $MODULEPATH"
    )

    def _lmod_dir(self) -> str | None:
        """The first candidate folder that holds an executable ``spider``, or None."""
        candidates: list[str] = []
        if isinstance(self.options.get("lmod_dir"), str):
            candidates.append(self.options["lmod_dir"])
        if os.environ.get("LMOD_DIR"):
            candidates.append(os.environ["LMOD_DIR"])
        if os.environ.get("LMOD_CMD"):
            candidates.append(os.path.dirname(os.environ["LMOD_CMD"]))
        candidates.append(DEFAULT_LMOD_DIR)
        for folder in candidates:
            spider = os.path.join(folder, "spider")
            if os.path.isfile(spider) and os.access(spider, os.X_OK):
                return folder
        return None

    def _probe(self) -> SoftwareFacts | None:
        """Run ``spider`` over the module path and report every module version found.

        Postconditions: None when Lmod is not installed; otherwise one package per modulefile
        (the same version in two folders appears twice, with different locations), at most one
        ``default`` per package name and folder set.

        Raises:
            ProviderError: ``spider`` failed, timed out (``transient``) or printed no JSON.
        """
        folder = self._lmod_dir()
        if folder is None:
            return None
        trees = module_path(self.options)
        version = self._version(folder)
        if not trees:
            return SoftwareFacts(manager="lmod", version=version)
        result = self.runner.run(
            [os.path.join(folder, "spider"), "-o", "jsonSoftwarePage", ":".join(trees)],
            timeout_s=SPIDER_TIMEOUT_S,
        )
        page = first_json_document(result.stdout or "[]", what="lmod spider")
        return SoftwareFacts(
            manager="lmod", version=version, packages=tuple(parse_software_page(page, trees))
        )

    def _version(self, folder: str) -> str | None:
        """Lmod's own version: ``$LMOD_VERSION``, else ``lmod --version`` (None if unreadable)."""
        if os.environ.get("LMOD_VERSION"):
            return os.environ["LMOD_VERSION"]
        lmod = os.path.join(folder, "lmod")
        if not os.path.isfile(lmod):
            return None
        try:
            result = self.runner.run([lmod, "--version"], timeout_s=10.0, check=False)
        except CommandError:
            return None
        found = _VERSION_RE.search(result.stderr + result.stdout)
        return found.group(1) if found else None


def parse_software_page(page: Any, trees: list[str]) -> list[SoftwarePackage]:
    """Packages from the ``jsonSoftwarePage`` document (a list of package entries).

    Raises:
        ProviderError: the document is not a list of package entries.
    """
    if not isinstance(page, list):
        raise ProviderError("lmod spider: expected a JSON list of packages")
    packages: list[SoftwarePackage] = []
    for entry in page:
        if not isinstance(entry, dict) or not isinstance(entry.get("versions"), list):
            raise ProviderError("lmod spider: a package entry has no 'versions' list")
        default = entry.get("defaultVersionName")
        for item in entry["versions"]:
            if not isinstance(item, dict):
                continue
            full = str(item.get("full") or "")
            name, version = split_module_name(full) if full else (str(entry["package"]), "")
            version = str(item.get("versionName") or version or UNVERSIONED)
            path = str(item.get("path") or "") or None
            marked = bool(item.get("markedDefault")) or (default is not None and version == default)
            packages.append(
                SoftwarePackage(
                    name=str(entry.get("package") or name),
                    version=version,
                    variants=("default",) if marked else (),
                    location=path,
                    environment=tree_of(path, trees) if path else None,
                )
            )
    return packages
