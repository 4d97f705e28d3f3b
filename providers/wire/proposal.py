"""A site's answer to a request: a verdict, one check per requirement with evidence, metrics."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from providers.wire.common import SCHEMA_VERSION, Category, WireModel


class Verdict(StrEnum):
    """A site's verdict on a request.

    READY: every requirement is met and free capacity exists now: the job would start at once.
    BUSY: every requirement can be met, but the capacity is taken: the job would wait in a queue.
    INCOMPATIBLE: at least one requirement can never be met here (named in the checks).
    NEEDS_INFORMATION: the request names nothing a site can check; ``missing`` says what to add.
    UNREACHABLE: the site did not answer in time, or answered with an error (set by the hub).
    UNKNOWN: the site answered but could not decide (e.g. an agent that ran out of loops).
    """

    READY = "READY"
    BUSY = "BUSY"
    INCOMPATIBLE = "INCOMPATIBLE"
    NEEDS_INFORMATION = "NEEDS_INFORMATION"
    UNREACHABLE = "UNREACHABLE"
    UNKNOWN = "UNKNOWN"

    @property
    def compatible(self) -> bool:
        """True for verdicts that mean the job can run at the site (now or later)."""
        return self in (Verdict.READY, Verdict.BUSY)


class CheckStatus(StrEnum):
    """Outcome of one requirement at one site."""

    SATISFIED = "satisfied"
    """Met now."""
    WAIT = "wait"
    """Can be met, but not now (capacity in use)."""
    UNSATISFIED = "unsatisfied"
    """Can never be met here."""
    UNKNOWN = "unknown"
    """The site could not tell (a tool failed, or no provider covers it)."""


class Evidence(WireModel):
    """One provider tool call made while judging a requirement, and what it returned."""

    provider: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    error: str | None = None
    elapsed_s: float = 0.0


class Check(WireModel):
    """The judgement of one requirement, with the tool calls that support it."""

    requirement: str
    category: Category
    status: CheckStatus
    detail: str = ""
    evidence: tuple[Evidence, ...] = ()


class Metrics(WireModel):
    """Numbers that selection algorithms rank by. ``None`` means the site could not say."""

    partition: str | None = None
    provider: str | None = None
    """The workload provider that owns ``partition`` (where a dispatch should go)."""
    total_nodes: int | None = None
    free_nodes: int | None = None
    queue_depth: int | None = None
    estimated_start_s: float | None = None
    price_per_node_hour: float | None = None
    estimated_cost_usd: float | None = None


class ModelUsage(WireModel):
    """What a language model cost to reach a proposal: calls, tokens and seconds.

    Structured rather than only prose in ``reason`` so that an auditor can total and compare
    the cost of model-backed strategies per case (an UNKNOWN that burned 10 calls is a
    different failure from one that failed at once). It names the model but never the endpoint
    or the key: a base URL may carry credentials, and a proposal travels to other parties.
    """

    model: str = Field(default="", max_length=200)
    """The model name as configured (e.g. ``gpt-4o-mini``)."""
    model_calls: int = Field(default=0, ge=0)
    """API calls that returned a reply (a call that failed or timed out is not counted)."""
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    seconds: float = Field(default=0.0, ge=0)
    """Wall time of the model-driven part: the whole conversation for ``agent`` (its tool
    calls included), the re-reading of the request for ``hybrid``."""

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


def _now() -> datetime:
    return datetime.now(UTC)


RANK_KEYS: tuple[str, str, str] = ("_rank_soonest", "_rank_min_cost", "_rank_queue_depth")
"""Where a proposal keeps its sort keys for the soonest, min-cost and queue-depth selectors
(``secretary_executor.select``): entries of the model's ``__dict__`` that are not fields, so
they are never serialised, never in the schema and never compared (pydantic dumps, hashes and,
when two ``__dict__`` differ, compares fields only)."""

_SOONEST, _MIN_COST, _QUEUE_DEPTH = RANK_KEYS

SITE_PREFIX_BYTES = 32
"""How much of the site name (UTF-8) a rank key holds; longer names that agree this far tie."""

_NAME_BYTES = SITE_PREFIX_BYTES
_NAME_BITS = 8 * _NAME_BYTES
_UNKNOWN = 1 << 64
_ONE = 1 << 65
_FLIP = _UNKNOWN - 1
_SIGN = 1 << 63
_pack_double = struct.Struct(">d").pack
_from_bytes = int.from_bytes


def _column(value: float | None) -> int:
    """A metric as a 65-bit int that orders as ``low_first`` does: known values by size (the
    IEEE 754 bits made unsigned and monotone; -0.0 as 0.0), then every unknown one (None or
    NaN) equal, after a known ``inf``."""
    if value is None or value != value:  # None, or NaN (validated ints are never NaN)
        return _UNKNOWN
    bits = _from_bytes(_pack_double(float(value) or 0.0))
    return bits ^ _FLIP if bits >= _SIGN else bits | _SIGN


def _rank_keys(proposal: Proposal) -> tuple[int | None, int | None, int | None] | None:
    """The keys of :data:`RANK_KEYS`, each one int that orders as the selector's ``sort_key``
    (its fields packed side by side, then the first :data:`SITE_PREFIX_BYTES` of the site name),
    except that two keys may be equal where ``sort_key`` tells the proposals apart by the rest
    of a long site name; None each for a verdict other than READY or BUSY; None when a value is
    not of its field's type (a ``model_construct`` with raw values)."""
    fields = proposal.__dict__
    verdict = fields["verdict"]
    if verdict is not Verdict.READY and verdict is not Verdict.BUSY:
        return (None, None, None) if type(verdict) is Verdict else None
    metrics = fields["metrics"]
    site = fields["site"]
    if type(metrics) is not Metrics or type(site) is not str:
        return None
    m = metrics.__dict__
    start = _column(m["estimated_start_s"])
    queue = _column(m["queue_depth"])
    free = m["free_nodes"]
    fewer = _UNKNOWN if free is None else _column(-float(free))  # more free nodes first
    name = _from_bytes(
        site.encode("utf-8", "surrogatepass")[:_NAME_BYTES].ljust(_NAME_BYTES, b"\0")
    )
    busy = 1 if verdict is Verdict.BUSY else 0
    # Each column is 65 bits wide; the leading 1 keeps every key true (the others keep None).
    return (
        (((2 | busy) << 65 | start) << 65 | queue) << _NAME_BITS | name,
        (((_ONE | _column(m["estimated_cost_usd"])) << 1 | busy) << 65 | start) << _NAME_BITS
        | name,
        (((_ONE | queue) << 65 | fewer) << 1 | busy) << _NAME_BITS | name,
    )


def _remember_rank_keys(proposal: Proposal) -> None:
    """Store (or, when they cannot be computed, drop) the proposal's :data:`RANK_KEYS`."""
    fields = proposal.__dict__
    try:
        keys = _rank_keys(proposal)
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError):
        keys = None
    if keys is None:
        for name in RANK_KEYS:
            fields.pop(name, None)
    else:
        fields[_SOONEST], fields[_MIN_COST], fields[_QUEUE_DEPTH] = keys


class Proposal(WireModel):
    """A site's answer to one request."""

    schema_version: int = SCHEMA_VERSION
    request_id: str = ""
    site: str
    verdict: Verdict
    reason: str = ""
    checks: tuple[Check, ...] = ()
    metrics: Metrics = Metrics()
    missing: tuple[str, ...] = ()
    strategy: str = "rules"
    elapsed_s: float = 0.0
    created_at: datetime = Field(default_factory=_now)
    usage: ModelUsage | None = None
    """The model's cost when a model was consulted (``agent``, ``hybrid``); None for ``rules``
    and whenever no model was asked. Peers older than this field ignore it."""

    # Sort keys for the ordering selectors, computed once when the proposal is built (validated,
    # constructed, unpickled or copied with changes), so that a decision reads one ready tuple
    # per proposal instead of its fields. Frozen fields cannot change after that.
    def model_post_init(self, context: Any, /) -> None:
        _remember_rank_keys(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        if update:  # the copied keys belong to the old values
            _remember_rank_keys(copied)
        return copied

    def __getstate__(self) -> dict[Any, Any]:
        # Not sent: a peer of another release computes its own (the layout may differ).
        state = super().__getstate__()
        fields = state["__dict__"]
        if any(name in fields for name in RANK_KEYS):
            state["__dict__"] = {k: v for k, v in fields.items() if k not in RANK_KEYS}
        return state

    def __setstate__(self, state: dict[Any, Any]) -> None:
        super().__setstate__(state)
        _remember_rank_keys(self)

    def failing_checks(self) -> list[Check]:
        """Checks that make the site INCOMPATIBLE."""
        return [c for c in self.checks if c.status is CheckStatus.UNSATISFIED]
