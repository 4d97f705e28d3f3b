"""A site's answer to a request: a verdict, one check per requirement with evidence, metrics."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

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

    def failing_checks(self) -> list[Check]:
        """Checks that make the site INCOMPATIBLE."""
        return [c for c in self.checks if c.status is CheckStatus.UNSATISFIED]
