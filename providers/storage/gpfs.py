"""IBM Storage Scale (GPFS) file systems mounted on this machine.

A GPFS file system appears in the mount table with type ``gpfs`` and the file system's
device name (``gpfs0  /gpfs/fs0  gpfs  rw,relatime``). Space comes from ``statvfs`` on the
mount point, which GPFS answers for the whole file system (not the fileset quota).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from providers.storage.mounts import MountTableProvider


class GPFSProvider(MountTableProvider):
    """GPFS / IBM Spectrum Scale mounts of this machine."""

    name: ClassVar[str] = "gpfs"
    description: ClassVar[str] = (
        "IBM Storage Scale (GPFS, Spectrum Scale) parallel file systems mounted here, with "
        "total and free space in GB."
    )
    detection: ClassVar[str] = (
        "mount table entries of type gpfs in /proc/self/mounts; space from statvfs"
    )
    fs_kinds: ClassVar[Mapping[str, str]] = {"gpfs": "gpfs"}
