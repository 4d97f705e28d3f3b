"""A site whose provider hangs must not take the other sites down with it, nor keep the
process from exiting. The hang is a real blocked thread (a provider call waiting on an event
that is never set during the test), not a mock of the transport."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

from endpoint_plugins.blocking import BlockingCalls, SiteBusyError
from endpoint_plugins.config import SiteConfig
from endpoint_plugins.secretary import Secretary
from providers.state import load_state, providers_from_state
from providers.wire import Requirements, Verdict
from secretary_executor.sites.base import Site
from secretary_executor.sites.fleet import Fleet
from secretary_executor.sites.inprocess import InProcessTransport

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "secretary_executor/fleets/demo/hpc-campus.yaml"


def _secretary(name: str, release: threading.Event | None = None) -> Secretary:
    secretary = Secretary(SiteConfig(name=name), providers=providers_from_state(load_state(STATE)))
    if release is not None:
        real = secretary.negotiate

        def hung(*args, **kwargs):  # a provider stuck in a scheduler command
            release.wait(60)
            return real(*args, **kwargs)

        secretary.negotiate = hung  # type: ignore[method-assign]
    return secretary


def test_a_hung_site_does_not_starve_a_healthy_one() -> None:
    release = threading.Event()
    hung = Site("hung", InProcessTransport(_secretary("hung", release)), timeout_s=0.3)
    healthy = Site("healthy", InProcessTransport(_secretary("healthy")), timeout_s=5.0)
    fleet = Fleet([hung, healthy])
    reqs = Requirements.model_validate({"compute": {"cores_per_node": 2}})

    async def go() -> list[list]:
        rounds = []
        for _ in range(3):  # 24 negotiations: many more hung calls than a shared pool holds
            batch = [fleet.negotiate(reqs, request_id=f"r{i}") for i in range(8)]
            rounds.extend(await asyncio.gather(*batch))
        return rounds

    try:
        results = asyncio.run(go())
    finally:
        release.set()
    for proposals in results:
        by_site = {p.site: p for p in proposals}
        assert by_site["hung"].verdict is Verdict.UNREACHABLE
        assert by_site["healthy"].verdict is not Verdict.UNREACHABLE, by_site["healthy"].reason
    reasons = {p.reason for r in results for p in r if p.site == "hung"}
    assert any("still running" in r for r in reasons), reasons


def test_a_site_has_at_most_per_site_abandoned_calls() -> None:
    calls = BlockingCalls(per_site=2)
    release = threading.Event()

    async def go() -> list[object]:
        for _ in range(2):  # two calls whose callers give up: abandoned, still running
            try:
                await asyncio.wait_for(calls.call("s", release.wait, 10), 0.05)
            except TimeoutError:
                pass
        out: list[object] = [calls.running()]
        try:
            await calls.call("s", time.sleep, 0)
        except SiteBusyError as exc:
            out.append(exc)
        out.append(await calls.call("other", lambda: "fine"))  # other sites are not limited
        burst = [calls.call("busy", time.sleep, 0.05) for _ in range(10)]
        out.append(len(await asyncio.gather(*burst)))  # many live calls: never refused
        release.set()
        return out

    running, busy, other, burst = asyncio.run(go())
    assert running == {"s": 2}
    assert isinstance(busy, SiteBusyError) and busy.transient
    assert other == "fine" and burst == 10
    deadline = time.monotonic() + 5
    while calls.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert calls.running() == {}


def test_exit_does_not_wait_for_a_hung_call() -> None:
    """A process whose site call hangs for 60 s exits as soon as its work is done."""
    code = (
        "import asyncio, threading\n"
        "from endpoint_plugins.blocking import SHARED\n"
        "async def main():\n"
        "    try:\n"
        "        await asyncio.wait_for(SHARED.call('s', threading.Event().wait, 60), 0.2)\n"
        "    except TimeoutError:\n"
        "        print('gave up')\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(  # the timeout (30 s) is shorter than the hung call (60 s)
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "gave up"
