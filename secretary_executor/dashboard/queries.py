"""Read-only SQL over the ledger, one function per question a view asks.

Why plain SQL rather than the ledger's record methods: the fleet view needs the latest proposal
of each of a thousand sites, and the cost view a join of jobs, proposals, events and plans.
Asked through per-record methods these are thousands of queries; here each is one. Metrics are
read with ``json_extract`` so that only the fields shown are decoded, not whole proposals.
Every function takes the connection from :meth:`Ledger.reading` and never writes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class LatestProposal:
    """A site's most recent proposal, reduced to what the fleet view shows."""

    site: str
    verdict: str
    created_at: datetime
    metrics: dict[str, Any]


@dataclass(frozen=True)
class CostFacts:
    """What costing one job needs."""

    job_id: str
    site: str
    state: str
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    nodes: int
    metrics: dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """A proposal without its evidence: what the grid and the proposals table show."""

    site: str
    verdict: str
    reason: str
    metrics: dict[str, Any]
    checks: tuple[tuple[str, str, str], ...]
    """``(requirement, status, detail)`` of each check."""


def answers(db: sqlite3.Connection, request_id: str) -> list[Answer]:
    """Every proposal for a request, in order, with the evidence left inside SQLite.

    Why: evidence is most of a proposal's bytes, and decoding a thousand whole proposals costs
    more than the rest of the view together; a grid cell fetches its evidence when opened.
    """
    rows = db.execute(
        "SELECT site, verdict, coalesce(json_extract(body, '$.reason'), '') AS reason,"
        " json_extract(body, '$.metrics') AS metrics,"
        " (SELECT json_group_array(json_array(json_extract(c.value, '$.requirement'),"
        "   json_extract(c.value, '$.status'), coalesce(json_extract(c.value, '$.detail'), '')))"
        "   FROM json_each(body, '$.checks') AS c) AS checks"
        " FROM proposals WHERE request_id = ? ORDER BY rowid",
        (request_id,),
    ).fetchall()
    return [
        Answer(
            site=r["site"],
            verdict=r["verdict"],
            reason=r["reason"],
            metrics=_json_object(r["metrics"]),
            checks=tuple((str(q), str(s), str(d)) for q, s, d in json.loads(r["checks"] or "[]")),
        )
        for r in rows
    ]


def stamp(db: sqlite3.Connection) -> str:
    """A string that changes whenever a row is added to, or a job changes in, the ledger."""
    row = db.execute(
        "SELECT (SELECT max(rowid) FROM requests), (SELECT max(rowid) FROM proposals),"
        " (SELECT max(rowid) FROM selections), (SELECT max(rowid) FROM attempts),"
        " (SELECT max(rowid) FROM events), (SELECT count(*) FROM jobs)"
    ).fetchone()
    return ".".join(str(v or 0) for v in row)


def latest_proposals(db: sqlite3.Connection) -> list[LatestProposal]:
    """Each site's latest proposal (the ``proposals_site`` index makes this one pass)."""
    rows = db.execute(
        "SELECT site, verdict, created_at, json_extract(body, '$.metrics') AS metrics"
        " FROM proposals WHERE rowid IN (SELECT max(rowid) FROM proposals GROUP BY site)"
    ).fetchall()
    return [
        LatestProposal(
            site=r["site"],
            verdict=r["verdict"],
            created_at=datetime.fromisoformat(r["created_at"]),
            metrics=_json_object(r["metrics"]),
        )
        for r in rows
    ]


def recent_requests(db: sqlite3.Connection, limit: int) -> list[sqlite3.Row]:
    """``request_id, created_at, text`` of the newest requests, newest first."""
    return db.execute(
        "SELECT request_id, created_at, text FROM requests ORDER BY rowid DESC LIMIT ?", (limit,)
    ).fetchall()


def verdict_counts(db: sqlite3.Connection, ids: Sequence[str]) -> dict[str, dict[str, int]]:
    """request id -> verdict -> how many sites answered it."""
    out: dict[str, dict[str, int]] = {}
    for r in db.execute(
        f"SELECT request_id, verdict, count(*) AS n FROM proposals WHERE request_id IN "
        f"({_marks(ids)}) GROUP BY request_id, verdict",
        tuple(ids),
    ):
        out.setdefault(r["request_id"], {})[r["verdict"]] = r["n"]
    return out


def chosen_sites(db: sqlite3.Connection, ids: Sequence[str]) -> dict[str, str | None]:
    """request id -> the site its latest selection chose."""
    return {
        r["request_id"]: r["site"]
        for r in db.execute(
            f"SELECT request_id, site FROM selections WHERE request_id IN ({_marks(ids)})"
            " ORDER BY rowid",
            tuple(ids),
        )
    }


def job_counts(db: sqlite3.Connection, ids: Sequence[str]) -> dict[str, int]:
    return {
        r["request_id"]: r["n"]
        for r in db.execute(
            f"SELECT request_id, count(*) AS n FROM jobs WHERE request_id IN ({_marks(ids)})"
            " GROUP BY request_id",
            tuple(ids),
        )
    }


def selections(db: sqlite3.Connection, request_id: str) -> list[sqlite3.Row]:
    """``algorithm, site, created_at, body`` of each selection made for a request, in order."""
    return db.execute(
        "SELECT algorithm, site, created_at, body FROM selections WHERE request_id = ?"
        " ORDER BY rowid",
        (request_id,),
    ).fetchall()


def request_created(db: sqlite3.Connection, request_id: str) -> datetime | None:
    row = db.execute(
        "SELECT created_at FROM requests WHERE request_id = ?", (request_id,)
    ).fetchone()
    return None if row is None else datetime.fromisoformat(row["created_at"])


def jobs_of(db: sqlite3.Connection, request_id: str) -> list[str]:
    return [
        r["job_id"]
        for r in db.execute(
            "SELECT job_id FROM jobs WHERE request_id = ? ORDER BY created_at", (request_id,)
        )
    ]


def recent_jobs(db: sqlite3.Connection, limit: int) -> list[sqlite3.Row]:
    """Jobs (with their request's text), newest first."""
    return db.execute(
        "SELECT jobs.*, coalesce(requests.text, '') AS text FROM jobs"
        " LEFT JOIN requests USING (request_id) ORDER BY jobs.created_at DESC LIMIT ?",
        (limit,),
    ).fetchall()


def job_row(db: sqlite3.Connection, job_id: str) -> sqlite3.Row | None:
    return db.execute(
        "SELECT jobs.*, coalesce(requests.text, '') AS text FROM jobs"
        " LEFT JOIN requests USING (request_id) WHERE job_id = ?",
        (job_id,),
    ).fetchone()


def events_of(db: sqlite3.Connection, ids: Sequence[str]) -> dict[str, list[sqlite3.Row]]:
    """job id -> its events (``at, state, message``), in order."""
    out: dict[str, list[sqlite3.Row]] = {i: [] for i in ids}
    for r in db.execute(
        f"SELECT job_id, at, state, message FROM events WHERE job_id IN ({_marks(ids)})"
        " ORDER BY rowid",
        tuple(ids),
    ):
        out[r["job_id"]].append(r)
    return out


def cost_facts(db: sqlite3.Connection) -> list[CostFacts]:
    """Every job with its chosen proposal's metrics, first RUNNING time and planned nodes."""
    rows = db.execute(
        "SELECT j.job_id, j.site, j.state, j.created_at, j.updated_at,"
        " (SELECT json_extract(p.body, '$.metrics') FROM proposals p"
        "   WHERE p.request_id = j.request_id AND p.site = j.site"
        "   ORDER BY p.rowid DESC LIMIT 1) AS metrics,"
        " (SELECT min(e.at) FROM events e WHERE e.job_id = j.job_id AND e.state = 'RUNNING')"
        "   AS started_at,"
        " (SELECT json_extract(d.plan, '$.nodes') FROM dispatches d WHERE d.job_id = j.job_id)"
        "   AS nodes"
        " FROM jobs j ORDER BY j.created_at"
    ).fetchall()
    return [
        CostFacts(
            job_id=r["job_id"],
            site=r["site"],
            state=r["state"],
            created_at=datetime.fromisoformat(r["created_at"]),
            updated_at=datetime.fromisoformat(r["updated_at"]),
            started_at=datetime.fromisoformat(r["started_at"]) if r["started_at"] else None,
            nodes=int(r["nodes"]) if isinstance(r["nodes"], int) and r["nodes"] > 0 else 1,
            metrics=_json_object(r["metrics"]),
        )
        for r in rows
    ]


def _marks(ids: Sequence[str]) -> str:
    return ",".join("?" * len(ids)) or "NULL"


def _json_object(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {}
