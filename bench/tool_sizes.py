"""Bytes an agent receives from the hub's large tools, at each level of ``detail``.

A hub serves the six simulated sites of the demo fleet (``local`` is left out: its manifest
depends on the machine), in process, through the official MCP client. For ``negotiate_job``
(six sites), ``select_proposal`` (``min-cost`` over that negotiation) and ``describe_site``
(each of the six sites, summed) it prints the size of the structured content (compact JSON)
and of the text block at each level, and, as "before", the full result as these tools
returned it until they took ``detail``: the structured content plus the same data again as
indented JSON text, read back from the ``requests://`` and ``sites://`` resources, which
still hold it.

    .venv/bin/python bench/tool_sizes.py
    .venv/bin/python bench/tool_sizes.py --text "16 cores for 2 hours with lammps"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from typing import Any

from mcp import Client

from secretary_executor.hub.config import HubConfig
from secretary_executor.hub.server import Hub
from secretary_executor.hub.views import DETAIL_LEVELS

SITES = ["cloud-gpu", "cloud-k8s", "edge-jetson", "hpc-campus", "hpc-frontier-like", "hpc-legacy"]


def _sizes(result: Any) -> tuple[int, int]:
    structured = len(json.dumps(result.structured_content, separators=(",", ":")))
    return structured, sum(len(block.text) for block in result.content)


def _before(text: str) -> tuple[int, int]:
    data = json.loads(text)
    return len(json.dumps(data, separators=(",", ":"))), len(text)


async def measure(request: str) -> list[tuple[str, str, int, int]]:
    """Rows of (tool, level, structured bytes, text bytes); describe_site rows are totals
    over the six sites."""
    hub = Hub(HubConfig.model_validate({"fleet": "demo", "ledger": ":memory:"}))
    rows: list[tuple[str, str, int, int]] = []
    try:
        async with Client(hub.mcp) as c:
            rid = ""
            for level in DETAIL_LEVELS:
                args = {"text": request, "sites": SITES, "detail": level}
                r = await c.call_tool("negotiate_job", args)
                rid = r.structured_content["request_id"]
                rows.append(("negotiate_job", level, *_sizes(r)))
            full = await c.read_resource(f"requests://{rid}")
            rows.insert(0, ("negotiate_job", "before", *_before(full.contents[0].text)))
            selection: list[tuple[str, str, int, int]] = []
            for level in DETAIL_LEVELS:
                args = {"request_id": rid, "algorithm": "min-cost", "detail": level}
                r = await c.call_tool("select_proposal", args)
                selection.append(("select_proposal", level, *_sizes(r)))
            # The selection has no resource: before, it was the evidence level without the
            # level's name, sent twice (structured, and as indented JSON text).
            whole = {k: v for k, v in r.structured_content.items() if k != "detail"}
            rows.append(("select_proposal", "before", *_before(json.dumps(whole, indent=2))))
            rows += selection
            totals: dict[str, list[int]] = {}
            for site in SITES:
                full = await c.read_resource(f"sites://{site}")
                before = _before(full.contents[0].text)
                totals.setdefault("before", [0, 0])
                totals["before"] = [a + b for a, b in zip(totals["before"], before, strict=True)]
                for level in DETAIL_LEVELS:
                    r = await c.call_tool("describe_site", {"name": site, "detail": level})
                    got = _sizes(r)
                    totals.setdefault(level, [0, 0])
                    totals[level] = [a + b for a, b in zip(totals[level], got, strict=True)]
            rows += [("describe_site x6", k, v[0], v[1]) for k, v in totals.items()]
    finally:
        await hub.broker.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", default="16 cores for 2 hours with lammps")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    rows = asyncio.run(measure(args.text))
    print("| tool | detail | structured (bytes) | text (bytes) |")
    print("|---|---|---:|---:|")
    for tool, level, structured, text in rows:
        print(f"| {tool} | {level} | {structured:,} | {text:,} |")


if __name__ == "__main__":
    main()
