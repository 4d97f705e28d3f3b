"""A dispatch key left mid-submit by a dead process is settled from what the manager holds.

A real Secretary serving this machine (the local workload provider, jobs really started under a
private ``SECRETARY_HOME``) and its real key file. A process that "died" mid-submit is made by
claiming a key and then giving the claim the pid of a process that no longer exists.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest
from counting_site import CountingSecretary

from endpoint_plugins.config import SiteConfig
from endpoint_plugins.dispatch_keys import DispatchMemory
from endpoint_plugins.errors import DispatchUnsettledError, DispatchWithdrawnError
from endpoint_plugins.secretary import DispatchPlan, Secretary, _job_name
from providers.jobspec import JobSpec
from providers.wire import JobRequest
from providers.workload.local import LocalMachineProvider, jobs_root
from providers.workload.local_runner import RUNNER_PID_FILE, STATE_FILE
from providers.workload.slurm import render_batch_script
from providers.workload.slurm_keys import job_with_comment, key_comment, parse_min_job_age

KEY = "reconcile-key-0001"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Secretary:
    monkeypatch.setenv("SECRETARY_HOME", str(tmp_path / "home"))
    config = SiteConfig(name="here", dispatch_keys_file=str(tmp_path / "keys.sqlite3"))
    return Secretary(config, providers=[LocalMachineProvider()])


def _request() -> JobRequest:
    return JobRequest(text="", command=(sys.executable, "-c", "pass"))


def _claimant_died(site: Secretary) -> None:
    """Give every claim in the site's key file the pid of a process that no longer exists."""
    dead = max(int(p) for p in os.listdir("/proc") if p.isdigit()) + 10_000
    with sqlite3.connect(str(site.config.dispatch_keys_file)) as db:
        db.execute("UPDATE dispatches SET pid = ?", (dead,))


def _claim(site: Secretary, request: JobRequest) -> None:
    with DispatchMemory(str(site.config.dispatch_keys_file)) as memory:
        assert memory.claim(KEY, _job_name(request)) is None


def _jobs() -> list[str]:
    root = jobs_root()
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else []


def test_a_job_the_manager_took_is_found_by_its_key(site: Secretary) -> None:
    request, plan = _request(), DispatchPlan(idempotency_key=KEY)
    _claim(site, request)
    taken = site._submit(request, plan)  # the manager took it; the receipt was never saved
    _claimant_died(site)

    receipt = site.dispatch(request, plan)  # the hub asks again with the same key
    assert receipt.native_id == taken.native_id and receipt.provider == "local"
    assert _jobs() == [taken.native_id]  # found, not submitted a second time
    assert site.dispatch(request, plan).native_id == taken.native_id


def test_a_refused_earlier_submit_with_the_key_is_not_taken_for_the_job(
    site: Secretary,
) -> None:
    """A submit the manager refused released the key; its folder (a state, no runner) must not
    be mistaken for the job a later claim of the key started."""
    request, plan = _request(), DispatchPlan(idempotency_key=KEY)
    refused = site._submit(request, plan)
    (jobs_root() / refused.native_id / RUNNER_PID_FILE).unlink()
    (jobs_root() / refused.native_id / STATE_FILE).write_text("FAILED\n")
    _claim(site, request)
    _claimant_died(site)
    with pytest.raises(DispatchWithdrawnError, match="will never run"):
        site.dispatch(request, plan)


def test_a_job_the_manager_never_took_is_abandoned_and_never_runs(site: Secretary) -> None:
    request, plan = _request(), DispatchPlan(idempotency_key=KEY)
    _claim(site, request)
    _claimant_died(site)

    for settle_only in (True, False):  # the hub's settle, then a repeat of the dispatch
        with pytest.raises(DispatchWithdrawnError, match="will never run"):
            site.dispatch(request, plan.model_copy(update={"settle_only": settle_only}))
    assert _jobs() == []


def test_a_worker_start_settles_every_key_its_predecessor_left(site: Secretary) -> None:
    request = _request()
    _claim(site, request)
    taken = site._submit(request, DispatchPlan(idempotency_key=KEY))
    with DispatchMemory(str(site.config.dispatch_keys_file)) as memory:
        assert memory.claim("never-submitted-1", "secretary-x") is None
    _claimant_died(site)

    assert site.settle_unfinished_dispatches() == 2
    assert site.settle_unfinished_dispatches() == 0  # nothing is left to settle
    with DispatchMemory(str(site.config.dispatch_keys_file)) as memory:
        first = memory.claim(KEY, _job_name(request))
        assert first is not None and first.native_id == taken.native_id
        with pytest.raises(DispatchWithdrawnError):
            memory.claim("never-submitted-1", "secretary-x")


def test_a_claim_whose_process_lives_is_left_to_it(site: Secretary) -> None:
    request, plan = _request(), DispatchPlan(idempotency_key=KEY)
    _claim(site, request)  # claimed by this (live) process, which may still submit
    assert site.settle_unfinished_dispatches() == 0
    with pytest.raises(DispatchUnsettledError) as info:
        site.dispatch(request, plan)
    assert info.value.transient and _jobs() == []


def test_a_manager_that_cannot_tell_leaves_the_key_unknown(tmp_path: Path) -> None:
    """The demo campus site's recorded Slurm keeps no keys: the answer names the job."""
    secretary = CountingSecretary("campus", tmp_path / "keys.sqlite3")
    request = JobRequest(text="", command=("hostname",))
    _claim(secretary, request)
    _claimant_died(secretary)
    assert secretary.settle_unfinished_dispatches() == 0
    with pytest.raises(DispatchUnsettledError) as info:
        secretary.dispatch(request, DispatchPlan(idempotency_key=KEY))
    assert _job_name(request) in info.value.message and not info.value.transient
    assert secretary.submitted == []


def test_a_slurm_job_carries_its_key_in_its_comment() -> None:
    spec = JobSpec(name="secretary-r1", command=("hostname",), dispatch_key="k1@site-a:0001")
    assert "#SBATCH --comment=secretary-key:k1@site-a:0001" in render_batch_script(spec)
    assert "--comment" not in render_batch_script(spec.model_copy(update={"dispatch_key": None}))
    queue = "14|(null)\n15|secretary-key:k1@site-a:0001\n16|secretary-key:k1@site-a:00011\n"
    assert job_with_comment(queue, key_comment("k1@site-a:0001")) == "15"
    assert job_with_comment(queue, key_comment("other-key-1")) is None
    assert parse_min_job_age("MaxJobCount = 10000\nMinJobAge               = 300 sec\n") == 300
    assert parse_min_job_age("ClusterName = c\n") is None
