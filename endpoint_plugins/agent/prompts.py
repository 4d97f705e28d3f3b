"""The words the models read: system prompts, the request as the agent sees it, and nudges.

Kept in one module so they can be read, reviewed and quoted (docs/agents.md) in one place.
"""

from __future__ import annotations

import json

from endpoint_plugins.negotiation.base import NegotiationContext
from providers.wire.requirements import Requirements

FINAL_ANSWER = "final_answer"
"""The function the negotiation agent calls to give its verdict."""

NEGOTIATION_SYSTEM = """\
You are the secretary of one computing site. A user asks whether their job can run here.
Decide from facts only: call the site's tools to look up installed software, partitions and
free nodes, hardware, storage, network, containers and MPI. The tools are read-only; you
cannot submit, cancel or change anything, and calling any other function is refused.

Rules:
- Look before you judge: call at least one tool before you answer.
- Judge every listed requirement, using its exact text as the requirement name.
- satisfied: met now. wait: can be met once busy nodes free up. unsatisfied: can never be met
  here. unknown: the tools could not tell.
- Verdict: INCOMPATIBLE if any requirement is unsatisfied; else UNKNOWN if any is unknown;
  else BUSY if any must wait; else READY.
- When you are done, call final_answer once with the verdict, a one-sentence reason and one
  check per requirement. Do not answer in plain text."""

LOOK_FIRST = (
    "You gave a verdict without looking at the site. Call at least one of the site's tools "
    "first, then call final_answer."
)
CALL_A_FUNCTION = (
    "Answer by calling a function: one of the site's tools to look something up, or "
    "final_answer with your verdict. Plain text is not read."
)

PARSE_SYSTEM = """\
You turn a request for computing resources, written in plain words, into a JSON object that
matches the given schema exactly. Include only what the request says: leave out every field
it does not mention. Software names are lower case (e.g. "lammps"); versions are kept as
written ("2Aug2023", "3.11"). Counts are per node unless the request says "in total".
Walltime is in seconds; memory in GB per node; budget in US dollars. Put any requirement the
schema cannot hold (a CPU architecture, a licence, an operating system) in "unresolved", word
for word: a requirement may never be left out."""

SELECT_SYSTEM = """\
You choose the computing site where a job should run. You get the job's requirements and each
site's proposal: its verdict (READY: can start now; BUSY: would queue), reason and metrics.
Only sites with verdict READY or BUSY may be chosen. Answer with the JSON object of the
schema: the exact name of one offered site and a one-sentence reason."""

SELECT_COST_HINT = (
    "Cost matters: weigh each site's estimated cost and price per node-hour against how soon "
    "the job would start, and prefer the cheaper site unless it would wait much longer."
)


def requirement_lines(labels: list[str]) -> str:
    """The requirements as a numbered list the agent must answer item by item."""
    return "\n".join(f"{i}. {label}" for i, label in enumerate(labels, 1))


def negotiation_request(
    requirements: Requirements, labels: list[str], context: NegotiationContext
) -> str:
    """The user message of a negotiation: the site, the requirements and their structure."""
    structured = requirements.model_dump(
        mode="json", exclude_defaults=True, exclude={"schema_version", "source_text"}
    )
    parts = [
        f"Site: {context.site}",
        f"Request: {requirements.source_text.strip()}" if requirements.source_text.strip() else "",
        "Requirements to judge (use these exact names in your checks):",
        requirement_lines(labels),
        "The same requirements as structured data:",
        json.dumps(structured, sort_keys=True),
    ]
    if requirements.unresolved:
        parts.append(
            "Phrases of the request no parser could read are listed as 'unread' requirements: "
            "mark one satisfied only if a tool result shows it, else unknown."
        )
    return "\n".join(p for p in parts if p)
