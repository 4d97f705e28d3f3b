"""Node-local scratch space: the temporary folder and the usual ``/scratch``-style paths.

A job that writes large temporary files wants a local disk, not a shared one: this provider
reports only folders that exist, are writable, and live on a file system that is *not* a
network or parallel file system (those are reported by their own providers, with their own
kinds). Each file system is reported once, under the mount point that holds the folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

import psutil

from providers.categories import StorageProvider
from providers.facts import Filesystem, StorageFacts
from providers.hardware.memory import to_gb

SCRATCH_FOLDERS: tuple[str, ...] = ("/scratch", "/local/scratch", "/lscratch")
"""Conventional node-local scratch folders on HPC nodes, checked besides the temp folder."""

NETWORK_FS_TYPES: frozenset[str] = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb",
        "smb3",
        "smbfs",
        "lustre",
        "gpfs",
        "beegfs",
        "fuse.beegfs",
    }
)
"""File system types that are shared across nodes, hence never local scratch."""


def mount_of(path: Path, mounts: Iterable[tuple[str, str]]) -> tuple[str, str]:
    """The mount point holding ``path`` and its file system type (longest matching mount).

    Args:
        path: a resolved folder.
        mounts: ``(mount point, file system type)`` pairs, e.g. from psutil.disk_partitions.

    Returns:
        ``(mount point, fstype)``; ``(str(path), "")`` when no mount is listed (some
        containers), so the folder itself stands for its file system.
    """
    best: tuple[str, str] = (str(path), "")
    best_len = -1
    for mountpoint, fstype in mounts:
        mount = Path(mountpoint)
        if (mount == path or mount in path.parents) and len(mountpoint) > best_len:
            best, best_len = (mountpoint, fstype), len(mountpoint)
    return best


class LocalScratchProvider(StorageProvider):
    """Local file systems usable as scratch on this machine."""

    name: ClassVar[str] = "local-scratch"
    description: ClassVar[str] = (
        "Node-local scratch space (temp folder, $TMPDIR, /scratch, /local/scratch, /lscratch) "
        "with total and free space in GB."
    )
    detection: ClassVar[str] = (
        "the folders tempfile.gettempdir(), $TMPDIR, /scratch, /local/scratch and /lscratch "
        "that exist and are writable, on a file system that is not nfs/cifs/lustre/gpfs/beegfs"
    )

    def candidates(self) -> list[str]:
        """Folders to consider, in order of preference, without duplicates."""
        found = [tempfile.gettempdir(), os.environ.get("TMPDIR", ""), *SCRATCH_FOLDERS]
        return list(dict.fromkeys(f for f in found if f))

    def _probe(self) -> StorageFacts | None:
        """Report each local file system holding a scratch folder; None when there is none.

        Postconditions: every file system has kind ``local``, ``shared=False`` and a unique
        mount; ``0 <= free_gb <= total_gb``.
        """
        mounts = [(p.mountpoint, p.fstype) for p in psutil.disk_partitions(all=True)]
        seen: set[str] = set()
        found: list[Filesystem] = []
        for folder in self.candidates():
            path = Path(folder).resolve()
            if not path.is_dir() or not os.access(path, os.W_OK | os.X_OK):
                continue
            mount, fstype = mount_of(path, mounts)
            if fstype.lower() in NETWORK_FS_TYPES or mount in seen:
                continue
            try:
                usage = shutil.disk_usage(path)
            except OSError:
                continue
            seen.add(mount)
            total = to_gb(usage.total)
            found.append(
                Filesystem(
                    kind="local",
                    mount=mount,
                    total_gb=total,
                    free_gb=min(total, to_gb(usage.free)),
                    shared=False,
                )
            )
        if not found:
            return None
        return StorageFacts(filesystems=tuple(found))
