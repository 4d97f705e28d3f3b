"""Reading RDMA ports from sysfs: ``/sys/class/infiniband/<device>/ports/<n>/``.

Every verbs device (InfiniBand HCAs, Omni-Path HFIs, RoCE NICs) has one folder per port with
``rate`` (``100 Gb/sec (4X EDR)``), ``state`` (``4: ACTIVE``) and ``link_layer``
(``InfiniBand`` or ``Ethernet``). The InfiniBand and Omni-Path providers share this reader
and :func:`fabric_facts`, and differ only in which ports they claim (:func:`is_infiniband`,
:func:`is_omnipath`). The sysfs root is ``/sys`` unless a provider's ``options["sysfs_root"]``
names another folder (tests build a tree there).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from providers.errors import ProviderError
from providers.facts import NetworkFacts, NetworkInterface

log = logging.getLogger(__name__)

SYSFS_ROOT = Path("/sys")
_RATE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*Gb/sec\b")
_STATE = re.compile(r"^\s*(\d+)\s*:\s*([A-Z_]+)\s*$")

USABLE_PORT_STATES: frozenset[str] = frozenset({"ACTIVE", "ACTIVE_DEFER"})
"""Port states that pass traffic. DOWN, INIT and ARMED ports (no link, or no subnet manager
has configured them yet) cannot carry a job's messages, so they are reported ``down``."""


@dataclass(frozen=True)
class RdmaPort:
    """One port of a verbs device as sysfs shows it."""

    device: str
    port: int
    rate_gbps: float | None
    state: str
    """``up`` for ACTIVE ports, ``down`` otherwise (see :data:`USABLE_PORT_STATES`)."""
    link_layer: str
    driver: str | None


def sysfs_root(options: Mapping[str, Any]) -> Path:
    """The sysfs root from ``options["sysfs_root"]`` (default ``/sys``).

    Raises:
        ProviderError: the option is not a path string.
    """
    value = options.get("sysfs_root", str(SYSFS_ROOT))
    if not isinstance(value, str) or not value or "\x00" in value:
        raise ProviderError(f"option 'sysfs_root' must be a folder path, got {value!r}")
    return Path(value)


def parse_rate(text: str | None) -> float | None:
    """Gb/s from a sysfs ``rate`` (``"100 Gb/sec (4X EDR)"`` -> 100.0); None if unreadable."""
    if text is None:
        return None
    match = _RATE.match(text)
    return float(match.group(1)) if match else None


def parse_state(text: str) -> str:
    """``up`` or ``down`` from a sysfs port ``state`` such as ``"4: ACTIVE"``.

    Raises:
        ProviderError: the text is not ``<number>: <STATE>``.
    """
    match = _STATE.match(text)
    if not match:
        raise ProviderError(
            f"unreadable port state {text.strip()[:60]!r}, expected e.g. '4: ACTIVE'"
        )
    return "up" if match.group(2) in USABLE_PORT_STATES else "down"


def read_value(path: Path) -> str | None:
    """A one-value sysfs file, stripped; None when it is missing or unreadable."""
    try:
        return path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None


def device_driver(device_dir: Path) -> str | None:
    """The kernel driver of a verbs device (``mlx5_core``, ``hfi1``), from its sysfs link."""
    try:
        return (device_dir / "device" / "driver").resolve(strict=True).name
    except OSError:
        return None


def read_ports(root: Path) -> list[RdmaPort] | None:
    """Every port of every verbs device under ``<root>/class/infiniband``.

    Returns:
        None when the class folder does not exist (no RDMA stack: absent); else the ports,
        sorted by device and port number. A port whose ``link_layer`` is missing counts as
        InfiniBand (kernels predating the file supported nothing else); an unreadable
        ``rate`` gives ``rate_gbps=None`` and a log line.

    Raises:
        ProviderError: the class folder or a device's ``ports`` folder cannot be listed, or a
            port's ``state`` is missing or unreadable.
    """
    class_dir = root / "class" / "infiniband"
    if not class_dir.exists():
        return None
    try:
        devices = sorted(class_dir.iterdir())
    except OSError as exc:
        raise ProviderError(f"cannot list {class_dir}: {exc.strerror or exc}") from None
    ports: list[RdmaPort] = []
    for device_dir in devices:
        ports_dir = device_dir / "ports"
        try:
            port_dirs = sorted(
                (p for p in ports_dir.iterdir() if p.name.isdigit()), key=lambda p: int(p.name)
            )
        except OSError as exc:
            raise ProviderError(
                f"RDMA device {device_dir.name}: cannot list {ports_dir}: {exc.strerror or exc}"
            ) from None
        if not port_dirs:
            raise ProviderError(f"RDMA device {device_dir.name} has no ports in {ports_dir}")
        driver = device_driver(device_dir)
        for port_dir in port_dirs:
            state = read_value(port_dir / "state")
            if state is None:
                raise ProviderError(f"cannot read {port_dir / 'state'}")
            try:
                up = parse_state(state)
            except ProviderError as exc:
                raise ProviderError(f"{port_dir / 'state'}: {exc.message}") from None
            rate_text = read_value(port_dir / "rate")
            rate = parse_rate(rate_text)
            if rate is None:
                log.warning("unreadable rate %r in %s", rate_text, port_dir)
            ports.append(
                RdmaPort(
                    device=device_dir.name,
                    port=int(port_dir.name),
                    rate_gbps=rate,
                    state=up,
                    link_layer=read_value(port_dir / "link_layer") or "InfiniBand",
                    driver=driver,
                )
            )
    return ports


def is_omnipath(port: RdmaPort) -> bool:
    """True for an Intel/Cornelis Omni-Path HFI (driver ``hfi1``, devices ``hfi1_<n>``)."""
    return port.driver == "hfi1" or port.device.startswith("hfi1")


def is_infiniband(port: RdmaPort) -> bool:
    """True for an InfiniBand port: link layer InfiniBand on a device that is not Omni-Path."""
    return port.link_layer.lower() == "infiniband" and not is_omnipath(port)


def port_interfaces(
    ports: Iterable[RdmaPort], *, fabric: str, claims: Callable[[RdmaPort], bool]
) -> list[NetworkInterface]:
    """The ports that ``claims`` accepts, as RDMA interfaces named ``<device>:<port>``."""
    return [
        NetworkInterface(
            name=f"{p.device}:{p.port}",
            fabric=fabric,
            speed_gbps=p.rate_gbps,
            rdma=True,
            state=p.state,
        )
        for p in ports
        if claims(p)
    ]


def fabric_facts(
    options: Mapping[str, Any], *, fabric: str, claims: Callable[[RdmaPort], bool]
) -> NetworkFacts | None:
    """The facts of one verbs fabric: the ports ``claims`` accepts under the sysfs root.

    InfiniBand and Omni-Path devices share one sysfs class folder, so each provider reads
    every port and keeps its own; None (absent) when it keeps none.

    Raises:
        ProviderError: the ``sysfs_root`` option is not a path, or the tree cannot be read.
    """
    ports = read_ports(sysfs_root(options))
    found = port_interfaces(ports or [], fabric=fabric, claims=claims)
    return NetworkFacts(interfaces=tuple(found)) if found else None
