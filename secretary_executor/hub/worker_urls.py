"""Which worker URLs a hub accepts: the hub sends each worker its bearer credential on every
call, so a worker must not be able to point the hub at a host outside the administrator's
policy (a cloud metadata address, a public host, another tenant's service).

The policy (``worker_hosts`` in the hub config) is a list of entries:

* ``loopback``: 127.0.0.0/8 and ::1;
* ``private``: loopback plus 10/8, 172.16/12, 192.168/16, 100.64/10 and fc00::/7
  (the default);
* ``any``: every host (for a hub whose workers sit on public addresses behind TLS);
* a network in CIDR form (``203.0.113.0/24``) or a single address;
* a host name, matched exactly (``node042.cluster``).

Link-local addresses (169.254/16, fe80::/10, where cloud metadata services answer) are never
part of ``loopback`` or ``private``; only an explicit network entry admits them. A host name
that no entry names is resolved once, at registration, and admitted only when every address it
resolves to is allowed.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from urllib.parse import urlsplit

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

LOOPBACK: tuple[Network, ...] = (
    ipaddress.ip_network("127.0.0.0/8"),
    ipaddress.ip_network("::1/128"),
)
PRIVATE: tuple[Network, ...] = (
    *LOOPBACK,
    ipaddress.ip_network("10.0.0.0/8"),
    ipaddress.ip_network("172.16.0.0/12"),
    ipaddress.ip_network("192.168.0.0/16"),
    ipaddress.ip_network("100.64.0.0/10"),
    ipaddress.ip_network("fc00::/7"),
)
DEFAULT_WORKER_HOSTS: tuple[str, ...] = ("private",)


class WorkerUrlError(ValueError):
    """A worker URL outside the hub's policy; the message says which entry would admit it."""


class HostPolicy:
    """A parsed ``worker_hosts`` list.

    Raises:
        ValueError: an entry that is neither a keyword, a network nor a host name.
    """

    def __init__(self, entries: Sequence[str] = DEFAULT_WORKER_HOSTS) -> None:
        self.entries = tuple(entries)
        self.any = False
        self.networks: list[Network] = []
        self.names: set[str] = set()
        for entry in self.entries:
            word = entry.strip().lower()
            if word == "any":
                self.any = True
            elif word == "loopback":
                self.networks.extend(LOOPBACK)
            elif word == "private":
                self.networks.extend(PRIVATE)
            elif _is_network(word):
                self.networks.append(ipaddress.ip_network(word, strict=False))
            elif _is_host_name(word):
                self.names.add(word.rstrip("."))
            else:
                raise ValueError(
                    f"worker_hosts entry {entry!r} is not loopback, private, any, a network "
                    "(10.1.0.0/16) or a host name"
                )

    def __repr__(self) -> str:
        return f"HostPolicy({list(self.entries)!r})"

    def check(self, url: str) -> None:
        """Accept ``url`` or raise :class:`WorkerUrlError` saying why."""
        host = (urlsplit(url).hostname or "").lower().rstrip(".")
        if not host:
            raise WorkerUrlError(f"worker url {url!r} names no host")
        if self.any or host in self.names:
            return
        addresses = _addresses(host)
        if not addresses:
            raise WorkerUrlError(
                f"worker url {url!r}: host {host!r} does not resolve; list it in the hub's "
                "worker_hosts, or register with an address"
            )
        if any(a.is_unspecified for a in addresses):
            raise WorkerUrlError(
                f"worker url {url!r} names the unspecified address {host}, which no one can call; "
                "start the worker with --advertise-url set to an address the hub reaches"
            )
        outside = [a for a in addresses if not any(a in n for n in self.networks)]
        if outside:
            shown = ", ".join(sorted({str(a) for a in outside}))
            raise WorkerUrlError(
                f"worker url {url!r}: {shown} is outside the hub's worker_hosts "
                f"({', '.join(self.entries)}); a hub administrator may add the host or its "
                "network there"
            )


def _addresses(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    found = []
    for info in infos:
        text = str(info[4][0]).split("%", 1)[0]  # drop an IPv6 scope id
        try:
            found.append(ipaddress.ip_address(text))
        except ValueError:
            continue
    return found


def _is_network(text: str) -> bool:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def _is_host_name(text: str) -> bool:
    labels = text.rstrip(".").split(".")
    return all(
        0 < len(label) <= 63
        and label[0].isalnum()
        and label[-1].isalnum()
        and all(c.isalnum() or c == "-" for c in label)
        for label in labels
    ) and all(c.isascii() for c in text)
