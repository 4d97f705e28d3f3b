"""A ceiling on what one automatic dispatch may cost, so a typo cannot spend a fortune.

"1000 nodes" instead of "10 nodes" is one keystroke; a broker that dispatches the cheapest site
for it without a word spends the difference. Every door that dispatches on its own (the CLI's
``negotiate -- CMD``, ``dispatch``, the hub's ``dispatch_job``) checks the chosen proposal's
estimated cost against a ceiling: ``--max-cost`` / ``max_cost_usd``, else
``$SECRETARY_MAX_COST_USD``, else :data:`DEFAULT_MAX_COST_USD`. A site that gives no estimate
passes (there is nothing to compare).
"""

from __future__ import annotations

import math
import os

from providers.wire import Proposal
from secretary_executor.errors import ConfigurationError

DEFAULT_MAX_COST_USD = 100.0
"""The ceiling when nobody set one: far above a test job, far below a runaway one."""
ENV = "SECRETARY_MAX_COST_USD"


def max_cost_usd(given: float | None = None) -> float:
    """The ceiling in force: ``given``, else the environment's, else the default.

    Raises:
        ConfigurationError: a ceiling that is not a non-negative number.
    """
    if given is None:
        raw = os.environ.get(ENV)
        if raw is None:
            return DEFAULT_MAX_COST_USD
        try:
            given = float(raw)
        except ValueError:
            raise ConfigurationError(f"{ENV}={raw!r} is not a number of US dollars") from None
    if math.isnan(given) or given < 0:
        raise ConfigurationError(f"the cost ceiling must be a number >= 0, not {given}")
    return given


def over_ceiling(proposal: Proposal, ceiling: float) -> str | None:
    """Why dispatching ``proposal`` needs a person's yes (None: within the ceiling)."""
    cost = proposal.metrics.estimated_cost_usd
    if cost is None or cost <= ceiling:
        return None
    return (
        f"{proposal.site} estimates ${cost:,.2f} for this job, above the ceiling of "
        f"${ceiling:,.2f}; raise it (--max-cost / max_cost_usd / ${ENV}) if that is intended"
    )
