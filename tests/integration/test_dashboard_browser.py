"""The dashboard in a real browser: headless Chromium (Selenium) against a live hub.

A ``secretary serve hub`` with bearer auth and two ``secretary serve worker`` processes run on
loopback: one serves a simulated campus cluster, one this machine (so the dispatched job really
runs and prints). The site of the second has an HTML/JS payload as its description, and a
request carries the same payload in its text. The browser logs in with a client token, then
the test negotiates and dispatches over MCP and watches the pages update without a reload:
the request and its requirement x site grid, the job on the timeline and in the table until
it completes, its output, the cost. It checks that a missing or wrong token gets no data
(401 from the API, the login form in the page), and that the payload is shown as text and
never runs. A screenshot of each view goes to ``$SECRETARY_ARTIFACTS/dashboard`` (default
``test-artifacts/dashboard``), which CI keeps.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from conftest import need_service, wait_until
from federation_harness import ROOT, Federation, start_hub, wait_for

DEMO = ROOT / "secretary_executor" / "fleets" / "demo"
PAYLOAD = '<img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2</script>'
HELLO = "hello from the dashboard test"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
WAIT_S = 60.0

pytestmark = pytest.mark.slow


def artifacts() -> Path:
    folder = Path(os.environ.get("SECRETARY_ARTIFACTS") or ROOT / "test-artifacts") / "dashboard"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Federation]:
    folder = tmp_path_factory.mktemp("dashboard-browser")
    (folder / "here.yaml").write_text(
        f"name: here\nkind: local\ndescription: {json.dumps(PAYLOAD)}\n"
        "prices: {cpu_node_hour: 0.5}\nproviders: {enabled: [local, cpu, memory]}\n"
    )
    fed = start_hub(
        folder,
        f"heartbeat_s: 1\nsite_timeout_s: 20\njob_poll_s: 0.2\nledger: {folder / 'ledger.db'}\n",
    )
    procs = fed.procs
    try:
        fed.start_worker("w-campus", str(DEMO / "hpc-campus.yaml"))
        fed.start_worker("w-here", str(folder / "here.yaml"))
        wait_for(lambda: {"hpc-campus", "here"} <= set(fed.sites()), "two workers", timeout_s=90)
        yield fed
    finally:
        procs.stop_all()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_service(
        CHROMIUM is not None and CHROMEDRIVER is not None,
        "headless Chromium and chromedriver are not installed (scripts/browser-up.sh)",
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    options.add_argument("--window-size=1400,1100")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_script_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def base(fed: Federation) -> str:
    return fed.url.removesuffix("/mcp") + "/dashboard"


_READS = 5
"""How often a read is retried when the live view replaced the element between finding it and
reading it (the fleet table is re-rendered on every update)."""


def visible(driver: Any, css: str) -> bool:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    for _ in range(_READS):
        try:
            return bool(driver.find_element("css selector", css).is_displayed())
        except NoSuchElementException:
            return False
        except StaleElementReferenceException:
            continue  # re-rendered between find and read: find it again
    return False


def text(driver: Any, css: str) -> str:
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(_READS):
        try:
            return " ".join(e.text for e in driver.find_elements("css selector", css))
        except StaleElementReferenceException:
            continue  # re-rendered between find and read: find them again
    return ""


def log_in(driver: Any, token: str) -> None:
    wait_until(lambda: visible(driver, "#login"), timeout_s=WAIT_S, what="the login form")
    box = driver.find_element("id", "token")
    box.clear()
    box.send_keys(token)
    driver.find_element("css selector", "#login button[type=submit]").click()


def no_script_ran(driver: Any) -> None:
    """The payload neither ran (no flag set, no alert open) nor became markup."""
    from selenium.common.exceptions import NoAlertPresentException

    try:
        alert = driver.switch_to.alert
        raise AssertionError(f"a script ran: an alert says {alert.text!r}")
    except NoAlertPresentException:
        pass
    assert driver.execute_script("return window.__pwned === undefined")
    assert not driver.find_elements("css selector", "main img[src='x'], main script")


def shoot(driver: Any, name: str) -> None:
    driver.save_screenshot(str(artifacts() / f"{name}.png"))


def browser_fetch(driver: Any, path: str) -> int:
    """The HTTP status the page's origin gets for ``path`` with no Authorization header."""
    return int(
        driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {cache: 'no-store'}).then(r => done(r.status));",
            path,
        )
    )


def mcp(fed: Federation, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = asyncio.run(fed.call(tool, args))
    assert not result.is_error, result.content[0].text
    return dict(result.structured_content)


def test_login_live_views_and_no_data_without_a_token(fed: Federation, browser: Any) -> None:
    driver = browser
    url = base(fed)

    # No token: the API answers 401 and the page shows only the login form.
    for path in ("fleet", "requests", "jobs", "cost", "stamp"):
        r = httpx2.get(f"{url}/api/{path}", timeout=10)
        assert r.status_code == 401, path
        assert "here" not in r.text and "hpc-campus" not in r.text
    driver.get(f"{url}/fleet")
    log_in(driver, "")  # an empty submit is refused by the form itself
    assert visible(driver, "#login") and not visible(driver, "#main")
    assert browser_fetch(driver, f"{url}/api/fleet") == 401

    # A wrong token: refused, still the login form, no data in the page.
    log_in(driver, "wrong-token-" + "x" * 20)
    wait_until(
        lambda: "refused" in text(driver, "#login-message"),
        timeout_s=WAIT_S,
        what="the refusal",
    )
    assert not visible(driver, "#main")
    assert not driver.find_elements("css selector", "#fleet-table tbody tr")

    # The right token: the fleet, with both sites UP and the payload shown as text.
    log_in(driver, fed.token)
    wait_until(
        lambda: len(driver.find_elements("css selector", "#fleet-table tbody tr")) == 2,
        timeout_s=WAIT_S,
        what="two sites in the fleet view",
    )
    assert driver.execute_script("return sessionStorage.length") == 1
    assert fed.token not in driver.current_url
    wait_until(
        lambda: PAYLOAD in text(driver, "tr[data-site='here'] td.description"),
        timeout_s=WAIT_S,
        what="the site's description",
    )
    assert "UP" in text(driver, "tr[data-site='here']")
    assert "UP" in text(driver, "tr[data-site='hpc-campus']")
    no_script_ran(driver)

    # Requests: open the page first, then negotiate: the page updates without a reload.
    driver.get(f"{url}/requests")
    wait_until(lambda: visible(driver, "#main"), timeout_s=WAIT_S, what="the requests page")
    driver.execute_script("window.__same_page = true")
    command = ["python3", "-c", f"print({HELLO!r})"]
    negotiated = mcp(fed, "negotiate_job", {"text": "1 core for 10 minutes", "command": command})
    request_id = negotiated["request_id"]
    selection = mcp(fed, "select_proposal", {"request_id": request_id})
    receipt = mcp(fed, "dispatch_job", {"request_id": request_id, "site": "here"})
    simulated = mcp(fed, "dispatch_job", {"request_id": request_id, "site": "hpc-campus"})
    fails = ["python3", "-c", "import sys; print('failing on purpose', file=sys.stderr); exit(3)"]
    failed = mcp(fed, "dispatch_job", {"request_id": request_id, "site": "here", "command": fails})
    mcp(fed, "negotiate_job", {"text": f"2 cores {PAYLOAD}"})
    wait_until(
        lambda: driver.find_elements("css selector", f"tr[data-request='{request_id}']"),
        timeout_s=WAIT_S,
        what="the new request in the list",
    )
    wait_until(
        lambda: PAYLOAD in text(driver, "#requests-table td.request-text"),
        timeout_s=WAIT_S,
        what="the hostile request, as text",
    )
    assert driver.execute_script("return window.__same_page === true"), "the page reloaded"
    no_script_ran(driver)

    # The grid: one row per requirement, one column per site, evidence on click.
    driver.find_element("css selector", f"tr[data-request='{request_id}']").click()
    wait_until(lambda: request_id in text(driver, "#rd-id"), timeout_s=WAIT_S, what="the detail")
    heads = [e.text for e in driver.find_elements("css selector", "#grid thead th")]
    assert set(heads[1:]) == {"here", "hpc-campus"}
    cells = driver.find_elements("css selector", "#grid button.cell")
    assert cells and len(cells) % 2 == 0
    assert {c.text for c in cells} <= {"met", "unmet", "unknown", "wait", "–"}
    here = driver.find_elements("css selector", "#grid button.cell[data-site='here']")
    assert here and all(c.text == "met" for c in here)
    here[0].click()
    wait_until(lambda: visible(driver, "#evidence"), timeout_s=WAIT_S, what="the evidence")
    assert "at here: met" in text(driver, "#ev-title")
    assert text(driver, "#ev-calls")
    chosen = selection["chosen"]["site"]
    assert chosen in text(driver, "#selections .chosen")
    assert selection["algorithm"] in text(driver, "#selections")
    shoot(driver, "requests")

    # Jobs: the job on the timeline and in the table, COMPLETED, with its output.
    job_id = receipt["job_id"]
    driver.get(f"{url}/jobs#{job_id}")
    wait_until(
        lambda: "COMPLETED" in text(driver, f"tr[data-job='{job_id}']"),
        timeout_s=WAIT_S,
        what="the job to complete in the table",
    )
    wait_until(
        lambda: HELLO in text(driver, "#jd-stdout"), timeout_s=WAIT_S, what="the job's output"
    )
    states = text(driver, "#jd-events")
    assert "QUEUED" in states and "COMPLETED" in states
    for other, state in ((simulated["job_id"], "SIMULATED"), (failed["job_id"], "FAILED")):
        wait_until(
            lambda other=other, state=state: state in text(driver, f"tr[data-job='{other}']"),
            timeout_s=WAIT_S,
            what=f"job {other} to end {state}",
        )
    driver.find_element("css selector", f"tr[data-job='{failed['job_id']}']").click()
    wait_until(
        lambda: "failing on purpose" in text(driver, "#jd-stderr"),
        timeout_s=WAIT_S,
        what="the failed job's standard error",
    )
    wait_until(
        lambda: driver.execute_script(
            "const i = document.getElementById('timeline'); return i.complete && i.naturalWidth"
        ),
        timeout_s=WAIT_S,
        what="the timeline image",
    )
    timeline = httpx2.get(
        f"{url}/api/charts/timeline.svg",
        headers={"Authorization": f"Bearer {fed.token}"},
        timeout=10,
    ).text
    assert job_id in timeline and ">here<" in timeline and ">hpc-campus<" in timeline
    shoot(driver, "jobs")

    # Cost and fleet (the fleet now has proposals: capacity bars).
    driver.get(f"{url}/cost")
    wait_until(
        lambda: "here" in text(driver, "#cost-site-table tbody"),
        timeout_s=WAIT_S,
        what="the cost per site",
    )
    shoot(driver, "cost")
    driver.get(f"{url}/fleet")
    wait_until(
        lambda: driver.find_elements("css selector", "tr[data-site='hpc-campus'] .bar .fill"),
        timeout_s=WAIT_S,
        what="the capacity bar",
    )
    no_script_ran(driver)
    shoot(driver, "fleet")

    # Logging out forgets the token: the login form again, and no data.
    driver.find_element("id", "logout").click()
    assert visible(driver, "#login") and not visible(driver, "#main")
    assert driver.execute_script("return sessionStorage.length") == 0
    driver.get(f"{url}/jobs")
    wait_until(lambda: visible(driver, "#login"), timeout_s=WAIT_S, what="the login form")
    assert browser_fetch(driver, f"{url}/api/jobs") == 401
