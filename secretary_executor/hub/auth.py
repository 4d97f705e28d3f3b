"""The hub's bearer-token policy.

Three kinds of token are accepted on the hub's endpoint, each with its own scope:

* ``client``: agents and users (from ``token_file``, one per line);
* ``join``: the join token workers present to ``register_worker`` (``join_token_file``);
* ``worker``: the credential issued to each registered worker, for its heartbeats.

Auth is on whenever any token is configured. It is **required** when the hub binds to anything
but loopback: such a hub refuses to start without a ``token_file``. A hub that accepts workers
also needs a ``token_file``, because its endpoint is then closed to anonymous callers.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from mcp.server.auth.provider import AccessToken

from endpoint_plugins.errors import SiteConfigError
from endpoint_plugins.mcp_auth import BearerTable, read_token_file
from secretary_executor.errors import ConfigurationError
from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.join_tokens import JoinTokens, load_join_tokens
from secretary_executor.hub.registry import Registry

CLIENT, JOIN, WORKER, HUB = "client", "join", "worker", "hub"


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HubVerifier:
    """Token verifier: static client/join tokens, plus each UP worker's current credential."""

    def __init__(
        self,
        table: BearerTable,
        registry: Registry,
        reload: Callable[[], object] | None = None,
    ) -> None:
        self.table = table
        self.registry = registry
        self.reload = reload
        """Called on an unknown token: reads the join token file again if it changed, so a
        token just issued by 'secretary hub add-worker' works at once."""

    def __repr__(self) -> str:
        return f"HubVerifier({self.table!r})"

    async def verify_token(self, token: str) -> AccessToken | None:
        found = await self.table.verify_token(token)
        if found is not None:
            return found
        worker = self.registry.owner_of_credential(token)
        if worker is None and self.reload is not None:
            self.reload()
            found = await self.table.verify_token(token)
            if found is not None:
                return found
        if worker is None:
            return None
        return AccessToken(token=token, client_id=worker, scopes=[WORKER])


def hub_tokens(config: HubConfig, *, transport: str = "http") -> BearerTable | None:
    """The hub's static tokens, or None when auth is off (loopback, no tokens, or stdio).

    Raises:
        ConfigurationError: a non-loopback hub without ``token_file``, a hub with workers but
            no ``token_file``, or an unreadable token file.
    """
    if transport == "stdio":
        return None
    if config.token_file is None:
        if not is_loopback(config.host):
            raise ConfigurationError(
                f"refusing to serve on {config.host} without authentication: set token_file "
                "in the hub config to a file of bearer tokens (one per line), or bind to "
                "127.0.0.1"
            )
        if config.join_token_file is not None:
            raise ConfigurationError(
                "a hub that accepts workers (join_token_file) also needs token_file for its "
                "clients; create one with: python -c 'import secrets; "
                "print(secrets.token_urlsafe(32))' > tokens.txt"
            )
        return None
    table = BearerTable()
    try:
        for i, token in enumerate(read_token_file(config.token_file, "token_file")):
            table.grant(token, f"client-{i + 1}", CLIENT)
    except SiteConfigError as exc:
        raise ConfigurationError(exc.message) from None
    if config.join_token_file is not None:
        grant_join_tokens(table, load_join_tokens(config.join_token_file))
    return table


SHARED_JOIN = "joining-worker"
"""The client name of a shared join token; a bound one is ``join:NAME``."""

BOUND_JOIN_PREFIX = "join:"


def grant_join_tokens(table: BearerTable, tokens: JoinTokens) -> None:
    """Make ``tokens`` the join tokens ``table`` accepts (earlier ones stop working)."""
    table.revoke_scope(JOIN)
    for token in tokens.shared:
        table.grant(token, SHARED_JOIN, JOIN)
    for token, name in tokens.bound.items():
        table.grant(token, f"{BOUND_JOIN_PREFIX}{name}", JOIN)


def is_bound_to(joiner: str | None, name: str) -> bool:
    """True when the join token of client ``joiner`` is bound to worker ``name``.

    Such a token proves which worker is calling, unlike a shared one; the registry lets it
    replace an UP entry of that name (a worker restarted after losing its credential).
    """
    return joiner is not None and joiner == f"{BOUND_JOIN_PREFIX}{name}"


def join_refusal(joiner: str | None, name: str, tokens: JoinTokens | None) -> str | None:
    """Why the holder of join token ``joiner`` may not register as ``name`` (None: it may)."""
    if tokens is not None and name in tokens.revoked:
        return (
            f"worker {name!r} was revoked by the hub administrator "
            f"('secretary hub add-worker {name}' admits it again)"
        )
    if joiner is not None and joiner.startswith(BOUND_JOIN_PREFIX):
        bound = joiner.removeprefix(BOUND_JOIN_PREFIX)
        if bound != name:
            return f"this join token is for worker {bound!r}, not {name!r}"
    return None
