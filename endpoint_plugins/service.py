"""The JSON face of a Secretary: one operation in, one envelope out.

Every transport (in-process, MCP, Globus Compute) carries the same documents: a payload that
validates as the operation's request model, and an envelope that is either
``{"ok": true, "result": {...}}`` or ``{"ok": false, "error": {"type", "message",
"transient"}}``. Errors therefore cross process boundaries as data and keep their
``transient`` flag, which drives failover at the hub. Nothing in a payload is ever executed as
code: payloads are validated by pydantic and names go through the providers' checks.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import Any

from pydantic import Field, ValidationError

from endpoint_plugins.errors import SiteError
from endpoint_plugins.secretary import DispatchPlan, Secretary
from providers.errors import ProviderError, validation_message
from providers.wire import JobRequest, Requirements
from providers.wire.common import WireModel
from providers.wire.jobs import MAX_OUTPUT_BYTES

log = logging.getLogger(__name__)


class Operation(StrEnum):
    """What a hub can ask a site."""

    NEGOTIATE = "negotiate"
    DISPATCH = "dispatch"
    STATUS = "status"
    CANCEL = "cancel"
    DESCRIBE = "describe"
    OUTPUT = "output"


class NegotiatePayload(WireModel):
    request_id: str = ""
    requirements: Requirements


class DispatchPayload(WireModel):
    request: JobRequest
    plan: DispatchPlan = DispatchPlan()


class JobPayload(WireModel):
    native_id: str
    provider: str | None = None


class OutputPayload(WireModel):
    native_id: str
    provider: str | None = None
    max_bytes: int = Field(default=65536, ge=1, le=MAX_OUTPUT_BYTES)


class DescribePayload(WireModel):
    pass


PAYLOADS: dict[Operation, type[WireModel]] = {
    Operation.NEGOTIATE: NegotiatePayload,
    Operation.DISPATCH: DispatchPayload,
    Operation.STATUS: JobPayload,
    Operation.CANCEL: JobPayload,
    Operation.DESCRIBE: DescribePayload,
    Operation.OUTPUT: OutputPayload,
}


def error_envelope(kind: str, message: str, *, transient: bool = False) -> dict[str, Any]:
    return {"ok": False, "error": {"type": kind, "message": message, "transient": transient}}


def handle(secretary: Secretary, operation: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Run one operation against a Secretary and wrap the outcome in an envelope.

    Postcondition: always returns an envelope; never raises for bad input or a site failure.
    """
    try:
        op = Operation(operation)
    except ValueError:
        allowed = ", ".join(o.value for o in Operation)
        return error_envelope(
            "BadRequest", f"unknown operation {operation!r}; use one of {allowed}"
        )
    try:
        parsed = PAYLOADS[op].model_validate(payload)
    except ValidationError as exc:
        return error_envelope("BadRequest", f"{op.value}: {validation_message(exc)}")
    try:
        result = _run(secretary, op, parsed)
    except (SiteError, ProviderError) as exc:
        return error_envelope(type(exc).__name__, exc.message, transient=exc.transient)
    except ValidationError as exc:
        # A value this site cannot accept (a partition name, an environment variable name) is
        # wrong everywhere: failing over would only repeat the refusal at every other site.
        return error_envelope("BadRequest", f"{op.value}: {validation_message(exc)}")
    except Exception as exc:
        log.exception("site %s failed on %s", secretary.name, op.value)
        return error_envelope("InternalError", f"{type(exc).__name__}: {exc}", transient=True)
    return {"ok": True, "result": result.model_dump(mode="json")}


def _run(secretary: Secretary, op: Operation, payload: Any) -> WireModel:
    if op is Operation.NEGOTIATE:
        return secretary.negotiate(payload.requirements, request_id=payload.request_id)
    if op is Operation.DISPATCH:
        return secretary.dispatch(payload.request, payload.plan)
    if op is Operation.STATUS:
        return secretary.status(payload.native_id, provider=payload.provider)
    if op is Operation.CANCEL:
        return secretary.cancel(payload.native_id, provider=payload.provider)
    if op is Operation.OUTPUT:
        return secretary.output(
            payload.native_id, provider=payload.provider, max_bytes=payload.max_bytes
        )
    return secretary.describe()
