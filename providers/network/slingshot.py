"""HPE Slingshot interfaces of this machine: ``hsn*`` network interfaces and CXI devices.

Slingshot-11 NICs (Cassini) appear as ``/sys/class/cxi/cxi<n>`` devices with a matching
``hsn<n>`` network interface; Slingshot-10 nodes have ``hsn*`` interfaces on Mellanox NICs.
Each ``hsn*`` interface is reported with its speed (``/sys/class/net/hsn<n>/speed``, Mb/s)
and ``operstate``; a CXI device without an ``hsn`` interface is reported by its own name with
unknown speed. Slingshot carries MPI traffic with RDMA (libfabric ``cxi`` provider), so
``rdma`` is True.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from providers.categories import NetworkProvider
from providers.errors import ProviderError
from providers.facts import NetworkFacts, NetworkInterface
from providers.network.ethernet import HSN_PREFIX, sysfs_interface
from providers.network.rdma_sysfs import sysfs_root


def _list(folder: Path) -> list[Path]:
    if not folder.exists():
        return []
    try:
        return sorted(folder.iterdir())
    except OSError as exc:
        raise ProviderError(f"cannot list {folder}: {exc.strerror or exc}") from None


def slingshot_interfaces(root: Path) -> list[NetworkInterface]:
    """The Slingshot interfaces under sysfs ``root`` (see the module docstring).

    Raises:
        ProviderError: ``class/cxi`` or ``class/net`` exists but cannot be listed.
    """
    hsn = [p for p in _list(root / "class" / "net") if p.name.startswith(HSN_PREFIX)]
    found: list[NetworkInterface] = [
        sysfs_interface(iface, fabric="slingshot", rdma=True) for iface in hsn
    ]
    covered = {p.name.removeprefix(HSN_PREFIX) for p in hsn}
    for device in _list(root / "class" / "cxi"):
        if device.name.removeprefix("cxi") in covered:
            continue
        found.append(
            NetworkInterface(name=device.name, fabric="slingshot", rdma=True, state="unknown")
        )
    return found


class SlingshotProvider(NetworkProvider):
    """HPE Slingshot high-speed network interfaces of this machine."""

    name: ClassVar[str] = "slingshot"
    description: ClassVar[str] = (
        "HPE Slingshot high-speed network (hsn*) interfaces and CXI devices, with speed in "
        "Gb/s, state and RDMA."
    )
    detection: ClassVar[str] = (
        "hsn* interfaces in /sys/class/net (speed, operstate) and devices in /sys/class/cxi"
    )

    def _probe(self) -> NetworkFacts | None:
        """List the Slingshot interfaces; None when there is none.

        Raises:
            ProviderError: the sysfs folders exist but cannot be read.
        """
        found = slingshot_interfaces(sysfs_root(self.options))
        return NetworkFacts(interfaces=tuple(found)) if found else None
