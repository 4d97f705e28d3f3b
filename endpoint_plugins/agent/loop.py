"""The agent negotiator: a language model calls the site's READ tools, then gives a verdict.

One negotiation is one short conversation with a fresh back end (nothing is shared between
requests). The model sees the request, the site's READ tool manifest and a ``final_answer``
function whose parameters are the :class:`AgentVerdict` schema. Each turn it either calls
tools (run through the request's :class:`ToolSession`, which enforces the READ class at call
time and records every call as evidence) or answers.

Failure semantics: :meth:`AgentNegotiator.evaluate` never raises. An API error, a timeout,
an answer still invalid after one repair, or ``max_loops`` calls without a verdict give an
UNKNOWN proposal whose reason says which; a function the session refuses (a dispatch tool, an
invented name) is reported back to the model and named in the proposal.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import ValidationError

from endpoint_plugins.agent.backends import ChatBackend, make_backend
from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.agent.errors import AgentBackendError
from endpoint_plugins.agent.history import History, truncate
from endpoint_plugins.agent.messages import FunctionSpec, Message, ToolCall, ToolChoice, Usage
from endpoint_plugins.agent.prompts import (
    CALL_A_FUNCTION,
    FINAL_ANSWER,
    LOOK_FIRST,
    NEGOTIATION_SYSTEM,
    negotiation_request,
)
from endpoint_plugins.agent.schema import AgentVerdict, inline_refs, model_schema
from endpoint_plugins.agent.verdicts import (
    RequirementItem,
    build_checks,
    metrics_from_evidence,
    provider_categories,
    reconcile,
    redact_partitions,
    requirement_items,
)
from endpoint_plugins.negotiation.base import NegotiationContext, Negotiator
from providers.errors import validation_message
from providers.session import ToolSession
from providers.wire.proposal import Evidence, ModelUsage, Proposal, Verdict
from providers.wire.requirements import Requirements

log = logging.getLogger(__name__)

BackendFactory = Callable[[LLMConfig], ChatBackend]


def final_answer_spec() -> FunctionSpec:
    """The ``final_answer`` function: its parameters are the :class:`AgentVerdict` schema."""
    return FunctionSpec(
        name=FINAL_ANSWER,
        description="Give the verdict for this site, with one check per requirement. "
        "Call it once, after looking at the site with its tools.",
        parameters=model_schema(AgentVerdict),
    )


@dataclass
class AgentRun:
    """What one negotiation did: the outcome, and the cost of reaching it."""

    verdict: AgentVerdict | None = None
    failure: str = ""
    """Why there is no verdict (empty when there is one)."""
    calls: int = 0
    usage: Usage = field(default_factory=Usage)
    observations: int = 0
    refused: list[str] = field(default_factory=list)
    repairs: int = 0

    def model_usage(self, model: str, elapsed_s: float) -> ModelUsage:
        """The cost as data, for the proposal's ``usage`` (what an auditor totals)."""
        return ModelUsage(
            model=model,
            model_calls=self.calls,
            prompt_tokens=self.usage.prompt_tokens,
            completion_tokens=self.usage.completion_tokens,
            seconds=round(elapsed_s, 6),
        )

    def note(self, elapsed_s: float) -> str:
        """The cost, for the proposal's reason: model calls, tokens and seconds.

        Kept beside :meth:`model_usage` because a person reading a proposal (``secretary
        negotiate`` output, a ledger row) sees the reason, not the structured field.
        """
        return (
            f"[agent: {self.calls} model call{'s' if self.calls != 1 else ''}, "
            f"{self.usage.prompt_tokens} prompt + {self.usage.completion_tokens} completion "
            f"tokens, {elapsed_s:.2f} s]"
        )


def _parse_verdict(raw: dict[str, Any] | str) -> tuple[AgentVerdict | None, str]:
    """A validated verdict, or None and the validation error to send back to the model."""
    try:
        if isinstance(raw, str):
            return AgentVerdict.model_validate_json(raw.strip()), ""
        return AgentVerdict.model_validate(raw), ""
    except ValidationError as exc:
        return None, validation_message(exc)


class AgentNegotiator(Negotiator):
    """Negotiation by a language model calling the site's READ tools.

    Wins when a request has parts the rules cannot judge (prose constraints, trade-offs) and
    the model can reason over the tool answers. Loses on speed and cost (seconds and tokens per
    site, against the rules' milliseconds) and reproducibility; its verdict is therefore never
    more optimistic than its own checks, and every check carries the session's evidence.

    Args:
        config: the model endpoint and limits.
        backend_factory: makes a fresh back end per request (tests may pass their own).
        forced_tools: function names to force on the first turns, in order (``"final_answer"``
            included), for models too small to choose; later turns use ``auto``.
    """

    name: ClassVar[str] = "agent"

    def __init__(
        self,
        config: LLMConfig,
        *,
        backend_factory: BackendFactory = make_backend,
        forced_tools: Sequence[str] = (),
    ) -> None:
        self.config = config
        self._factory = backend_factory
        self.forced_tools = tuple(forced_tools)

    def __repr__(self) -> str:
        return f"AgentNegotiator(backend={self.config.backend!r}, model={self.config.model!r})"

    def evaluate(
        self, requirements: Requirements, session: ToolSession, context: NegotiationContext
    ) -> Proposal:
        """Judge ``requirements`` at the site behind ``session`` (see the module docstring).

        Postcondition: one check per requirement in request order with evidence attached,
        ``strategy == "agent"``; ``usage`` holds the model calls, tokens and seconds used (None
        only when the request named nothing to judge and no model was asked), and the reason
        ends with the same figures for a person.
        """
        start = time.perf_counter()
        if requirements.is_empty():
            missing = tuple(requirements.missing())
            return Proposal(
                request_id=context.request_id,
                site=context.site,
                verdict=Verdict.NEEDS_INFORMATION,
                reason="The request names nothing this site can check; it must say "
                + " ".join(missing)
                + ".",
                missing=missing,
                strategy=self.name,
                elapsed_s=round(time.perf_counter() - start, 6),
            )
        items = requirement_items(requirements)
        run = AgentRun()
        try:
            backend = self._factory(self.config)
        except Exception as exc:  # noqa: BLE001 - a bad client setup is an UNKNOWN, not a crash
            run.failure = f"the model client could not be created ({type(exc).__name__})"
        else:
            try:
                self._converse(
                    backend, requirements, [i.label for i in items], session, context, run
                )
            except AgentBackendError as exc:
                run.failure = f"the model API failed: {exc.message}"
            except Exception as exc:  # the hub must get a proposal, not a traceback
                log.exception("agent negotiation at %s failed", context.site)
                run.failure = f"the agent failed unexpectedly ({type(exc).__name__})"
            finally:
                backend.close()
        elapsed = time.perf_counter() - start
        return self._proposal(requirements, items, session, context, run, elapsed)

    # -- the conversation ----------------------------------------------------------------

    def _choice(self, turn: int) -> ToolChoice:
        return self.forced_tools[turn] if turn < len(self.forced_tools) else "auto"

    def _converse(
        self,
        backend: ChatBackend,
        requirements: Requirements,
        labels: list[str],
        session: ToolSession,
        context: NegotiationContext,
        run: AgentRun,
    ) -> None:
        manifest = session.manifest()
        offered = {m.name for m in manifest}
        specs = [
            FunctionSpec(
                name=m.name, description=m.description, parameters=inline_refs(m.parameters)
            )
            for m in manifest
        ]
        specs.append(final_answer_spec())
        history = History(
            [
                Message(role="system", content=NEGOTIATION_SYSTEM),
                Message(role="user", content=negotiation_request(requirements, labels, context)),
            ],
            self.config.history_budget_chars,
        )
        for turn_no in range(self.config.max_loops):
            turn = backend.complete(history.window(), specs, tool_choice=self._choice(turn_no))
            run.calls += 1
            run.usage = run.usage + turn.usage
            history.append(turn.as_message())
            if not turn.tool_calls:
                if self._text_answer(turn.text, history, run):
                    return
                if run.failure:
                    return
                continue
            for call in turn.tool_calls:
                if call.name == FINAL_ANSWER:
                    if self._final(call, history, run):
                        return
                    if run.failure:
                        return
                    continue
                history.append(self._tool_result(call, offered, session, context, run))
                if run.failure:
                    return
        run.failure = (
            f"no verdict after {self.config.max_loops} model calls (the loop limit); "
            f"{run.observations} tool call(s) succeeded"
        )

    @staticmethod
    def _may_repair(problem: str, run: AgentRun) -> bool:
        """Count an invalid output: the first may be repaired, the second ends the run."""
        if run.repairs >= 1:
            run.failure = f"the model's answer was still invalid after one repair: {problem}"
            return False
        run.repairs += 1
        return True

    def _text_answer(self, text: str, history: History, run: AgentRun) -> bool:
        """A plain-text turn: accept a valid JSON verdict (some servers answer so), else nudge."""
        stripped = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
        if not stripped.strip().startswith("{"):
            history.append(Message(role="user", content=CALL_A_FUNCTION))
            return False
        verdict, problem = _parse_verdict(stripped)
        if verdict is None:
            if self._may_repair(problem, run):
                message = f"Your answer is not a valid verdict ({problem}). {CALL_A_FUNCTION}"
                history.append(Message(role="user", content=message))
            return False
        if run.observations == 0:
            history.append(Message(role="user", content=LOOK_FIRST))
            return False
        run.verdict = verdict
        return True

    def _final(self, call: ToolCall, history: History, run: AgentRun) -> bool:
        """A ``final_answer`` call: validate it, insist on an observation first."""
        raw: dict[str, Any] | None = None if call.arguments_error else call.arguments
        verdict, problem = (
            (None, call.arguments_error or "") if raw is None else _parse_verdict(raw)
        )
        if verdict is None:
            if self._may_repair(problem, run):
                reply = self._tool_message(
                    call,
                    f"error: invalid final answer: {problem}. Fix it and call final_answer again.",
                )
                history.append(reply)
            return False
        if run.observations == 0:
            history.append(self._tool_message(call, f"error: {LOOK_FIRST}"))
            return False
        run.verdict = verdict
        return True

    def _tool_result(
        self,
        call: ToolCall,
        offered: set[str],
        session: ToolSession,
        context: NegotiationContext,
        run: AgentRun,
    ) -> Message:
        """Run one tool call through the session and phrase its result for the model."""
        if call.arguments_error:
            self._may_repair(call.arguments_error, run)
            return self._tool_message(call, f"error: {call.arguments_error}")
        evidence = session.call_qualified(call.name, call.arguments)
        if evidence.error is not None and call.name not in offered:
            run.refused.append(call.name)
            log.info("site %s refused the agent's call to %s", context.site, call.name)
            return self._tool_message(
                call,
                f"refused: {evidence.error}. Only the site's read-only tools listed to you "
                "may be called during negotiation.",
            )
        if evidence.error is not None:
            return self._tool_message(call, f"error: {evidence.error}")
        run.observations += 1
        shown = redact_partitions(evidence, context.exposed_partitions)
        text = json.dumps(shown.result, default=str, sort_keys=True)
        return self._tool_message(call, truncate(text, self.config.tool_output_budget_chars))

    @staticmethod
    def _tool_message(call: ToolCall, content: str) -> Message:
        return Message(role="tool", content=content, tool_call_id=call.id, name=call.name)

    # -- the proposal ----------------------------------------------------------------------

    def _proposal(
        self,
        requirements: Requirements,
        items: list[RequirementItem],
        session: ToolSession,
        context: NegotiationContext,
        run: AgentRun,
        elapsed: float,
    ) -> Proposal:
        evidence: list[Evidence] = [
            redact_partitions(e, context.exposed_partitions) for e in session.evidence
        ]
        categories = provider_categories(session)
        if run.verdict is None:
            fallback = f"not judged: {run.failure}"
        else:
            fallback = "the agent gave no check for this requirement"
        checks = build_checks(items, run.verdict, evidence, categories, fallback_detail=fallback)
        notes: list[str] = []
        if run.verdict is None:
            verdict = Verdict.UNKNOWN
            reason = f"The agent could not decide: {run.failure}."
        else:
            verdict, conflict = reconcile(Verdict(run.verdict.verdict), checks)
            reason = " ".join(run.verdict.reason.split())  # one line, whatever the model wrote
            if conflict:
                notes.append(conflict)
        if run.refused:
            notes.append(
                "Refused tool call(s) outside the READ class or not offered: "
                + ", ".join(sorted(set(run.refused)))
                + "."
            )
        notes.append(run.note(elapsed))
        log.info(
            "agent negotiation at %s: %s after %d call(s), %d tokens, %.2f s",
            context.site,
            verdict.value,
            run.calls,
            run.usage.total_tokens,
            elapsed,
        )
        return Proposal(
            request_id=context.request_id,
            site=context.site,
            verdict=verdict,
            reason=" ".join([reason, *notes]),
            checks=tuple(checks),
            metrics=metrics_from_evidence(requirements, evidence, context),
            strategy=self.name,
            elapsed_s=round(elapsed, 6),
            usage=run.model_usage(self.config.model, elapsed),
        )
