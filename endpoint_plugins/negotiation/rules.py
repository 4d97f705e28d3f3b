"""The rules negotiator: a deterministic verdict from provider tools, the default strategy.

Each requirement becomes exactly one check, judged only through the site's provider tools on
the request's READ-only session, so every check carries the evidence of the calls behind it.
Checks appear in the order of the request: each software item, each group of alternatives,
compute, network, each storage item, container, MPI, budget, then one check per unresolved
phrase. The verdict then follows from the checks alone:

* nothing checkable in the request -> NEEDS_INFORMATION (no tool is called);
* any check UNSATISFIED -> INCOMPATIBLE (the job can never run here);
* else any check UNKNOWN -> UNKNOWN (the site could not tell; never a guessed READY);
* else any check WAIT -> BUSY (it can run, after a wait);
* else READY (it can start now).

The fail-safe rule: nothing requirement-like in a request is silently unread. A phrase the parser
could not turn into a requirement (``Requirements.unresolved``: "needs AVX-512", "a Gaussian
licence") becomes an UNKNOWN check that quotes it, so the site can never answer READY or BUSY on
a requirement it did not judge; an unknown package name is a software requirement like any
other and fails where it is not installed.

Compute is always checked, even when the request names no resources, because READY versus BUSY
is a statement about free capacity. The software requirements are checked whatever the
container requirement says (the prototype skipped them when a container was named).
"""

from __future__ import annotations

import time
from typing import ClassVar

from endpoint_plugins.negotiation.base import NegotiationContext, Negotiator
from endpoint_plugins.negotiation.calls import plural
from endpoint_plugins.negotiation.capacity import (
    CapacityResult,
    Plan,
    assess_capacity,
    format_duration,
)
from endpoint_plugins.negotiation.checks import (
    check_alternatives,
    check_container,
    check_mpi,
    check_network,
    check_software,
    check_storage,
)
from providers.session import ToolSession
from providers.wire.common import Category
from providers.wire.proposal import Check, CheckStatus, Metrics, Proposal, Verdict
from providers.wire.requirements import Requirements


def budget_label(budget_usd: float) -> str:
    """The budget requirement as it appears in a check: ``budget: <= $100.00``."""
    return f"budget: <= ${budget_usd:,.2f}"


def check_budget(budget_usd: float, capacity: CapacityResult) -> Check:
    """Does the chosen partition's estimated cost fit the budget?

    The cost comes from the compute check's plan, so this check carries that check's evidence.
    An unknown cost (no fitting partition, or no price for the node type) is UNKNOWN: a site
    that cannot price the job cannot promise to stay within budget, nor rule it out.
    """
    label = budget_label(budget_usd)
    evidence = capacity.check.evidence
    plan = capacity.plan
    if plan is None:
        status, detail = CheckStatus.UNKNOWN, "no partition fits the job, so it has no cost here"
    elif plan.estimated_cost_usd is None:
        node = "GPU" if plan.fit.uses_gpu else "CPU"
        status, detail = CheckStatus.UNKNOWN, f"the site sets no price for {node} nodes"
    else:
        cost = plan.estimated_cost_usd
        how = (
            f"{plural(plan.fit.nodes, 'node')} x {plan.hours:.4g} h x "
            f"${plan.price_per_node_hour or 0:,.2f}/node-hour on partition "
            f"{plan.partition.name!r} = ${cost:,.2f}"
        )
        if cost <= budget_usd:
            status, detail = CheckStatus.SATISFIED, how
        else:
            status, detail = CheckStatus.UNSATISFIED, f"{how}, over the ${budget_usd:,.2f} budget"
    return Check(
        requirement=label,
        category=Category.WORKLOAD,
        status=status,
        detail=detail,
        evidence=evidence,
    )


UNRESOLVED_PREFIX = "unread: "
"""Label prefix of the check made for a phrase the parser could not read."""

_HARDWARE_HINTS = (
    "cpu",
    "arch",
    "avx",
    "sse",
    "neon",
    "sve",
    "arm",
    "aarch64",
    "x86",
    "fpga",
    "tpu",
    "ipu",
    "disk",
    "ssd",
    "nvme",
    "socket",
    "numa",
    "bios",
    "kernel",
    "os",
    "linux",
    "windows",
)


def check_unresolved(phrase: str) -> Check:
    """A phrase that reads like a requirement but could not be parsed: UNKNOWN, quoted.

    No tool is asked, since nothing says which fact would decide it. The check keeps the site
    from answering READY or BUSY on a requirement nobody judged; the detail tells the user how
    to get a firm answer.
    """
    words = set(phrase.lower().replace("-", " ").split())
    category = Category.HARDWARE if words & set(_HARDWARE_HINTS) else Category.SOFTWARE
    return Check(
        requirement=f"{UNRESOLVED_PREFIX}{phrase!r}",
        category=category,
        status=CheckStatus.UNKNOWN,
        detail=(
            f"the request says {phrase!r}, which could not be read as a requirement, so this "
            "site cannot confirm it; rephrase it (e.g. as a package name with a version) or "
            "remove it"
        ),
    )


def decide(checks: list[Check], plan: Plan | None) -> tuple[Verdict, str]:
    """The verdict and its one-sentence reason, from the checks alone."""
    failing = [c for c in checks if c.status is CheckStatus.UNSATISFIED]
    if failing:
        why = "; ".join(f"{c.requirement} is not met ({c.detail})" for c in failing)
        return Verdict.INCOMPATIBLE, f"The job cannot run here: {why}."
    unknown = [c for c in checks if c.status is CheckStatus.UNKNOWN]
    if unknown:
        why = "; ".join(f"{c.requirement} ({c.detail})" for c in unknown)
        return Verdict.UNKNOWN, f"The site could not decide: {why}."
    if any(c.status is CheckStatus.WAIT for c in checks) and plan is not None:
        part = plan.partition
        return Verdict.BUSY, (
            f"Every requirement can be met, but partition {part.name!r} has {part.free_nodes} "
            f"free of the {plural(plan.fit.nodes, 'node')} needed, so the job would wait about "
            f"{format_duration(plan.estimated_start_s)}."
        )
    if plan is None:  # pragma: no cover - compute is always checked and WAIT/SATISFIED has a plan
        return Verdict.UNKNOWN, "The site could not decide: no partition was chosen."
    part = plan.partition
    return Verdict.READY, (
        f"Every requirement is met and partition {part.name!r} has "
        f"{plural(part.free_nodes, 'free node')} for the {plural(plan.fit.nodes, 'node')} "
        "needed, so the job can start now."
    )


class RulesNegotiator(Negotiator):
    """Deterministic negotiation: fixed rules over provider tool answers.

    Wins when the request is structured and the providers report exact facts: it is fast
    (no model calls), reproducible, and every verdict is explained check by check. Loses when a
    requirement falls outside the rules (a constraint only prose can express), where an agent
    strategy can reason further; such phrases (``Requirements.unresolved``) make the verdict
    UNKNOWN here, never READY.
    """

    name: ClassVar[str] = "rules"

    def evaluate(
        self, requirements: Requirements, session: ToolSession, context: NegotiationContext
    ) -> Proposal:
        """Judge ``requirements`` at the site behind ``session``.

        Postcondition: one check per requirement in request order, each with the evidence of
        its tool calls; ``site``/``request_id`` from ``context``; ``strategy == "rules"``.
        Never raises for a site problem: a failing tool makes its check UNKNOWN.
        """
        start = time.perf_counter()
        if requirements.is_empty():
            missing = tuple(requirements.missing())
            return Proposal(
                request_id=context.request_id,
                site=context.site,
                verdict=Verdict.NEEDS_INFORMATION,
                reason=(
                    "The request names nothing this site can check; it must say "
                    + " ".join(missing)
                    + "."
                ),
                missing=missing,
                strategy=self.name,
                elapsed_s=round(time.perf_counter() - start, 6),
            )

        checks: list[Check] = [check_software(sw, session) for sw in requirements.software]
        checks.extend(check_alternatives(c, session) for c in requirements.alternatives)
        capacity = assess_capacity(
            requirements.compute, session, context, budget=requirements.budget_usd
        )
        checks.append(capacity.check)
        if requirements.network is not None:
            checks.append(check_network(requirements.network, session))
        checks.extend(check_storage(st, session) for st in requirements.storage)
        if requirements.container is not None:
            checks.append(check_container(requirements.container, session))
        if requirements.mpi is not None:
            checks.append(check_mpi(requirements.mpi, session))
        if requirements.budget_usd is not None:
            checks.append(check_budget(requirements.budget_usd, capacity))
        checks.extend(check_unresolved(phrase) for phrase in requirements.unresolved)

        verdict, reason = decide(checks, capacity.plan)
        return Proposal(
            request_id=context.request_id,
            site=context.site,
            verdict=verdict,
            reason=reason,
            checks=tuple(checks),
            metrics=capacity.plan.metrics() if capacity.plan is not None else Metrics(),
            strategy=self.name,
            elapsed_s=round(time.perf_counter() - start, 6),
        )
