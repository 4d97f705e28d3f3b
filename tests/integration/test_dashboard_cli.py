"""``secretary dashboard --ledger``: a real process serving a ledger alone, on loopback.

The ledger is written by a broker over the demo fleet (one negotiation, one dispatch); the
process serves it with a token file, and the test reads it over HTTP as the page would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx2
import pytest
from federation_harness import Procs, free_port, token_file, wait_for

from secretary_executor.broker import Broker
from secretary_executor.ledger import Ledger
from secretary_executor.sites.fleet import demo_fleet


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    folder = tmp_path_factory.mktemp("dashboard-cli")
    path = folder / "ledger.sqlite3"

    async def fill() -> str:
        broker = Broker(demo_fleet(), Ledger(path))
        request = broker.prepare("4 cores for 1 hour", command=["hostname"])
        _, _, receipt = await broker.submit(request)
        await broker.close()
        return receipt.job_id

    job_id = asyncio.run(fill())
    token = token_file(folder / "token.txt")
    port = free_port()
    procs = Procs(folder, folder / "home")
    procs.start(
        "dashboard",
        ["dashboard", "--ledger", str(path), "--port", str(port)]
        + ["--token-file", str(folder / "token.txt")],
    )
    url = f"http://127.0.0.1:{port}/dashboard"
    try:
        wait_for(lambda: httpx2.get(url + "/", timeout=5).status_code == 200, "the dashboard")
        yield url, token, job_id
    finally:
        procs.stop_all()
    assert "log in with this token" not in procs.log("dashboard")  # the file's token is used


def test_serves_the_ledger_with_the_token_only(served: tuple[str, str, str]) -> None:
    url, token, job_id = served
    auth = {"Authorization": f"Bearer {token}"}
    assert httpx2.get(f"{url}/api/jobs", timeout=10).status_code == 401
    wrong = {"Authorization": "Bearer " + "w" * 32}
    assert httpx2.get(f"{url}/api/jobs", headers=wrong, timeout=10).status_code == 401
    jobs = httpx2.get(f"{url}/api/jobs", headers=auth, timeout=10).json()["jobs"]
    assert [j["job_id"] for j in jobs] == [job_id]
    fleet = httpx2.get(f"{url}/api/fleet", headers=auth, timeout=10).json()
    assert fleet["live"] is False and len(fleet["sites"]) == len(demo_fleet().names)
    page = httpx2.get(f"{url}/jobs", timeout=10)
    assert (
        page.status_code == 200
        and "frame-ancestors 'none'" in page.headers["content-security-policy"]
    )
    foreign = httpx2.get(f"{url}/api/jobs", headers={**auth, "Host": "evil.example"}, timeout=10)
    assert foreign.status_code == 400  # loopback only: no DNS rebinding
