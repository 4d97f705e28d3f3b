"""The hybrid strategy: a language model reads the request once, the rules judge it.

Free text is where a model helps most and risks least: it turns prose the deterministic parser
cannot read ("a couple of GPU nodes, nothing older than last year's LAMMPS") into the same
validated :class:`Requirements` the rules negotiator already judges. The verdict stays
deterministic and fully explained by evidence.

Failure semantics: :func:`parse_with_llm` never raises. An API error, a reply with no answer,
invalid JSON or a schema violation make it return the deterministic
:func:`parse_requirements` result, and the note says so and why.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import ValidationError

from endpoint_plugins.agent.backends import ChatBackend, make_backend
from endpoint_plugins.agent.config import LLMConfig
from endpoint_plugins.agent.errors import AgentBackendError
from endpoint_plugins.agent.messages import FunctionSpec, Message, ModelTurn
from endpoint_plugins.agent.prompts import PARSE_SYSTEM
from endpoint_plugins.agent.schema import model_schema
from endpoint_plugins.negotiation.base import NegotiationContext, Negotiator
from endpoint_plugins.negotiation.rules import RulesNegotiator
from endpoint_plugins.parsing import lexicon, parse_requirements, split_command
from endpoint_plugins.parsing.scanner import lookup
from providers.errors import validation_message
from providers.session import ToolSession
from providers.wire.proposal import ModelUsage, Proposal
from providers.wire.requirements import Requirements, SoftwareRequirement
from providers.wire.strict import UnknownFieldError, validate_user_input

BackendFactory = Callable[[LLMConfig], ChatBackend]
ParseMode = Literal["tool", "json"]

SUBMIT_REQUIREMENTS = "submit_requirements"
"""The function the model is forced to call in ``tool`` mode."""
_NOT_FOR_THE_MODEL = ("schema_version", "source_text", "unparsed", "requested_at")


def requirements_schema() -> dict[str, Any]:
    """The :class:`Requirements` schema the model fills: self-contained, without the fields
    the parser itself sets (``schema_version``, ``source_text``, ``unparsed``,
    ``requested_at``). ``unresolved`` stays: the model says there what it cannot express."""
    schema = model_schema(Requirements)
    props = {k: v for k, v in schema.get("properties", {}).items() if k not in _NOT_FOR_THE_MODEL}
    return {**schema, "properties": props}


def _answer(turn: ModelTurn, mode: ParseMode) -> dict[str, Any] | str:
    if mode == "tool":
        for call in turn.tool_calls:
            if call.name == SUBMIT_REQUIREMENTS:
                if call.arguments_error:
                    return call.arguments_error
                return call.arguments
        return "the model did not call submit_requirements"
    text = turn.text.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    try:
        value = json.loads(text, strict=False)  # raw newlines in strings: small models
    except json.JSONDecodeError as exc:
        return f"the answer is not JSON ({exc.msg})"
    return value if isinstance(value, dict) else "the answer is not a JSON object"


def parse_with_llm(
    text: str,
    config: LLMConfig,
    *,
    mode: ParseMode = "tool",
    backend_factory: BackendFactory = make_backend,
    now: datetime | None = None,
) -> tuple[Requirements, str]:
    """Requirements read from ``text`` by the model, or by the deterministic parser.

    Args:
        text: the request in plain words; a command in backticks is cut out first.
        config: the model endpoint.
        mode: ``tool`` forces a ``submit_requirements`` call whose parameters are the schema;
            ``json`` asks for a JSON answer of the schema (structured output).
        backend_factory: makes the back end (tests may pass their own).
        now: the clock for the deterministic fallback's relative deadlines.

    Returns:
        The requirements (``source_text`` is the request) and a one-line note saying who
        parsed them, with the model's tokens and seconds, or why the fallback was used.
    """
    parsed, note, _ = read_with_llm(
        text, config, mode=mode, backend_factory=backend_factory, now=now
    )
    return parsed, note


def read_with_llm(
    text: str,
    config: LLMConfig,
    *,
    mode: ParseMode = "tool",
    backend_factory: BackendFactory = make_backend,
    now: datetime | None = None,
) -> tuple[Requirements, str, ModelUsage | None]:
    """:func:`parse_with_llm`, plus what the model cost as data.

    The usage is kept apart from the note so that :class:`HybridNegotiator` can put it in the
    proposal's ``usage`` field, where an auditor can total it. It is None when the model was
    not asked (nothing but a command to read); otherwise it is set even when the model failed
    and the deterministic parser was used, since the attempt still cost time (and tokens,
    when a reply came back).
    """
    remaining, _ = split_command(text)
    if not remaining.strip():
        return (
            parse_requirements(text, now=now),
            "nothing to read: deterministic parser used",
            None,
        )
    start = time.perf_counter()
    schema = requirements_schema()
    messages = [
        Message(role="system", content=PARSE_SYSTEM),
        Message(role="user", content=remaining),
    ]
    problem = ""
    turn: ModelTurn | None = None
    try:
        backend = backend_factory(config)
        try:
            if mode == "tool":
                spec = FunctionSpec(
                    name=SUBMIT_REQUIREMENTS,
                    description="Submit the requirements read from the request.",
                    parameters=schema,
                )
                turn = backend.complete(messages, [spec], tool_choice=SUBMIT_REQUIREMENTS)
            else:
                turn = backend.complete(messages, response_schema=schema)
        finally:
            backend.close()
    except AgentBackendError as exc:
        problem = exc.message
    except Exception as exc:  # noqa: BLE001 - parsing must always give requirements
        problem = f"the model client failed ({type(exc).__name__})"
    else:
        assert turn is not None  # the try body sets it whenever it does not raise
        answer = _answer(turn, mode)
        if isinstance(answer, str):
            problem = answer
        else:
            fields = {k: v for k, v in answer.items() if k not in _NOT_FOR_THE_MODEL}
            try:
                parsed = validate_user_input(Requirements, {**fields, "source_text": text[:20_000]})
            except UnknownFieldError as exc:
                problem = f"the answer does not match the schema: {exc}"
            except ValidationError as exc:
                problem = f"the answer does not match the schema: {validation_message(exc)}"
            else:
                elapsed = time.perf_counter() - start
                return (
                    hold_to_the_fail_safe_rule(parsed, parse_requirements(text, now=now)),
                    f"parsed by {config.backend} model {config.model!r} "
                    f"({turn.usage.prompt_tokens} prompt + {turn.usage.completion_tokens} "
                    f"completion tokens, {elapsed:.2f} s)",
                    _usage(config, turn, elapsed),
                )
    return (
        parse_requirements(text, now=now),
        f"the model could not parse the request ({problem}); deterministic parser used",
        _usage(config, turn, time.perf_counter() - start),
    )


def hold_to_the_fail_safe_rule(model: Requirements, rules: Requirements) -> Requirements:
    """The model's reading, with nothing the deterministic parser found left out.

    The same rule binds both parsers: nothing requirement-like may be silently unread. So a
    phrase the deterministic parser could not read stays unresolved unless the model's answer
    accounts for it (one of its words appears in the model's requirements, or in the model's
    own ``unresolved``), and a package the deterministic parser read is kept even when the
    model dropped it. A model can add requirements and resolve phrases; it cannot make one
    disappear.
    """
    said = model.model_dump_json(exclude={"source_text", "unparsed", "requested_at"}).lower()
    named = {s.name.lower() for s in model.software} | {
        o.name.lower() for c in model.alternatives for o in c.any_of
    }
    dropped = [s for s in rules.software if s.name.lower() not in named]
    # A catalogued or versioned package was read for certain: keep it. A bare unknown name
    # was the parser's guess: it stays a phrase to account for, like any unread one.
    missing = [s for s in dropped if _certain(s)]
    phrases = [*rules.unresolved, *(s.name for s in dropped if not _certain(s))]
    kept = [p for p in phrases if not any(w in said for w in _words(p))]
    update: dict[str, Any] = {
        "unresolved": tuple(dict.fromkeys([*model.unresolved, *kept])),
        "unparsed": rules.unparsed,
        "requested_at": rules.requested_at,
    }
    if missing:
        update["software"] = (*model.software, *missing)
    return Requirements.model_validate({**model.model_dump(), **update})


def _certain(software: SoftwareRequirement) -> bool:
    """Read for certain: a catalogued name, or one written with a version or a variant."""
    return bool(
        software.constraints or software.variants or lookup(lexicon.SOFTWARE, software.name)
    )


def _words(phrase: str) -> list[str]:
    """The words of a phrase that could name something (three letters or more)."""
    return [w for w in re.findall(r"[a-z][\w.+-]{2,}", phrase.lower())]


def _usage(config: LLMConfig, turn: ModelTurn | None, elapsed_s: float) -> ModelUsage:
    """One re-read's cost: one call when a reply came back (``turn``), none when it failed."""
    tokens = turn.usage if turn is not None else None
    return ModelUsage(
        model=config.model,
        model_calls=0 if turn is None else 1,
        prompt_tokens=tokens.prompt_tokens if tokens is not None else 0,
        completion_tokens=tokens.completion_tokens if tokens is not None else 0,
        seconds=round(elapsed_s, 6),
    )


class HybridNegotiator(Negotiator):
    """The rules negotiator over requirements that a model re-read from the request text.

    Wins when a request is prose the deterministic parser only partly understands: the model
    reads it once, the verdict stays rule-based and reproducible from the evidence. Loses a
    model call (seconds) per request it re-reads; so by default it re-reads only requests that
    left phrases in ``unresolved`` and judges the rest exactly as ``rules`` does. The model's
    reading is held to the fail-safe rule (:func:`hold_to_the_fail_safe_rule`).

    Args:
        config: the model endpoint.
        always: re-read every request that has text, not only partly understood ones.
        mode: how the model answers (see :func:`parse_with_llm`).
        backend_factory: makes the back end (tests may pass their own).
    """

    name: ClassVar[str] = "hybrid"

    def __init__(
        self,
        config: LLMConfig,
        *,
        always: bool = False,
        mode: ParseMode = "tool",
        backend_factory: BackendFactory = make_backend,
    ) -> None:
        self.config = config
        self.always = always
        self.mode: ParseMode = mode
        self._factory = backend_factory
        self._rules = RulesNegotiator()

    def evaluate(
        self, requirements: Requirements, session: ToolSession, context: NegotiationContext
    ) -> Proposal:
        """Re-read the request when needed, then judge with the rules.

        Postcondition: the rules negotiator's contract, with ``strategy == "hybrid"``;
        ``elapsed_s`` covers the re-read and the rules. When the model was asked, ``usage``
        holds its cost and its note is appended to the reason; otherwise ``usage`` is None.
        Never raises.
        """
        start = time.perf_counter()
        note = ""
        usage: ModelUsage | None = None
        text = requirements.source_text
        if text.strip() and (self.always or requirements.unresolved):
            requirements, note, usage = read_with_llm(
                text, self.config, mode=self.mode, backend_factory=self._factory
            )
        proposal = self._rules.evaluate(requirements, session, context)
        reason = f"{proposal.reason} [requirements {note}]" if note else proposal.reason
        update = {
            "strategy": self.name,
            "reason": reason,
            "usage": usage,
            "elapsed_s": round(time.perf_counter() - start, 6),
        }
        return proposal.model_copy(update=update)
