"""A ledger that cannot be written stops a dispatch before the site sees it.

Write-ahead means the PENDING row is written first, so when the disk is full (a real kernel
limit, ``RLIMIT_FSIZE``, set in a child process: the same EFBIG a full small filesystem gives,
without needing root) or the ledger is read-only (SQLite's ``query_only``, which refuses every
write as a read-only file does), nothing is submitted and the error says what to fix. The site
is a real Secretary of this machine (its jobs really run, each appending to a file), or the
demo campus site whose submissions are counted.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from counting_site import CountingSecretary

from secretary_executor.broker import Broker
from secretary_executor.errors import LedgerError
from secretary_executor.ledger import Ledger
from secretary_executor.sites.base import Site
from secretary_executor.sites.fleet import Fleet
from secretary_executor.sites.inprocess import InProcessTransport

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "secretary_executor/fleets/demo/hpc-campus.yaml"

CHILD = textwrap.dedent(
    """
    import asyncio, json, os, resource, sys
    from endpoint_plugins.config import SiteConfig
    from endpoint_plugins.secretary import Secretary
    from secretary_executor.broker import Broker
    from secretary_executor.errors import SecretaryError
    from secretary_executor.ledger import Ledger
    from secretary_executor.sites.base import Site
    from secretary_executor.sites.fleet import Fleet
    from secretary_executor.sites.inprocess import InProcessTransport

    ledger_path, runs = sys.argv[1], sys.argv[2]
    enabled = {"enabled": ["local", "cpu", "memory"]}
    config = SiteConfig(name="here", kind="local", providers=enabled)
    site = Site("here", InProcessTransport(Secretary(config)), timeout_s=60)
    broker = Broker(Fleet([site]), Ledger(ledger_path))
    append = "import sys; open(sys.argv[1], 'a').write(sys.argv[2] + chr(10))"
    command = [sys.executable, "-c", append, runs, "full"]
    request = broker.prepare("1 core for 5 minutes", command=command)
    result = asyncio.run(broker.negotiate(request))
    # The disk fills now: no file of this process may grow past its present size.
    files = [ledger_path, ledger_path + "-wal"]
    limit = max(os.path.getsize(f) for f in files if os.path.exists(f))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        asyncio.run(broker.dispatch(result.request, "here", result.proposal("here")))
        print(json.dumps({"dispatched": True}))
    except SecretaryError as exc:
        print(json.dumps({"dispatched": False, "type": type(exc).__name__, "message": exc.message}))
    """
)


def test_a_full_disk_stops_the_dispatch_before_the_site_sees_it(tmp_path: Path) -> None:
    ledger, runs = tmp_path / "ledger.sqlite3", tmp_path / "runs.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SECRETARY_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(ledger), str(runs)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcome["dispatched"] is False
    assert outcome["type"] == "LedgerError"
    assert (
        "cannot write the ledger" in outcome["message"] and "free disk space" in outcome["message"]
    )
    assert "Traceback" not in done.stderr
    assert not runs.exists()  # nothing ran
    assert Ledger(ledger).jobs() == []  # and nothing claims it did


def test_a_read_only_ledger_stops_the_dispatch_and_says_why(tmp_path: Path) -> None:
    secretary = CountingSecretary("campus", tmp_path / "keys.sqlite3")
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    broker = Broker(Fleet([Site("campus", InProcessTransport(secretary, threaded=False))]), ledger)
    result = asyncio.run(broker.negotiate(broker.prepare("4 cores", command=["hostname"])))
    ledger._db.execute("PRAGMA query_only = ON")  # from here on every write is refused
    with pytest.raises(LedgerError, match="cannot write the ledger .* make its folder writable"):
        asyncio.run(broker.dispatch(result.request, "campus", result.proposal("campus")))
    assert secretary.submitted == []
