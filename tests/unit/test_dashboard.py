"""The dashboard's HTTP app over a real hub in process: auth, headers, views, escaping.

The hub has bearer auth on (a client token file) and a two-site fleet: a simulated campus
cluster and a site whose description is an HTML/JS payload. A request whose text is the same
kind of payload is negotiated, selected and dispatched through the hub's broker, then every
view is read through the hub's own ASGI app (``Hub.http_app``), as a browser would, over
``httpx2.ASGITransport``. The browser side is tests/integration/test_dashboard_browser.py.
"""

from __future__ import annotations

import asyncio
import html.parser
import json
import re
import secrets
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest

from providers.wire import (
    CheckStatus,
    DispatchReceipt,
    JobRequest,
    JobState,
    JobStatus,
    Metrics,
    Proposal,
    Verdict,
)
from secretary_executor.cli.secretary import main as secretary_main
from secretary_executor.dashboard import LedgerSource, dashboard_app
from secretary_executor.dashboard.app import templates
from secretary_executor.dashboard.charts import cost_svg, timeline_svg
from secretary_executor.dashboard.models import CostRow, JobEventRow, JobRow
from secretary_executor.dashboard.security import CONTENT_SECURITY_POLICY
from secretary_executor.dashboard.views import cost
from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.server import Hub
from secretary_executor.ledger import Ledger

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "secretary_executor" / "fleets" / "demo"
PAYLOAD = '<script>alert("x")</script><img src=x onerror="alert(1)">'
API = [
    "stamp",
    "fleet",
    "requests",
    "jobs",
    "cost",
    "charts/timeline.svg",
    "charts/cost-site.svg",
    "charts/cost-day.svg",
]


class World:
    """A hub with auth on, one dispatched job, and an ASGI client onto its HTTP app."""

    def __init__(self, folder: Path) -> None:
        self.token = secrets.token_urlsafe(32)
        (folder / "tokens.txt").write_text(self.token + "\n")
        (folder / "fleet.yaml").write_text(
            "sites:\n"
            f"  - name: hpc-campus\n    state_file: {DEMO / 'hpc-campus.yaml'}\n"
            "  - name: evil\n    config:\n      name: evil\n"
            f"      state_file: {DEMO / 'cloud-gpu.yaml'}\n"
            f"      description: {json.dumps(PAYLOAD)}\n"
        )
        self.hub = Hub(
            HubConfig.model_validate(
                {
                    "fleet": str(folder / "fleet.yaml"),
                    "ledger": str(folder / "ledger.sqlite3"),
                    "token_file": str(folder / "tokens.txt"),
                }
            )
        )
        self.app = self.hub.http_app()

    async def dispatch(self, text: str) -> tuple[str, str]:
        """Negotiate, select (min-cost) and dispatch; (request id, job id)."""
        broker = self.hub.broker
        request = broker.prepare(text, command=["python3", "-c", "print(1)"])
        result = await broker.negotiate(request)
        outcome = broker.select(result, "min-cost")
        assert outcome.chosen is not None, outcome.notes
        receipt = await broker.dispatch(request, outcome.chosen.site, outcome.chosen)
        return request.request_id, receipt.job_id

    async def get(self, path: str, token: str | None = "", **headers: str) -> httpx2.Response:
        if token == "":
            token = self.token
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        transport = httpx2.ASGITransport(app=self.app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.get(path, headers=headers)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("dashboard")
    w = World(folder)

    async def go() -> dict[str, Any]:
        rid, job = await w.dispatch("4 cores for 1 hour")
        # A request holding markup: the parser cannot read it, so every site answers UNKNOWN
        # (never READY) and quotes it back in a check: text from the request in every view.
        hostile = w.hub.broker.prepare(f"4 cores {PAYLOAD}")
        await w.hub.broker.negotiate(hostile)
        return {"world": w, "request_id": rid, "job_id": job, "hostile": hostile.request_id}

    return asyncio.run(go())


def run(coro: Any) -> Any:
    return asyncio.run(coro)


class _Scripts(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.inline: list[str] = []
        self.styled: list[str] = []
        self.handlers: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            self.scripts.append(names)
            self._in_script = True
        if "style" in names or tag == "style":
            self.styled.append(tag)
        self.handlers += [k for k in names if k.startswith("on")]

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)


@pytest.mark.parametrize("page", ["", "fleet", "requests", "jobs", "cost"])
def test_pages_are_shells_with_strict_headers_and_no_inline_code(world, page) -> None:
    w = world["world"]
    r = run(w.get(f"/dashboard/{page}", token=None))
    assert r.status_code == 200, r.text
    assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "default-src 'self'" in CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert r.headers["x-content-type-options"] == "nosniff"
    parsed = _Scripts()
    parsed.feed(r.text)
    assert parsed.scripts == [{"src": "/dashboard/static/dashboard.js", "defer": None}]
    assert not parsed.inline and not parsed.styled and not parsed.handlers
    assert 'id="login"' in r.text and 'id="token"' in r.text
    assert world["request_id"] not in r.text  # the shell carries no data


def test_static_files_are_served_with_the_same_headers(world) -> None:
    w = world["world"]
    for name, kind in (("dashboard.js", "javascript"), ("dashboard.css", "text/css")):
        r = run(w.get(f"/dashboard/static/{name}", token=None))
        assert r.status_code == 200 and kind in r.headers["content-type"]
        assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    js = run(w.get("/dashboard/static/dashboard.js", token=None)).text
    markup = re.compile(
        r"\.(inner|outer)HTML\b|insertAdjacentHTML|document\.write|eval\(|Function\("
    )
    assert not markup.findall(js), "data must reach the page as text, never parsed as markup"
    assert "textContent" in js


@pytest.mark.parametrize("path", API)
def test_api_needs_a_client_token_in_the_header(world, path) -> None:
    w = world["world"]
    url = f"/dashboard/api/{path}"
    assert run(w.get(url)).status_code == 200
    missing = run(w.get(url, token=None))
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"].startswith("Bearer")
    assert "Authorization: Bearer" in missing.json()["error"]
    assert run(w.get(url, token="not-the-token-" + "x" * 20)).status_code == 401
    # A token in the URL is never read.
    assert run(w.get(f"{url}?token={w.token}", token=None)).status_code == 401
    assert run(w.get(url, token=None, Authorization=f"Basic {w.token}")).status_code == 401
    assert missing.headers["cache-control"] == "no-store"


def test_a_worker_credential_cannot_read_the_dashboard(world) -> None:
    w = world["world"]
    credential = w.hub.registry.register("w1", "http://127.0.0.1:9/mcp", ["remote-site"], None)
    try:
        assert run(w.get("/dashboard/api/fleet", token=credential)).status_code == 401
    finally:
        w.hub.registry.drop("w1")


def test_a_foreign_host_header_is_refused(world) -> None:
    r = run(world["world"].get("/dashboard/api/fleet", Host="evil.example"))
    assert r.status_code == 400


def test_fleet_lists_sites_with_state_capacity_and_prices(world) -> None:
    w = world["world"]

    async def go() -> dict[str, Any]:
        first = (await w.get("/dashboard/api/fleet")).json()
        later = first
        for _ in range(500):  # descriptions arrive in the background, off the request
            if all(s["kind"] for s in later["sites"]):
                break
            await asyncio.sleep(0.01)
            later = (await w.get("/dashboard/api/fleet")).json()
        return {"first": first, "later": later}

    out = run(go())
    sites = {s["name"]: s for s in out["later"]["sites"]}
    assert out["later"]["live"] is True
    assert set(sites) == {"hpc-campus", "evil"}
    campus = sites["hpc-campus"]
    assert campus["state"] == "UP"
    assert campus["total_nodes"] >= campus["free_nodes"] >= 0
    assert campus["queue_depth"] is not None and campus["price_per_node_hour"] > 0
    assert campus["prices"]["cpu_node_hour"] > 0
    assert sites["evil"]["description"] == PAYLOAD  # data, as text, never changed


def test_request_detail_has_the_grid_and_the_selection(world) -> None:
    w = world["world"]
    listed = run(w.get("/dashboard/api/requests")).json()["requests"]
    assert [r["request_id"] for r in listed] == [world["hostile"], world["request_id"]]
    assert PAYLOAD in listed[0]["text"]
    assert listed[1]["jobs"] == 1 and listed[1]["chosen"]
    hostile = run(w.get(f"/dashboard/api/requests/{world['hostile']}")).json()
    assert {c["status"] for c in hostile["grid"]} >= {"unknown"}
    assert PAYLOAD in hostile["text"]  # returned as it was written, for the page to show as text
    d = run(w.get(f"/dashboard/api/requests/{world['request_id']}")).json()
    proposals = w.hub.broker.ledger.proposals(world["request_id"])
    assert set(d["sites"]) == {p.site for p in proposals}
    assert len(d["grid"]) == len(d["requirement_rows"]) * len(d["sites"])
    for i, requirement in enumerate(d["requirement_rows"]):
        for j, site in enumerate(d["sites"]):
            cell = d["grid"][i * len(d["sites"]) + j]
            assert (cell["site"], cell["requirement"]) == (site, requirement)
            proposal = next(p for p in proposals if p.site == site)
            check = next((c for c in proposal.checks if c.requirement == requirement), None)
            assert cell["status"] == (check.status.value if check else None)
    statuses = {c["status"] for c in d["grid"]}
    assert CheckStatus.SATISFIED.value in statuses
    site = d["grid"][0]["site"]
    opened = run(w.get(f"/dashboard/api/requests/{world['request_id']}/sites/{site}")).json()
    assert opened["site"] == site and opened["checks"]
    assert all(c["evidence"] for c in opened["checks"]), "a cell opens onto its tool calls"
    assert (
        run(w.get(f"/dashboard/api/requests/{world['request_id']}/sites/nope")).status_code == 404
    )
    assert d["selections"][0]["algorithm"] == "min-cost"
    assert d["selections"][0]["chosen"] in d["sites"]
    assert d["selections"][0]["ranked"][0] == d["selections"][0]["chosen"]
    assert d["jobs"] == [world["job_id"]]
    assert d["requirements"]["compute"] == {"total_cores": 4, "walltime_s": 3600}
    assert run(w.get("/dashboard/api/requests/nope")).status_code == 404


def test_jobs_view_has_states_events_and_output(world) -> None:
    w = world["world"]
    jobs = run(w.get("/dashboard/api/jobs")).json()["jobs"]
    assert [j["job_id"] for j in jobs] == [world["job_id"]]
    detail = run(w.get(f"/dashboard/api/jobs/{world['job_id']}")).json()
    assert [e["state"] for e in detail["events"]][:2] == ["PENDING", "QUEUED"]
    out = run(w.get(f"/dashboard/api/jobs/{world['job_id']}/output")).json()
    assert out["available"] is False and out["note"]  # a simulated site ran nothing
    assert run(w.get("/dashboard/api/jobs/nope")).status_code == 404
    assert run(w.get("/dashboard/api/jobs/nope/output")).status_code == 404


def test_charts_are_well_formed_svg(world) -> None:
    w = world["world"]
    for name in ("timeline", "cost-site", "cost-day"):
        r = run(w.get(f"/dashboard/api/charts/{name}.svg"))
        assert r.headers["content-type"].startswith("image/svg+xml")
        root = ET.fromstring(r.text)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    timeline = run(w.get("/dashboard/api/charts/timeline.svg")).text
    assert world["job_id"] in timeline


def test_stamp_changes_when_the_ledger_does(world, tmp_path) -> None:
    w = world["world"]
    before = run(w.get("/dashboard/api/stamp")).json()["stamp"]
    w.hub.broker.ledger.record_attempt("r-none", "nowhere", False, "test row")
    after = run(w.get("/dashboard/api/stamp")).json()["stamp"]
    assert before != after


def test_text_from_sites_and_requests_is_escaped_in_charts() -> None:
    env = templates()
    now = datetime.now(UTC)
    job = JobRow(
        job_id=PAYLOAD,
        request_id="r",
        site=PAYLOAD,
        state=JobState.RUNNING,
        created_at=now - timedelta(minutes=5),
        updated_at=now,
    )
    events = {PAYLOAD: [JobEventRow(at=job.created_at, state=JobState.RUNNING, message=PAYLOAD)]}
    for svg in (
        timeline_svg(env, [job], events, now),
        cost_svg(env, PAYLOAD, [CostRow(key=PAYLOAD, jobs=1, estimated_usd=1, actual_usd=2)]),
    ):
        root = ET.fromstring(svg)  # well-formed: the payload did not open an element
        assert not root.findall(".//{http://www.w3.org/2000/svg}script")
        assert not any(k.startswith("on") for e in root.iter() for k in e.attrib)
        assert "&lt;script&gt;" in svg and "<script>" not in svg


def test_cost_is_estimated_against_price_times_nodes_times_runtime(tmp_path) -> None:
    ledger = Ledger(tmp_path / "ledger.sqlite3")

    request = JobRequest(text="2 nodes")
    ledger.record_request(request)
    metrics = Metrics(price_per_node_hour=3.0, estimated_cost_usd=5.0)
    ledger.record_proposals(
        request.request_id,
        [Proposal(site="a", verdict=Verdict.READY, metrics=metrics, request_id=request.request_id)],
    )
    ledger.begin_dispatch("job-1", request.request_id, "a", "job:job-1", '{"nodes": 2}')
    ledger.complete_dispatch(
        DispatchReceipt(job_id="job-1", request_id=request.request_id, site="a", native_id="n1")
    )
    ledger.record_status("job-1", JobStatus(site="a", native_id="n1", state=JobState.RUNNING))
    source = LedgerSource("test", ledger)
    with ledger.reading() as db:  # pin the times: ran exactly 30 minutes
        start = datetime(2026, 1, 2, 10, 0, tzinfo=UTC)
        db.execute("UPDATE events SET at = ? WHERE state = 'RUNNING'", (start.isoformat(),))
        db.execute("UPDATE jobs SET created_at = ?", ((start - timedelta(hours=1)).isoformat(),))
    view = cost(source, now=start + timedelta(minutes=30))
    (site,) = view.by_site
    assert (site.key, site.jobs, site.estimated_usd) == ("a", 1, 5.0)
    assert site.actual_usd == pytest.approx(3.0 * 2 * 0.5)  # price x nodes x hours
    assert [d.key for d in view.by_day] == ["2026-01-02"]
    ledger.close()


def test_ledger_alone_has_no_live_state_and_no_output(tmp_path, world) -> None:
    hub_ledger = world["world"].hub.broker.ledger
    source = LedgerSource("ledger.sqlite3", Ledger(hub_ledger.path))
    app = dashboard_app(source, authorize=None)

    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            fleet = (await c.get("/api/fleet")).json()
            out = (await c.get(f"/api/jobs/{world['job_id']}/output")).json()
        return fleet, out

    fleet, out = run(go())
    assert fleet["live"] is False
    assert {s["state"] for s in fleet["sites"]} == {"UNKNOWN"}
    assert {s["name"] for s in fleet["sites"]} == {"hpc-campus", "evil"}
    assert out["available"] is False and "ledger alone" in out["note"]


def test_cli_refuses_a_missing_ledger(tmp_path, capsys) -> None:
    assert secretary_main(["dashboard", "--ledger", str(tmp_path / "none.sqlite3")]) == 2
    assert "no ledger at" in capsys.readouterr().err


def test_timeline_gives_each_job_a_row_cut_at_its_state_changes() -> None:
    now = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
    t0 = now - timedelta(minutes=10)

    def job(job_id: str, site: str, state: JobState) -> JobRow:
        return JobRow(
            job_id=job_id, request_id="r", site=site, state=state, created_at=t0, updated_at=now
        )

    jobs = [job("j1", "a", JobState.COMPLETED), job("j2", "a", JobState.RUNNING)]
    events = {
        "j1": [
            JobEventRow(at=t0, state=JobState.QUEUED),
            JobEventRow(at=t0 + timedelta(minutes=5), state=JobState.COMPLETED),
        ],
        "j2": [JobEventRow(at=t0 + timedelta(minutes=5), state=JobState.RUNNING)],
    }
    root = ET.fromstring(timeline_svg(templates(), jobs, events, now))
    ns = "{http://www.w3.org/2000/svg}"
    bars = [r for r in root.iter(f"{ns}rect") if r.find(f"{ns}title") is not None]
    titles = [r.find(f"{ns}title").text for r in bars]
    assert titles == ["j1 QUEUED", "j1 COMPLETED", "j2 RUNNING"]
    queued, done, running = bars
    assert queued.get("y") == done.get("y") != running.get("y")  # a row per job
    assert float(queued.get("width")) == pytest.approx(760 / 2, abs=0.1)  # half the span
    assert float(running.get("x")) + float(running.get("width")) == pytest.approx(160 + 760)
    assert [t.text for t in root.iter(f"{ns}text")].count("a") == 1  # the site labelled once


def test_a_hub_without_tokens_leaves_the_dashboard_open_on_loopback_only() -> None:
    hub = Hub(HubConfig.model_validate({"fleet": "demo", "ledger": ":memory:"}))
    assert hub.verifier is None  # loopback and no token file: the MCP endpoint is open too

    async def go() -> tuple[int, int]:
        transport = httpx2.ASGITransport(app=hub.http_app())
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            fleet = await c.get("/dashboard/api/fleet")
            foreign = await c.get("/dashboard/api/fleet", headers={"Host": "evil.example"})
        return fleet.status_code, foreign.status_code

    assert run(go()) == (200, 400)
