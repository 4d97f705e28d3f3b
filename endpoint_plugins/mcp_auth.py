"""Bearer tokens for the MCP endpoints of workers and hubs, checked in constant time.

A :class:`BearerTable` is the ``token_verifier`` of an :class:`mcp.server.MCPServer`: it maps
each accepted token to a client name and one scope (``client``, ``join``, ``worker``, ``hub``).
Tokens are compared with :func:`hmac.compare_digest`, are never logged, and never appear in a
``repr``. Tables are mutable so that credentials issued at registration take effect at once and
revoked ones stop working at once.
"""

from __future__ import annotations

import hmac
import ipaddress
import threading
from pathlib import Path
from urllib.parse import urlsplit

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings

from endpoint_plugins.errors import SiteConfigError
from providers.files import read_text_file

MIN_TOKEN_LENGTH = 16


def cleartext_problem(url: str, what: str) -> str | None:
    """Why sending a bearer token to ``url`` would expose it, or None when it would not.

    A token may travel over plain ``http`` only to this machine (a loopback address or
    ``localhost``); anything else needs ``https`` (serve with ``--tls-cert``/``--tls-key``), or
    an explicit opt-out by the administrator for a network they trust.
    """
    parts = urlsplit(url)
    if parts.scheme == "https":
        return None
    host = (parts.hostname or "").lower()
    if host == "localhost":
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass
    return (
        f"{what} {url!r} is plain http to another host, so its bearer token would cross the "
        "network in clear: serve it with --tls-cert/--tls-key and use an https:// URL (clients "
        "trust a private CA through SSL_CERT_FILE), or allow_insecure_http for a network you trust"
    )


class BearerTable:
    """Accepted bearer tokens: token -> (client name, scope).

    Postcondition of :meth:`verify_token`: an :class:`AccessToken` whose only scope is the
    token's scope, or None (the SDK then answers HTTP 401).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[str, str]] = {}

    def __repr__(self) -> str:
        return f"BearerTable({len(self._entries)} tokens)"

    def grant(self, token: str, client: str, scope: str) -> None:
        """Accept ``token`` for ``client`` with ``scope`` (replaces an earlier grant of it)."""
        with self._lock:
            self._entries[token] = (client, scope)

    def revoke_client(self, client: str, scope: str | None = None) -> None:
        """Stop accepting every token of ``client`` (in ``scope``, or in any scope)."""
        with self._lock:
            for token, (who, sc) in list(self._entries.items()):
                if who == client and (scope is None or sc == scope):
                    del self._entries[token]

    def revoke_scope(self, scope: str) -> None:
        """Stop accepting every token of ``scope``."""
        with self._lock:
            for token, (_, sc) in list(self._entries.items()):
                if sc == scope:
                    del self._entries[token]

    def lookup(self, token: str) -> tuple[str, str] | None:
        """(client, scope) of ``token``; every entry is compared so timing does not leak which."""
        found: tuple[str, str] | None = None
        candidate = token.encode()
        with self._lock:
            entries = list(self._entries.items())
        for known, entry in entries:
            if hmac.compare_digest(candidate, known.encode()):
                found = entry
        return found

    async def verify_token(self, token: str) -> AccessToken | None:
        entry = self.lookup(token)
        if entry is None:
            return None
        client, scope = entry
        return AccessToken(token=token, client_id=client, scopes=[scope])


def auth_settings(url: str) -> AuthSettings:
    """Resource-server settings for an endpoint at ``url`` (e.g. ``http://host:port/mcp``).

    These servers issue no OAuth tokens themselves; tokens come from files or registration.
    """
    base = url.split("/mcp")[0] + "/"
    return AuthSettings(
        issuer_url=base,
        resource_server_url=url,
        required_scopes=None,
        validate_token_resource=False,
    )


def caller() -> tuple[str, str] | None:
    """(client, scope) of the bearer token of the request being served; None without auth."""
    token = get_access_token()
    if token is None:
        return None
    return token.client_id, (token.scopes[0] if token.scopes else "")


def read_token_file(path: str | Path, what: str = "token file") -> list[str]:
    """The tokens in a file: one per line; blank lines and ``#`` comments are skipped.

    Raises:
        SiteConfigError: unreadable file, no token in it, or a token shorter than 16 characters.
    """
    p = Path(path).expanduser()
    try:
        text = read_text_file(p)
    except OSError as exc:
        raise SiteConfigError(
            f"cannot read {what} {str(p)!r}: {exc.strerror}; create it with one token per line "
            "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))' > FILE)"
        ) from None
    tokens = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if not tokens:
        raise SiteConfigError(f"{what} {str(p)!r} holds no token; put one token per line")
    short = [i + 1 for i, t in enumerate(tokens) if len(t) < MIN_TOKEN_LENGTH]
    if short:
        raise SiteConfigError(
            f"{what} {str(p)!r}: token(s) on line(s) {short} are shorter than "
            f"{MIN_TOKEN_LENGTH} characters; use secrets.token_urlsafe(32)"
        )
    return tokens
