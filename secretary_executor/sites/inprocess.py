"""In-process transport: the site's Secretary lives in this process.

Used for the embedded demo fleet, the simulation and tests. It still goes through the same
JSON envelope as remote transports (payloads are dumped and validated), so a bug that would
break a remote site breaks here too. Provider calls can block (subprocesses), so each call runs
in its own daemon thread (:mod:`endpoint_plugins.blocking`): the event loop stays free for the
other sites, a hung site cannot starve them, and exit does not wait for it.
"""

from __future__ import annotations

from typing import Any

from endpoint_plugins.blocking import SHARED
from endpoint_plugins.secretary import Secretary
from endpoint_plugins.service import Operation, handle
from secretary_executor.sites.base import Transport


class InProcessTransport(Transport):
    """Calls a local :class:`Secretary` through the service envelope.

    Args:
        secretary: the site's Secretary.
        threaded: run calls in a worker thread (True) or inline (False: cheaper for
            simulated sites whose providers never block).
    """

    def __init__(self, secretary: Secretary, *, threaded: bool = True) -> None:
        self.secretary = secretary
        self.threaded = threaded

    def __repr__(self) -> str:
        return f"InProcessTransport({self.secretary!r}, threaded={self.threaded})"

    async def call(self, operation: Operation, payload: dict[str, Any]) -> dict[str, Any]:
        if self.threaded:
            return await SHARED.call(
                self.secretary.name, handle, self.secretary, operation.value, payload
            )
        return handle(self.secretary, operation.value, payload)
