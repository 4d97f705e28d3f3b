"""InfiniBand ports of this machine, from ``/sys/class/infiniband``.

A port counts when its ``link_layer`` is ``InfiniBand`` and its device is not an Omni-Path
HFI: Omni-Path devices (``hfi1_*``) also say ``InfiniBand`` there, because they use the same
verbs interface, but they are a different fabric and are reported by the ``omnipath``
provider. RoCE ports (``link_layer`` ``Ethernet``, e.g. a ConnectX card in Ethernet mode) are
not InfiniBand either and are not reported by any provider yet; they belong with Ethernet,
as interfaces with ``rdma=True``, which the ``ethernet`` provider does not do today.
"""

from __future__ import annotations

from typing import ClassVar

from providers.categories import NetworkProvider
from providers.facts import NetworkFacts, NetworkInterface
from providers.network.rdma_sysfs import RdmaPort, fabric_facts, is_infiniband, port_interfaces

FABRIC = "infiniband"


def infiniband_interfaces(ports: list[RdmaPort]) -> list[NetworkInterface]:
    """The InfiniBand ports among ``ports`` as interfaces named ``<device>:<port>``."""
    return port_interfaces(ports, fabric=FABRIC, claims=is_infiniband)


class InfiniBandProvider(NetworkProvider):
    """InfiniBand host channel adapter ports of this machine."""

    name: ClassVar[str] = "infiniband"
    description: ClassVar[str] = (
        "InfiniBand ports (RDMA) of this machine with rate in Gb/s and state (up when ACTIVE)."
    )
    detection: ClassVar[str] = (
        "ports under /sys/class/infiniband/<device>/ports/<n> whose link_layer is InfiniBand, "
        "excluding Omni-Path hfi1 devices; speed from rate, state from state"
    )

    def _probe(self) -> NetworkFacts | None:
        """List the InfiniBand ports; None when there is none.

        Postconditions: fabric ``infiniband``, ``rdma`` True, state ``up`` or ``down``.

        Raises:
            ProviderError: the sysfs tree exists but cannot be read.
        """
        return fabric_facts(self.options, fabric=FABRIC, claims=is_infiniband)
