"""A ceiling on the size of one MCP reply, enforced while the bytes arrive.

Why: the hub reads proposals from workers it does not control. A worker that answers with
tens of megabytes (by mistake or on purpose) would otherwise grow the hub's memory and its
ledger by that much for every call. The cap applies to each POST response (one reply to one
request) as it streams in, so an oversized reply is cut off at the cap, never held whole; the
site is then reported UNREACHABLE with the reason.

A batch reply (``ask_secretaries``, many sites' proposals in one reply) may be larger, in
proportion to the sites it carries: :func:`reply_cap_for` gives ``BATCH_BYTES_PER_SITE`` per
site, and never less than the single-reply cap. The hub sizes each worker session's cap for the
largest batch its fan-out policy sends that worker (``concurrency`` sites in concurrent mode,
``batch_size`` in batched mode, at most ``MAX_BATCH_SITES``), so a batch reply of well-behaved
sites always fits, and a worker can make the hub hold no more than it could with a few single
replies.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import httpx2

MAX_REPLY_BYTES = 8 * 1024 * 1024
"""The default cap: a proposal with every check and its evidence is a few kilobytes."""

BATCH_BYTES_PER_SITE = 256 * 1024
"""Each site of a batch may add this much: a proposal (sent twice, as structured content and as
text) is a few kilobytes: 64 times that is room enough, and the largest batch (1,024 sites)
may take 256 MiB, no more than 32 single replies at their cap."""


def reply_cap_for(sites: int) -> int:
    """The cap on one reply carrying ``sites`` sites' answers."""
    return max(MAX_REPLY_BYTES, sites * BATCH_BYTES_PER_SITE)


class ReplyTooLargeError(httpx2.TransportError):
    """A reply went past the cap; what was read so far is discarded."""


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, limit: int, over: Callable[[], None]) -> None:
        self.inner = inner
        self.limit = limit
        self.over = over

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self.inner:
            seen += len(chunk)
            if seen > self.limit:
                self.over()
                raise ReplyTooLargeError(f"reply larger than {self.limit} bytes")
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


class CappedTransport(httpx2.AsyncBaseTransport):
    """Wraps a transport so that no POST response may exceed ``limit`` bytes.

    Args:
        inner: the real transport.
        limit: the most bytes one response body may have.
        over: called once a response passes the cap (before the error is raised), so the
            caller can say why its call failed even when a library in between rewords errors.
    """

    def __init__(
        self, inner: httpx2.AsyncBaseTransport, limit: int, over: Callable[[], None]
    ) -> None:
        self.inner = inner
        self.limit = limit
        self.over = over

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        if request.method != "POST":
            return response  # the long-lived event stream carries many messages
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            self.over()
            await response.aclose()
            raise ReplyTooLargeError(f"reply of {declared} bytes is over {self.limit}")
        stream = response.stream
        assert isinstance(stream, httpx2.AsyncByteStream)
        response.stream = _CappedStream(stream, self.limit, self.over)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()
