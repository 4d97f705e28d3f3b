"""Environment Modules (4.x / 5.x): modulefiles read through ``modulecmd.tcl -j avail``.

The ``module`` shell function only wraps ``modulecmd.tcl <shell> <subcommand>``; calling that
program directly (through ``tclsh`` when it is not executable) needs no shell. ``-j avail``
prints a JSON document on stderr: ``{folder: {"lammps/2Aug2023": {"type": "modulefile",
"symbols": ["default"], "pathname": ...}}}``. The module path is handed over with ``env
MODULEPATH=...`` in the argument list, so a custom path needs no change to the service's own
environment. Environment Modules 3.x (the old C ``modulecmd``) has no JSON output and is
reported as present but unreadable, with that reason.
"""

from __future__ import annotations

import os
import re
from typing import Any, ClassVar

from providers.categories import SoftwareProvider
from providers.errors import CommandError, ProviderError
from providers.facts import SoftwareFacts, SoftwarePackage
from providers.software._modules import first_json_document, module_path, split_module_name

KNOWN_PATHS = ("/usr/share/modules/libexec/modulecmd.tcl", "/usr/lib/modulecmd.tcl")
"""Upstream's default install location, then Debian's."""

AVAIL_TIMEOUT_S = 60.0
_RELEASE_RE = re.compile(r"Modules Release\s+(\d[^\s]*)")
_LOADABLE = {"modulefile", "virtual"}


class EnvironmentModulesProvider(SoftwareProvider):
    """Modulefiles that Environment Modules can load, from ``-j avail``.

    Options:
        modulecmd: path of ``modulecmd.tcl`` (default: ``$MODULES_CMD``, ``modulecmd`` on PATH,
            then the known install locations).
        modulepath: module folders to search (default: ``$MODULEPATH``).
    """

    name: ClassVar[str] = "environment-modules"
    description: ClassVar[str] = (
        "Modulefiles available through Environment Modules, each version as itself with its "
        "path; an explicit default carries the variant 'default'."
    )
    detection: ClassVar[str] = (
        "options['modulecmd'], $MODULES_CMD, 'modulecmd' on PATH, "
        "/usr/share/modules/libexec/modulecmd.tcl or /usr/lib/modulecmd.tcl; folders from "
        "options['modulepath'] or $MODULEPATH"
    )

    def _modulecmd(self) -> str | None:
        """The first existing ``modulecmd`` candidate, or None when none is installed."""
        candidates: list[str] = []
        if isinstance(self.options.get("modulecmd"), str):
            candidates.append(self.options["modulecmd"])
        if os.environ.get("MODULES_CMD"):
            candidates.append(os.environ["MODULES_CMD"])
        on_path = self.runner.which("modulecmd")
        if on_path:
            candidates.append(on_path)
        candidates.extend(KNOWN_PATHS)
        for path in candidates:
            if os.path.isabs(path) and os.path.isfile(path):
                return path
        return None

    def _argv(self, modulecmd: str, trees: list[str], *args: str) -> list[str]:
        """``env MODULEPATH=... [tclsh] modulecmd python <args>`` as an argument list."""
        program = [modulecmd]
        if not os.access(modulecmd, os.X_OK):
            tclsh = self.runner.which("tclsh") or "tclsh"
            program = [tclsh, modulecmd]
        return ["env", f"MODULEPATH={':'.join(trees)}", *program, "python", *args]

    def _probe(self) -> SoftwareFacts | None:
        """Run ``-j avail`` over the module path and report every modulefile found.

        Postconditions: None when Environment Modules is not installed; otherwise one package
        per modulefile or virtual module (aliases and folders are left out).

        Raises:
            ProviderError: the command failed, timed out (``transient``), is a 3.x release
                without JSON output, or printed something that is not the expected JSON.
        """
        modulecmd = self._modulecmd()
        if modulecmd is None:
            return None
        trees = module_path(self.options)
        version = self._version(modulecmd, trees)
        major = (version or "").split(".")[0]
        if major.isdigit() and int(major) < 4:
            raise ProviderError(
                f"Environment Modules {version} at {modulecmd} has no JSON output; "
                "version 4 or later is needed"
            )
        if not trees:
            return SoftwareFacts(manager="environment-modules", version=version)
        result = self.runner.run(
            self._argv(modulecmd, trees, "-j", "avail"), timeout_s=AVAIL_TIMEOUT_S
        )
        document = first_json_document(result.stderr or "{}", what="modulecmd -j avail")
        return SoftwareFacts(
            manager="environment-modules",
            version=version,
            packages=tuple(parse_avail(document)),
        )

    def _version(self, modulecmd: str, trees: list[str]) -> str | None:
        """The release from ``--version`` (None when it cannot be read)."""
        try:
            result = self.runner.run(
                self._argv(modulecmd, trees, "--version"), timeout_s=10.0, check=False
            )
        except CommandError:
            return None
        found = _RELEASE_RE.search(result.stderr + result.stdout)
        return found.group(1) if found else None


def parse_avail(document: Any) -> list[SoftwarePackage]:
    """Packages from the ``-j avail`` document ``{folder: {module: {...}}}``.

    Raises:
        ProviderError: the document does not have that shape.
    """
    if not isinstance(document, dict):
        raise ProviderError("modulecmd -j avail: expected a JSON object of module folders")
    packages: list[SoftwarePackage] = []
    for folder, modules in document.items():
        if not isinstance(modules, dict):
            raise ProviderError(f"modulecmd -j avail: folder {folder!r} has no module table")
        for full, item in modules.items():
            if not isinstance(item, dict) or item.get("type") not in _LOADABLE:
                continue
            name, version = split_module_name(str(item.get("name") or full))
            symbols = item.get("symbols") or []
            packages.append(
                SoftwarePackage(
                    name=name,
                    version=version,
                    variants=("default",) if "default" in symbols else (),
                    location=str(item.get("pathname") or "") or None,
                    environment=str(folder),
                )
            )
    return packages
