"""The hub's MCP facade in process (``mcp.Client(server)``): tools, resources, prompts.

In process the SDK skips HTTP auth, so this hub runs with auth off (loopback, no tokens) over
the built-in demo fleet; bearer checks are covered by tests/integration/test_federation.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from mcp import Client

from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.server import Hub


def quota(site: str) -> str:
    """An extension tool loaded from the config's allow-listed modules."""
    return f"{site}: 1000 node-hours left"


def _hub() -> Hub:
    return Hub(
        HubConfig.model_validate(
            {
                "fleet": "demo",
                "ledger": ":memory:",
                "extensions": {"allowed_modules": [__name__], "tools": [f"{__name__}:quota"]},
            }
        )
    )


def test_negotiate_select_and_catalogue() -> None:
    async def go() -> dict[str, Any]:
        hub = _hub()
        out: dict[str, Any] = {}
        async with Client(hub.mcp) as c:
            tools = {t.name for t in (await c.list_tools()).tools}
            out["tools"] = tools
            r = await c.call_tool("negotiate_job", {"text": "4 cores for 1 hour"})
            out["negotiation"] = r.structured_content
            rid = r.structured_content["request_id"]
            r = await c.call_tool("select_proposal", {"request_id": rid, "algorithm": "min-cost"})
            out["selection"] = r.structured_content
            r = await c.call_tool("select_proposal", {"request_id": "nope"})
            out["unknown"] = (r.is_error, r.content[0].text)
            r = await c.call_tool("list_selection_algorithms", {})
            out["algorithms"] = [a["name"] for a in r.structured_content["algorithms"]]
            r = await c.call_tool(
                "register_worker", {"name": "w", "url": "http://x/mcp", "sites": ["a"]}
            )
            out["register"] = (r.is_error, r.content[0].text)
            r = await c.call_tool("quota", {"site": "here"})
            out["quota"] = r.content[0].text
            res = await c.read_resource("fleet://status")
            out["fleet"] = json.loads(res.contents[0].text)
            res = await c.read_resource("sites://hpc-campus")
            out["manifest"] = json.loads(res.contents[0].text)
            p = await c.get_prompt("request_template", {"kind": "mpi", "nodes": "4"})
            out["prompt"] = p.messages[0].content.text
        await hub.broker.close()
        return out

    out = asyncio.run(go())
    assert {
        "negotiate_job",
        "select_proposal",
        "dispatch_job",
        "job_status",
        "cancel_job",
        "list_sites",
        "describe_site",
        "list_selection_algorithms",
        "quota",
    } <= out["tools"]
    assert not {"register_worker", "heartbeat"} & out["tools"]  # workers' tools, not an agent's
    sites = [p["site"] for p in out["negotiation"]["proposals"]]
    assert "local" in sites and "hpc-campus" in sites
    assert out["selection"]["algorithm"] == "min-cost" and out["selection"]["chosen"]
    assert out["unknown"][0] and "call negotiate_job first" in out["unknown"][1]
    assert "soonest" in out["algorithms"]
    assert out["register"][0] and "accepts no workers" in out["register"][1]
    assert "1000 node-hours" in out["quota"]
    assert {s["name"] for s in out["fleet"]["sites"]} >= {"local", "hpc-campus"}
    assert out["manifest"]["name"] == "hpc-campus"
    assert "4 nodes" in out["prompt"]


def test_negotiate_job_refuses_unknown_requirement_fields() -> None:
    """An agent's misspelt field ("version" for "constraints") is an error that names the
    valid fields, never a silently dropped constraint and a READY site."""

    async def go() -> tuple[bool, str]:
        hub = _hub()
        async with Client(hub.mcp) as c:
            bad = {"software": [{"name": "python", "version": ">=99"}]}
            r = await c.call_tool("negotiate_job", {"requirements": bad})
        await hub.broker.close()
        return r.is_error, r.content[0].text

    is_error, text = asyncio.run(go())
    assert is_error
    assert "software[0].version" in text and "constraints, name, variants" in text


def test_dispatch_after_a_hub_restart_and_retries_with_a_key_give_one_job(tmp_path) -> None:
    """A negotiation made before the hub restarted can still be dispatched (it is read back from
    the ledger), and an agent that repeats ``dispatch_job`` with its idempotency key gets the
    first job back, never a second one."""
    ledger = str(tmp_path / "ledger.sqlite3")

    def hub() -> Hub:
        return Hub(HubConfig.model_validate({"fleet": "demo", "ledger": ledger}))

    async def go() -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], int]:
        first = hub()
        async with Client(first.mcp) as c:
            r = await c.call_tool(
                "negotiate_job", {"text": "1 core for 10 minutes", "command": ["true"]}
            )
            rid = r.structured_content["request_id"]
        await first.broker.close()
        first.broker.ledger.close()

        again = hub()  # a new hub process: nothing in memory
        receipts, errors = [], []
        async with Client(again.mcp) as c:
            for _ in range(3):
                r = await c.call_tool(
                    "dispatch_job", {"request_id": rid, "idempotency_key": "agent-try-0001"}
                )
                (errors if r.is_error else receipts).append(
                    {"text": r.content[0].text} if r.is_error else r.structured_content
                )
            r = await c.call_tool("dispatch_job", {"request_id": rid, "idempotency_key": "bad key"})
            errors.append({"text": r.content[0].text})
        jobs = len(again.broker.ledger.jobs())
        await again.broker.close()
        return rid, receipts, errors, jobs

    rid, receipts, errors, jobs = asyncio.run(go())
    assert len(receipts) == 3 and len({r["job_id"] for r in receipts}) == 1
    assert receipts[0]["request_id"] == rid
    assert jobs == 1
    assert len(errors) == 1 and "bad dispatch key" in errors[0]["text"]


def test_every_tool_says_what_it_does_to_the_world_and_the_server_its_version() -> None:
    """Hosts decide from the annotations what to run unasked, what to confirm and what to
    retry; the server names its version in the initialize reply."""

    async def go() -> tuple[Any, Any]:
        hub = _hub()
        async with Client(hub.mcp) as c:
            tools = (await c.list_tools()).tools
            info = c.server_info
        await hub.broker.close()
        return tools, info

    tools, info = asyncio.run(go())
    by_name = {t.name: t.annotations for t in tools if t.name != "quota"}
    assert by_name and all(a is not None for a in by_name.values())
    for name in ("negotiate_job", "job_status", "list_sites", "describe_site", "select_proposal"):
        assert by_name[name].read_only_hint is True and by_name[name].destructive_hint is False
    assert by_name["dispatch_job"].read_only_hint is False
    assert by_name["cancel_job"].destructive_hint is True
    assert by_name["negotiate_job"].open_world_hint is True
    assert by_name["list_sites"].open_world_hint is False
    from secretary_executor import __version__

    assert info is not None and info.version == __version__ and __version__ != "0+unknown"


def test_tool_schemas_are_typed_valid_and_described() -> None:
    """Every tool's input schema is a valid JSON Schema (2020-12, as an agent framework checks
    it), and ``negotiate_job`` shows the shape of ``requirements`` and ``policy`` with a
    description for each parameter, so an agent needs no CLI to learn them."""
    import jsonschema

    async def go() -> list[Any]:
        hub = _hub()
        async with Client(hub.mcp) as c:
            tools = (await c.list_tools()).tools
        await hub.broker.close()
        return tools

    tools = asyncio.run(go())
    for tool in tools:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    by_name = {t.name: t.input_schema for t in tools}
    for name in ("negotiate_job", "select_proposal", "dispatch_job", "job_status", "cancel_job"):
        props = by_name[name]["properties"]
        assert all(p.get("description") for p in props.values()), name
    negotiate = by_name["negotiate_job"]
    params = negotiate["properties"]
    requirements = params["requirements"]["anyOf"][0]
    assert {"compute", "software"} <= set(requirements["properties"])
    assert "algorithm" in params["policy"]["anyOf"][0]["properties"]
    validator = jsonschema.Draft202012Validator(negotiate)
    assert not list(validator.iter_errors({"requirements": {"compute": {"cores_per_node": 4}}}))
    assert list(validator.iter_errors({"requirements": {"compute": {"cores_per_node": "four"}}}))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ({"kind": "quantum"}, "unknown kind 'quantum'"),
        ({"nodes": "many"}, "nodes must be a positive number"),
        ({"hours": "-2"}, "hours must be a positive number"),
        ({"cores": "0"}, "cores must be a positive number"),
    ],
)
def test_bad_prompt_arguments_are_invalid_params_not_internal_errors(args, says) -> None:
    from mcp.shared.exceptions import MCPError
    from mcp.types import INVALID_PARAMS

    async def go() -> MCPError:
        hub = _hub()
        try:
            async with Client(hub.mcp) as c:
                try:
                    await c.get_prompt("request_template", args)
                except MCPError as exc:
                    return exc
                raise AssertionError("the prompt accepted a bad argument")
        finally:
            await hub.broker.close()

    error = asyncio.run(go())
    assert error.error.code == INVALID_PARAMS and says in error.error.message


def test_an_unknown_job_hint_names_tools_not_commands() -> None:
    """An agent cannot run the CLI: the hint for a wrong job id speaks of the tool that gives
    job ids."""

    async def go() -> list[Any]:
        hub = _hub()
        async with Client(hub.mcp) as c:
            replies = [
                await c.call_tool(t, {"job_id": "nope"})
                for t in ("job_status", "cancel_job", "job_output")
            ]
        await hub.broker.close()
        return replies

    for reply in asyncio.run(go()):
        text = reply.content[0].text
        assert reply.is_error and "dispatch_job" in text and "resource-ask" not in text
