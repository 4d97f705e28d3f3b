"""Named points where a crash test can make this process die, to prove each step crash-safe.

Why: "kill the hub at each stage of a dispatch" cannot be timed from outside (a stage lasts
microseconds), so the code names its stages and a test arms one through the environment:
``SECRETARY_FAILPOINTS=hub.dispatch.written`` makes the process kill itself with SIGKILL (no
cleanup, no flushing: exactly like ``kill -9`` or a power cut) the first time it gets there.
The variable is read once at import; with it unset a failpoint is one set lookup.

The points (in the order a dispatch passes them):

=============================  ==========================================================
``hub.dispatch.written``       the hub wrote the PENDING row and has not sent the dispatch
``site.dispatch.claimed``      the site claimed the dispatch key, nothing submitted yet
``site.dispatch.submitted``    the workload manager took the job; the key's receipt unsaved
``site.dispatch.remembered``   the site saved the receipt and has not replied yet
``hub.dispatch.replied``       the hub has the site's receipt and has not recorded it
=============================  ==========================================================
"""

from __future__ import annotations

import os
import signal

POINTS = frozenset(
    {
        "hub.dispatch.written",
        "site.dispatch.claimed",
        "site.dispatch.submitted",
        "site.dispatch.remembered",
        "hub.dispatch.replied",
    }
)

_ARMED = (
    frozenset(p.strip() for p in os.environ.get("SECRETARY_FAILPOINTS", "").split(",")) & POINTS
)


def failpoint(name: str) -> None:
    """Die here, as if killed with SIGKILL, when ``name`` is armed."""
    if name in _ARMED:
        os.kill(os.getpid(), signal.SIGKILL)
