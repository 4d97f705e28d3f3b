"""The hub's large tools answer at a chosen level of detail, summary by default.

The hub runs in process (``mcp.Client(server)``) over the six simulated sites of the demo
fleet. Schemas are checked with a JSON Schema validator, as an agent framework would: the
``detail`` parameter in each input schema, and each level's structured content against the
tool's output schema.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import jsonschema
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.server import Hub

SITES = ["cloud-gpu", "cloud-k8s", "edge-jetson", "hpc-campus", "hpc-frontier-like", "hpc-legacy"]
LEVELS = ("summary", "checks", "evidence")
REQUEST = "16 cores for 2 hours with lammps"
DETAIL_TOOLS = {
    "negotiate_job": {"text": REQUEST, "sites": SITES},
    "describe_site": {"name": "hpc-campus"},
    "select_proposal": {"request_id": "from-the-negotiation", "algorithm": "min-cost"},
}


def _hub() -> Hub:
    return Hub(HubConfig.model_validate({"fleet": "demo", "ledger": ":memory:"}))


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in ("elapsed_s", "probed_at")}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


async def _calls() -> dict[str, Any]:
    hub = _hub()
    out: dict[str, Any] = {"levels": {}}
    try:
        async with Client(hub.mcp) as c:
            out["tools"] = {t.name: t for t in (await c.list_tools()).tools}
            rid = ""
            for tool, args in DETAIL_TOOLS.items():
                if tool == "select_proposal":
                    args = {**args, "request_id": rid}
                r = await c.call_tool(tool, args)
                out["levels"][(tool, "default")] = r
                for level in LEVELS:
                    r = await c.call_tool(tool, {**args, "detail": level})
                    out["levels"][(tool, level)] = r
                rid = rid or r.structured_content["request_id"]
            res = await c.read_resource(f"requests://{rid}")
            out["request_resource"] = json.loads(res.contents[0].text)
            res = await c.read_resource("sites://hpc-campus")
            out["site_resource"] = json.loads(res.contents[0].text)
    finally:
        await hub.broker.close()
    return out


@pytest.fixture(scope="module")
def calls() -> dict[str, Any]:
    return asyncio.run(_calls())


@pytest.mark.parametrize("tool", sorted(DETAIL_TOOLS))
def test_detail_is_a_described_enum_defaulting_to_summary(calls, tool) -> None:
    schema = calls["tools"][tool].input_schema
    jsonschema.Draft202012Validator.check_schema(schema)
    detail = schema["properties"]["detail"]
    assert detail["enum"] == list(LEVELS) and detail["default"] == "summary"
    assert "summary" in detail["description"] and "evidence" in detail["description"]
    validator = jsonschema.Draft202012Validator(schema)
    base = DETAIL_TOOLS[tool]
    for level in LEVELS:
        assert not list(validator.iter_errors({**base, "detail": level}))
    assert list(validator.iter_errors({**base, "detail": "everything"}))


@pytest.mark.parametrize("tool", sorted(DETAIL_TOOLS))
def test_every_level_validates_against_the_output_schema(calls, tool) -> None:
    schema = calls["tools"][tool].output_schema
    assert schema is not None
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for level in (*LEVELS, "default"):
        r = calls["levels"][(tool, level)]
        assert not r.is_error, r.content[0].text
        errors = [e.message for e in validator.iter_errors(r.structured_content)]
        assert not errors, (level, errors[:3])
        assert r.structured_content["detail"] == ("summary" if level == "default" else level)


def test_negotiation_levels_shrink_and_keep_one_shape(calls) -> None:
    at = {lvl: calls["levels"][("negotiate_job", lvl)].structured_content for lvl in LEVELS}
    assert _size(at["summary"]) < _size(at["checks"]) < _size(at["evidence"])
    assert _size(at["summary"]) * 5 < _size(at["evidence"])
    for level in LEVELS:
        assert [p["site"] for p in at[level]["proposals"]] == SITES
        assert at[level]["request_id"] and at[level]["verdict"]
    assert at["evidence"]["request"]["request_id"] == at["evidence"]["request_id"]
    summary = at["summary"]["proposals"]
    assert all(set(p) == {"site", "verdict", "reason", "metrics"} for p in summary)
    assert all(len(p["reason"]) <= 160 for p in summary)
    assert "request" not in at["summary"] and "request" not in at["checks"]
    checks = [c for p in at["checks"]["proposals"] for c in p["checks"]]
    assert checks and all("evidence" not in c for c in checks)
    assert {c["status"] for c in checks} <= {"satisfied", "wait", "unsatisfied", "unknown"}
    evidence = [c for p in at["evidence"]["proposals"] for c in p["checks"]]
    assert any(c["evidence"] for c in evidence)


def test_evidence_is_everything_the_resource_holds(calls) -> None:
    evidence = calls["levels"][("negotiate_job", "evidence")].structured_content
    full = calls["request_resource"]
    assert {k: evidence[k] for k in full} == full
    # A manifest is probed again for each read: everything but the timings is the same.
    site = _untimed(calls["levels"][("describe_site", "evidence")].structured_content)
    manifest = _untimed(calls["site_resource"])
    assert {k: site[k] for k in manifest} == manifest


def test_the_chosen_proposal_is_cut_like_a_negotiated_one(calls) -> None:
    at = {lvl: calls["levels"][("select_proposal", lvl)].structured_content for lvl in LEVELS}
    assert set(at["summary"]["chosen"]) == {"site", "verdict", "reason", "metrics"}
    assert (
        at["checks"]["chosen"]["checks"] and "evidence" not in at["checks"]["chosen"]["checks"][0]
    )
    assert at["evidence"]["chosen"]["checks"][0]["evidence"]
    assert _size(at["summary"]) < _size(at["checks"]) < _size(at["evidence"])
    assert all(at[lvl]["ranked"] == at["evidence"]["ranked"] for lvl in LEVELS)
    text = calls["levels"][("select_proposal", "summary")].content[0].text
    assert text.startswith(f"min-cost chose {at['summary']['chosen']['site']}")


def test_site_levels_shrink(calls) -> None:
    at = {lvl: calls["levels"][("describe_site", lvl)].structured_content for lvl in LEVELS}
    assert _size(at["summary"]) < _size(at["checks"]) < _size(at["evidence"])
    assert all(set(t) == {"name", "kind"} for t in at["summary"]["tools"])
    assert all(p["available"] for p in at["summary"]["providers"])
    assert all("parameters" not in t for t in at["checks"]["tools"])
    assert all("parameters" in t for t in at["evidence"]["tools"])


@pytest.mark.parametrize("tool", sorted(DETAIL_TOOLS))
def test_the_text_is_a_short_human_summary(calls, tool) -> None:
    for level in LEVELS:
        r = calls["levels"][(tool, level)]
        (block,) = r.content
        text = block.text
        with pytest.raises(json.JSONDecodeError):
            json.loads(text)
        assert len(text) < _size(r.structured_content) or level == "summary"
        assert "detail=" in text or level == "evidence" or tool == "select_proposal"
    summary = calls["levels"][(tool, "summary")].content[0].text
    assert len(summary.splitlines()) <= len(SITES) + 5
    assert len(summary) < 1500


def test_the_negotiation_text_names_each_site_with_its_verdict(calls) -> None:
    r = calls["levels"][("negotiate_job", "summary")]
    lines = r.content[0].text.splitlines()
    rid = r.structured_content["request_id"]
    assert rid in lines[0] and "best verdict" in lines[0]
    for p in r.structured_content["proposals"]:
        assert any(line.startswith(p["site"]) and p["verdict"] in line for line in lines)
    checks = calls["levels"][("negotiate_job", "checks")].content[0].text
    assert "checks at hpc-campus:" in checks and "[ok]" in checks


@pytest.mark.parametrize("tool", sorted(DETAIL_TOOLS))
def test_an_unknown_level_is_invalid_params_naming_the_levels(tool) -> None:
    async def go() -> MCPError:
        hub = _hub()
        try:
            async with Client(hub.mcp) as c:
                try:
                    await c.call_tool(tool, {**DETAIL_TOOLS[tool], "detail": "everything"})
                except MCPError as exc:
                    return exc
                raise AssertionError("the tool accepted an unknown detail level")
        finally:
            await hub.broker.close()

    error = asyncio.run(go())
    assert error.error.code == INVALID_PARAMS
    assert "'everything'" in error.error.message
    assert "summary, checks, evidence" in error.error.message


def test_an_unknown_request_resource_says_where_ids_come_from() -> None:
    async def go() -> Exception:
        hub = _hub()
        try:
            async with Client(hub.mcp) as c:
                try:
                    await c.read_resource("requests://no-such-request")
                except MCPError as exc:
                    return exc
                raise AssertionError("an unknown request was read")
        finally:
            await hub.broker.close()

    assert "call negotiate_job first" in str(asyncio.run(go()))
