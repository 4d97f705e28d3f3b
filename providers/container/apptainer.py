"""Apptainer, the Linux Foundation continuation of Singularity, read from ``apptainer --version``.

``apptainer --version`` prints one line, ``apptainer version 1.2.5`` (distribution builds
append a release, ``1.2.5-1.el8``). Apptainer runs unprivileged by default (user namespaces,
or a setuid starter where the site installed one), so it is reported rootless. SIF images are
listed from the folders an administrator names in ``options["image_dirs"]``.
"""

from __future__ import annotations

from typing import ClassVar

from providers.container.common import RuntimeProvider, version_after


def parse_apptainer_version(text: str) -> str | None:
    """The version from ``apptainer --version`` output, or None when it is not there."""
    return version_after(text, "apptainer version")


class ApptainerProvider(RuntimeProvider):
    """The Apptainer container runtime of this machine."""

    name: ClassVar[str] = "apptainer"
    description: ClassVar[str] = (
        "Apptainer container runtime (SIF images, rootless): version and the SIF images of "
        "the configured image folders."
    )
    detection: ClassVar[str] = (
        "the apptainer executable on PATH; version from 'apptainer --version'; images are the "
        "*.sif files in options['image_dirs']"
    )
    executable: ClassVar[str] = "apptainer"
    runtime: ClassVar[str] = "apptainer"
    rootless: ClassVar[bool] = True
    uses_sif_dirs: ClassVar[bool] = True

    def parse_version(self, text: str) -> tuple[str, str] | None:
        """``("apptainer", version)`` from the version output, or None."""
        version = parse_apptainer_version(text)
        return ("apptainer", version) if version else None
