"""agentic: selection by an LLM reasoning over the proposals (needs a model)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from providers.wire import Policy, Proposal, Requirements
from secretary_executor.errors import SelectionError
from secretary_executor.select.base import Selector

NO_MODEL_MESSAGE = (
    "no model configured for agentic selection: set SECRETARY_LLM_BASE_URL/SECRETARY_LLM_MODEL "
    "(see docs/agents.md) or choose another algorithm, e.g. --algorithm soonest"
)


class Agentic(Selector):
    """LLM reasoning: weigh the proposals' checks, metrics and the request's intent together.

    Wins on requests whose trade-offs no single number captures ("soon, but not the expensive
    site unless it is idle"). Loses on cost and speed: each decision is a model call (seconds,
    not the microseconds of the heuristics) and it is not reproducible. Until an LLM back end
    is configured it raises :class:`SelectionError`, so that :func:`select_with_fallback`
    moves on to the policy's fallback algorithms instead of guessing.
    """

    name: ClassVar[str] = "agentic"
    summary: ClassVar[str] = "an LLM weighs the proposals (needs a configured model)"
    status: ClassVar[str] = "Varies"
    logic: ClassVar[str] = "LLM Reasoning"
    use_case: ClassVar[str] = "Handles complex requests"

    def rank(
        self,
        proposals: Sequence[Proposal],
        requirements: Requirements | None,
        policy: Policy,
    ) -> list[Proposal]:
        """Always raises until a model back end exists.

        Raises:
            SelectionError: no model is configured; the message says how to configure one or
                which algorithm to use instead.
        """
        raise SelectionError(NO_MODEL_MESSAGE)
