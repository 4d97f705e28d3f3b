"""MCP tool annotations: what each tool does to the world, for agents and their hosts.

Hosts use the hints to decide what to run without asking (a read-only tool), what to confirm
(a destructive one) and what is safe to retry (an idempotent one). ``openWorldHint`` marks tools
that reach sites beyond this server.
"""

from __future__ import annotations

from mcp.types import ToolAnnotations

READS_SITES = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=True
)
"""Asks sites, changes nothing there (negotiation, status, description)."""

READS_HERE = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
)
"""Answers from this server's own state."""

STARTS_WORK = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=True
)
"""Submits a job at a site (repeatable safely only with an idempotency key)."""

STOPS_WORK = ToolAnnotations(
    readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=True
)
"""Cancels a job: its work is lost; cancelling twice changes nothing more."""

MEMBERSHIP = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False
)
"""Joins or keeps a worker in this hub's registry."""
