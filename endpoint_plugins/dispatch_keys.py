"""A site's memory of the dispatches it accepted, by the hub's idempotency key.

Why: a hub may not learn that a site accepted a job (the hub was killed, the reply came after
its timeout, the network dropped the answer). The hub recorded the dispatch as PENDING before
sending it, so it can send it again with the same key; this memory makes that repeat harmless.
The site answers a key it has seen with the first receipt instead of submitting a second job.

A key moves through two states, kept in a small SQLite file so that they survive a restart of
the site's process (Globus Compute builds a new Secretary for every call):

``submitting``
    claimed before the workload manager is asked. A second dispatch with the key while the
    claiming process is alive is told to retry later. If that process died mid-submit, the
    site asks its workload manager for the job carrying the key
    (:mod:`endpoint_plugins.dispatch_reconcile`, on the worker's start and whenever the key
    is asked about): a job found makes the key ``done`` with that job, a manager that shows
    positively that no such job exists makes it ``abandoned``. A manager that cannot tell
    leaves it here, and the answer says so (the job name to look for) instead of guessing.
``done``
    the receipt the site returned; every repeat gets it back.
``interrupted``
    the submit ended in an unexpected error, so its outcome is unknown (as for a dead
    claimant, and settled the same way).
``abandoned``
    the claimant died before the workload manager took the job: the key is spent and the
    job never runs; the hub records the dispatch FAILED.
``withdrawn``
    the hub asked about a key this site never saw (``settle_only``): the key is spent, so a
    dispatch that was delayed in the network cannot start a job the hub has given up on.

A submit the manager refused releases the claim, so a later repeat submits afresh. Keys are
kept for ``KEEP_S`` (30 days), far beyond any hub's retry horizon.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from endpoint_plugins.errors import DispatchUnsettledError, DispatchWithdrawnError
from providers.paths import private_home
from providers.wire import DispatchReceipt

KEEP_S = 30 * 86400.0
"""How long a key is remembered."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS dispatches (
    key TEXT PRIMARY KEY, state TEXT NOT NULL, pid INTEGER NOT NULL, at REAL NOT NULL,
    job_name TEXT NOT NULL, receipt TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS dispatches_at ON dispatches(at);
"""


def default_path(site: str) -> Path:
    """Where a site keeps its keys unless its configuration names a file."""
    folder = private_home() / "sites"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"{site}.dispatch-keys.sqlite3"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


@dataclass(frozen=True)
class UnsettledClaim:
    """A key whose submit ended without a receipt: interrupted, or its claimant is gone."""

    key: str
    job_name: str
    claimed_at: float
    """Epoch seconds of the claim: no job carrying the key can be older."""


class DispatchMemory:
    """The receipts one site has issued, by idempotency key.

    Use as a context manager around one dispatch: :meth:`claim` first, then :meth:`finish`
    with the receipt or :meth:`release` when the manager refused.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        self._db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        # Switching to WAL takes an exclusive lock and does not wait for a busy one, so many
        # dispatches opening the file at once retry briefly (and skip it once it is set).
        for attempt in range(60):
            try:
                if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self._db.execute("PRAGMA journal_mode=WAL")
                self._db.executescript(_SCHEMA)
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 59:
                    self._db.close()
                    raise
                time.sleep(0.01 * (attempt + 1))

    def __enter__(self) -> DispatchMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self._db.close()

    def claim(
        self, key: str, job_name: str, *, settle_only: bool = False
    ) -> DispatchReceipt | None:
        """The receipt already issued for ``key``; None when this call may submit.

        With ``settle_only`` the hub only asks what became of the key: an unknown key is then
        withdrawn, so that the original dispatch, should it still arrive, can never run.

        Raises:
            DispatchUnsettledError: another dispatch with this key is under way (transient: ask
                again), or one was interrupted mid-submit (permanent: its outcome is unknown).
            DispatchWithdrawnError: the key was withdrawn (now or earlier).
        """
        db = self._db
        db.execute("BEGIN IMMEDIATE")  # one claimant at a time, across processes
        try:
            now = time.time()
            db.execute("DELETE FROM dispatches WHERE at < ?", (now - KEEP_S,))
            row = db.execute(
                "SELECT state, pid, at, job_name, receipt FROM dispatches WHERE key = ?", (key,)
            ).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO dispatches VALUES (?, ?, ?, ?, ?, '')",
                    (key, "withdrawn" if settle_only else "submitting", os.getpid(), now, job_name),
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        if row is None and settle_only:
            raise DispatchWithdrawnError(
                "this site never received that dispatch; it is withdrawn and will not run if "
                "it arrives late: dispatch the job again"
            )
        if row is None:
            return None
        state, pid, at, name, receipt = row
        if state == "done":
            return DispatchReceipt.model_validate_json(receipt)
        if state == "abandoned":
            raise DispatchWithdrawnError(
                "the site's worker stopped before the workload manager took this dispatch, "
                "and the manager holds no job with its key: it will never run; dispatch the "
                "job again (it gets a new key)"
            )
        if state == "withdrawn":
            raise DispatchWithdrawnError(
                "this dispatch was withdrawn when the hub found it had not arrived; dispatch "
                "the job again (it gets a new key)"
            )
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at))
        if state == "submitting" and _alive(pid):
            raise DispatchUnsettledError(
                f"a dispatch with this key started at {when} is still being submitted; "
                "ask again shortly",
                transient=True,
            )
        raise DispatchUnsettledError(
            f"a dispatch with this key was interrupted at {when} while being submitted, so "
            f"whether the workload manager took it is unknown: look for a job named {name!r} "
            "in the site's queue before running it again"
        )

    def finish(self, key: str, receipt: DispatchReceipt) -> None:
        """Remember the receipt the site is about to return for ``key``."""
        self._db.execute(
            "UPDATE dispatches SET state = 'done', at = ?, receipt = ? WHERE key = ?",
            (time.time(), receipt.model_dump_json(), key),
        )

    def interrupted(self, key: str) -> None:
        """Mark a claim whose submit ended in an unexpected error: its outcome is unknown."""
        self._db.execute(
            "UPDATE dispatches SET state = 'interrupted' WHERE key = ? AND state = 'submitting'",
            (key,),
        )

    def release(self, key: str) -> None:
        """Forget a claim whose submit was refused, so that a repeat submits afresh."""
        self._db.execute("DELETE FROM dispatches WHERE key = ? AND state = 'submitting'", (key,))

    def unsettled(self, key: str | None = None) -> list[UnsettledClaim]:
        """Claims (of ``key``, or all) whose outcome is unknown: interrupted, or still
        ``submitting`` while the process that claimed them is gone."""
        query = "SELECT key, state, pid, at, job_name FROM dispatches WHERE state IN (?, ?)"
        args: tuple[str, ...] = ("submitting", "interrupted")
        if key is not None:
            query += " AND key = ?"
            args += (key,)
        return [
            UnsettledClaim(k, name, at)
            for k, state, pid, at, name in self._db.execute(query, args).fetchall()
            if state == "interrupted" or not _alive(pid)
        ]

    def settle(self, claim: UnsettledClaim, receipt: DispatchReceipt | None) -> bool:
        """Record what the workload manager showed for an unsettled claim: the receipt of the
        job it holds under the key, or None when it positively holds none (``abandoned``).

        Only that claim changes (same key, same claim time, outcome still unknown), so two
        processes settling it at once agree. Returns True when this call changed it.
        """
        done = receipt is not None
        changed = self._db.execute(
            "UPDATE dispatches SET state = ?, at = ?, receipt = ? "
            "WHERE key = ? AND at = ? AND state IN ('submitting', 'interrupted')",
            (
                "done" if done else "abandoned",
                time.time() if done else claim.claimed_at,
                receipt.model_dump_json() if receipt is not None else "",
                claim.key,
                claim.claimed_at,
            ),
        )
        return changed.rowcount == 1
