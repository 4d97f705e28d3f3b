"""Loopback ports for the hub and worker processes of ``--transport mcp``.

By default every process gets a port the kernel picks. On a machine where only some ports may
be used (a firewall rule, a port range reserved for a user), ``--ports FIRST-LAST`` confines
them to that range: each process takes the next port in it that is free now and that this run
has not handed out already.
"""

from __future__ import annotations

import re
import socket

from secretary_executor.errors import ConfigurationError

HOST = "127.0.0.1"
_RANGE = re.compile(r"^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$")


def parse_ports(text: str) -> range:
    """``FIRST-LAST`` (or one port) as a range of ports, both ends included.

    Raises:
        ConfigurationError: not a range of ports between 1 and 65535 with FIRST <= LAST.
    """
    match = _RANGE.match(text)
    if match is None:
        raise ConfigurationError(
            f"--ports {text!r} is not a port range; write FIRST-LAST, e.g. --ports 9100-9199"
        )
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if not 1 <= first <= last <= 65535:
        raise ConfigurationError(
            f"--ports {text!r}: ports must be between 1 and 65535, the first no greater than "
            "the last, e.g. --ports 9100-9199"
        )
    return range(first, last + 1)


def kernel_port() -> int:
    """A TCP port on loopback that was free a moment ago (a bind race shows as a start error)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


class PortPool:
    """Hands out loopback ports, from ``ports`` when given, never the same one twice.

    Args:
        ports: the allowed ports; None lets the kernel pick each one.
    """

    def __init__(self, ports: range | None = None) -> None:
        self.ports = ports
        self.taken: set[int] = set()

    def __repr__(self) -> str:
        return f"PortPool(ports={self.describe()}, taken={len(self.taken)})"

    def describe(self) -> str:
        """The range as written on the command line (``any`` without one)."""
        if self.ports is None:
            return "any"
        return f"{self.ports.start}-{self.ports.stop - 1}"

    def take(self) -> int:
        """The next free port.

        Raises:
            ConfigurationError: no port of the range is free (the message says how many this
                run already holds).
        """
        if self.ports is None:
            port = kernel_port()
            self.taken.add(port)
            return port
        for port in self.ports:
            if port not in self.taken and _bindable(port):
                self.taken.add(port)
                return port
        raise ConfigurationError(
            f"no free port in --ports {self.describe()} on {HOST} ({len(self.taken)} already "
            f"taken by this run, the others in use); the hub and each worker process need one: "
            "choose a wider or another range"
        )
