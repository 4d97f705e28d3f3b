"""The ledger records every stage and survives a restart (a new connection to the same file)."""

from __future__ import annotations

import pytest

from providers.wire import DispatchReceipt, JobRequest, JobState, JobStatus, Proposal, Verdict
from secretary_executor.errors import UnknownJobError
from secretary_executor.ledger import Ledger


def test_records_survive_a_restart(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(path)
    request = JobRequest(text="python on 1 node", command=("echo", "hi"))
    ledger.record_request(request)
    ledger.record_proposals(
        request.request_id,
        [Proposal(site="a", verdict=Verdict.READY), Proposal(site="b", verdict=Verdict.BUSY)],
    )
    ledger.record_selection(request.request_id, "soonest", "a", {"ranked": ["a", "b"]})
    ledger.record_attempt(request.request_id, "a", True, "local-1")
    receipt = DispatchReceipt(
        job_id="j1",
        request_id=request.request_id,
        site="a",
        native_id="local-1",
        provider="local",
    )
    ledger.record_dispatch(receipt)
    assert ledger.record_status(
        "j1", JobStatus(site="a", native_id="local-1", state=JobState.RUNNING)
    )
    assert not ledger.record_status(
        "j1", JobStatus(site="a", native_id="local-1", state=JobState.RUNNING)
    )
    ledger.record_status(
        "j1", JobStatus(site="a", native_id="local-1", state=JobState.COMPLETED, exit_code=0)
    )
    ledger.close()

    again = Ledger(path)
    job = again.job("j1")
    assert (job.state, job.exit_code, job.site) == (JobState.COMPLETED, 0, "a")
    assert [e.state for e in again.events("j1")] == [
        JobState.QUEUED,
        JobState.RUNNING,
        JobState.COMPLETED,
    ]
    assert [p.site for p in again.proposals(request.request_id)] == ["a", "b"]
    assert again.request(request.request_id) == request
    assert again.attempts(request.request_id) == [("a", True, "local-1")]
    assert [j.job_id for j in again.jobs()] == ["j1"]


def test_unknown_job_says_how_to_list_jobs():
    ledger = Ledger(":memory:")
    with pytest.raises(UnknownJobError, match="resource-ask jobs"):
        ledger.job("nope")


def test_default_path_is_under_secretary_home(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRETARY_HOME", str(tmp_path / "home"))
    ledger = Ledger()
    assert ledger.path == str(tmp_path / "home" / "ledger.sqlite3")


def test_batched_attempts_keep_every_row_in_order_across_statements():
    from secretary_executor import ledger as ledger_module

    ledger = Ledger(":memory:")
    count = 2 * ledger_module.ROWS_PER_INSERT + 3  # two full statements and a short one
    rows = ((f"req-{i % 2}", f"site-{i}", i % 3 == 0, f"message {i}") for i in range(count))
    ledger.record_attempts(rows)  # a generator, consumed once
    ledger.record_attempts(iter(()))  # an empty batch writes nothing
    for request_id in ("req-0", "req-1"):
        got = ledger.attempts(request_id)
        want = [
            (f"site-{i}", i % 3 == 0, f"message {i}")
            for i in range(count)
            if f"req-{i % 2}" == request_id
        ]
        assert got == want
