"""Kill a worker serving a real Slurm cluster in the middle of a submit: the hub settles it.

Real processes on loopback (``secretary serve hub`` with its ledger on disk, one worker serving
the local Slurm cluster as site ``hpc``) and real ``sbatch``. A failpoint kills the worker with
SIGKILL either after Slurm took the job but before the site recorded the job id against the
dispatch key, or after the key was claimed but before ``sbatch`` ran. The worker is started
again and the hub is asked for the job's status: the restarted site asks Slurm for the job
carrying the key, so the hub settles the dispatch to the Slurm job that really runs, or to
FAILED when Slurm has none (and nothing runs later). The ground truth is written by the jobs
themselves: each appends its own ``SLURM_JOB_ID`` to a file.
"""

from __future__ import annotations

import secrets
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import need_service
from federation_harness import LocalCluster, wait_for
from slurm_cluster import cluster_responds

from providers.commands import CommandRunner

RECORD_JOB_ID = "import os, sys; open(sys.argv[1], 'a').write(os.environ['SLURM_JOB_ID'] + chr(10))"
"""A job's whole command: append the Slurm job id it runs as to a file (``sys.argv[1]``)."""


class SlurmCluster(LocalCluster):
    """A hub and one worker serving the local Slurm cluster as site ``hpc``."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, {"w-hpc": "hpc"}, heartbeat_s=1.0, site_timeout_s=20)
        (folder / "hpc.yaml").write_text(
            "name: hpc\nkind: hpc\nproviders: {enabled: [slurm, cpu, memory]}\n"
        )
        self.key = f"slurm-crash-{secrets.token_hex(6)}"

    def job_ids_that_ran(self) -> list[str]:
        return self.runs.read_text().split() if self.runs.exists() else []

    def ledger_job(self) -> tuple[str, str, str]:
        """(job id, state, native id) of the one dispatch in the ledger."""
        with sqlite3.connect(f"file:{self.ledger}?mode=ro", uri=True) as db:
            [row] = db.execute("SELECT job_id, state, native_id FROM jobs").fetchall()
        return row

    def key_state(self) -> str | None:
        """The state the site's key file holds for this test's key (None: no row yet)."""
        keys = self.home / "sites" / "hpc.dispatch-keys.sqlite3"
        with sqlite3.connect(f"file:{keys}?mode=ro", uri=True) as db:
            row = db.execute("SELECT state FROM dispatches WHERE key = ?", (self.key,)).fetchone()
        return str(row[0]) if row else None

    def slurm_jobs_with_key(self) -> list[str]:
        """Every job the controller knows (queued, running or recently ended) whose comment
        carries this test's key."""
        out = CommandRunner().run(
            ["squeue", "-h", "-a", "--states=all", "-o", "%i|%k"], timeout_s=30
        )
        return [
            line.split("|")[0]
            for line in out.stdout.splitlines()
            if line.partition("|")[2].strip().endswith(self.key)
        ]

    def job_ended(self, native_id: str) -> bool:
        out = CommandRunner().run(
            ["squeue", "-h", "--states=all", f"--jobs={native_id}", "-o", "%T"],
            timeout_s=30,
            check=False,
        )
        return out.stdout.strip() in ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[SlurmCluster]:
    need_service(cluster_responds(), "no responding Slurm cluster (run scripts/hpc/slurm-up.sh)")
    with SlurmCluster(tmp_path) as c:
        yield c


def _dispatch_and_kill(c: SlurmCluster, failpoint: str) -> str:
    """Dispatch with the worker armed to die at ``failpoint``; start it again. The hub job id."""
    c.start("hub")
    c.start("w-hpc", failpoint)
    wait_for(c.up, "site 'hpc' to be UP", timeout_s=90)
    command = [sys.executable, "-c", RECORD_JOB_ID, str(c.runs)]
    ok, result = c.call("negotiate_job", {"text": "1 core for 5 minutes", "command": command})
    assert ok, result
    args = {"request_id": result["request_id"], "site": "hpc", "force": True}
    ok, first = c.call("dispatch_job", {**args, "idempotency_key": c.key})
    assert not ok, f"the worker armed at {failpoint} should have died: {first}"
    assert c.procs.procs["w-hpc"].wait(timeout=30) == -9
    job_id, state, _ = c.ledger_job()
    assert state == "PENDING"
    c.start("w-hpc")
    wait_for(c.up, "the restarted worker to be UP", timeout_s=90)
    return job_id


def _settled(c: SlurmCluster, job_id: str) -> dict[str, Any] | None:
    """The job's record once the hub has settled it (no longer PENDING), else None."""
    ok, view = c.call("job_status", {"job_id": job_id})
    assert ok, view
    record: dict[str, Any] = view["record"]
    return record if record["state"] != "PENDING" else None


def test_killed_after_sbatch_settles_to_the_real_slurm_job(cluster: SlurmCluster) -> None:
    c = cluster
    job_id = _dispatch_and_kill(c, "site.dispatch.submitted")
    # The restarted worker settles the key on its own, before the hub asks about it.
    wait_for(lambda: c.key_state() == "done", "the site to find the job", timeout_s=60)
    record = wait_for(lambda: _settled(c, job_id), "the hub to settle the job", timeout_s=60)
    [ran] = wait_for(c.job_ids_that_ran, "the Slurm job to run", timeout_s=120)
    assert record["native_id"] == ran  # the job id Slurm really ran it as
    assert c.slurm_jobs_with_key() == [ran]  # one job, never a second
    wait_for(lambda: c.job_ended(ran), "the Slurm job to end", timeout_s=120)
    assert c.job_ids_that_ran() == [ran]
    ok, again = c.call(
        "dispatch_job",
        {"request_id": record["request_id"], "site": "hpc", "idempotency_key": c.key},
    )
    assert ok and again["job_id"] == job_id and again["native_id"] == ran, again


def test_killed_before_sbatch_settles_failed_and_nothing_runs(cluster: SlurmCluster) -> None:
    c = cluster
    job_id = _dispatch_and_kill(c, "site.dispatch.claimed")
    wait_for(lambda: c.key_state() == "abandoned", "the site to abandon the key", timeout_s=60)
    record = wait_for(lambda: _settled(c, job_id), "the hub to settle the job", timeout_s=60)
    assert record["state"] == "FAILED" and record["native_id"] == "", record
    ok, again = c.call(
        "dispatch_job",
        {"request_id": record["request_id"], "site": "hpc", "idempotency_key": c.key},
    )
    assert not ok and "withdrawn" in again, again  # the key is spent: it can never start a job
    assert c.slurm_jobs_with_key() == []
    assert c.job_ids_that_ran() == []
