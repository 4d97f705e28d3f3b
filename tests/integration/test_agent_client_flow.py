"""The hub driven the way an agent framework drives an MCP server.

A framework lists the tools, trusts their JSON Schemas to build and check its calls, and reads
the structured results against each tool's output schema. Here the official ``mcp`` client does
exactly that over streamable HTTP with bearer auth, against a real ``secretary serve hub`` and a
real ``secretary serve worker`` serving this machine, so the dispatched job really runs and its
printed output is read back. Every schema is checked with a JSON Schema 2020-12 validator,
every argument is validated before it is sent, and every structured result after it arrives.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx2
import jsonschema
import pytest
from federation_harness import Federation, start_hub, wait_for
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

MARK = "agent-flow-output-7f3a"


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Federation]:
    folder = tmp_path_factory.mktemp("agent-flow")
    (folder / "here.yaml").write_text(
        "name: here\nkind: local\nproviders: {enabled: [local, cpu, memory]}\n"
    )
    fed = start_hub(folder, "heartbeat_s: 1\nsite_timeout_s: 20\njob_poll_s: 0.2\n")
    procs = fed.procs
    try:
        fed.start_worker("w-here", str(folder / "here.yaml"))
        wait_for(lambda: "here" in fed.sites(), "the worker to register", timeout_s=90)
        yield fed
    finally:
        procs.stop_all()


class SchemaCheckedClient:
    """Calls a tool only with arguments its input schema accepts, and checks each structured
    result against the tool's output schema, as a framework that generates calls would."""

    def __init__(self, client: Client, tools: dict[str, Any]) -> None:
        self.client = client
        self.tools = tools

    async def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        tool = self.tools[name]
        jsonschema.Draft202012Validator(tool.input_schema).validate(args)
        result = await self.client.call_tool(name, args)
        assert not result.is_error, f"{name}: {result.content[0].text}"
        assert result.content and result.content[0].text.strip(), f"{name}: no text summary"
        if tool.output_schema is not None:
            jsonschema.Draft202012Validator(tool.output_schema).validate(result.structured_content)
        return result.structured_content


def test_list_validate_negotiate_select_dispatch_and_read_output(fed: Federation) -> None:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        headers = {"Authorization": f"Bearer {fed.token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(fed.url, http_client=http)) as c,
        ):
            tools = {t.name: t for t in (await c.list_tools()).tools}
            out["tools"] = tools
            for tool in tools.values():
                jsonschema.Draft202012Validator.check_schema(tool.input_schema)
                if tool.output_schema is not None:
                    jsonschema.Draft202012Validator.check_schema(tool.output_schema)
            agent = SchemaCheckedClient(c, tools)
            negotiated = await agent.call(
                "negotiate_job", {"text": "1 core for 5 minutes", "detail": "checks"}
            )
            out["negotiated"] = negotiated
            rid = negotiated["request_id"]
            out["selected"] = await agent.call(
                "select_proposal", {"request_id": rid, "algorithm": "soonest"}
            )
            receipt = await agent.call(
                "dispatch_job",
                {
                    "request_id": rid,
                    "site": out["selected"]["chosen"]["site"],
                    "command": ["python3", "-c", f"print({MARK!r})"],
                },
            )
            job = receipt["job_id"]
            async with asyncio.timeout(60):
                while True:
                    status = await agent.call("job_status", {"job_id": job})
                    if status["status"]["state"] in ("COMPLETED", "FAILED", "CANCELLED"):
                        break
                    await asyncio.sleep(0.2)
            out["status"] = status
            out["output"] = await agent.call("job_output", {"job_id": job, "max_bytes": 4096})
            # A framework probing its own mistakes: a call its schema refuses never leaves it,
            # and the server refuses the same call the same way.
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.Draft202012Validator(tools["negotiate_job"].input_schema).validate(
                    {"text": "1 core", "detail": "everything"}
                )
            with pytest.raises(MCPError) as refused:
                await c.call_tool("negotiate_job", {"text": "1 core", "detail": "everything"})
            out["bad"] = refused.value
        return out

    out = asyncio.run(go())
    assert {"negotiate_job", "select_proposal", "dispatch_job", "job_status", "job_output"} <= set(
        out["tools"]
    )
    for tool in out["tools"].values():
        assert tool.description, f"{tool.name} has no description"
    proposals = {p["site"]: p for p in out["negotiated"]["proposals"]}
    assert proposals["here"]["verdict"] == "READY"
    assert out["selected"]["chosen"]["site"] == "here"
    assert out["status"]["status"]["state"] == "COMPLETED", out["status"]
    assert MARK in out["output"]["stdout"]
    assert out["bad"].error.code == INVALID_PARAMS and "everything" in str(out["bad"])
