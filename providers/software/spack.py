"""Spack: installed specs read straight from the install database, without running Spack.

``spack find`` starts a Python interpreter and loads Spack's package repository (seconds); the
database ``<install tree>/.spack-db/index.json`` holds the same facts and is read in
milliseconds. Every installed record is a package with its *own* version; the specs it depends
on are looked up by hash and reported with *their* own versions through
``package_dependencies``, never as the package's version.

Database shapes read (see the project notes on Spack):

* version 7 (Spack 0.21-0.22): ``spec.compiler = {name, version}``;
* version 8 (Spack 0.23 and later): no ``compiler`` key; the compiler is a dependency whose
  ``parameters.virtuals`` name a language (``c``, ``cxx``, ``fortran``).

Both list dependencies as ``[{name, hash, parameters: {deptypes, virtuals}}]``; the older
``{name: {hash, type}}`` mapping is accepted too.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, ClassVar

from providers.categories import SoftwareProvider
from providers.errors import CommandError, ProviderError
from providers.facts import Dependency, SoftwareFacts, SoftwarePackage

DB_RELATIVE = Path("opt", "spack", ".spack-db", "index.json")
"""Where the database lives under a Spack checkout with the default install tree."""

_LANGUAGES = {"c", "cxx", "fortran"}
_NOT_VARIANTS = {"patches", "dev_path"}
_SPACK_VERSION_RE = re.compile(
    r"""spack_version_info\s*=\s*\(([\d,\s]+)\)|__version__\s*=\s*["']([^"']+)"""
)


class SpackProvider(SoftwareProvider):
    """Packages installed by Spack, read from its database file.

    Options:
        root: the Spack checkout (default: ``$SPACK_ROOT``, else ``spack location -r``).
        install_tree: the install tree when it is not ``<root>/opt/spack``.
    """

    name: ClassVar[str] = "spack"
    description: ClassVar[str] = (
        "Packages installed by Spack with their own versions, variants and compiler; "
        "dependencies (with their own versions) through package_dependencies."
    )
    detection: ClassVar[str] = (
        "options['install_tree'] or options['root'], $SPACK_ROOT, or 'spack' on PATH "
        "('spack location -r'); reads <install tree>/.spack-db/index.json"
    )

    def _root(self) -> str | None:
        """The Spack checkout, or None when Spack is not found."""
        for candidate in (self.options.get("root"), os.environ.get("SPACK_ROOT")):
            if isinstance(candidate, str) and candidate:
                return candidate
        spack = self.runner.which("spack")
        if spack is None:
            return None
        try:
            result = self.runner.run([spack, "location", "-r"], timeout_s=60.0)
        except CommandError as exc:
            raise ProviderError(
                f"spack is on PATH but 'spack location -r' failed: {exc.message}",
                transient=exc.transient,
            ) from None
        return result.stdout.strip() or None

    def _probe(self) -> SoftwareFacts | None:
        """Read the install database.

        Postconditions: None when no Spack is found; an empty package list when the checkout
        has no database yet (nothing installed); otherwise one package per installed record.

        Raises:
            ProviderError: the root folder is missing, or the database is not valid JSON or
                not a Spack database (the message names the file).
        """
        tree_opt = self.options.get("install_tree")
        if isinstance(tree_opt, str) and tree_opt:
            base = Path(tree_opt)
            db_file = base / ".spack-db" / "index.json"
        else:
            root = self._root()
            if root is None:
                return None
            base = Path(root)
            db_file = base / DB_RELATIVE
        if not base.is_dir():
            raise ProviderError(
                f"Spack folder {str(base)!r} does not exist; fix SPACK_ROOT or options['root']"
            )
        version = spack_version(base)
        if not db_file.is_file():
            return SoftwareFacts(manager="spack", version=version)
        try:
            document = json.loads(db_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProviderError(f"cannot read the Spack database {str(db_file)!r}: {exc}") from None
        packages, dependencies = parse_database(document, source=str(db_file))
        return SoftwareFacts(
            manager="spack",
            version=version,
            packages=tuple(packages),
            dependencies=tuple(dependencies),
        )


def spack_version(root: Path) -> str | None:
    """Spack's version from ``lib/spack/spack/__init__.py`` (None when not found)."""
    try:
        text = (root / "lib" / "spack" / "spack" / "__init__.py").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found = _SPACK_VERSION_RE.search(text)
    if found is None:
        return None
    if found.group(1):
        return ".".join(p.strip() for p in found.group(1).split(",") if p.strip())
    return found.group(2)


def render_variants(parameters: Any) -> tuple[str, ...]:
    """Spec parameters as Spack writes them: ``+mpi``, ``~cuda``, ``build_type=Release``.

    Empty flag lists (``cflags: []``) and bookkeeping keys (``patches``) are left out.
    """
    if not isinstance(parameters, dict):
        return ()
    rendered: list[str] = []
    for key in sorted(parameters):
        value = parameters[key]
        if key in _NOT_VARIANTS:
            continue
        if isinstance(value, bool):
            rendered.append(f"{'+' if value else '~'}{key}")
        elif isinstance(value, list):
            if value:
                rendered.append(f"{key}={','.join(str(v) for v in value)}")
        elif value is not None:
            rendered.append(f"{key}={value}")
    return tuple(rendered)


def _dependency_edges(spec: dict[str, Any]) -> list[tuple[str, str | None, dict[str, Any]]]:
    """``(name, hash, parameters)`` for each dependency, from either database layout."""
    raw = spec.get("dependencies") or []
    edges: list[tuple[str, str | None, dict[str, Any]]] = []
    if isinstance(raw, dict):
        for dep_name, info in raw.items():
            info = info if isinstance(info, dict) else {}
            edges.append((str(dep_name), info.get("hash"), {"deptypes": info.get("type", [])}))
    elif isinstance(raw, list):
        for item in raw:
            if isinstance(item, dict) and item.get("name"):
                params = item.get("parameters")
                edges.append(
                    (
                        str(item["name"]),
                        item.get("hash"),
                        params if isinstance(params, dict) else {},
                    )
                )
    return edges


def _compiler(spec: dict[str, Any], specs: dict[str, dict[str, Any]]) -> str | None:
    """``gcc@12.2.0``: the v7 ``compiler`` key, or a v8 dependency providing a language."""
    compiler = spec.get("compiler")
    if isinstance(compiler, dict) and compiler.get("name"):
        version = compiler.get("version")
        return f"{compiler['name']}@{version}" if version else str(compiler["name"])
    for name, dep_hash, params in _dependency_edges(spec):
        if _LANGUAGES & set(params.get("virtuals") or ()):
            dep = specs.get(dep_hash or "")
            version = dep.get("version") if dep else None
            return f"{name}@{version}" if version else name
    return None


def parse_database(
    document: Any, *, source: str = "index.json"
) -> tuple[list[SoftwarePackage], list[Dependency]]:
    """Installed packages and their dependencies from a parsed ``index.json``.

    Records with ``installed: false`` (kept by Spack for specs that were uninstalled or only
    referenced) are not packages, but they still give a dependency its version.

    Raises:
        ProviderError: the document is not a Spack database.
    """
    database = document.get("database") if isinstance(document, dict) else None
    installs = database.get("installs") if isinstance(database, dict) else None
    if not isinstance(installs, dict):
        raise ProviderError(f"{source}: not a Spack database (no database.installs table)")
    specs: dict[str, dict[str, Any]] = {}
    for key, record in installs.items():
        spec = record.get("spec") if isinstance(record, dict) else None
        if not isinstance(spec, dict) or not spec.get("name"):
            raise ProviderError(f"{source}: install record {key!r} has no spec with a name")
        specs[str(key)] = spec
    packages: list[SoftwarePackage] = []
    dependencies: list[Dependency] = []
    for key, record in installs.items():
        if not record.get("installed", False):
            continue
        spec = specs[str(key)]
        name = str(spec["name"])
        packages.append(
            SoftwarePackage(
                name=name,
                version=str(spec.get("version", "")),
                variants=render_variants(spec.get("parameters")),
                location=str(record.get("path") or "") or None,
                environment=_compiler(spec, specs),
            )
        )
        for dep_name, dep_hash, _ in _dependency_edges(spec):
            dep = specs.get(dep_hash or "")
            version = dep.get("version") if dep is not None else None
            dependencies.append(
                Dependency(package=name, name=dep_name, version=str(version) if version else None)
            )
    return packages, dependencies
