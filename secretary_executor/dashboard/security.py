"""The dashboard's HTTP safety: bearer tokens on the API, strict headers on every response.

Why the token travels only in an ``Authorization`` header: a token in a URL lands in browser
history, proxy logs and ``Referer`` headers. The page keeps it in ``sessionStorage`` (gone when
the tab closes) and adds it to its own fetches; the page shell itself carries no data, so it
needs no token. The headers forbid inline script, foreign origins, framing and type sniffing,
so text from sites and requests can only ever be shown, never run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

Authorizer = Callable[[str], Awaitable[bool]]
"""Answers whether a bearer token may read the dashboard (a ``client`` token of the hub)."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """ASGI middleware: adds :data:`SECURITY_HEADERS` to every response of the wrapped app,
    and ``Cache-Control: no-store`` to the API's, so no data outlives the session on disk."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = "/api/" in scope.get("path", "")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                headers = list(message.get("headers", []))
                headers += [h for h in SECURITY_HEADERS if h[0] not in names]
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer`` header (never a query parameter or cookie)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def allowed(request: Request, authorize: Authorizer | None) -> bool:
    """True when the request may read data: auth is off, or its bearer token is accepted."""
    if authorize is None:
        return True
    token = bearer_token(request)
    return token is not None and await authorize(token)
