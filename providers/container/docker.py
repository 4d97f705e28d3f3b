"""Docker, read from ``docker version --format '{{json .}}'``.

The docker *client* is often installed where no Docker *daemon* can be reached (a login node,
a CI runner, a container without the socket). Such a client cannot run a single container, so
this provider reports Docker as **absent** (the probe returns None) and logs why, instead of
an error: a missing daemon is a fact about the site, not a fault of the provider, and an
UNKNOWN check would wrongly suggest asking again. The version reported is the daemon's
(``Server.Version``), the one that decides which images and features work. Rootless mode is
read from ``docker info`` (``SecurityOptions`` containing ``name=rootless``).
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from providers.container.common import (
    LIST_TIMEOUT_S,
    RuntimeProvider,
    first_line,
    load_json,
)
from providers.errors import CommandError, ProviderError
from providers.facts import ContainerFacts

log = logging.getLogger(__name__)

JSON_FORMAT = "{{json .}}"
"""Go template that makes docker print its answer as one JSON document (an argv element)."""


def parse_docker_version(data: Any) -> tuple[str | None, str | None]:
    """``(client version, server version)`` from the parsed ``docker version`` JSON.

    The server version is None when the daemon could not be reached (``"Server": null``).

    Raises:
        ProviderError: the document has no ``Client.Version`` (not docker's format).
    """
    client = data.get("Client") if isinstance(data, dict) else None
    if not isinstance(client, dict) or not isinstance(client.get("Version"), str):
        raise ProviderError("docker version printed JSON without Client.Version")
    server = data.get("Server")
    version = server.get("Version") if isinstance(server, dict) else None
    return client["Version"], version if isinstance(version, str) and version else None


def parse_docker_rootless(data: Any) -> bool:
    """True when the parsed ``docker info --format '{{json .SecurityOptions}}'`` says rootless."""
    if not isinstance(data, list):
        return False
    return any(isinstance(opt, str) and "name=rootless" in opt for opt in data)


def parse_docker_images(text: str) -> list[str]:
    """``repository:tag`` names from ``docker images --format '{{json .}}'`` (one JSON a line).

    Dangling images (``<none>``) are listed by their short ID.

    Raises:
        ProviderError: a line is not a JSON object.
    """
    names: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        item = load_json(line, "docker images")
        if not isinstance(item, dict):
            raise ProviderError("docker images printed a line that is not a JSON object")
        repo, tag = item.get("Repository", "<none>"), item.get("Tag", "<none>")
        if repo in (None, "", "<none>"):
            names.append(str(item.get("ID", ""))[:12])
        else:
            names.append(f"{repo}:{tag}" if tag not in (None, "", "<none>") else str(repo))
    return [n for n in names if n]


class DockerProvider(RuntimeProvider):
    """The Docker container runtime of this machine (client and a reachable daemon)."""

    name: ClassVar[str] = "docker"
    description: ClassVar[str] = (
        "Docker container runtime with a reachable daemon: daemon version, rootless mode and "
        "the local images. A client without a reachable daemon counts as absent."
    )
    detection: ClassVar[str] = (
        "the docker executable on PATH and a daemon answering 'docker version --format "
        "{{json .}}' (Server not null); rootless from 'docker info' SecurityOptions"
    )
    executable: ClassVar[str] = "docker"
    runtime: ClassVar[str] = "docker"
    rootless: ClassVar[bool] = False

    def _probe(self) -> ContainerFacts | None:
        """Read the daemon's version; None when the client or the daemon is missing.

        Raises:
            ProviderError: docker printed something that is not its JSON version document.
        """
        if self.runner.which(self.executable) is None:
            return None
        argv = [self.executable, "version", "--format", JSON_FORMAT]
        try:
            # check=False: docker exits 1 without a daemon but still prints the client part
            result = self.runner.run(argv, timeout_s=15.0, check=False)
        except CommandError as exc:
            raise ProviderError(
                f"{self.name}: docker version failed: {exc.message}", transient=exc.transient
            ) from None
        if not result.stdout.strip():
            what = "failed" if result.returncode != 0 else "printed nothing"
            raise ProviderError(f"{self.name}: docker version {what}: {first_line(result)}")
        client, server = parse_docker_version(load_json(result.stdout, "docker version"))
        if server is None:
            log.info(
                "docker client %s found but no daemon answered (%s): Docker counts as absent",
                client,
                first_line(result),
            )
            return None
        return ContainerFacts(runtime="docker", version=server, rootless=self._rootless())

    def _rootless(self) -> bool:
        """Whether the daemon runs rootless; False (logged) when docker info cannot tell."""
        argv = [self.executable, "info", "--format", "{{json .SecurityOptions}}"]
        try:
            result = self.run_argv(argv, timeout_s=15.0)
            return parse_docker_rootless(load_json(result.stdout, "docker info"))
        except ProviderError as exc:
            log.warning("docker info failed, reporting rootless=False: %s", exc.message)
            return False

    def image_names(self) -> list[str]:
        """Local images from ``docker images --format '{{json .}}'``."""
        result = self.run_tool("images", "--format", JSON_FORMAT, timeout_s=LIST_TIMEOUT_S)
        return parse_docker_images(result.stdout)
