"""Cray MPICH (HPE Cray Programming Environment), from the module's environment variables.

Loading ``cray-mpich`` sets ``CRAY_MPICH_VERSION`` (``8.1.27``) and ``CRAY_MPICH_DIR``
(``/opt/cray/pe/mpich/8.1.27/ofi/gnu/9.1``); the compiler wrappers (``cc``, ``ftn``) link it
implicitly, so there is no program of its own to ask. No command is run.
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from providers.categories import MPIProvider
from providers.facts import MPIFacts
from providers.parallel._common import launchers_on_path

_DIR_VERSION_RE = re.compile(r"/mpich/(\d+(?:\.\d+)+)(?:/|$)")


class CrayMPICHProvider(MPIProvider):
    """Cray MPICH: version from ``CRAY_MPICH_VERSION`` or the ``CRAY_MPICH_DIR`` path."""

    name: ClassVar[str] = "cray-mpich"
    description: ClassVar[str] = (
        "Cray MPICH of the HPE Cray Programming Environment: version and launchers (srun, aprun)."
    )
    detection: ClassVar[str] = "$CRAY_MPICH_VERSION or $CRAY_MPICH_DIR (no command is run)"

    def _probe(self) -> MPIFacts | None:
        """Read the environment.

        Postconditions: None when neither variable is set; the version is None when only a
        directory without a version part is known.
        """
        version = os.environ.get("CRAY_MPICH_VERSION", "").strip()
        folder = os.environ.get("CRAY_MPICH_DIR", "").strip()
        if not version and not folder:
            return None
        if not version:
            found = _DIR_VERSION_RE.search(folder)
            version = found.group(1) if found else ""
        launchers = launchers_on_path(self.runner, ["srun", "aprun"])
        return MPIFacts(
            implementation="cray-mpich", version=version or None, launchers=tuple(launchers)
        )
