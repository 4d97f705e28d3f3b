"""The ledger: a SQLite record of every request, proposal, selection, dispatch and job state.

It survives restarts (``resource-ask status JOB`` works from a new process) and is the audit
trail of why a job ran where it did. Writes are serialised by a lock; SQLite runs in WAL mode
so readers never block the writer. Records are stored as the wire models' JSON, so the ledger
reads back exactly what crossed the wire.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import sqlite3
import stat
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from providers.paths import private_home
from providers.wire import DispatchReceipt, JobRequest, JobState, JobStatus, Proposal
from providers.wire.common import WireModel
from secretary_executor.errors import LedgerError, UnknownJobError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS requests (
    request_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, text TEXT NOT NULL, body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS proposals (
    request_id TEXT NOT NULL, site TEXT NOT NULL, verdict TEXT NOT NULL,
    created_at TEXT NOT NULL, body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS proposals_request ON proposals(request_id);
CREATE INDEX IF NOT EXISTS proposals_site ON proposals(site);
CREATE TABLE IF NOT EXISTS selections (
    request_id TEXT NOT NULL, algorithm TEXT NOT NULL, site TEXT, created_at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS selections_request ON selections(request_id);
CREATE TABLE IF NOT EXISTS jobs (
    job_id TEXT PRIMARY KEY, request_id TEXT NOT NULL, site TEXT NOT NULL,
    native_id TEXT NOT NULL, provider TEXT NOT NULL, state TEXT NOT NULL,
    exit_code INTEGER, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, receipt TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_request ON jobs(request_id);
CREATE TABLE IF NOT EXISTS dispatches (
    job_id TEXT PRIMARY KEY, dispatch_key TEXT NOT NULL UNIQUE, plan TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    job_id TEXT NOT NULL, at TEXT NOT NULL, state TEXT NOT NULL, message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_job ON events(job_id);
CREATE TABLE IF NOT EXISTS attempts (
    request_id TEXT NOT NULL, site TEXT NOT NULL, at TEXT NOT NULL, ok INTEGER NOT NULL,
    message TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS secretary_placement (
    run_id TEXT NOT NULL, task_id INTEGER NOT NULL, try_id INTEGER NOT NULL,
    site TEXT NOT NULL, request_id TEXT NOT NULL, ok INTEGER NOT NULL, message TEXT NOT NULL,
    executor_label TEXT NOT NULL, at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS secretary_placement_try
    ON secretary_placement(run_id, task_id, try_id);
"""


class JobRecord(WireModel):
    """A dispatched job as the ledger knows it."""

    job_id: str
    request_id: str
    site: str
    native_id: str
    provider: str
    state: JobState
    exit_code: int | None = None
    created_at: datetime
    updated_at: datetime


class JobEvent(WireModel):
    """One state change of a job."""

    job_id: str
    at: datetime
    state: JobState
    message: str = ""


ROWS_PER_INSERT = 199
"""Attempt rows per ``INSERT`` in :meth:`Ledger.record_attempts`: 995 bound values, within the
999 that every SQLite build accepts."""
_ATTEMPT_COLUMNS = 5


@functools.cache
def _insert_attempts(rows: int) -> str:
    """``INSERT INTO attempts`` with ``rows`` rows of placeholders (cached by size)."""
    return "INSERT INTO attempts VALUES " + ", ".join(["(?, ?, ?, ?, ?)"] * rows)


def _now() -> str:
    return datetime.now(UTC).isoformat()


class Ledger:
    """Persistent record of the hub's work.

    Args:
        path: the SQLite file; default ``$SECRETARY_HOME/ledger.sqlite3``. ``":memory:"``
            keeps it in memory (tests, benchmarks).
    """

    def __init__(self, path: str | Path | None = None) -> None:
        if path is None:
            path = private_home() / "ledger.sqlite3"
        self.path = str(path)
        if self.path != ":memory:":
            _owner_only(Path(self.path))
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._db.row_factory = sqlite3.Row
            with self._db:
                if self.path != ":memory:":
                    self._db.execute("PRAGMA journal_mode=WAL")
                self._db.executescript(_SCHEMA)
        except (sqlite3.OperationalError, OSError) as exc:
            raise LedgerError(
                f"cannot open the ledger {self.path}: {exc}; make its folder writable "
                "(SECRETARY_HOME) or free disk space"
            ) from None

    def __repr__(self) -> str:
        return f"Ledger(path={self.path!r})"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; a disk or file problem becomes a :class:`LedgerError`."""
        try:
            with self._lock, self._db:
                yield self._db
        except (sqlite3.OperationalError, OSError) as exc:
            raise LedgerError(
                f"cannot write the ledger {self.path}: {exc}; free disk space or make its folder "
                "writable (this step was not recorded)"
            ) from None

    # -- writes ----------------------------------------------------------------------------

    def record_request(self, request: JobRequest) -> None:
        """Record the request; environment variables are kept by name, never by value."""
        if request.environment:
            hidden = {name: REDACTED for name in request.environment}
            request = request.model_copy(update={"environment": hidden})
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO requests VALUES (?, ?, ?, ?)",
                (request.request_id, _now(), request.text, request.model_dump_json()),
            )

    def record_proposals(self, request_id: str, proposals: Sequence[Proposal]) -> None:
        with self._tx() as db:
            db.executemany(
                "INSERT INTO proposals VALUES (?, ?, ?, ?, ?)",
                [
                    (request_id, p.site, p.verdict.value, _now(), p.model_dump_json())
                    for p in proposals
                ],
            )

    def record_selection(
        self, request_id: str, algorithm: str, site: str | None, detail: dict[str, object]
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO selections VALUES (?, ?, ?, ?, ?)",
                (request_id, algorithm, site, _now(), json.dumps(detail, default=str)),
            )

    def record_attempt(self, request_id: str, site: str, ok: bool, message: str) -> None:
        """One dispatch attempt (failover leaves one row per site tried)."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO attempts VALUES (?, ?, ?, ?, ?)",
                (request_id, site, _now(), int(ok), message),
            )

    def record_attempts(self, rows: Iterable[tuple[str, str, bool, str]]) -> None:
        """Many attempts ``(request_id, site, ok, message)`` in one transaction.

        A commit costs a disk sync and a row costs microseconds, so high-rate callers (the
        Parsl executor) batch their attempts through here. Rows are consumed one at a time (a
        generator is fine): a batch of thousands never exists as thousands of tuples at once,
        which would set off garbage collections in the caller's process. They are inserted
        :data:`ROWS_PER_INSERT` to a statement, not one statement a row: Python's ``sqlite3``
        lets go of the GIL around every statement it runs, so a statement a row made the
        writing thread take the GIL back once per row, a thread switch each time the process
        is busy running tasks.
        """
        now = _now()
        values: list[str | int] = []
        full = _ATTEMPT_COLUMNS * ROWS_PER_INSERT
        with self._tx() as db:
            for rid, site, ok, message in rows:
                values += (rid, site, now, int(ok), message)
                if len(values) == full:
                    db.execute(_insert_attempts(ROWS_PER_INSERT), values)
                    values.clear()
            if values:
                db.execute(_insert_attempts(len(values) // _ATTEMPT_COLUMNS), values)

    def record_placements(
        self, rows: Iterable[tuple[str, int, int, str, str, bool, str, str]]
    ) -> None:
        """Parsl task tries placed by ``SecretaryExecutor``, for joining to Parsl monitoring.

        Each row is ``(run_id, task_id, try_id, site, request_id, ok, message,
        executor_label)``, keyed as Parsl's monitoring ``try`` table is (one row per site tried
        within a try, so failover shows). See docs/parsl.md for the query.
        """
        now = _now()
        with self._tx() as db:
            db.executemany(
                "INSERT INTO secretary_placement VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    (run, task, try_, site, rid, int(ok), message, label, now)
                    for run, task, try_, site, rid, ok, message, label in rows
                ),
            )

    def placements(self, run_id: str) -> list[tuple[int, int, str, str, bool, str]]:
        """``(task_id, try_id, site, request_id, ok, message)`` of one Parsl run, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT task_id, try_id, site, request_id, ok, message FROM secretary_placement"
                " WHERE run_id = ? ORDER BY rowid",
                (run_id,),
            ).fetchall()
        return [
            (r["task_id"], r["try_id"], r["site"], r["request_id"], bool(r["ok"]), r["message"])
            for r in rows
        ]

    def begin_dispatch(
        self, job_id: str, request_id: str, site: str, key: str, plan: str, *, event: bool = True
    ) -> JobRecord:
        """Write a dispatch ahead of sending it: a PENDING job under the hub's ``job_id``.

        Why: if the hub dies or loses the reply after the site accepted the job, the row is
        still here, and sending the dispatch again with the same ``key`` makes the site return
        its first receipt rather than run the job twice. ``plan`` is the dispatch plan's JSON,
        kept for that repeat.

        Returns the job's record: the new PENDING row, or the row an earlier dispatch with this
        key left, PENDING (outcome unknown: send again) or accepted (done: nothing to send).
        """
        now = _now()
        with self._tx() as db:
            row = db.execute(
                "SELECT jobs.* FROM dispatches JOIN jobs USING (job_id) WHERE dispatch_key = ?",
                (key,),
            ).fetchone()
            if row is not None:
                return _job(row)
            db.execute(
                "INSERT INTO jobs VALUES (?, ?, ?, '', '', ?, NULL, ?, ?, '')",
                (job_id, request_id, site, JobState.PENDING.value, now, now),
            )
            db.execute("INSERT INTO dispatches VALUES (?, ?, ?)", (job_id, key, plan))
            if event:
                db.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?)",
                    (job_id, now, JobState.PENDING.value, f"sending to {site}"),
                )
            row = db.execute("SELECT * FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
        return _job(row)

    def complete_dispatch(
        self, receipt: DispatchReceipt, environment: Mapping[str, str] | None = None
    ) -> None:
        """Fill a PENDING job with the site's receipt (its native id, provider and script).

        The values of ``environment`` (the request's variables) are taken out of the stored job
        script: it may carry them as ``export NAME=value``.
        """
        if environment and receipt.script:
            receipt = receipt.model_copy(
                update={"script": _without_values(receipt.script, environment)}
            )
        now = _now()
        with self._tx() as db:
            updated = db.execute(
                "UPDATE jobs SET native_id = ?, provider = ?, state = ?, updated_at = ?, "
                "receipt = ? WHERE job_id = ? AND state = ?",
                (
                    receipt.native_id,
                    receipt.provider,
                    receipt.state.value,
                    now,
                    receipt.model_dump_json(),
                    receipt.job_id,
                    JobState.PENDING.value,
                ),
            ).rowcount
            if not updated:
                raise UnknownJobError(f"no pending dispatch {receipt.job_id!r} to complete")
            db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?)",
                (receipt.job_id, now, receipt.state.value, f"dispatched to {receipt.site}"),
            )

    def drop_dispatch(self, job_id: str) -> None:
        """Remove a PENDING job the site refused outright: it never existed there."""
        with self._tx() as db:
            gone = db.execute(
                "DELETE FROM jobs WHERE job_id = ? AND state = ?", (job_id, JobState.PENDING.value)
            ).rowcount
            if gone:
                db.execute("DELETE FROM dispatches WHERE job_id = ?", (job_id,))
                db.execute("DELETE FROM events WHERE job_id = ?", (job_id,))

    def record_dispatch(
        self, receipt: DispatchReceipt, environment: Mapping[str, str] | None = None
    ) -> None:
        """Record a job a site has accepted, in one step (write-ahead and completion)."""
        self.begin_dispatch(
            receipt.job_id,
            receipt.request_id,
            receipt.site,
            f"job:{receipt.job_id}",
            "{}",
            event=False,
        )
        self.complete_dispatch(receipt, environment)

    def pending(self) -> list[tuple[JobRecord, str, str]]:
        """Dispatches still PENDING: ``(record, key, plan JSON)``, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT jobs.*, dispatch_key, plan FROM jobs JOIN dispatches USING (job_id) "
                "WHERE state = ? ORDER BY created_at",
                (JobState.PENDING.value,),
            ).fetchall()
        return [(_job(r), r["dispatch_key"], r["plan"]) for r in rows]

    def dispatched_with(self, key: str) -> JobRecord | None:
        """The job written ahead under ``key``, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT jobs.* FROM dispatches JOIN jobs USING (job_id) WHERE dispatch_key = ?",
                (key,),
            ).fetchone()
        return None if row is None else _job(row)

    def dispatched_under(self, prefix: str) -> list[tuple[JobRecord, str]]:
        """Jobs whose dispatch key starts with ``prefix``: ``(record, key)``, oldest first."""
        pattern = prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%"
        with self._lock:
            rows = self._db.execute(
                "SELECT jobs.*, dispatch_key FROM dispatches JOIN jobs USING (job_id) "
                "WHERE dispatch_key LIKE ? ESCAPE '!' ORDER BY created_at",
                (pattern,),
            ).fetchall()
        return [(_job(r), r["dispatch_key"]) for r in rows]

    def dispatch_plan(self, job_id: str) -> str | None:
        """The plan JSON a dispatch was written ahead with (None: recorded in one step)."""
        with self._lock:
            row = self._db.execute(
                "SELECT plan FROM dispatches WHERE job_id = ?", (job_id,)
            ).fetchone()
        return None if row is None else str(row["plan"])

    def receipt(self, job_id: str) -> DispatchReceipt:
        """The receipt an accepted job was recorded with.

        Raises:
            UnknownJobError: no such job, or its dispatch is still PENDING.
        """
        with self._lock:
            row = self._db.execute(
                "SELECT receipt FROM jobs WHERE job_id = ?", (job_id,)
            ).fetchone()
        if row is None or not row["receipt"]:
            raise UnknownJobError(f"job {job_id!r} has no receipt yet (its dispatch is pending)")
        return DispatchReceipt.model_validate_json(row["receipt"])

    def record_status(self, job_id: str, status: JobStatus) -> bool:
        """Store a status; returns True when the state changed (and an event was added)."""
        now = _now()
        with self._tx() as db:
            row = db.execute("SELECT state FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
            if row is None:
                raise UnknownJobError(
                    f"unknown job {job_id!r}; list jobs with 'resource-ask jobs'", job_id=job_id
                )
            if JobState(row["state"]).terminal:
                return False  # a finished job stays finished, whatever a late reply says
            changed = row["state"] != status.state.value
            db.execute(
                "UPDATE jobs SET state = ?, exit_code = ?, updated_at = ? WHERE job_id = ?",
                (status.state.value, status.exit_code, now, job_id),
            )
            if changed:
                db.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?)",
                    (job_id, now, status.state.value, status.message),
                )
            return changed

    # -- reads -----------------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, held for a batch of read-only queries (the dashboard's).

        Why: a view of the whole fleet is a handful of aggregate queries; running them under one
        hold of the lock gives them one consistent snapshot, and keeps their SQL next to the
        views that need it instead of growing this class by a method per view. Callers must not
        write through it: writes go through the methods above, which keep the audit trail whole.
        """
        with self._lock:
            yield self._db

    def job(self, job_id: str) -> JobRecord:
        """The job's record.

        Raises:
            UnknownJobError: the ledger has no such job.
        """
        with self._lock:
            row = self._db.execute("SELECT * FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
        if row is None:
            raise UnknownJobError(
                f"unknown job {job_id!r}; list jobs with 'resource-ask jobs'", job_id=job_id
            )
        return _job(row)

    def jobs(self, limit: int = 50) -> list[JobRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM jobs ORDER BY created_at DESC LIMIT ?", (limit,)
            ).fetchall()
        return [_job(r) for r in rows]

    def events(self, job_id: str) -> list[JobEvent]:
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM events WHERE job_id = ? ORDER BY rowid", (job_id,)
            ).fetchall()
        return [
            JobEvent(job_id=r["job_id"], at=r["at"], state=r["state"], message=r["message"])
            for r in rows
        ]

    def proposals(self, request_id: str) -> list[Proposal]:
        with self._lock:
            rows = self._db.execute(
                "SELECT body FROM proposals WHERE request_id = ? ORDER BY rowid", (request_id,)
            ).fetchall()
        return [Proposal.model_validate_json(r["body"]) for r in rows]

    def request(self, request_id: str) -> JobRequest | None:
        with self._lock:
            row = self._db.execute(
                "SELECT body FROM requests WHERE request_id = ?", (request_id,)
            ).fetchone()
        return JobRequest.model_validate_json(row["body"]) if row else None

    def attempts(self, request_id: str) -> list[tuple[str, bool, str]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT site, ok, message FROM attempts WHERE request_id = ? ORDER BY rowid",
                (request_id,),
            ).fetchall()
        return [(r["site"], bool(r["ok"]), r["message"]) for r in rows]


REDACTED = "<not recorded>"
"""What the ledger stores in place of an environment variable's value."""

_SHORT = 4
"""Values shorter than this are replaced only where they follow ``NAME=``: replacing ``1``
everywhere would garble the script, and such values are not secrets."""


def _without_values(script: str, environment: Mapping[str, str]) -> str:
    for name, value in sorted(environment.items(), key=lambda kv: -len(kv[1])):
        if not value:
            continue
        for form in (shlex.quote(value), value):
            script = script.replace(f"{name}={form}", f"{name}={REDACTED}")
        if len(value) >= _SHORT:
            script = script.replace(value, REDACTED)
    return script


def _owner_only(path: Path) -> None:
    """Create the ledger file as 0600 before SQLite opens it (its -wal and -shm files take the
    same mode), and narrow an existing one that is ours."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return  # SQLite's own open reports the problem with its message
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o077:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


def _job(row: sqlite3.Row) -> JobRecord:
    return JobRecord(
        job_id=row["job_id"],
        request_id=row["request_id"],
        site=row["site"],
        native_id=row["native_id"],
        provider=row["provider"],
        state=row["state"],
        exit_code=row["exit_code"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
