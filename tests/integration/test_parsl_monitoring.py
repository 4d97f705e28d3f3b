"""The chosen site and request id of every task try, joined to Parsl's monitoring database.

A real DataFlowKernel with monitoring on (SQLite) runs tasks through SecretaryExecutor; one
task raises and is retried by Parsl, so it has two tries. The ledger's
``secretary_placement`` table, attached to the monitoring database, gives each row of Parsl's
``try`` table its site and negotiation request id, with the query documented in docs/parsl.md.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import parsl
import pytest
from conftest import wait_until
from parsl.config import Config

from secretary_executor.parsl import SecretaryExecutor, ThreadChannel, secretary_app

SITES = ("cloud-gpu", "cloud-k8s", "edge-jetson", "hpc-campus", "hpc-frontier-like", "hpc-legacy")

QUERY = """
SELECT t.task_id, t.try_id, t.task_executor, p.site, p.request_id, p.ok
FROM try AS t
JOIN ledger.secretary_placement AS p
  ON p.run_id = t.run_id AND p.task_id = t.task_id AND p.try_id = t.try_id
WHERE t.run_id = ?
ORDER BY t.task_id, t.try_id
"""


@secretary_app
def double(x: int) -> int:
    return 2 * x


class Boom(Exception):
    pass


@secretary_app
def explode() -> None:
    raise Boom("no")


def _tries(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        try:
            return conn.execute("SELECT COUNT(*) FROM try").fetchone()[0]
        except sqlite3.OperationalError:  # the writer has not made its tables yet
            return 0


# With thread channels the monitoring wrapper runs in this process, and Parsl's UDP radio
# sender leaves one socket per task for the garbage collector to close.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_each_try_names_its_site_and_request_in_the_monitoring_database(tmp_path: Path) -> None:
    from parsl.monitoring import MonitoringHub

    ledger = tmp_path / "ledger.db"
    channels = {site: ThreadChannel(2, name=site) for site in SITES}
    ex = SecretaryExecutor("demo", channels, ledger=ledger)
    db = tmp_path / "monitoring.db"
    config = Config(
        executors=[ex],
        run_dir=str(tmp_path / "runinfo"),
        initialize_logging=False,
        retries=1,
        monitoring=MonitoringHub(
            logging_endpoint=f"sqlite:///{db}", resource_monitoring_interval=0
        ),
    )
    with parsl.load(config) as dfk:
        run_id = dfk.run_id
        assert [double(i).result(timeout=120) for i in range(3)] == [0, 2, 4]
        with pytest.raises(Boom):
            explode().result(timeout=120)
    # The database writer runs in its own process: 3 tasks of one try, one of two.
    wait_until(lambda: _tries(db) >= 5, timeout_s=60, what="five tries in the monitoring db")

    with sqlite3.connect(db) as conn:
        conn.execute("ATTACH DATABASE ? AS ledger", (str(ledger),))
        rows = conn.execute(QUERY, (run_id,)).fetchall()

    sites = {p.site for p in ex.placements.values()}
    requests = {p.request_id for p in ex.placements.values()}
    assert [(task, try_) for task, try_, *_ in rows] == [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]
    assert {executor for _, _, executor, *_ in rows} == {"secretary"}
    assert {site for *_, site, _, _ in rows} <= sites and all(
        site in SITES for *_, site, _, _ in rows
    )
    assert {request for *_, request, _ in rows} <= requests
    assert [ok for *_, ok in rows] == [1, 1, 1, 0, 0]  # the raising task failed at both tries
