"""What every container runtime provider shares: version commands, image lists, SIF folders.

A container runtime is detected by its executable on PATH and read by running one version
command. The three outcomes are kept apart on purpose, because negotiation treats them
differently:

* executable missing -> :meth:`RuntimeProvider._probe` returns None (the runtime is absent);
* the command fails or prints nothing we can read -> :class:`providers.errors.ProviderError`
  (the runtime is installed but unreadable, so a check says UNKNOWN, never "absent");
* a version is read -> :class:`providers.facts.ContainerFacts`.

Each runtime module keeps its output parsing in pure functions (tested on recorded text) and
sets a few class attributes here; only Podman and Docker override :meth:`_probe`.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from providers.categories import ContainerProvider
from providers.commands import CommandResult
from providers.errors import CommandError, ProviderError
from providers.facts import ContainerFacts
from providers.tools import secretary_tool

log = logging.getLogger(__name__)

VERSION_TIMEOUT_S = 10.0
"""A version command answers at once; more than this means a hung runtime (transient)."""
LIST_TIMEOUT_S = 30.0
"""Listing images can touch an image store on a shared file system."""
MAX_IMAGES = 500
"""At most this many image names are returned, so an agent is never flooded."""

_VERSION_TOKEN = re.compile(r"\d+(?:\.\d+)*[0-9A-Za-z.+~_-]*")


def version_after(text: str, prefix: str) -> str | None:
    """The version token that follows ``prefix`` on the first line starting with it.

    Args:
        text: the command's output.
        prefix: the words before the version, e.g. ``"apptainer version"`` (case-insensitive).

    Returns:
        The version (``"1.2.5"``, ``"1.2.5-1.el8"``), or None when no line has that prefix
        followed by something that starts with a digit.
    """
    wanted = prefix.lower().split()
    for line in text.splitlines():
        words = line.strip().split()
        if len(words) > len(wanted) and [w.lower() for w in words[: len(wanted)]] == wanted:
            candidate = words[len(wanted)]
            if _VERSION_TOKEN.fullmatch(candidate):
                return candidate
    return None


def first_line(result: CommandResult | CommandError) -> str:
    """The first non-empty line of stderr (or stdout), for a one-line error message."""
    for text in (result.stderr, result.stdout):
        for line in text.splitlines():
            if line.strip():
                return line.strip()[:200]
    return "(no output)"


def configured_dirs(options: Mapping[str, Any], key: str = "image_dirs") -> tuple[Path, ...]:
    """The image folders an administrator configured, validated.

    Each entry must be an absolute path to an existing folder. The folders come from the site
    configuration, never from a request; a wrong entry is a configuration error that the
    probe reports (so the runtime shows as UNKNOWN until the configuration is fixed).

    Raises:
        ProviderError: the option is not a list of strings, or an entry is relative or is not
            an existing folder. The message names the entry and the fix.
    """
    raw = options.get(key, ())
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        raise ProviderError(
            f"option {key!r} must be a list of absolute folder paths, got {type(raw).__name__}"
        )
    found: list[Path] = []
    for entry in raw:
        if not isinstance(entry, str) or not entry or "\x00" in entry:
            raise ProviderError(f"option {key!r}: {entry!r} is not a folder path")
        path = Path(entry)
        if not path.is_absolute():
            raise ProviderError(f"option {key!r}: {entry!r} must be an absolute path")
        resolved = path.resolve()
        if not resolved.is_dir():
            raise ProviderError(f"option {key!r}: {entry!r} is not an existing folder")
        found.append(resolved)
    return tuple(dict.fromkeys(found))


def sif_images(folders: Iterable[Path]) -> tuple[str, ...]:
    """Names of the ``*.sif`` files directly inside ``folders`` (sorted, unique, no paths).

    Only regular files whose name ends in ``.sif`` count; links that leave the folder and
    sub-folders are not followed, so a configured folder cannot be used to list the disk.
    Unreadable folders are skipped with a log line.
    """
    names: set[str] = set()
    for folder in folders:
        try:
            entries = list(folder.iterdir())
        except OSError as exc:
            log.warning("cannot list image folder %s: %s", folder, exc.strerror or exc)
            continue
        for entry in entries:
            if entry.name.endswith(".sif") and entry.is_file():
                try:
                    if folder not in entry.resolve().parents:
                        continue
                except OSError:
                    continue
                names.add(entry.name)
    return tuple(sorted(names))


def filter_names(names: Iterable[str], contains: str) -> list[str]:
    """Names containing ``contains`` (case-insensitive), sorted, at most :data:`MAX_IMAGES`.

    The filter is compared as plain text, never run or globbed, so any string is harmless.
    """
    needle = contains.strip().lower()
    return sorted({n for n in names if needle in n.lower()})[:MAX_IMAGES]


class RuntimeProvider(ContainerProvider):
    """A container runtime read from one version command.

    Class attributes for subclasses:
        executable: the program looked up on PATH.
        version_args: arguments after the program that print the version.
        runtime: the runtime name reported in the facts.
        rootless: whether the runtime runs containers without root privileges.
        uses_sif_dirs: whether ``options["image_dirs"]`` lists SIF images for this runtime.
    """

    executable: ClassVar[str]
    version_args: ClassVar[tuple[str, ...]] = ("--version",)
    runtime: ClassVar[str]
    rootless: ClassVar[bool] = True
    uses_sif_dirs: ClassVar[bool] = False

    def parse_version(self, text: str) -> tuple[str, str] | None:
        """``(runtime, version)`` read from the version command's output, or None."""
        version = version_after(text, f"{self.runtime} version")
        return (self.runtime, version) if version else None

    def run_tool(self, *args: str, timeout_s: float = VERSION_TIMEOUT_S) -> CommandResult:
        """Run the runtime's own executable with fixed arguments (see :meth:`run_argv`)."""
        return self.run_argv([self.executable, *args], timeout_s=timeout_s)

    def run_argv(self, argv: list[str], *, timeout_s: float = VERSION_TIMEOUT_S) -> CommandResult:
        """Run a fixed argument list, turning every failure into one readable error.

        Raises:
            ProviderError: the command failed, timed out (``transient``) or was not found; the
                message carries the first line of its error output.
        """
        try:
            return self.runner.run(argv, timeout_s=timeout_s)
        except CommandError as exc:
            detail = first_line(exc) if exc.returncode is not None else exc.message
            raise ProviderError(
                f"{self.name}: {' '.join(argv)} failed: {detail}", transient=exc.transient
            ) from None

    def _probe(self) -> ContainerFacts | None:
        """Read the runtime's version; None when its executable is not on PATH.

        Postconditions: ``runtime`` and ``version`` are set; ``images`` lists the SIF files of
        the configured image folders for SIF runtimes, else is empty.

        Raises:
            ProviderError: the version command failed or printed no readable version, or
                ``image_dirs`` is misconfigured.
        """
        if self.runner.which(self.executable) is None:
            return None
        result = self.run_tool(*self.version_args)
        parsed = self.parse_version(result.stdout + "\n" + result.stderr)
        if parsed is None:
            raise ProviderError(
                f"{self.name}: cannot read a version from "
                f"'{' '.join([self.executable, *self.version_args])}': {first_line(result)}"
            )
        runtime, version = parsed
        images = sif_images(configured_dirs(self.options)) if self.uses_sif_dirs else ()
        return ContainerFacts(
            runtime=runtime, version=version, rootless=self.rootless, images=images
        )

    def image_names(self) -> list[str]:
        """All image names this runtime can start; the default is the probed ``images``."""
        return list(self.facts().images)

    @secretary_tool
    def list_images(self, contains: str = "") -> list[str]:
        """List the container images available to this runtime, by name.

        Args:
            contains: only names containing this text (case-insensitive); empty for all.
                At most 500 names are returned.
        """
        self.facts()  # an absent or unreadable runtime answers with its probe error
        return filter_names(self.image_names(), contains)


def load_json(text: str, what: str) -> Any:
    """Parse a runtime's JSON output.

    Raises:
        ProviderError: the text is not JSON; the message names the command and shows the
            start of what it printed.
    """
    try:
        return json.loads(text)
    except ValueError:
        shown = text.strip().splitlines()[0][:120] if text.strip() else "(no output)"
        raise ProviderError(f"{what} did not print JSON: {shown}") from None
