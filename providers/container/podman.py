"""Podman, read from ``podman version --format json`` and ``podman info --format json``.

Podman has no daemon: if the client runs, containers can run. The version comes from the
``Client.Version`` field of ``podman version --format json``; whether this user runs rootless
comes from ``host.security.rootless`` of ``podman info --format json``. ``podman info``
failing means podman cannot set up its storage or runtime here, so the probe reports an
error (UNKNOWN in negotiation) rather than a runtime that would fail at run time. Images are
listed live by the ``list_images`` tool from ``podman images --format json``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from providers.container.common import LIST_TIMEOUT_S, RuntimeProvider, load_json
from providers.errors import ProviderError
from providers.facts import ContainerFacts

INFO_TIMEOUT_S = 20.0
"""``podman info`` inspects storage and may take a few seconds on a cold start."""


def parse_podman_version(data: Any) -> str | None:
    """``Client.Version`` from the parsed ``podman version --format json``, or None."""
    if not isinstance(data, dict):
        return None
    client = data.get("Client")
    if isinstance(client, dict) and isinstance(client.get("Version"), str) and client["Version"]:
        return client["Version"]
    return None


def parse_podman_rootless(data: Any) -> bool | None:
    """``host.security.rootless`` from the parsed ``podman info --format json``, or None."""
    if not isinstance(data, dict):
        return None
    host = data.get("host")
    security = host.get("security") if isinstance(host, dict) else None
    rootless = security.get("rootless") if isinstance(security, dict) else None
    return rootless if isinstance(rootless, bool) else None


def parse_podman_images(data: Any) -> list[str]:
    """Image names from the parsed ``podman images --format json`` (a list of objects).

    Each image contributes every name in ``Names``; an untagged image contributes the first
    12 characters of its ``Id`` instead, as ``podman images`` shows it.

    Raises:
        ProviderError: the document is not a list of objects.
    """
    if not isinstance(data, list) or not all(isinstance(i, dict) for i in data):
        raise ProviderError("podman images --format json did not print a list of images")
    names: list[str] = []
    for image in data:
        tags = image.get("Names") or []
        if isinstance(tags, list) and tags:
            names.extend(str(t) for t in tags)
        elif isinstance(image.get("Id"), str):
            names.append(image["Id"][:12])
    return names


class PodmanProvider(RuntimeProvider):
    """The Podman container runtime of this machine."""

    name: ClassVar[str] = "podman"
    description: ClassVar[str] = (
        "Podman daemonless container runtime (OCI images): version, whether it runs rootless "
        "for this user, and the local images."
    )
    detection: ClassVar[str] = (
        "the podman executable on PATH; version from 'podman version --format json' "
        "(Client.Version); rootless from 'podman info --format json' "
        "(host.security.rootless); images from 'podman images --format json'"
    )
    executable: ClassVar[str] = "podman"
    runtime: ClassVar[str] = "podman"

    def _probe(self) -> ContainerFacts | None:
        """Read version and rootless mode; None when podman is not on PATH.

        Raises:
            ProviderError: either command failed or printed something unreadable.
        """
        if self.runner.which(self.executable) is None:
            return None
        shown = "podman version --format json"
        version = parse_podman_version(
            load_json(self.run_tool("version", "--format", "json").stdout, shown)
        )
        if version is None:
            raise ProviderError(f"{self.name}: {shown} has no Client.Version")
        shown = "podman info --format json"
        info = self.run_tool("info", "--format", "json", timeout_s=INFO_TIMEOUT_S)
        rootless = parse_podman_rootless(load_json(info.stdout, shown))
        if rootless is None:
            raise ProviderError(f"{self.name}: {shown} has no host.security.rootless")
        return ContainerFacts(runtime="podman", version=version, rootless=rootless)

    def image_names(self) -> list[str]:
        """Names of the local images, from ``podman images --format json``."""
        result = self.run_tool("images", "--format", "json", timeout_s=LIST_TIMEOUT_S)
        return parse_podman_images(load_json(result.stdout, "podman images --format json"))
