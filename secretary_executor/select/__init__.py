"""Selection algorithms: choose one proposal among many.

Each algorithm of the paper's Table 1 is one small :class:`Selector`; :func:`get_selector`
finds one by name and :func:`select_with_fallback` runs a policy's algorithm with its fallbacks.
An ordering algorithm reads the fields it ranks by straight from the proposals; a
:class:`ProposalSet` reads them once into plain rows, for proposals ranked more than once.
"""

from secretary_executor.select.agentic import Agentic
from secretary_executor.select.base import Selector
from secretary_executor.select.first_ready import FirstReady
from secretary_executor.select.min_cost import MinCost
from secretary_executor.select.proposal_set import ProposalSet
from secretary_executor.select.queue_depth import QueueDepth
from secretary_executor.select.random_ready import RandomReady
from secretary_executor.select.registry import (
    SELECTORS,
    SelectionOutcome,
    SelectorInfo,
    get_selector,
    list_selectors,
    select_with_fallback,
)
from secretary_executor.select.run_anytime import RunAnytime
from secretary_executor.select.soonest import Soonest

__all__ = [
    "SELECTORS",
    "Agentic",
    "FirstReady",
    "MinCost",
    "ProposalSet",
    "QueueDepth",
    "RandomReady",
    "RunAnytime",
    "SelectionOutcome",
    "Selector",
    "SelectorInfo",
    "Soonest",
    "get_selector",
    "list_selectors",
    "select_with_fallback",
]
