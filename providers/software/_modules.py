"""What the two module-system providers share: the module path, names, and where a file lives.

Both Lmod and Environment Modules name a module ``<package>/<version>`` and search the folders
of ``MODULEPATH``. The administrator may fix the folders in ``options["modulepath"]`` (a list,
or one colon-separated string); otherwise the ``MODULEPATH`` of the service's environment is
used. Folders that do not exist are left out, so a stale entry costs nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from providers.errors import ProviderError

UNVERSIONED = "unknown"
"""Version reported for a modulefile that has no version part (``module load foo``)."""


def module_path(options: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> list[str]:
    """The module folders to search, in order, without duplicates or missing folders.

    Postcondition: every returned entry is an absolute path of an existing folder and contains
    no ``:`` (so that it can be joined into one ``MODULEPATH`` value).

    Raises:
        ProviderError: ``options["modulepath"]`` is not a list of absolute paths.
    """
    raw = options.get("modulepath")
    if raw is None:
        env = os.environ if environ is None else environ
        entries: Sequence[object] = [e for e in env.get("MODULEPATH", "").split(":") if e]
    elif isinstance(raw, str):
        entries = [e for e in raw.split(":") if e]
    elif isinstance(raw, list | tuple):
        entries = list(raw)
    else:
        raise ProviderError(
            f"options['modulepath'] must be a list of folders, not {type(raw).__name__}"
        )
    found: list[str] = []
    for entry in entries:
        if not isinstance(entry, str) or not os.path.isabs(entry) or ":" in entry:
            raise ProviderError(
                f"module path entry {entry!r} is not allowed: give absolute folder paths "
                "without ':' in options['modulepath']"
            )
        path = os.path.normpath(entry)
        if os.path.isdir(path) and path not in found:
            found.append(path)
    return found


def split_module_name(full: str) -> tuple[str, str]:
    """Split ``lammps/2Aug2023`` into name and version (``a/b/1.0`` -> ``a/b``, ``1.0``).

    A module without a version part gets :data:`UNVERSIONED`.
    """
    name, sep, version = full.strip("/").rpartition("/")
    if not sep:
        return version, UNVERSIONED
    return name, version or UNVERSIONED


def tree_of(path: str, trees: Sequence[str]) -> str | None:
    """The module folder (one of ``trees``) that holds the modulefile at ``path``."""
    for tree in trees:
        if path == tree or path.startswith(tree.rstrip("/") + "/"):
            return tree
    return None


def first_json_document(text: str, *, what: str) -> Any:
    """Parse the first JSON value in ``text``, ignoring messages printed around it.

    Module commands print warnings on the same stream as their JSON answer, so the answer is
    taken from the first ``{`` or ``[`` on.

    Raises:
        ProviderError: no JSON value in the text (says which command printed it).
    """
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        raise ProviderError(f"{what} printed no JSON: {text.strip()[:200]!r}")
    try:
        value, _ = json.JSONDecoder().raw_decode(text, min(starts))
    except ValueError as exc:
        raise ProviderError(f"{what} printed invalid JSON: {exc}") from None
    return value
