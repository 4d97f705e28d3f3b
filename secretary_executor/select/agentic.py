"""agentic and agentic-cost: selection by a language model reasoning over the proposals.

The model gets the request's requirements and a compact summary of every READY/BUSY proposal
(verdict, reason, partition, free nodes, queue, start estimate; agentic-cost adds the price per
node-hour and the estimated cost) and must call ``choose_site`` with one of the offered names.
The chosen site is ranked first; the others follow in the order of a heuristic (soonest for
agentic, min-cost for agentic-cost) so dispatch still has a failover order.

The ``site`` parameter of ``choose_site`` is an enum of the offered names, so a server that
constrains tool arguments by their schema (llama.cpp's grammar, OpenAI's strict mode) cannot
produce another name; the answer is still checked, because not every server constrains.

Failure semantics: an unusable answer (no ``choose_site`` call, arguments that are not JSON or
do not match the schema, a name that was not offered) is sent back with what was wrong, up to
``retries`` times. With no model configured, an API error (timeouts included: one call may
take ``LLMConfig.timeout_s``), or no usable answer after the retries, :meth:`Agentic.rank`
raises :class:`SelectionError` whose message says which of these happened, and the registry's
fallback chain decides instead. The model never picks a site that was not a candidate.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from pydantic import ValidationError

from endpoint_plugins.agent.backends import ChatBackend, make_backend
from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.agent.errors import AgentBackendError, AgentConfigError
from endpoint_plugins.agent.messages import FunctionSpec, Message, ModelTurn
from endpoint_plugins.agent.prompts import SELECT_COST_HINT, SELECT_SYSTEM
from endpoint_plugins.agent.schema import SitePick, model_schema
from providers.errors import validation_message
from providers.wire import Policy, Proposal, Requirements
from secretary_executor.errors import SelectionError
from secretary_executor.select._common import READY_OR_BUSY, candidates
from secretary_executor.select.base import Selector
from secretary_executor.select.min_cost import MinCost
from secretary_executor.select.soonest import Soonest

NO_MODEL_MESSAGE = (
    "no model configured for agentic selection: set SECRETARY_LLM_BASE_URL/SECRETARY_LLM_MODEL "
    "or, where a command has them, --llm-base-url/--llm-model (see docs/agents.md), or choose "
    "another algorithm, e.g. --algorithm soonest"
)
CHOOSE_SITE = "choose_site"
DEFAULT_RETRIES = 2
"""Unusable answers sent back for another try before the selector gives up."""
BackendFactory = Callable[[LLMConfig], ChatBackend]


def choice_schema(offered: Sequence[str]) -> dict[str, Any]:
    """``SitePick``'s schema with ``site`` limited to the offered names."""
    schema = copy.deepcopy(model_schema(SitePick))
    schema["properties"]["site"]["enum"] = list(dict.fromkeys(offered))
    return schema


def proposal_summary(proposal: Proposal, *, with_prices: bool) -> dict[str, Any]:
    """What the model reads of one proposal: verdict, reason and the metrics that rank."""
    m = proposal.metrics
    row: dict[str, Any] = {
        "site": proposal.site,
        "verdict": proposal.verdict.value,
        "reason": proposal.reason[:400],
        "partition": m.partition,
        "free_nodes": m.free_nodes,
        "total_nodes": m.total_nodes,
        "queue_depth": m.queue_depth,
        "estimated_start_s": m.estimated_start_s,
    }
    if with_prices:
        row["price_per_node_hour_usd"] = m.price_per_node_hour
        row["estimated_cost_usd"] = m.estimated_cost_usd
    return {k: v for k, v in row.items() if v is not None}


class Agentic(Selector):
    """LLM reasoning: weigh the proposals' checks, metrics and the request's intent together.

    Wins on requests whose trade-offs no single number captures ("soon, but not the expensive
    site unless it is idle"). Loses on cost and speed: each decision is a model call (seconds,
    not the microseconds of the heuristics) and it is not reproducible. Without a configured
    model, or when the model fails or names a site that was not offered, it raises
    :class:`SelectionError`, so that :func:`select_with_fallback` moves on to the policy's
    fallback algorithms instead of guessing.

    Args:
        config: the model endpoint; None reads :meth:`LLMConfig.from_env` when ranking.
        backend_factory: makes the back end (tests may pass their own).
        retries: how many unusable answers are sent back for another try.
    """

    name: ClassVar[str] = "agentic"
    summary: ClassVar[str] = "an LLM weighs the proposals (needs a configured model)"
    status: ClassVar[str] = "Varies"
    logic: ClassVar[str] = "LLM Reasoning"
    use_case: ClassVar[str] = "Handles complex requests"
    with_prices: ClassVar[bool] = False

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        backend_factory: BackendFactory = make_backend,
        retries: int = DEFAULT_RETRIES,
    ) -> None:
        if retries < 0:
            raise ValueError(f"retries must be 0 or more (got {retries})")
        self.config = config
        self._factory = backend_factory
        self.retries = retries
        self.last_note = ""
        """The model, answers, tokens and seconds of the last decision (empty before one)."""

    def _order_rest(self, pool: list[Proposal], policy: Policy) -> list[Proposal]:
        return Soonest().rank(pool, None, policy)

    def _config(self) -> LLMConfig:
        if self.config is not None:
            return self.config
        try:
            config = LLMConfig.from_env()
        except AgentConfigError as exc:
            raise SelectionError(f"agentic selection: {exc.message}") from None
        if config is None:
            raise SelectionError(NO_MODEL_MESSAGE)
        return config

    def _prompt(self, pool: list[Proposal], requirements: Requirements | None) -> str:
        wanted: dict[str, Any] = {}
        if requirements is not None:
            wanted = requirements.model_dump(
                mode="json", exclude_defaults=True, exclude={"schema_version", "unparsed"}
            )
        rows = [proposal_summary(p, with_prices=self.with_prices) for p in pool]
        lines = [
            "Requirements: " + json.dumps(wanted, sort_keys=True),
            "Offered sites (choose exactly one of: " + ", ".join(p.site for p in pool) + "):",
            *(json.dumps(r, sort_keys=True) for r in rows),
        ]
        if self.with_prices:
            lines.append(SELECT_COST_HINT)
        return "\n".join(lines)

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """The model's pick first, then the other candidates in heuristic order.

        Returns an empty list (an answer, not a failure) when no proposal is READY or BUSY;
        the model is not asked then.

        Raises:
            SelectionError: no model is configured (the message says how to configure one),
                a model call failed or timed out, or ``retries + 1`` answers in a row were
                unusable (each one's problem is in the message).
        """
        config = self._config()
        pool = candidates(proposals, READY_OR_BUSY)
        if not pool:
            return []
        offered = [p.site for p in pool]
        spec = FunctionSpec(
            name=CHOOSE_SITE,
            description="Choose the site where the job should run.",
            parameters=choice_schema(offered),
        )
        messages = [
            Message(role="system", content=SELECT_SYSTEM),
            Message(role="user", content=self._prompt(pool, requirements)),
        ]
        start = time.perf_counter()
        problems: list[str] = []
        tokens = 0
        try:
            backend = self._factory(config)
        except Exception as exc:  # noqa: BLE001 - any client failure means "could not decide"
            raise SelectionError(f"{self.name}: the model client failed ({exc!r})") from None
        try:
            while True:
                turn = self._ask(backend, messages, spec, problems)
                tokens += turn.usage.total_tokens
                answer = _read_choice(turn, pool)
                if not isinstance(answer, str):
                    chosen, pick = answer
                    break
                problem = answer
                problems.append(problem)
                if len(problems) > self.retries:
                    raise SelectionError(
                        f"{self.name}: no usable choice in {len(problems)} model answer(s): "
                        + "; ".join(problems)
                    )
                messages = [
                    *messages,
                    Message(
                        role="user",
                        content=f"That answer was not usable: {problem}. Call {CHOOSE_SITE} "
                        f"again with exactly one of: {', '.join(offered)}.",
                    ),
                ]
        finally:
            backend.close()
        answers = len(problems) + 1
        self.last_note = (
            f"{config.model}: {answers} answer(s), {tokens} tokens, "
            f"{time.perf_counter() - start:.2f} s; {pick.reason[:200]}"
        )
        rest = [p for p in self._order_rest(pool, policy) if p is not chosen]
        return [chosen, *rest]

    def _ask(
        self,
        backend: ChatBackend,
        messages: list[Message],
        spec: FunctionSpec,
        problems: list[str],
    ) -> ModelTurn:
        """One forced ``choose_site`` call; any failure is a :class:`SelectionError` that also
        names the unusable answers before it."""
        before = f"{'; '.join(problems)}; asking again failed: " if problems else ""
        try:
            return backend.complete(messages, [spec], tool_choice=CHOOSE_SITE)
        except AgentBackendError as exc:
            raise SelectionError(
                f"{self.name}: {before}the model call failed: {exc.message}",
                transient=exc.transient,
            ) from None
        except Exception as exc:  # noqa: BLE001 - any client failure means "could not decide"
            raise SelectionError(
                f"{self.name}: {before}the model client failed ({exc!r})"
            ) from None


def _read_choice(turn: ModelTurn, pool: list[Proposal]) -> tuple[Proposal, SitePick] | str:
    """The offered proposal the answer names, with the answer; or what was wrong with it."""
    call = next((c for c in turn.tool_calls if c.name == CHOOSE_SITE), None)
    if call is None or call.arguments_error:
        why = call.arguments_error if call is not None else f"it did not call {CHOOSE_SITE}"
        return f"the model gave no choice ({why})"
    try:
        pick = SitePick.model_validate(call.arguments)
    except ValidationError as exc:
        return f"the model's choice is invalid ({validation_message(exc)})"
    chosen = next((p for p in pool if p.site == pick.site.strip()), None)
    if chosen is None:
        offered = ", ".join(p.site for p in pool)
        return f"the model chose {pick.site[:80]!r}, which was not offered (offered: {offered})"
    return chosen, pick


class AgenticCost(Agentic):
    """LLM reasoning with prices: the model also sees each site's price and estimated cost.

    Wins when cost and time-to-start must be traded off case by case (the paper's agentic-cost
    preferred cheap standalone nodes and weighed CPU-or-GPU alternatives). Loses like agentic:
    seconds per decision and not reproducible; sites that publish no prices look free to
    neither heuristic nor model, so they are shown without a price.
    """

    name: ClassVar[str] = "agentic-cost"
    summary: ClassVar[str] = "an LLM weighs the proposals and their prices (needs a model)"
    status: ClassVar[str] = "Varies"
    logic: ClassVar[str] = "LLM Reasoning"
    use_case: ClassVar[str] = "Cost-aware complex requests"
    with_prices: ClassVar[bool] = True

    def _order_rest(self, pool: list[Proposal], policy: Policy) -> list[Proposal]:
        return MinCost().rank(pool, None, policy)
