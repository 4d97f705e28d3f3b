"""Simulated fleets and the paper's negotiation and selection experiments, audited.

Modules, in the order data flows: :mod:`.seeding` (SHA-256 streams), :mod:`.archetypes`
(Table 2), :mod:`.latent` (scale/density targets), :mod:`.generator` (worker -> state file),
:mod:`.catalogue` (fleet-wide values), :mod:`.intent` (what a prompt means) and :mod:`.prompts`
(intent -> requirement -> text), :mod:`.auditor` (independent ground truth: intent against the
raw state) and :mod:`.truth` (the paper's auditor rules, "faithful"), :mod:`.negotiate` (the
real code paths), :mod:`.audit` (figures and baselines), :mod:`.disagreement` (parse, decision
and end-to-end accuracy), :mod:`.regression` (Figure 5), :mod:`.report` / :mod:`.plots`
(files), :mod:`.selection` (placement as the fleet fills) with :mod:`.selection_figures`,
:mod:`.selection_plots` and :mod:`.selection_report` (Figures 7-9), :mod:`.experiments` (both
experiments end to end). See docs/simulation.md.
"""

from secretary_executor.simulation.generator import Worker, generate_fleet, generate_worker
from secretary_executor.simulation.negotiate import NegotiationSettings, run_negotiation
from secretary_executor.simulation.prompts import Prompt, generate_prompts
from secretary_executor.simulation.truth import Truth, evaluate

__all__ = [
    "NegotiationSettings",
    "Prompt",
    "Truth",
    "Worker",
    "evaluate",
    "generate_fleet",
    "generate_prompts",
    "generate_worker",
    "run_negotiation",
]
