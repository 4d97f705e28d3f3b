"""Omni-Path ports of this machine: ``hfi1`` devices under ``/sys/class/infiniband``.

Omni-Path (Intel, now Cornelis Networks) host fabric interfaces use the ``hfi1`` driver and
expose verbs devices named ``hfi1_<n>`` with the same per-port sysfs files as InfiniBand
(their ``link_layer`` even reads ``InfiniBand``). They are reported here, with fabric
``omnipath``, and never by the ``infiniband`` provider. MPI uses them through PSM2/OFI with
kernel bypass, so they are RDMA-class.
"""

from __future__ import annotations

from typing import ClassVar

from providers.categories import NetworkProvider
from providers.facts import NetworkFacts, NetworkInterface
from providers.network.rdma_sysfs import RdmaPort, fabric_facts, is_omnipath, port_interfaces

FABRIC = "omnipath"


def omnipath_interfaces(ports: list[RdmaPort]) -> list[NetworkInterface]:
    """The Omni-Path ports among ``ports`` as interfaces named ``<device>:<port>``."""
    return port_interfaces(ports, fabric=FABRIC, claims=is_omnipath)


class OmniPathProvider(NetworkProvider):
    """Omni-Path host fabric interface ports of this machine."""

    name: ClassVar[str] = "omnipath"
    description: ClassVar[str] = (
        "Omni-Path (hfi1) fabric ports of this machine with rate in Gb/s and state."
    )
    detection: ClassVar[str] = (
        "hfi1 devices (driver hfi1 or name hfi1_<n>) under /sys/class/infiniband; speed from "
        "ports/<n>/rate, state from ports/<n>/state"
    )

    def _probe(self) -> NetworkFacts | None:
        """List the Omni-Path ports; None when there is none.

        Raises:
            ProviderError: the sysfs tree exists but cannot be read.
        """
        return fabric_facts(self.options, fabric=FABRIC, claims=is_omnipath)
