// The dashboard's page script: fetches the read-only API with the client token and builds
// the DOM from the JSON. Every value from sites and requests goes in through textContent
// (or an attribute set to a constant class), never through innerHTML: it is shown, never run.
"use strict";

(function () {
  const TOKEN_KEY = "secretary-dashboard-token";
  const POLL_MS = 2000;
  const body = document.body;
  const base = body.dataset.base || "";
  const view = body.dataset.view;
  let lastStamp = null;
  let polling = null;
  const blobs = {};

  class AuthError extends Error {}

  function token() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  async function api(path, kind) {
    const headers = {};
    const t = token();
    if (t) headers.Authorization = "Bearer " + t;
    const response = await fetch(base + "/api/" + path, { headers, cache: "no-store" });
    if (response.status === 401) throw new AuthError("token refused");
    if (!response.ok) throw new Error(path + ": HTTP " + response.status);
    return kind === "blob" ? response.blob() : response.json();
  }

  // el("td", {class: "x"}, "text", child, ...): an element whose strings become text nodes.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function setText(id, text) {
    document.getElementById(id).textContent = text === null || text === undefined ? "" : text;
  }

  function fill(tbody, rows) {
    tbody.replaceChildren(...rows);
  }

  function fmtNum(v, digits) {
    if (v === null || v === undefined) return "–";
    return digits === undefined ? String(v) : Number(v).toFixed(digits);
  }

  function dollars(v) {
    // Cents, or four decimals below a cent (as the charts do).
    if (v === null || v === undefined) return "–";
    return v === 0 || v >= 0.01 ? "$" + Number(v).toFixed(2) : "$" + Number(v).toFixed(4);
  }

  function fmtTime(iso) {
    if (!iso) return "–";
    const d = new Date(iso);
    return d.toISOString().replace("T", " ").slice(0, 19);
  }

  function cls(text) {
    // Class names come from a fixed vocabulary (states, verdicts): anything else is dropped.
    return /^[A-Za-z_]+$/.test(text || "") ? "s-" + text.toLowerCase() : "";
  }

  // -- login --------------------------------------------------------------------------------

  function showLogin(message) {
    document.getElementById("main").hidden = true;
    document.getElementById("logout").hidden = true;
    document.getElementById("login").hidden = false;
    setText("login-message", message || "");
    setText("live", "logged out");
    document.getElementById("token").focus();
  }

  function showMain() {
    document.getElementById("login").hidden = true;
    document.getElementById("main").hidden = false;
    document.getElementById("logout").hidden = !token();
  }

  document.getElementById("login").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = document.getElementById("token");
    sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    input.value = "";
    start();
  });

  document.getElementById("logout").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    stop();
    showLogin("Logged out.");
  });

  // -- fleet --------------------------------------------------------------------------------

  function bar(free, total) {
    // A span whose width is set through the CSSOM (allowed by the CSP, unlike a style
    // attribute); lighter to lay out than a <meter> when the fleet has thousands of rows.
    if (free === null || free === undefined || !total) return el("span", {}, "–");
    const fill = el("span", { class: "fill" });
    fill.style.width = Math.max(0, Math.min(100, (100 * free) / total)) + "%";
    const track = el("span", { class: "track", role: "img", "aria-label": free + " of " + total + " nodes free" }, fill);
    return el("span", { class: "bar" }, track, " " + free + " / " + total);
  }

  function prices(p) {
    const parts = Object.entries(p || {}).map(([k, v]) => k.replace("_node_hour", "") + " $" + Number(v).toFixed(2));
    return parts.length ? parts.join(", ") : "–";
  }

  async function renderFleet() {
    const data = await api("fleet");
    const up = data.sites.filter((s) => s.state === "UP").length;
    setText(
      "fleet-summary",
      data.live
        ? data.sites.length + " sites, " + up + " up, " + (data.sites.length - up) + " down"
        : data.sites.length + " sites seen in the ledger (no live status: ledger only)"
    );
    fill(
      document.querySelector("#fleet-table tbody"),
      data.sites.map((s) =>
        el(
          "tr",
          { "data-site": s.name },
          el("td", {}, s.name),
          el("td", {}, el("span", { class: "badge " + cls(s.state) }, s.state)),
          el("td", {}, s.seconds_since_heartbeat === null ? "–" : fmtNum(s.seconds_since_heartbeat, 1) + " s ago"),
          el("td", {}, bar(s.free_nodes, s.total_nodes)),
          el("td", {}, fmtNum(s.queue_depth)),
          el("td", {}, fmtNum(s.price_per_node_hour, 2)),
          el("td", {}, prices(s.prices)),
          el("td", {}, s.kind || "–"),
          el("td", { class: "description" }, s.description || "")
        )
      )
    );
  }

  // -- requests -----------------------------------------------------------------------------

  const LABELS = { satisfied: "met", unsatisfied: "unmet", unknown: "unknown", wait: "wait" };
  let openRequest = null;

  function verdictList(counts) {
    return Object.entries(counts).map(([v, n]) => el("span", { class: "badge " + cls(v) }, v + " " + n));
  }

  async function renderRequests() {
    const data = await api("requests");
    fill(
      document.querySelector("#requests-table tbody"),
      data.requests.map((r) => {
        const row = el(
          "tr",
          { class: "clickable", "data-request": r.request_id, tabindex: 0 },
          el("td", {}, el("code", {}, r.request_id)),
          el("td", {}, fmtTime(r.created_at)),
          el("td", { class: "request-text" }, r.text),
          el("td", {}, ...verdictList(r.verdicts)),
          el("td", {}, r.chosen || "–"),
          el("td", {}, String(r.jobs))
        );
        row.addEventListener("click", () => openRequestDetail(r.request_id));
        return row;
      })
    );
    if (!openRequest && data.requests.length) openRequest = data.requests[0].request_id;
    if (openRequest) await renderRequestDetail(openRequest);
  }

  async function openRequestDetail(id) {
    openRequest = id;
    document.getElementById("evidence").hidden = true;
    await renderRequestDetail(id);
  }

  async function showEvidence(requestId, cell) {
    const box = document.getElementById("evidence");
    box.hidden = false;
    setText("ev-title", cell.requirement + " at " + cell.site + ": " + (LABELS[cell.status] || "no check"));
    setText("ev-detail", cell.detail);
    const list = document.getElementById("ev-calls");
    list.replaceChildren(el("li", {}, "Loading the tool calls…"));
    const proposal = await api("requests/" + encodeURIComponent(requestId) + "/sites/" + encodeURIComponent(cell.site));
    const check = proposal.checks.find((c) => c.requirement === cell.requirement);
    const calls = (check ? check.evidence : []).map((e) =>
      el(
        "li",
        {},
        el("code", {}, e.provider + "." + e.tool + "(" + JSON.stringify(e.arguments) + ")"),
        e.error ? el("p", { class: "stderr" }, "error: " + e.error) : null,
        el("pre", {}, JSON.stringify(e.result, null, 2))
      )
    );
    if (!calls.length) calls.push(el("li", {}, check ? "No tool calls recorded for this check." : proposal.reason));
    list.replaceChildren(...calls);
  }

  async function renderRequestDetail(id) {
    const d = await api("requests/" + encodeURIComponent(id));
    document.getElementById("request-detail").hidden = false;
    for (const row of document.querySelectorAll("#requests-table tbody tr")) {
      row.classList.toggle("selected", row.dataset.request === id);
    }
    setText("rd-id", d.request_id);
    setText("rd-text", d.text + (d.command.length ? "  —  command: " + d.command.join(" ") : ""));
    setText("rd-requirements", JSON.stringify(d.requirements, null, 2));
    const grid = document.getElementById("grid");
    grid.tHead.replaceChildren(el("tr", {}, el("th", {}, "requirement"), ...d.sites.map((s) => el("th", { scope: "col" }, s))));
    const rows = d.requirement_rows.map((req, i) => {
      const cells = d.sites.map((_, j) => {
        const cell = d.grid[i * d.sites.length + j];
        const button = el(
          "button",
          { type: "button", class: "cell " + cls(cell.status || "none"), "data-site": cell.site, "data-requirement": req },
          LABELS[cell.status] || "–"
        );
        button.addEventListener("click", () => showEvidence(d.request_id, cell));
        return el("td", {}, button);
      });
      return el("tr", {}, el("th", { scope: "row" }, req), ...cells);
    });
    fill(grid.tBodies[0], rows);
    fill(
      document.querySelector("#proposals tbody"),
      d.proposals.map((p) =>
        el(
          "tr",
          {},
          el("td", {}, p.site),
          el("td", {}, el("span", { class: "badge " + cls(p.verdict) }, p.verdict)),
          el("td", {}, p.reason),
          el("td", {}, fmtNum(p.free_nodes)),
          el("td", {}, fmtNum(p.queue_depth)),
          el("td", {}, fmtNum(p.estimated_start_s, 0)),
          el("td", {}, fmtNum(p.price_per_node_hour, 2)),
          el("td", {}, dollars(p.estimated_cost_usd))
        )
      )
    );
    const picks = d.selections.map((s) =>
      el(
        "li",
        { class: "selection" },
        el("strong", {}, s.algorithm),
        " chose ",
        el("strong", { class: "chosen" }, s.chosen || "nothing"),
        " at " + fmtTime(s.at),
        s.ranked.length ? el("div", {}, "ranking: " + s.ranked.join(" › ")) : null,
        ...s.notes.map((n) => el("div", { class: "hint" }, n))
      )
    );
    if (!picks.length) picks.push(el("li", {}, "No selection yet."));
    document.getElementById("selections").replaceChildren(...picks);
    const attempts = d.attempts.map((a) => el("li", {}, (a.ok ? "✔ " : "✘ ") + a.site + ": " + a.message));
    for (const job of d.jobs) {
      attempts.push(el("li", {}, "job ", el("a", { href: base + "/jobs#" + job }, job)));
    }
    if (!attempts.length) attempts.push(el("li", {}, "Not dispatched."));
    document.getElementById("attempts").replaceChildren(...attempts);
  }

  // -- jobs ---------------------------------------------------------------------------------

  let openJob = null;

  async function showImage(id, path) {
    const blob = await api(path, "blob");
    const url = URL.createObjectURL(blob);
    const img = document.getElementById(id);
    img.src = url;
    if (blobs[id]) URL.revokeObjectURL(blobs[id]);
    blobs[id] = url;
  }

  async function renderJobs() {
    const data = await api("jobs");
    await showImage("timeline", "charts/timeline.svg");
    fill(
      document.querySelector("#jobs-table tbody"),
      data.jobs.map((j) => {
        const row = el(
          "tr",
          { class: "clickable", "data-job": j.job_id, tabindex: 0 },
          el("td", {}, el("code", {}, j.job_id)),
          el("td", {}, j.site),
          el("td", {}, el("span", { class: "badge " + cls(j.state) }, j.state)),
          el("td", {}, fmtNum(j.exit_code)),
          el("td", {}, fmtTime(j.created_at)),
          el("td", {}, fmtTime(j.updated_at)),
          el("td", { class: "request-text" }, j.text)
        );
        row.addEventListener("click", () => openJobDetail(j.job_id));
        return row;
      })
    );
    const wanted = decodeURIComponent(location.hash.slice(1));
    if (!openJob && wanted) openJob = wanted;
    if (!openJob && data.jobs.length) openJob = data.jobs[0].job_id;
    if (openJob) await renderJobDetail(openJob);
  }

  async function openJobDetail(id) {
    openJob = id;
    await renderJobDetail(id);
  }

  async function renderJobDetail(id) {
    const d = await api("jobs/" + encodeURIComponent(id));
    document.getElementById("job-detail").hidden = false;
    for (const row of document.querySelectorAll("#jobs-table tbody tr")) {
      row.classList.toggle("selected", row.dataset.job === id);
    }
    setText("jd-id", d.job.job_id);
    setText("jd-where", d.job.site + " · " + (d.provider || "–") + " · native id " + (d.native_id || "–") + " · " + d.job.state);
    document.getElementById("jd-events").replaceChildren(
      ...d.events.map((e) =>
        el("li", {}, fmtTime(e.at) + " ", el("span", { class: "badge " + cls(e.state) }, e.state), " " + e.message)
      )
    );
    const out = await api("jobs/" + encodeURIComponent(id) + "/output");
    setText("jd-note", out.available ? (out.truncated ? "Only the end of the output is shown." : "") : out.note);
    setText("jd-stdout", out.stdout);
    setText("jd-stderr", out.stderr);
  }

  // -- cost ---------------------------------------------------------------------------------

  function costRows(rows) {
    return rows.map((r) =>
      el(
        "tr",
        {},
        el("td", {}, r.key),
        el("td", {}, String(r.jobs)),
        el("td", {}, dollars(r.estimated_usd)),
        el("td", {}, dollars(r.actual_usd)),
        el("td", {}, String(r.unpriced))
      )
    );
  }

  async function renderCost() {
    const data = await api("cost");
    setText(
      "cost-summary",
      "Estimated " + dollars(data.total_estimated_usd) + ", actual " + dollars(data.total_actual_usd)
    );
    fill(document.querySelector("#cost-site-table tbody"), costRows(data.by_site));
    fill(document.querySelector("#cost-day-table tbody"), costRows(data.by_day));
    await showImage("cost-site", "charts/cost-site.svg");
    await showImage("cost-day", "charts/cost-day.svg");
  }

  // -- refresh loop -------------------------------------------------------------------------

  const RENDER = { fleet: renderFleet, requests: renderRequests, jobs: renderJobs, cost: renderCost };

  async function refresh() {
    await RENDER[view]();
    showMain();
    body.dataset.loaded = String(Date.now());
  }

  async function tick() {
    try {
      const s = await api("stamp");
      if (s.stamp !== lastStamp) {
        lastStamp = s.stamp;
        await refresh();
      }
      setText("live", "live · updated " + new Date().toLocaleTimeString());
    } catch (err) {
      if (err instanceof AuthError) {
        const hadToken = token() !== null;
        sessionStorage.removeItem(TOKEN_KEY);
        stop();
        showLogin(hadToken ? "That token was refused." : "");
        return;
      }
      setText("live", "not updated: " + err.message);
    }
  }

  function stop() {
    if (polling !== null) clearInterval(polling);
    polling = null;
    lastStamp = null;
  }

  function start() {
    stop();
    tick();
    polling = setInterval(tick, POLL_MS);
  }

  start();
})();
