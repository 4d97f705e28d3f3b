"""BeeGFS file systems mounted on this machine.

The BeeGFS client module mounts with type ``beegfs`` (``beegfs_nodev /mnt/beegfs beegfs
rw,relatime,cfgFile=/etc/beegfs/beegfs-client.conf``). Space comes from ``statvfs`` on the
mount point, which the client answers from the storage targets' totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from providers.storage.mounts import MountTableProvider


class BeeGFSProvider(MountTableProvider):
    """BeeGFS mounts of this machine."""

    name: ClassVar[str] = "beegfs"
    description: ClassVar[str] = (
        "BeeGFS parallel file systems mounted here, with total and free space in GB."
    )
    detection: ClassVar[str] = (
        "mount table entries of type beegfs in /proc/self/mounts; space from statvfs"
    )
    fs_kinds: ClassVar[Mapping[str, str]] = {"beegfs": "beegfs"}
