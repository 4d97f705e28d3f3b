"""Blocking calls (provider probes, scheduler commands) run from async code without letting
one hung site starve the others or hold the process open at exit.

``asyncio.to_thread`` shares one small pool (``min(32, cores + 4)`` threads) among every site:
a few hung providers fill it, healthy sites queue behind them and time out, and at exit
``asyncio.run`` waits for the hung threads. Here each call gets its own daemon thread, and each
site may have at most ``per_site`` calls still running; beyond that a call fails at once with
:class:`SiteBusyError` instead of queueing behind calls that may never return.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from endpoint_plugins.errors import SiteError

T = TypeVar("T")

DEFAULT_PER_SITE = 4
"""Calls one site may have in flight: enough for concurrent requests, few enough that a site
whose provider hangs ties up at most this many threads."""


class SiteBusyError(SiteError):
    """A site still has ``per_site`` earlier calls running; another one is not started."""

    def __init__(self, message: str) -> None:
        super().__init__(message, transient=True)


class BlockingCalls:
    """Runs blocking functions in daemon threads, at most ``per_site`` at once per site."""

    def __init__(self, per_site: int = DEFAULT_PER_SITE) -> None:
        if per_site < 1:
            raise ValueError(f"per_site must be at least 1, got {per_site}")
        self.per_site = per_site
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"BlockingCalls(per_site={self.per_site}, running={self.running()})"

    def running(self) -> dict[str, int]:
        """Calls still running, by site (a hung call stays counted until it returns)."""
        with self._lock:
            return {k: v for k, v in self._running.items() if v}

    async def call(self, site: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a daemon thread; the awaiting task may be cancelled (a timeout)
        without waiting for the thread.

        Raises:
            SiteBusyError: ``site`` already has ``per_site`` calls running.
        """
        with self._lock:
            if self._running.get(site, 0) >= self.per_site:
                raise SiteBusyError(
                    f"site {site!r} has {self.per_site} earlier calls still running "
                    "(a provider may be hung); not starting another"
                )
            self._running[site] = self._running.get(site, 0) + 1
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def work() -> None:
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
                _deliver(loop, future, None, exc)
            else:
                _deliver(loop, future, result, None)
            finally:
                with self._lock:
                    self._running[site] -= 1

        try:
            threading.Thread(target=work, name=f"site-{site}", daemon=True).start()
        except BaseException:
            with self._lock:
                self._running[site] -= 1
            raise
        return await future


def _deliver(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
) -> None:
    def settle() -> None:
        if future.done():  # the caller gave up (timeout): nothing is waiting
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    try:
        loop.call_soon_threadsafe(settle)
    except RuntimeError:  # the loop has closed: nobody is left to tell
        pass


SHARED = BlockingCalls()
"""The process-wide limiter used by in-process sites and MCP workers."""
