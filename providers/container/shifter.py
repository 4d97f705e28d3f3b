"""NERSC Shifter, read from ``shifter --version``; images from ``shifterimg images``.

Shifter releases that know ``--version`` print ``shifter version 18.03.0`` (some print
``shifter 18.03.0``); both are read. A build that rejects ``--version`` exits non-zero and is
reported as present but unreadable (an error), never as absent. Shifter runs containers as
the calling user through a setuid helper the administrator installs, so users need no root:
it is reported rootless.

``shifterimg images`` prints one image per line, six columns::

    perlmutter docker     READY    8c9e3f1b0a   2023-05-14T14:44:37 ubuntu:22.04

(system, image type, status, id, timestamp, tag); only READY images are listed, as
``<type>:<tag>`` (``docker:ubuntu:22.04``), the form ``shifter --image=`` takes.
"""

from __future__ import annotations

import re
from typing import ClassVar

from providers.container.common import LIST_TIMEOUT_S, RuntimeProvider

_VERSION = re.compile(r"^shifter(?:\s+version)?:?\s+v?(\d+(?:\.\d+)+[0-9A-Za-z.+~_-]*)$", re.I)


def parse_shifter_version(text: str) -> str | None:
    """The version from ``shifter --version`` output, or None."""
    for line in text.splitlines():
        match = _VERSION.match(line.strip())
        if match:
            return match.group(1)
    return None


def parse_shifterimg_images(text: str) -> list[str]:
    """``<type>:<tag>`` of each READY image in ``shifterimg images`` output.

    Lines with fewer than six columns, or whose status is not READY (PULLING, FAILURE), are
    skipped.
    """
    found: list[str] = []
    for line in text.splitlines():
        cols = line.split()
        if len(cols) >= 6 and cols[2].upper() == "READY":
            found.append(f"{cols[1]}:{cols[5]}")
    return found


class ShifterProvider(RuntimeProvider):
    """The Shifter container runtime of this machine."""

    name: ClassVar[str] = "shifter"
    description: ClassVar[str] = (
        "NERSC Shifter container runtime (users need no root): version and the READY images "
        "of the site's image gateway."
    )
    detection: ClassVar[str] = (
        "the shifter executable on PATH; version from 'shifter --version'; images from "
        "'shifterimg images' when shifterimg exists"
    )
    executable: ClassVar[str] = "shifter"
    runtime: ClassVar[str] = "shifter"
    rootless: ClassVar[bool] = True

    def parse_version(self, text: str) -> tuple[str, str] | None:
        """``("shifter", version)`` from ``shifter --version``, or None."""
        version = parse_shifter_version(text)
        return ("shifter", version) if version else None

    def image_names(self) -> list[str]:
        """READY images from ``shifterimg images``; none when shifterimg is not installed."""
        if self.runner.which("shifterimg") is None:
            return []
        result = self.run_argv(["shifterimg", "images"], timeout_s=LIST_TIMEOUT_S)
        return parse_shifterimg_images(result.stdout)
