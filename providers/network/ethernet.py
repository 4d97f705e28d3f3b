"""Ethernet interfaces of this machine, from ``/sys/class/net`` (or ``psutil`` elsewhere).

Only interfaces whose link type is Ethernet (``type`` 1, ARPHRD_ETHER) count: InfiniBand
(type 32) and loopback (772) belong to other providers or to nobody. Virtual plumbing that a
job cannot use to reach other nodes (bridges, tun/tap, veth peers, ifb, dummy) is skipped where
the kernel or the name tells; an interface without a ``device`` link is kept, because in a
container the only uplink (``eth0``) is a veth without one. Slingshot's ``hsn*`` interfaces are
Ethernet to the kernel too, but they are the Slingshot fabric and the ``slingshot`` provider
reports them (with RDMA), so they are not listed here a second time.

The sysfs root is ``/sys`` unless ``options["sysfs_root"]`` names another folder (as for the
RDMA providers; tests build a tree there).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import psutil

from providers.categories import NetworkProvider
from providers.facts import NetworkFacts, NetworkInterface
from providers.network.rdma_sysfs import read_value, sysfs_root

ARPHRD_ETHER = 1
HSN_PREFIX = "hsn"
"""Name prefix of Slingshot's high-speed network interfaces (``hsn0``, ``hsn1``...)."""

VIRTUAL_PREFIXES: tuple[str, ...] = (
    "veth",
    "docker",
    "virbr",
    "br-",
    "ifb",
    "dummy",
    "vxlan",
    "cni",
    "flannel",
    "cali",
    "tunl",
    "kube-",
    "vnet",
    "tap",
    "tun",
)
"""Name prefixes of virtual interfaces that tools create (container and VM plumbing)."""


def is_virtual(name: str, sysdir: Path | None = None) -> bool:
    """True for loopback and for virtual plumbing recognisable by name or by sysfs entries."""
    if name == "lo" or name.startswith(VIRTUAL_PREFIXES):
        return True
    if sysdir is None:
        return False
    # bridges have a ``bridge`` folder, tun/tap devices a ``tun_flags`` file, Wi-Fi a
    # ``wireless`` folder (Ethernet framing, but not a fabric between nodes)
    return any((sysdir / entry).exists() for entry in ("bridge", "tun_flags", "wireless"))


def speed_gbps(text: str | None) -> float | None:
    """Link speed from sysfs (Mb/s) in Gb/s; None when unknown (-1, empty, unreadable)."""
    if text is None:
        return None
    try:
        mbps = int(text)
    except ValueError:
        return None
    return mbps / 1000 if mbps > 0 else None


def sysfs_interface(sysdir: Path, *, fabric: str, rdma: bool) -> NetworkInterface:
    """The interface of one ``/sys/class/net/<name>`` folder: speed and ``operstate``.

    Shared with the ``slingshot`` provider, whose ``hsn*`` interfaces live in the same folder.
    """
    return NetworkInterface(
        name=sysdir.name,
        fabric=fabric,
        speed_gbps=speed_gbps(read_value(sysdir / "speed")),
        rdma=rdma,
        state=read_value(sysdir / "operstate") or "unknown",
    )


class EthernetProvider(NetworkProvider):
    """Ethernet links of the machine this process runs on."""

    name: ClassVar[str] = "ethernet"
    description: ClassVar[str] = (
        "Ethernet interfaces of this machine with link state and speed in Gb/s (no RDMA)."
    )
    detection: ClassVar[str] = (
        "interfaces in /sys/class/net with type 1 (ARPHRD_ETHER), except lo, virtual ones "
        "(bridge, tun/tap, veth, ifb, ...) and Slingshot hsn*; psutil.net_if_stats() where "
        "/sys is absent"
    )
    sys_class_net: ClassVar[Path] = Path("/sys/class/net")
    """Where interfaces are listed when the ``sysfs_root`` option is not set."""

    def _net_dir(self) -> Path:
        """``<sysfs_root>/class/net`` when the option is set, else :attr:`sys_class_net`.

        Raises:
            ProviderError: the ``sysfs_root`` option is not a folder path.
        """
        if "sysfs_root" in self.options:
            return sysfs_root(self.options) / "class" / "net"
        return self.sys_class_net

    def _probe(self) -> NetworkFacts | None:
        """List the Ethernet interfaces; None (absent) when there is none.

        Postconditions: names are unique and sorted, fabric is ``ethernet``, ``rdma`` False.
        """
        net_dir = self._net_dir()
        if net_dir.is_dir():
            found = self._from_sysfs(net_dir)
        else:
            found = self._from_psutil()
        if not found:
            return None
        return NetworkFacts(interfaces=tuple(found))

    def _from_sysfs(self, net_dir: Path) -> list[NetworkInterface]:
        found: list[NetworkInterface] = []
        for sysdir in sorted(net_dir.iterdir()):
            if read_value(sysdir / "type") != str(ARPHRD_ETHER) or is_virtual(sysdir.name, sysdir):
                continue
            if sysdir.name.startswith(HSN_PREFIX):
                continue  # Slingshot: the slingshot provider reports it
            found.append(sysfs_interface(sysdir, fabric="ethernet", rdma=False))
        return found

    def _from_psutil(self) -> list[NetworkInterface]:
        """Fallback without sysfs: psutil cannot tell the link type, so skip only loopback."""
        found: list[NetworkInterface] = []
        for name, stats in sorted(psutil.net_if_stats().items()):
            if is_virtual(name) or "loopback" in getattr(stats, "flags", ""):
                continue
            found.append(
                NetworkInterface(
                    name=name,
                    fabric="ethernet",
                    speed_gbps=speed_gbps(str(stats.speed)),
                    rdma=False,
                    state="up" if stats.isup else "down",
                )
            )
        return found
