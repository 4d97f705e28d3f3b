"""What the executor remembers about each task, and a ledger writer off the hot path.

Negotiations go through :class:`~secretary_executor.broker.Broker`, which records the request,
every proposal and the selection. Each task's dispatch attempts are recorded too, under the
negotiation's request id (so ``Ledger.attempts(request_id)`` lists every task placed from those
proposals), with the Parsl task named in the message. Attempts are written by a background
thread, so a burst of tasks never waits on SQLite under the DataFlowKernel's submit lock.
"""

from __future__ import annotations

import logging
import queue
import threading

from pydantic import BaseModel, ConfigDict

from secretary_executor.ledger import Ledger

log = logging.getLogger(__name__)

_BATCH = 1000


class Attempt(BaseModel):
    """One try of a task at one site."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    site: str
    ok: bool
    message: str


class TaskPlacement(BaseModel):
    """Where a task ran and why: the chosen proposal's reason and every attempt."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: int
    function: str
    request_id: str
    """The negotiation whose proposals placed the task (in the ledger)."""
    site: str | None
    verdict: str | None
    reason: str
    cached: bool
    """True when the proposals came from the negotiation cache."""
    attempts: tuple[Attempt, ...] = ()


class LedgerWriter:
    """Writes attempt rows from a queue on a daemon thread.

    Postcondition of :meth:`close`: every queued row has been written (or logged as failed).
    """

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self._queue: queue.SimpleQueue[tuple[str, str, bool, str] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="secretary-ledger", daemon=True)
        self._thread.start()

    def attempt(self, request_id: str, site: str, ok: bool, message: str) -> None:
        self._queue.put((request_id, site, ok, message))

    def _run(self) -> None:
        done = False
        while not done:
            batch = [self._queue.get()]
            while len(batch) < _BATCH:  # drain what is queued: one transaction for all of it
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            done = None in batch
            rows = [item for item in batch if item is not None]
            if rows:
                self._write(rows)

    def _write(self, rows: list[tuple[str, str, bool, str]]) -> None:
        try:
            self.ledger.record_attempts(rows)
        except Exception:
            log.exception("could not record %d dispatch attempt(s) in the ledger", len(rows))

    def close(self, timeout_s: float = 60.0) -> None:
        self._queue.put(None)
        self._thread.join(timeout_s)
