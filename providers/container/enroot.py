"""NVIDIA enroot, read from ``enroot version``; container names from ``enroot list``.

``enroot version`` prints the bare version (``3.4.1``). Enroot turns images into unprivileged
sandboxes (user namespaces, no daemon, no setuid), so it is always reported rootless.
``enroot list`` prints one container (unpacked image) name per line.
"""

from __future__ import annotations

import re
from typing import ClassVar

from providers.container.charliecloud import parse_image_lines
from providers.container.common import LIST_TIMEOUT_S, RuntimeProvider

_BARE_VERSION = re.compile(r"^(?:enroot\s+(?:version\s+)?)?v?(\d+(?:\.\d+)+[0-9A-Za-z.+~_-]*)$")


def parse_enroot_version(text: str) -> str | None:
    """The version from ``enroot version`` output (a bare ``3.4.1``), or None."""
    for line in text.splitlines():
        match = _BARE_VERSION.match(line.strip())
        if match:
            return match.group(1)
    return None


class EnrootProvider(RuntimeProvider):
    """The enroot container runtime of this machine."""

    name: ClassVar[str] = "enroot"
    description: ClassVar[str] = (
        "NVIDIA enroot unprivileged container runtime (always rootless): version and the "
        "containers created from imported images."
    )
    detection: ClassVar[str] = (
        "the enroot executable on PATH; version from 'enroot version'; containers from "
        "'enroot list'"
    )
    executable: ClassVar[str] = "enroot"
    version_args: ClassVar[tuple[str, ...]] = ("version",)
    runtime: ClassVar[str] = "enroot"
    rootless: ClassVar[bool] = True

    def parse_version(self, text: str) -> tuple[str, str] | None:
        """``("enroot", version)`` from ``enroot version``, or None."""
        version = parse_enroot_version(text)
        return ("enroot", version) if version else None

    def image_names(self) -> list[str]:
        """Container names from ``enroot list``."""
        return parse_image_lines(self.run_tool("list", timeout_s=LIST_TIMEOUT_S).stdout)
