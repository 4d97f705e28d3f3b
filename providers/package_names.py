"""Which package names mean the same package, across package managers.

Matching is exact (case and ``_``/``-`` aside) or through an alias listed here, never by
prefix or similarity: ``netcdf-c`` is not ``netcdf`` and ``nccl-tests`` is not ``nccl``. A near
miss is shown to the user as "did you mean ...?" (see :func:`near_misses`), never substituted.

The aliases are the names package managers really use for one project: PyPI's ``torch`` is
Spack's ``py-torch`` is the request's ``pytorch``. Spack prefixes Python packages with ``py-``,
so ``py-<name>`` and ``<name>`` are the same package for every name.
"""

from __future__ import annotations

import difflib

PACKAGE_ALIASES: dict[str, tuple[str, ...]] = {
    "pytorch": ("torch", "py-torch"),
    "tensorflow": ("tensorflow-gpu", "tensorflow-cpu"),
    "scikit-learn": ("sklearn",),
    "opencv": ("opencv-python", "opencv-python-headless", "py-opencv"),
    "pillow": ("pil",),
    "jax": ("jaxlib",),
    "quantum-espresso": ("qe", "espresso"),
    "intel-oneapi-compilers": ("intel-compilers",),
    "nodejs": ("node",),
    "hoomd-blue": ("hoomd",),
    "amber": ("ambertools",),
    "star-ccm+": ("starccm+",),
    "gromacs": ("gmx",),
    "mvapich": ("mvapich2",),
    "intel-mpi": ("intel-oneapi-mpi", "impi"),
}
"""Canonical name -> other names package managers publish the same project under."""

_CANONICAL: dict[str, str] = {}
for _name, _aliases in PACKAGE_ALIASES.items():
    for _spelling in (_name, *_aliases):
        _CANONICAL[_spelling.replace("_", "-").lower()] = _name


def normalise(name: str) -> str:
    """Compare names the way package managers do: case- and ``_``/``-``-insensitive."""
    return name.strip().lower().replace("_", "-")


def package_key(name: str) -> str:
    """One key per package: aliases and Spack's ``py-`` prefix folded away."""
    key = normalise(name)
    if key in _CANONICAL:
        return _CANONICAL[key]
    bare = key.removeprefix("py-")
    return _CANONICAL.get(bare, bare)


def same_package(wanted: str, found: str) -> bool:
    """True when ``found`` is the package ``wanted`` names (exactly or by an explicit alias)."""
    return package_key(wanted) == package_key(found)


def search_names(name: str) -> list[str]:
    """Every name to look ``name`` up under: itself, its aliases, and the ``py-`` forms."""
    key = package_key(name)
    names = [name.strip(), key, *PACKAGE_ALIASES.get(key, ())]
    if not normalise(name).startswith("py-"):
        names.append(f"py-{key}")
    unique: dict[str, str] = {}
    for spelling in names:
        unique.setdefault(normalise(spelling), spelling)
    return list(unique.values())


def near_misses(name: str, inventory: list[str], limit: int = 3) -> list[str]:
    """Installed names close to ``name``: siblings that share its name up to a hyphen
    (``netcdf`` for ``netcdf-c``), then spellings a typo away. Only ever shown as a hint."""
    wanted = package_key(name)
    keyed: dict[str, str] = {}
    for found in inventory:
        keyed.setdefault(package_key(found), found)
    keyed.pop(wanted, None)
    family = [k for k in keyed if wanted.startswith(f"{k}-") or k.startswith(f"{wanted}-")]
    close = difflib.get_close_matches(wanted, list(keyed), n=limit, cutoff=0.75)
    ordered = list(dict.fromkeys([*family, *close]))[:limit]
    return [keyed[k] for k in ordered]
