"""NFS and CIFS/SMB network file systems mounted on this machine.

Types ``nfs`` and ``nfs4`` are reported with kind ``nfs``; ``cifs`` and ``smb3`` (the name
newer kernels also accept for the same client) with kind ``cifs``. Both are shared between
the machines that mount them, which is what a multi-node job needs to see its input; neither
is a parallel file system, so a request for ``parallel`` storage is not met by them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from providers.storage.mounts import MountTableProvider

NETWORK_FS_KINDS: Mapping[str, str] = {
    "nfs": "nfs",
    "nfs4": "nfs",
    "cifs": "cifs",
    "smb3": "cifs",
}
"""Mount table types of network file systems, mapped to the reported kind."""


class NetworkFSProvider(MountTableProvider):
    """NFS and CIFS/SMB mounts of this machine."""

    name: ClassVar[str] = "network-fs"
    description: ClassVar[str] = (
        "Network file systems mounted here: NFS (kind nfs) and CIFS/SMB (kind cifs), with "
        "total and free space in GB."
    )
    detection: ClassVar[str] = (
        "mount table entries of type nfs, nfs4 (kind nfs), cifs or smb3 (kind cifs) in "
        "/proc/self/mounts; space from statvfs"
    )
    fs_kinds: ClassVar[Mapping[str, str]] = NETWORK_FS_KINDS
