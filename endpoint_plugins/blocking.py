"""Blocking calls (provider probes, scheduler commands) run from async code without letting
one hung site starve the others or hold the process open at exit.

``asyncio.to_thread`` shares one small pool (``min(32, cores + 4)`` threads) among every site:
a few hung providers fill it, healthy sites queue behind them and time out, and at exit
``asyncio.run`` waits for the hung threads. Here each call gets its own daemon thread. A call
whose caller gave up (its timeout passed) while the thread still runs is *abandoned*; a site
with ``per_site`` abandoned calls gets no new thread, the call fails at once with
:class:`SiteBusyError`, so a hung site ties up a bounded number of threads while a busy healthy
site, whose calls all return, is never refused.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from endpoint_plugins.errors import SiteError

T = TypeVar("T")

DEFAULT_PER_SITE = 4
"""Abandoned calls one site may have before it gets no new thread: a site whose provider hangs
ties up at most this many threads."""


class SiteBusyError(SiteError):
    """A site has ``per_site`` abandoned calls still running; another one is not started."""

    def __init__(self, message: str) -> None:
        super().__init__(message, transient=True)


class BlockingCalls:
    """Runs blocking functions in daemon threads; at most ``per_site`` abandoned per site."""

    def __init__(self, per_site: int = DEFAULT_PER_SITE) -> None:
        if per_site < 1:
            raise ValueError(f"per_site must be at least 1, got {per_site}")
        self.per_site = per_site
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"BlockingCalls(per_site={self.per_site}, running={self.running()})"

    def running(self) -> dict[str, int]:
        """Abandoned calls still running, by site (each stays counted until it returns)."""
        with self._lock:
            return {k: v for k, v in self._running.items() if v}

    async def call(self, site: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a daemon thread; the awaiting task may be cancelled (a timeout)
        without waiting for the thread, which then counts as abandoned until it returns.

        Raises:
            SiteBusyError: ``site`` already has ``per_site`` abandoned calls running.
        """
        with self._lock:
            if self._running.get(site, 0) >= self.per_site:
                raise SiteBusyError(
                    f"site {site!r} has {self.per_site} earlier calls still running after their "
                    "callers gave up (a provider may be hung); not starting another"
                )
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        state = {"finished": False, "abandoned": False}

        def work() -> None:
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
                _deliver(loop, future, None, exc)
            else:
                _deliver(loop, future, result, None)
            finally:
                with self._lock:
                    state["finished"] = True
                    if state["abandoned"]:
                        self._running[site] -= 1

        threading.Thread(target=work, name=f"site-{site}", daemon=True).start()
        try:
            return await future
        except asyncio.CancelledError:
            with self._lock:
                if not state["finished"]:
                    state["abandoned"] = True
                    self._running[site] = self._running.get(site, 0) + 1
            raise


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
