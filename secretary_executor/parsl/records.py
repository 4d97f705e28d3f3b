"""What the executor remembers about each task, and a ledger writer off the hot path.

Negotiations go through :class:`~secretary_executor.broker.Broker`, which records the request,
every proposal and the selection. Each task's dispatch attempts are recorded too, under the
negotiation's request id (so ``Ledger.attempts(request_id)`` lists every task placed from those
proposals), with the Parsl task named in the message.

Attempts are buffered and written in batches by :class:`LedgerWriter`, so a burst of tasks never
waits on SQLite under the DataFlowKernel's submit lock and never wakes a thread per task: a
thread woken for every row costs a GIL hand-off per task, which at thousands of tasks per second
was a large share of the executor's overhead.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any, TypeAlias

from pydantic import BaseModel, ConfigDict

from secretary_executor.ledger import Ledger

log = logging.getLogger(__name__)


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


AttemptRow: TypeAlias = tuple[str, bool, str]
"""An attempt as the executor keeps it on the task path: ``(site, ok, message)``.

A plain tuple, not a model: it becomes an :class:`Attempt` only when someone reads
``placements``, and a ledger message only when the writer flushes, so neither cost lands on the
per-task path.
"""

_FIELDS = 7
"""A buffered row is seven consecutive entries of the buffer: request id, site, ok, executor
label, task id, function, message (flat, so buffering a row leaves no tuple alive)."""


def task_message(label: str, task_id: int, function: str, message: str) -> str:
    """The ledger message of one attempt, e.g. ``parsl task secretary#17 (train): ran``."""
    return f"parsl task {label}#{task_id} ({function}): {message}"


class LedgerWriter:
    """Buffers attempt rows and writes them in batches on a daemon thread.

    The thread wakes every ``interval_s`` seconds, or as soon as ``batch`` rows are waiting,
    and writes everything buffered in one transaction (a commit costs a disk sync; a row
    costs microseconds). :meth:`attempt` only appends to a deque, which is thread-safe and
    wakes nobody below the batch size.

    Args:
        ledger: where the rows go.
        interval_s: the longest a row waits before it is written while the executor runs.
        batch: this many waiting rows wake the thread early.

    Postcondition of :meth:`close`: every row recorded before or after it has been written (or
    logged as failed); rows recorded after it are written at once.
    """

    def __init__(self, ledger: Ledger, *, interval_s: float = 0.25, batch: int = 2000) -> None:
        self.ledger = ledger
        self.interval_s = interval_s
        self.batch = batch
        self._rows: deque[Any] = deque()
        self._placements: deque[tuple[str, int, int, str, str, bool, str, str]] = deque()
        self._wake = threading.Event()
        self._closed = False
        self._flush_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="secretary-ledger", daemon=True)
        self._thread.start()

    def attempt(
        self,
        request_id: str,
        site: str,
        ok: bool,
        label: str,
        task_id: int,
        function: str,
        message: str,
    ) -> None:
        """Record one attempt of Parsl task ``label#task_id`` (written later, in a batch)."""
        rows = self._rows
        # One C call with a temporary tuple: atomic under the GIL, and nothing outlives it.
        rows.extend((request_id, site, ok, label, task_id, function, message))
        if self._closed:
            self._flush()
        elif len(rows) >= self.batch * _FIELDS and not self._wake.is_set():
            self._wake.set()

    def placement(
        self,
        run_id: str,
        task_id: int,
        try_id: int,
        site: str,
        request_id: str,
        ok: bool,
        message: str,
        label: str,
    ) -> None:
        """Record where Parsl task ``task_id``'s try ``try_id`` was sent (monitoring on)."""
        self._placements.append((run_id, task_id, try_id, site, request_id, ok, message, label))
        if self._closed:
            self._flush()

    def _run(self) -> None:
        while not self._closed:
            self._wake.wait(self.interval_s)
            self._wake.clear()
            self._flush()
        self._flush()

    def _flush(self) -> None:
        # One flusher at a time, so rows reach the ledger in the order they were recorded. The
        # rows are made one by one as SQLite takes them (see Ledger.record_attempts).
        with self._flush_lock:
            self._flush_placements()
            rows = self._rows
            flat = [rows.popleft() for _ in range(len(rows) // _FIELDS * _FIELDS)]
            if not flat:
                return
            fields = iter(flat)
            batch = (
                (request_id, site, ok, task_message(label, task_id, function, message))
                for request_id, site, ok, label, task_id, function, message in zip(
                    *[fields] * _FIELDS, strict=True
                )
            )
            try:
                self.ledger.record_attempts(batch)
            except Exception:
                count = len(flat) // _FIELDS
                log.exception("could not record %d dispatch attempt(s) in the ledger", count)

    def _flush_placements(self) -> None:
        queue = self._placements
        placements = [queue.popleft() for _ in range(len(queue))]
        if not placements:
            return
        try:
            self.ledger.record_placements(placements)
        except Exception:
            log.exception("could not record %d placement(s) in the ledger", len(placements))

    def close(self, timeout_s: float = 60.0) -> None:
        """Write what is buffered and stop the thread (idempotent)."""
        self._closed = True
        self._wake.set()
        self._thread.join(timeout_s)
        self._flush()
