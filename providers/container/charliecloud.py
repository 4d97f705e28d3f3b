"""Charliecloud, read from ``ch-run --version``; images from ``ch-image list``.

``ch-run --version`` prints the bare version (``0.31``; older releases print it on stderr,
which is read too). Charliecloud is unprivileged by design (user namespaces only, no setuid
helper, no daemon), so it is always reported rootless. ``ch-image list`` prints one image
name per line from the builder's storage folder; images kept elsewhere (SquashFS files or
folders handed straight to ``ch-run``) are not listed.

``ch-run`` refuses to start, even for ``--version``, when ``$USER`` is not set (``error: $USER
not set``); the probe then reports that line as an error (UNKNOWN), because Charliecloud is
installed but cannot be used by this service until its environment sets ``USER``.
"""

from __future__ import annotations

import re
from typing import ClassVar

from providers.container.common import LIST_TIMEOUT_S, RuntimeProvider

_BARE_VERSION = re.compile(r"^(?:ch-run\s+)?v?(\d+(?:\.\d+)+[0-9A-Za-z.+~_-]*)$")


def parse_charliecloud_version(text: str) -> str | None:
    """The version from ``ch-run --version`` output (a bare ``0.31``), or None."""
    for line in text.splitlines():
        match = _BARE_VERSION.match(line.strip())
        if match:
            return match.group(1)
    return None


def parse_image_lines(text: str) -> list[str]:
    """Image names from a one-name-per-line listing (``ch-image list``, ``enroot list``).

    Blank lines and lines with white space inside (messages, not names) are dropped.
    """
    names = (line.strip() for line in text.splitlines())
    return [n for n in names if n and not any(c.isspace() for c in n)]


class CharliecloudProvider(RuntimeProvider):
    """The Charliecloud container runtime of this machine."""

    name: ClassVar[str] = "charliecloud"
    description: ClassVar[str] = (
        "Charliecloud unprivileged container runtime (always rootless): version and the images "
        "in the ch-image storage folder."
    )
    detection: ClassVar[str] = (
        "the ch-run executable on PATH; version from 'ch-run --version'; images from "
        "'ch-image list' when ch-image exists"
    )
    executable: ClassVar[str] = "ch-run"
    runtime: ClassVar[str] = "charliecloud"
    rootless: ClassVar[bool] = True

    def parse_version(self, text: str) -> tuple[str, str] | None:
        """``("charliecloud", version)`` from ``ch-run --version``, or None."""
        version = parse_charliecloud_version(text)
        return ("charliecloud", version) if version else None

    def image_names(self) -> list[str]:
        """Names from ``ch-image list``; none when ch-image is not installed."""
        if self.runner.which("ch-image") is None:
            return []
        result = self.run_argv(["ch-image", "list"], timeout_s=LIST_TIMEOUT_S)
        return parse_image_lines(result.stdout)
