"""Shared file systems found in the mount table, with their space from ``statvfs``.

The parallel and network file system providers (Lustre, GPFS, BeeGFS, NFS, CIFS) all work
the same way: read the kernel's mount table (``/proc/self/mounts``, the mounts this process
sees, so a container reports its own view), keep the entries of their file system types, and
measure each mount point with :func:`os.statvfs`. This module does that once;
each provider only names its file system types.

Space is in decimal GB. ``free_gb`` is the space available to an unprivileged user
(``f_bavail``), what a job can really write. A mount point that cannot be measured (a hung
NFS server, permission denied) is still reported, with 0 GB total and free and a log line,
because the file system exists; the probe never blocks longer than :data:`STATVFS_TIMEOUT_S`
per mount.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from providers.categories import StorageProvider
from providers.errors import ProviderError
from providers.facts import Filesystem, StorageFacts
from providers.hardware.memory import to_gb

log = logging.getLogger(__name__)

MOUNTS_FILE = Path("/proc/self/mounts")
STATVFS_TIMEOUT_S = 5.0
"""How long one mount point may take to answer ``statvfs`` (a dead NFS server never does)."""

_OCTAL_ESCAPE = re.compile(r"\\([0-7]{3})")


@dataclass(frozen=True)
class MountEntry:
    """One line of the mount table."""

    device: str
    mount: str
    fstype: str
    options: tuple[str, ...]


def unescape(field: str) -> str:
    r"""Undo the kernel's octal escapes in a mount table field (``\040`` is a space)."""
    return _OCTAL_ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), field)


def parse_mounts(text: str) -> list[MountEntry]:
    """Parse mount table text (``fstab(5)`` layout: device, mount, type, options, ...).

    Lines with fewer than four fields are skipped: the kernel never writes them, so they can
    only come from a damaged or foreign file.
    """
    entries: list[MountEntry] = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 4 or fields[0].startswith("#"):
            continue
        entries.append(
            MountEntry(
                device=unescape(fields[0]),
                mount=unescape(fields[1]),
                fstype=fields[2].lower(),
                options=tuple(fields[3].split(",")),
            )
        )
    return entries


def statvfs_gb(path: str, timeout_s: float = STATVFS_TIMEOUT_S) -> tuple[float, float] | None:
    """``(total_gb, free_gb)`` of the file system at ``path``, or None when it cannot be read.

    ``statvfs`` on a hard NFS mount whose server is gone blocks forever and cannot be
    interrupted, so it runs in a daemon thread that is abandoned after ``timeout_s``.
    Postcondition on success: ``0 <= free_gb <= total_gb``.
    """
    answer: list[os.statvfs_result | OSError] = []

    def measure() -> None:
        try:
            answer.append(os.statvfs(path))
        except OSError as exc:
            answer.append(exc)

    worker = threading.Thread(target=measure, name=f"statvfs {path}", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if not answer:
        log.warning("statvfs(%s) did not answer within %g s; reporting 0 GB", path, timeout_s)
        return None
    result = answer[0]
    if isinstance(result, OSError):
        log.warning("statvfs(%s) failed: %s; reporting 0 GB", path, result.strerror or result)
        return None
    total = to_gb(result.f_blocks * result.f_frsize)
    return total, min(total, to_gb(result.f_bavail * result.f_frsize))


class MountTableProvider(StorageProvider):
    """A storage provider whose file systems are mount table entries of given types.

    Class attributes for subclasses:
        fs_kinds: mount table type -> reported kind (``{"nfs4": "nfs"}``).

    Options:
        mounts_file: path of the mount table to read (tests; default ``/proc/self/mounts``).
    """

    fs_kinds: ClassVar[Mapping[str, str]]
    cache_ttl_s: ClassVar[float] = 30.0

    def is_wanted(self, entry: MountEntry) -> bool:
        """Whether a mount table entry of one of :attr:`fs_kinds` is reported (hook)."""
        return True

    def mounts_file(self) -> Path:
        """The mount table to read.

        Raises:
            ProviderError: ``options["mounts_file"]`` is not a path string.
        """
        value = self.options.get("mounts_file", str(MOUNTS_FILE))
        if not isinstance(value, str) or not value or "\x00" in value:
            raise ProviderError(f"option 'mounts_file' must be a file path, got {value!r}")
        return Path(value)

    def entries(self) -> list[MountEntry]:
        """The mount table entries this provider reports, one per mount point.

        Where several entries share a mount point the last wins: it is the one mounted on
        top, the one a path there reaches.

        Raises:
            ProviderError: the mount table cannot be read or has no entry at all (a real one
                always lists at least the root file system), so the answer is unknown.
        """
        path = self.mounts_file()
        try:
            text = path.read_text(errors="replace")
        except OSError as exc:
            raise ProviderError(
                f"{self.name}: cannot read the mount table {path}: {exc.strerror or exc}"
            ) from None
        table = parse_mounts(text)
        if not table:
            shown = text.strip().splitlines()[0][:80] if text.strip() else "(empty)"
            raise ProviderError(
                f"{self.name}: {path} is not a mount table (no 'device mount type options' "
                f"line): {shown}"
            )
        chosen: dict[str, MountEntry] = {}
        for entry in table:
            if entry.fstype in self.fs_kinds and self.is_wanted(entry):
                chosen.pop(entry.mount, None)
                chosen[entry.mount] = entry
        return list(chosen.values())

    def _probe(self) -> StorageFacts | None:
        """Report each mounted file system of this provider's types; None when there is none.

        Postconditions: mounts are unique, every file system is ``shared``, and
        ``0 <= free_gb <= total_gb`` (both 0 when the mount point could not be measured).

        Raises:
            ProviderError: the mount table cannot be read.
        """
        found: list[Filesystem] = []
        for entry in self.entries():
            space = statvfs_gb(entry.mount)
            total, free = space if space is not None else (0.0, 0.0)
            found.append(
                Filesystem(
                    kind=self.fs_kinds[entry.fstype],
                    mount=entry.mount,
                    total_gb=total,
                    free_gb=free,
                    shared=True,
                )
            )
        if not found:
            return None
        return StorageFacts(filesystems=tuple(found))
