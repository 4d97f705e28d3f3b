"""Singularity (SingularityCE or legacy Singularity), read from ``singularity --version``.

The output names the product line, which is reported as the runtime, faithfully:

* ``singularity-ce version 3.11.4`` -> runtime ``singularity-ce`` (Sylabs SingularityCE);
* ``singularity version 3.8.7`` -> runtime ``singularity`` (legacy Singularity, before the
  split into SingularityCE and Apptainer);
* ``apptainer version 1.2.5`` -> runtime ``apptainer``: Apptainer installs a ``singularity``
  symlink to itself for compatibility, so on an Apptainer site this provider and the
  ``apptainer`` provider both report the same Apptainer. The version is Apptainer's own
  numbering (1.x), never passed off as a Singularity 3.x version; negotiation treats the three
  names as one runtime family and compares versions only under the same name.

Singularity runs unprivileged (setuid starter or user namespaces), so it is reported rootless.
"""

from __future__ import annotations

from typing import ClassVar

from providers.container.common import RuntimeProvider, version_after

PRODUCT_LINES: tuple[str, ...] = ("singularity-ce", "singularity", "apptainer")
"""Runtime names that ``singularity --version`` can print, most specific first."""


def parse_singularity_version(text: str) -> tuple[str, str] | None:
    """``(runtime, version)`` from ``singularity --version`` output, or None.

    The runtime is the product line the output names (see the module docstring).
    """
    for product in PRODUCT_LINES:
        version = version_after(text, f"{product} version")
        if version:
            return product, version
    return None


class SingularityProvider(RuntimeProvider):
    """The Singularity (or SingularityCE) container runtime of this machine."""

    name: ClassVar[str] = "singularity"
    description: ClassVar[str] = (
        "Singularity / SingularityCE container runtime (SIF images, rootless): product line, "
        "version and the SIF images of the configured image folders. Where 'singularity' is "
        "Apptainer's compatibility link, the runtime is reported as apptainer."
    )
    detection: ClassVar[str] = (
        "the singularity executable on PATH; product and version from 'singularity --version' "
        "(singularity-ce, singularity or apptainer); images are the *.sif files in "
        "options['image_dirs']"
    )
    executable: ClassVar[str] = "singularity"
    runtime: ClassVar[str] = "singularity"
    rootless: ClassVar[bool] = True
    uses_sif_dirs: ClassVar[bool] = True

    def parse_version(self, text: str) -> tuple[str, str] | None:
        """The product line and version printed by ``singularity --version``, or None."""
        return parse_singularity_version(text)
